"""Forbidden Memories stat arithmetic, vectorised (spec/fm-engine.md §4).

All arithmetic is done in wide integers and clamped where the original clamps: the
effective-stat clamp 0..9999 in ``Duel_CalcCardStats``, the battle cap of 9999 with no floor in
``Duel_CalcBattleAttack/Defense``. Inputs may be scalars or arrays of any matching shape.

This module is the one reference the engine and the AI call: the array functions where they
work on many cards, and the ``*_one`` functions (plain ints, the same arithmetic, checked
equal to the array functions by tests/core/test_hw_stats.py) on the per-step paths, where
numpy's per-call overhead would dominate.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from emucore.hw.fixed import clamp

STAT_MAX = 9999
STAR_BONUS = 500
MONSTER_TYPES = 20  # type ids 0..19 are monsters; 20+ Magic, Trap, Ritual, Equip
TIE = -1  # func_8001EFD4's marker for equal values with both cards in attack position


def card_stat(base: ArrayLike, stat_modifier: ArrayLike, terrain_modifier: ArrayLike) -> NDArray:
    """``Duel_CalcCardStats``: base + stat_modifier + terrain_modifier, one clamp to 0..9999.

    The two modifiers are summed before the single clamp, so a -1000 Shadow Spell and a +500
    terrain on a 300-ATK card gives 0, not 300 - 1000 -> 0 then +500.
    """
    total = np.asarray(base, np.int64) + np.asarray(stat_modifier, np.int64)
    return clamp(total + np.asarray(terrain_modifier, np.int64), 0, STAT_MAX)


def card_stat_one(base: int, stat_modifier: int, terrain_modifier: int) -> int:
    """:func:`card_stat` of one card (comparisons, not min/max calls: the exporter runs it
    for every occupied record at every decision)."""
    total = base + stat_modifier + terrain_modifier
    return total if 0 <= total <= STAT_MAX else (0 if total < 0 else STAT_MAX)


def is_monster(card_type: ArrayLike) -> NDArray:
    """``type < 20``: the monster types (the engine's and the AI's one test)."""
    return np.asarray(card_type, np.int64) < MONSTER_TYPES


def terrain_boost(table: ArrayLike, card_type: ArrayLike, terrain: ArrayLike) -> NDArray:
    """``Duel_GetTerrainBoost`` (0x8002497C): table[type][terrain-1], 0 on terrain 0 or type >= 20.

    ``table`` is the (20, 6) terrain table in stat points (already x10).
    """
    tbl = np.asarray(table, np.int64)
    ctype = np.asarray(card_type, np.int64)
    terr = np.asarray(terrain, np.int64)
    applies = (terr != 0) & (ctype < MONSTER_TYPES) & (ctype >= 0)
    row = np.where(applies, ctype, 0)
    col = np.where(applies, terr - 1, 0)
    return np.where(applies, tbl[row, col], 0)


def guardian_star_matchup(a: ArrayLike, b: ArrayLike) -> NDArray:
    """``Duel_CalcGuardianStarMatchup`` (0x8002CB80): +500 if b follows a in its cycle, -500 if
    b precedes a, else 0. Ids 1-6 form one cycle, 7-10 another.

    quirk: an out-of-range left id falls into the cycles' wrap-around branches of the original,
    so a left star 0 behaves like Neptune (6) and 11..15 like Venus (10); an out-of-range right
    id matches nothing. Reproduced exactly; the 16x16 result is pinned by a golden test.
    """
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    # quirk: Duel_CalcGuardianStarMatchup: only the left id is folded into the cycles
    a_eff = np.where(a == 0, 6, np.where(a >= 11, 10, a))
    planet = a_eff <= 6
    first, length = np.where(planet, 1, 7), np.where(planet, 6, 4)
    pos = a_eff - first
    following = first + (pos + 1) % length
    preceding = first + (pos + length - 1) % length
    return np.where(b == following, STAR_BONUS, np.where(b == preceding, -STAR_BONUS, 0))


def battle_value(effective: ArrayLike, star_bonus: ArrayLike) -> NDArray:
    """``Duel_CalcBattleAttack/Defense``: effective stat + star bonus, capped at 9999, no floor."""
    v = np.asarray(effective, np.int64) + np.asarray(star_bonus, np.int64)
    return np.minimum(v, STAT_MAX)


def battle_compare_one(left_value: int, right_value: int, left_defending: bool,
                       right_defending: bool) -> int:
    """:func:`battle_compare` of one pair."""
    if left_value != right_value:   # quirk: func_8001EFD4: the star term is the left side's
        return left_value - right_value
    return 0 if (left_defending or right_defending) else TIE


def battle_value_one(effective: int, star_bonus: int) -> int:
    """:func:`battle_value` of one card."""
    return min(effective + star_bonus, STAT_MAX)


def battle_compare(
    left_value: ArrayLike,
    right_value: ArrayLike,
    left_defending: ArrayLike,
    right_defending: ArrayLike,
) -> NDArray:
    """``func_8001EFD4``: attacker value (star bonus already applied) minus the defender's
    pre-matchup value; on equality 0 if either card defends, -1 (tie marker) if both attack.

    quirk: the whole +-500 lands on the left (attacker) side only; the right side never gets a
    star term. So (9999, 9900, +500) -> 99 and (100, 0, -500) -> -400.
    """
    # quirk: func_8001EFD4: the +-500 was added to the left value alone
    diff = np.asarray(left_value, np.int64) - np.asarray(right_value, np.int64)
    either_defends = np.asarray(left_defending, bool) | np.asarray(right_defending, bool)
    return np.where(diff != 0, diff, np.where(either_defends, 0, TIE))
