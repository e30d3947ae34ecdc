# Declarations for the compiled build of starter_kernel.py (emucore.compiled): every state,
# table word and mask a 64-bit machine word (unsigned arithmetic wraps, as the lanes' does),
# the tables and the block's scratch arrays typed memoryviews.

cimport cython

cdef unsigned char COPY_LIMIT

@cython.locals(lanes=Py_ssize_t, low32=cython.ulonglong, matches=Py_ssize_t,
               base=Py_ssize_t, n=Py_ssize_t, j=Py_ssize_t, g=Py_ssize_t,
               xs="unsigned long long[::1]", starts="unsigned long long[::1]",
               ids="long long[::1]", picks="unsigned char[:, ::1]",
               counts="unsigned char[::1]", ok="unsigned char[::1]",
               four="unsigned char[::1]", run="unsigned char[::1]")
cpdef Py_ssize_t search(unsigned long long u, Py_ssize_t count,
                        const unsigned long long[:, ::1] words, const long long[::1] drawn,
                        const unsigned long long[:, ::1] inc,
                        const unsigned long long[::1] bias,
                        const unsigned long long[::1] top, const long long[:, ::1] wanted,
                        const long long[:, ::1] need, Py_ssize_t groups,
                        tuple scratch, long long[::1] found)

@cython.locals(p=Py_ssize_t, j=Py_ssize_t, x=cython.ulonglong, w=cython.ulonglong)
cdef void draw(unsigned long long[::1] xs, unsigned long long[::1] starts,
               unsigned char[:, ::1] picks, const unsigned long long[:, ::1] words,
               Py_ssize_t g, Py_ssize_t drawn, Py_ssize_t n) noexcept

@cython.locals(j=Py_ssize_t, k=Py_ssize_t, p=Py_ssize_t, slot=cython.uchar)
cdef void holds(unsigned char[:, ::1] picks, const long long[:, ::1] wanted,
                const long long[:, ::1] need, Py_ssize_t g, Py_ssize_t drawn, Py_ssize_t n,
                unsigned char[::1] ok, unsigned char[::1] run) noexcept

@cython.locals(j=Py_ssize_t, p=Py_ssize_t, q=Py_ssize_t)
cdef void fourth_copies(unsigned char[:, ::1] picks, Py_ssize_t drawn, Py_ssize_t n,
                        unsigned char[::1] four, unsigned char[::1] run) noexcept

@cython.locals(m=Py_ssize_t, j=Py_ssize_t, x=cython.ulonglong, held=cython.ulonglong,
               good=cython.uchar)
cdef Py_ssize_t keep(unsigned long long[::1] xs, unsigned long long[::1] starts,
                     long long[::1] ids, const unsigned long long[:, ::1] words,
                     const unsigned long long[:, ::1] inc, unsigned long long bias,
                     unsigned long long top, unsigned char[::1] counts, Py_ssize_t g,
                     Py_ssize_t drawn, Py_ssize_t n, unsigned char[::1] ok,
                     unsigned char[::1] four)

@cython.locals(held=cython.ulonglong, kept=cython.longlong, w=cython.ulonglong,
               slot=Py_ssize_t)
cdef (unsigned long long, unsigned long long) redraw(
    unsigned long long x, const unsigned long long[:, ::1] words, long long drawn,
    const unsigned long long[:, ::1] inc, Py_ssize_t g, unsigned char[::1] counts)
