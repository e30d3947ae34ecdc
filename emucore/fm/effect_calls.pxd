# Declarations for the compiled build of effect_calls.py (emucore.compiled): the destruction
# tiles' loop, which every destroyed card runs on the stream, with C integers for its
# counters (a column's countdown, a tile count, a roll's value: all far below 2**31, and
# Python's semantics for % on them are kept: cdivision is off).

cimport cython


@cython.locals(calls=cython.int, k=cython.int, active=cython.bint,
               value=cython.int)
cpdef int tile_rolls(values, int delay, int updates)
