# Declarations for the compiled build of snapshot.py (emucore.compiled): Snapshot as an
# extension type, its eight column lists read as struct members (the class's __slots__).

cdef class Snapshot:
    cdef public list ids, atk, dfn, flags, ctype, star, star2, deck_index
