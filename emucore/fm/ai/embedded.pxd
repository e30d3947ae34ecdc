# Declarations for the compiled build of embedded.py (emucore.compiled): Script as an
# extension type whose board and scratch state are typed, and its methods and the program's
# rules as cpdef, so the rules and the helpers they call are called directly in C. Arguments are
# the .py's, untyped but for Script and Machine (functions with a generator expression
# inside stay plain: Cython compiles no closure in a cpdef function).

cimport emucore.fm.ai.helpers as h
from emucore.fm.ai.helpers cimport Board, State
from emucore.fm.ai.vm cimport Machine


cdef class Script:
    cdef public object m, duelist, hide, row, cpu_lp, player_lp, hold
    cdef public Board b
    cdef public State s
    cpdef strongest(self, stat, zone, sets=*)
    cpdef weakest(self, stat, zone, sets=*)
    cpdef find(self, card, zone=*)
    cpdef count(self, zone)
    cpdef first(self, state, zone)
    cpdef power(self, slot, mode=*)
    cpdef card(self, slot)
    cpdef ctype(self, slot)
    cpdef deck_size(self)
    cpdef pinned(self, me)
    cpdef roll(self, percent)
    cpdef random_slot(self, lo, hi)
    cpdef play(self, slots, dest, face_down)
    cpdef play_combo(self, dest)
    cpdef act(self, slot, a=*, b=*, cat=*)

cpdef hand_program(Machine m)
cpdef _lethal_burn(Script s)
cpdef _home_terrain(Script s)
cpdef _is_behind(Script s, ai_best, pl_best)
cpdef _harpies(Script s)
cpdef _roll_strategy(Script s, pl_best)
cpdef _strategy(Script s, name)
cpdef _depth(Script s, normal, low)
cpdef _best_fusion(Script s)
cpdef _place_chain(Script s)
cpdef _place_single(Script s, slot)
cpdef _overwrite(Script s, slot)
cpdef _field_or_strongest(Script s)
cpdef _power_up_weakest(Script s)
cpdef _non_monster_first(Script s)
cpdef _play_strongest_monster(Script s)
cpdef _behind(Script s, pl_best)
cpdef field_program(Machine m)
cpdef _magic_row(Script s)
cpdef _verdict(Script s, slot, card)
cpdef _burn_or_heal(Script s)
cpdef _stop_defense(Script s, pl_count, ai_count)
cpdef _field_card_helps(Script s, card, ai_best, pl_best, leads)
cpdef _walls(Script s)
cpdef _attacks(Script s)
cpdef _lethal(Script s)
cpdef _killers(Script s, zone, stat, mode)
cpdef _attack_targets(Script s)
cpdef _defence_targets(Script s)
cpdef _blind(Script s)
cpdef _direct(Script s)
cpdef _leftovers(Script s)
