"""Game Boy arithmetic for Duel Monsters (1998): 16-bit BCD stats, level and field multipliers.

Stats are stored as four BCD digits in 16 bits. A result above 9999 keeps its last four digits
(the "9999 glitch": 11648 shows as 1648). Level multipliers are powers of 1.6 relative to level 0
(level -1 = x0.6, 1 = x1.6, 2 = x2.56); field cards multiply by 1.3 (boosted) or 0.7 (weakened).

The cartridge's exact rounding of these multiplications is unknown (spec/dm1.md). The default
rule is :data:`ROUNDING` = ``"floor_each"``: every multiplication truncates toward zero in
integer arithmetic, step by step, in the order field factor then level factors. It is one named
choice, swappable with :func:`set_rounding`, and it reproduces the one known example
3500 x1.3 x1.6 x1.6 = 11648 -> displayed 1648.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

# Multipliers as exact fractions (numerator, denominator) so integer rounding is explicit.
LEVEL_FACTOR = (16, 10)  # one level: x1.6
LEVEL_DOWN_FACTOR = (6, 10)  # level -1: x0.6 of the level-0 value
FIELD_BOOST = (13, 10)
FIELD_WEAKEN = (7, 10)
LEVEL_MIN, LEVEL_MAX = -1, 2


def to_bcd(value: ArrayLike) -> NDArray[np.uint16]:
    """Pack 0..9999 into four BCD digits in a u16, keeping the last four decimal digits.

    quirk: the 9999 glitch — a value of 10000 or more keeps only its last four digits.
    """
    v = np.asarray(value, np.int64) % 10000   # quirk: the BCD adder (0x2867): the 9999 glitch
    digits = [(v // 10**k) % 10 for k in range(4)]
    return (digits[0] | digits[1] << 4 | digits[2] << 8 | digits[3] << 12).astype(np.uint16)


def from_bcd(bcd: ArrayLike) -> NDArray[np.int64]:
    """Unpack a u16 of four BCD digits."""
    b = np.asarray(bcd, np.int64)
    return (b & 0xF) + ((b >> 4) & 0xF) * 10 + ((b >> 8) & 0xF) * 100 + ((b >> 12) & 0xF) * 1000


def truncate_display(value: ArrayLike) -> NDArray[np.int64]:
    """The value the cartridge shows and fights with: the last four decimal digits."""
    return from_bcd(to_bcd(value))


def _floor_each(value: NDArray[np.int64], factors: list[tuple[int, int]]) -> NDArray[np.int64]:
    for num, den in factors:
        value = (value * num) // den
    return value


def _round_each(value: NDArray[np.int64], factors: list[tuple[int, int]]) -> NDArray[np.int64]:
    for num, den in factors:
        value = (value * num * 2 + den) // (2 * den)
    return value


def _round_once(value: NDArray[np.int64], factors: list[tuple[int, int]]) -> NDArray[np.int64]:
    num = int(np.prod([f[0] for f in factors], dtype=np.int64)) if factors else 1
    den = int(np.prod([f[1] for f in factors], dtype=np.int64)) if factors else 1
    return (value * num * 2 + den) // (2 * den)


RoundingRule = Callable[[NDArray[np.int64], list[tuple[int, int]]], NDArray[np.int64]]
ROUNDING_RULES: dict[str, RoundingRule] = {
    "floor_each": _floor_each,
    "round_each": _round_each,
    "round_once": _round_once,
}
ROUNDING = "floor_each"  # [unknown] on the cartridge; the named default choice


def set_rounding(name: str) -> None:
    """Select the rounding rule for :func:`scaled_stat` (one of :data:`ROUNDING_RULES`)."""
    global ROUNDING
    if name not in ROUNDING_RULES:
        raise ValueError(f"unknown rounding rule {name!r}; choose {sorted(ROUNDING_RULES)}")
    ROUNDING = name


def level_factors(level: int) -> list[tuple[int, int]]:
    """The chain of factors that takes a level-0 stat to ``level`` (-1..2)."""
    if not LEVEL_MIN <= level <= LEVEL_MAX:
        raise ValueError(f"level {level} outside {LEVEL_MIN}..{LEVEL_MAX}")
    return [LEVEL_DOWN_FACTOR] if level < 0 else [LEVEL_FACTOR] * level


def field_factors(field_effect: int) -> list[tuple[int, int]]:
    """+1 boosted (x1.3), -1 weakened (x0.7), 0 unaffected."""
    return {1: [FIELD_BOOST], -1: [FIELD_WEAKEN], 0: []}[field_effect]


def scaled_stat(base: ArrayLike, level: int = 0, field_effect: int = 0) -> NDArray[np.int64]:
    """A DM1 stat after the field factor and the level factors, truncated to four digits.

    Order: field factor first, then the level factors (the order of the known example).
    """
    factors = field_factors(field_effect) + level_factors(level)
    raw = ROUNDING_RULES[ROUNDING](np.asarray(base, np.int64), factors)
    return truncate_display(raw)


def scaled_stat_raw(base: ArrayLike, level: int = 0, field_effect: int = 0) -> NDArray[np.int64]:
    """Like :func:`scaled_stat` but before the four-digit truncation (for display of the bug)."""
    factors = field_factors(field_effect) + level_factors(level)
    return ROUNDING_RULES[ROUNDING](np.asarray(base, np.int64), factors)
