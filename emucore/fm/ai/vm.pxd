# Declarations for the compiled build of vm.py (emucore.compiled): Machine as an extension
# type with a typed board and scratch state (its fields are the class's __slots__).

from emucore.fm.ai.helpers cimport Board, State


cdef class Machine:
    cdef public object rand, program, cursor, stack, regs, flag97
    cdef public Board board
    cdef public State state
