# Declarations for the compiled build of effect_calls.py (emucore.compiled): the loops every
# battle runs on the stream - the destruction tiles' rolls, the rand() values they read, the
# star flash's particles - with C integers for their counters and coordinates (all far below
# the widths declared, and Python's semantics for % and // on them are kept: cdivision is
# off), so the compiled module computes what the Python one does.

cimport cython


# the stream the loops read: an extension type, its counters C integers (read and stepped
# for every few values a loop takes)
cdef class Stream:
    cdef public object state, _bases, _next
    cdef public Py_ssize_t calls, _end
    cpdef skip(self, long long n)
    @cython.locals(start=cython.longlong, end=cython.longlong)
    cpdef list take(self, long long n)
    @cython.locals(k=cython.longlong, at=cython.longlong)
    cpdef _state_at(self, long long calls)


@cython.locals(calls=cython.int, k=cython.int, active=cython.bint, value=cython.int,
               wait=cython.int)
cpdef int tile_rolls(values, int delay, int updates)

@cython.locals(mult=cython.ulonglong, inc=cython.ulonglong, mask=cython.ulonglong)
cpdef list rand_values(unsigned long long state, int n)

@cython.locals(q=cython.longlong)
cpdef long long c_div(long long a, long long b)

@cython.locals(diff=cython.longlong, rem=cython.longlong)
cpdef long long spread(long long first, long long second, long long scale)

@cython.locals(near=cython.longlong, v=cython.longlong, first=cython.longlong)
cpdef tuple _near_window(long long c, long long frames)

@cython.locals(fx=cython.longlong, lx=cython.longlong, fy=cython.longlong,
               ly=cython.longlong, first=cython.longlong)
cpdef long long homecoming(long long x, long long y, long long frames)

@cython.locals(scale=cython.longlong, frames=cython.longlong, last=cython.int,
               home=cython.longlong, signal=cython.longlong, ends=cython.longlong,
               drawn=cython.longlong, j=cython.int, at=cython.int, moves=cython.longlong,
               life=cython.longlong)
cpdef long long star_flash_calls(config, unsigned long long state)

@cython.locals(a=cython.ulonglong, c=cython.ulonglong)
cpdef unsigned long long after(unsigned long long state, long long n)

@cython.locals(moves=cython.longlong, c=cython.longlong, need=cython.longlong)
cpdef long long _arrival(position)
