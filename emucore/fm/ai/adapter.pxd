# Declarations for the compiled build of adapter.py (emucore.compiled): the machine a
# decision runs is typed, so the chooser reads its board and scratch state as struct members.
# Arguments are the .py's, untyped but for Board and Machine.

from emucore.fm.ai.helpers cimport Board
from emucore.fm.ai.vm cimport Machine


cpdef Machine _machine(duel, who, rng)
cpdef hand_play(duel, Board b, decoded, rng_calls=*)
