"""The machines' arithmetic: fixed-width integers, the Psy-Q rand() LCG, FM stat routines and
the Game Boy's BCD and level multipliers. Every function accepts numpy scalars and arrays alike."""
