"""Effective ATK/DEF of every card on every terrain at every level, computed once per table set.

The cartridge reads a monster's stats from the stored table of the active terrain (bank 9,
routine 0x24312: field index -> ATK/DEF); levels then multiply by 1.6 per level
(``emucore.hw.gameboy``: rounding rule swappable, four-digit BCD truncation — the 9999 glitch).
The whole table is built with one vectorised call per terrain and level and cached per rounding
rule, so the duel's hot path is a list lookup: ``atk[terrain][level + 1][card]``.
"""

from __future__ import annotations

import numpy as np

from emucore.hw import gameboy

LEVELS = tuple(range(gameboy.LEVEL_MIN, gameboy.LEVEL_MAX + 1))  # -1, 0, 1, 2

StatTable = list[list[list[int]]]  # [terrain][level + 1][card] -> value shown and fought with


def stat_tables(stored: np.ndarray) -> tuple[StatTable, StatTable]:
    """(ATK, DEF) tables from the stored per-terrain values ``stored[terrain, id, 0|1]``,
    under the rounding rule selected now in :mod:`emucore.hw.gameboy`."""
    key = (id(stored), gameboy.ROUNDING)
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not stored:
        hit = _CACHE[key] = (stored, _build(stored))
    return hit[1]


_CACHE: dict[tuple[int, str], tuple[np.ndarray, tuple[StatTable, StatTable]]] = {}


def _build(stored: np.ndarray) -> tuple[StatTable, StatTable]:
    out = []
    for which in (0, 1):
        out.append([[gameboy.scaled_stat(stored[t, :, which], level, 0).tolist()
                     for level in LEVELS] for t in range(stored.shape[0])])
    return out[0], out[1]
