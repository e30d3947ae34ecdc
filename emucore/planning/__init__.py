"""Speedrun planning for Forbidden Memories: rank, drop odds, drop manipulation, RNG searches.

Everything speaks in RNG *indices* (``rand()`` calls since the boot state 0x55555555) and uses
the engine's own routines (``emucore.fm.rank``, ``emucore.fm.deck``) or array versions of them
that tests check against those routines.
"""
