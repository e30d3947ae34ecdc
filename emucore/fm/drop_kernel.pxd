# C types for the compiled build of drop_kernel.py (emucore.compiled): the buffers as typed
# memoryviews (numpy: weights 'i' (int32, the tables' pools), states 'I', the table 'q',
# the cards out 'q'), every local a C integer, so each loop compiles to plain C (a
# table of 8-byte entries: the load then needs no widening, measured the fastest).
# Unsigned int arithmetic keeps the product's bits 16..26, all the source reads.

cimport cython

@cython.locals(roll=Py_ssize_t, card=Py_ssize_t, weight=Py_ssize_t, end=Py_ssize_t,
               i=Py_ssize_t)
cpdef void fill_table(const int[::1] weights, long long[::1] table) except *

@cython.locals(i=Py_ssize_t)
cpdef void drops(Py_ssize_t count, const unsigned int[::1] states, const int[::1] weights,
                 long long[::1] table, long long[::1] out) except *
