# Declarations for the compiled build of snapshot.py (emucore.compiled): Snapshot as an
# extension type, its eight column lists read as struct members (the class's __slots__),
# and the export's writers with their slot numbers as C integers (the values written stay
# the Python objects read, so no int is made anew).

cimport cython


cdef class Snapshot:
    cdef public list ids, atk, dfn, flags, ctype, star, star2, deck_index
    @cython.locals(first=Py_ssize_t, slot=Py_ssize_t, lo=Py_ssize_t, at=Py_ssize_t,
                   hi=Py_ssize_t, shift=Py_ssize_t)
    cpdef _export_side(self, base, side, cards, previous, packed)
    @cython.locals(hi=Py_ssize_t, slot=Py_ssize_t)
    cpdef _write_entries(self, Py_ssize_t lo, entries, cards, packed, held=*)
    @cython.locals(size=Py_ssize_t)
    cpdef _move(self, Py_ssize_t src, Py_ssize_t dst, Py_ssize_t count, packed)
