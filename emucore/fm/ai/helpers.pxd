# Declarations for the compiled build of helpers.py (emucore.compiled): Board and State as
# extension types (their fields read as struct members, not looked up), and the helpers as
# cpdef functions, which compiled callers call directly in C. Every name and argument is
# the .py's, untyped but for Board and State, so the compiled module computes what the
# Python one does; the fields are the classes' __slots__ (tests/core/test_compiled.py).

cimport cython


cdef class Board:
    cdef public object snapshot, view, data, window, terrain, ids, atk, dfn, flags, ctype
    cdef public object star, star2, deck_index
    cpdef base(self, card, stat)
    cpdef mark(self, slot)

cdef class State:
    cdef public object combo, card_set, type_set, fusion_set, best, depth, best_depth, path
    cdef public object used, selection, window, window_ids, steps, reach

cpdef excluded(Board b, State s, sets, slot)
# the scan's slot, flag test and values as C integers (16-bit record fields)
@cython.locals(i=Py_ssize_t, mask=cython.long, need=cython.long, value=cython.long,
               best=cython.long)
cpdef winning_pick(Board b, State s, stat, zone, hide, sets, strongest)
cpdef find_strongest(Board b, State s, stat, zone, hide, sets)
cpdef find_weakest(Board b, State s, stat, zone, hide, sets)
@cython.locals(i=Py_ssize_t, a=cython.long, wanted=cython.long, best=cython.long)
cpdef find_killer(Board b, target, mode)
cpdef find_defense_stopper(Board b, hide)
@cython.locals(i=Py_ssize_t, best=cython.long)
cpdef _largest(Board b, slots, taken, floor, hide)
cpdef load_deck_size(Board b)
@cython.locals(i=Py_ssize_t, skip=cython.long, count=cython.long)
cpdef count_cards(Board b, zone)
@cython.locals(i=Py_ssize_t, skip=cython.long, down=cython.long)
cpdef find_first_card(Board b, state, zone)
@cython.locals(i=Py_ssize_t)
cpdef find_card(Board b, card, zone, hide)
@cython.locals(i=Py_ssize_t)
cpdef match_type(Board b, State s, card_type, zone, hide, sets)
cpdef find_equip_target(Board b, State s, equip, mode, sets)
cpdef calc_card_power(Board b, card, mode)
cpdef check_ritual(Board b, ritual)
cpdef complete_fusion(Board b, State s, acc, limit)
cpdef _steps(Board b, State s, acc)
cpdef _reach(Board b, State s, acc, levels)
cpdef _search(Board b, State s, sets)
cpdef find_best_combo(Board b, State s, depth, sets)
cpdef evaluate_fusion(Board b, State s, card, depth, sets)
cpdef push_combo(State s, clear)
cpdef add_card(State s, card)
cpdef add_type(State s, card_type)
cpdef play_field_card(State s, slot, a, b, cat)
