# C types for the compiled build of deal_kernel.py (emucore.compiled): the buffers as typed
# memoryviews (array.array or numpy: states 'I', cards 'h', perm and counts 'B', rolls 'q'),
# every local a C integer or a C array of 40 (made once a call from the Python
# buffer the source makes), so each loop compiles to plain C. The 32-bit masks of the source
# make unsigned int arithmetic give the Python results.

cimport cython

cdef unsigned int MASK32, TWO_A, TWO_C
cdef unsigned char MOD40[0x8000]

cdef void _check_rows(Py_ssize_t lanes, cards, perm) except *
cdef void _check_states(Py_ssize_t lanes, states, cards, perm) except *

@cython.locals(base=Py_ssize_t, i=Py_ssize_t, lane=Py_ssize_t)
cpdef void fill(Py_ssize_t lanes, const short[::1] deck, short[::1] cards,
                unsigned char[::1] perm) except *

@cython.locals(start=Py_ssize_t, k=Py_ssize_t, i=Py_ssize_t, width=Py_ssize_t,
               order=cython.uchar[160], block=cython.uint[4], held_cards=cython.short[40],
               held_perm=cython.uchar[40])
cpdef void shuffle(Py_ssize_t lanes, unsigned int[::1] states, short[::1] cards,
                   unsigned char[::1] perm) except *

@cython.locals(first=cython.uint, x=Py_ssize_t, y=Py_ssize_t, held=cython.uchar)
cdef inline unsigned int _swap(unsigned char *order, Py_ssize_t row,
                               unsigned int state) noexcept

@cython.locals(i=Py_ssize_t)
cdef inline void _apply(unsigned char *order, Py_ssize_t row, short *held_cards,
                        unsigned char *held_perm, short[::1] cards, unsigned char[::1] perm,
                        Py_ssize_t base) noexcept

@cython.locals(base=Py_ssize_t, lane=Py_ssize_t, i=Py_ssize_t, state=cython.uint,
               filled=Py_ssize_t, made=cython.longlong, index=cython.int)
cpdef Py_ssize_t generate(Py_ssize_t lanes, unsigned int[::1] states, const short[::1] table,
                          unsigned char[::1] counts, short[::1] cards, unsigned char[::1] perm,
                          long long[::1] rolls, long long max_rolls) except -1
