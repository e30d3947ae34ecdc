"""End-of-duel rank, starchips and card drops (spec/fm-engine.md §9).

``Duel_CalcRankScore`` (0x80021598) scores a side record; ``DuelScene_UpdateResultRewards``
(func_800218F0) turns the winner's score into a rank, a starchip prize and a drop pool;
``Duel_SelectCardDrop`` (0x80021810) rolls the card: :func:`drop` from one stream,
:func:`drops_at` from many states at once (a compiled kernel, else numpy), :func:`drop_table` and
:func:`drops_from` the same roll on plain ints (a look-up that imports no numpy). Counters are
named by their side-record offsets so the planner and the engine read the same fields.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections import namedtuple
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType

from emucore.hw.psyq_lcg import INCREMENT, MASK32, MULTIPLIER, Rand, jump_int
from emucore.tables.derived import per_tables
from emucore.tables.fm_lookup import POOL_SUM, POOLS

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from emucore.tables.fm import FmTables

# Side-record counters the score reads, by the rank table's rows (0..9).
COUNTERS = ("turns", "effective_attacks", "defensive_wins", "face_down_plays", "pure_magic",
            "traps_triggered", "cards_used", "lp", "fusions", "equips")
END_ADJUSTMENT = {"lp": 2, "deckout": -40, "exodia": 40}  # side record +0x00
STARCHIP_CAP = 999_999
TRUNK_CAP = 250
BASE_SCORE = 50
TIERS = "DCBAS"


def score_change(tables: FmTables, row: int, counter: int) -> int:
    """``Duel_CalcRankScoreChange`` (0x80021558): the value of the first threshold strictly
    greater than ``counter`` in row ``row``."""
    return _change(*_rows(tables)[row], counter)


def _change(thresholds: list[int], values: list[int], counter: int) -> int:
    return values[min(bisect.bisect_right(thresholds, counter), len(thresholds) - 1)]


@per_tables
def _rows(tables: FmTables) -> tuple[tuple[list[int], list[int]], ...]:
    """Each row's thresholds and values as lists of ints, made once per tables."""
    return tuple((t.tolist(), v.tolist())
                 for t, v in zip(tables.rank_thresholds, tables.rank_values, strict=True))


COUNTER_RANGE = 256  # the u8 counters' values, looked up in :func:`_changes`' lists


@per_tables
def _changes(tables: FmTables) -> tuple[list[int], ...]:
    """Per row, :func:`_change` of every counter from 0 up to the row's last finite threshold
    (at most :data:`COUNTER_RANGE` values), made once per tables: a counter's change is then
    one list index (others, LP above all, are bisected)."""
    return tuple([_change(thresholds, values, counter)
                  for counter in range(min(thresholds[-2] + 1, COUNTER_RANGE))]
                 for thresholds, values in _rows(tables))


def rank_score(tables: FmTables, counters: Mapping[str, int], end_adjustment: int) -> int:
    """``Duel_CalcRankScore``: 50 + the end adjustment + one change per counter.

    ``counters`` holds the ten values of :data:`COUNTERS` as the side record stores them
    (LP read as signed 16-bit, the draw cursor as the cards used).
    """
    missing = [c for c in COUNTERS if c not in counters]
    if missing:
        raise ValueError(f"missing counters: {', '.join(missing)}")
    total = BASE_SCORE + end_adjustment
    for changes, row, name in zip(_changes(tables), _rows(tables), COUNTERS, strict=True):
        counter = int(counters[name])
        total += changes[counter] if 0 <= counter < len(changes) else _change(*row, counter)
    return total


class RankResult(namedtuple("RankResult", "score rank tier tec starchips pool")):
    """What the result screen shows and what the drop rolls over: the score, the rank (e.g.
    "S-TEC"), its tier (0 D .. 4 S), whether it is a TEC rank, the starchips it gives and
    the drop pool ("sa_pow", "bcd" or "sa_tec"); a collections.namedtuple (see
    :mod:`emucore.tables.csvfile`)."""

    __slots__ = ()


def rank_result(score: int) -> RankResult:
    """``DuelScene_UpdateResultRewards`` on the winner's score.

    Below 50 the score is mirrored (``99 - s``, a negative score first becoming 0) and the rank
    is TEC; 100 and above is clamped to 99; tier = (s - 50) // 10; starchips = tier + 1; pool
    B/C/D below tier A, else POW or TEC.
    """
    s = score
    tec = s < BASE_SCORE
    if tec:
        s = 99 - max(s, 0)
    s = min(s, 99)
    tier = (s - BASE_SCORE) // 10
    pool = "bcd" if tier < 3 else ("sa_tec" if tec else "sa_pow")
    rank = f"{TIERS[tier]}-{'TEC' if tec else 'POW'}"
    return RankResult(score, rank, tier, tec, tier + 1, pool)


def select_drop(rng: Rand, weights: NDArray) -> int:
    """``Duel_SelectCardDrop``: one ``(rand() & 0x7FF) + 1`` roll over 722 weights in id
    order; the first id whose running sum reaches it; 0 if never reached."""
    return _roll_drop(rng, _running_sums(weights))


def _running_sums(weights: Sequence[int] | NDArray) -> list[int]:
    return list(itertools.accumulate(int(w) for w in weights[1:]))


def _roll_drop(rng: Rand, cumulative: list[int]) -> int:
    """:func:`select_drop` over the running sums of the weights."""
    return _card_of(cumulative, rng.rand_2048())


def _card_of(cumulative: list[int], roll: int) -> int:
    """The first id whose running sum reaches ``roll`` (1..2048); 0 if none does."""
    index = bisect.bisect_left(cumulative, roll)
    return index + 1 if index < len(cumulative) else 0


@per_tables
def _pool_sums(tables: FmTables, duelist: int, pool: str) -> list[int]:
    """The running sums of ``duelist``'s ``pool`` weights, made once per tables and pool."""
    return _running_sums(tables.pools[duelist, POOLS.index(pool)])


def drop(rng: Rand, tables: FmTables, duelist: int, pool: str) -> int:
    """The card a win against ``duelist`` gives from ``pool`` (``sa_pow``/``bcd``/``sa_tec``):
    :func:`select_drop` on that pool's running sums, made once per tables and pool."""
    if pool not in POOLS[1:]:
        raise ValueError(f"unknown drop pool {pool!r}; choose sa_pow, bcd or sa_tec")
    return _roll_drop(rng, _pool_sums(tables, duelist, pool))


def drop_table(weights: Sequence[int] | NDArray) -> list[int]:
    """:func:`select_drop` of every roll: at ``rand() & 0x7FF`` (the roll less one), the card
    the roll gives (0 when the weights never reach it). The rolls a card takes follow the
    previous card's, as many as its weight (weights of 0 or more, as the tables hold)."""
    rolls = [card for card, weight in enumerate(weights) if card for _ in range(int(weight))]
    return (rolls + [0] * POOL_SUM)[:POOL_SUM]


def drops_from(states: Iterable[int], table: Sequence[int]) -> list[int]:
    """The card the roll from each state gives, through its :func:`drop_table`: plain ints,
    one multiply and two look-ups a state."""
    return [table[(((s * MULTIPLIER + INCREMENT) & MASK32) >> 16) & 0x7FF] for s in states]


def drops_at(states: NDArray, weights: NDArray) -> NDArray[np.int64]:
    """:func:`select_drop` from every state of ``states`` (a numpy array) at once: the card
    each roll gives (0 when the weights never reach it). The compiled drop kernel
    (:mod:`emucore.fm.drop_kernel`) when the install built it, else numpy (faster than the
    kernel run as Python)."""
    import numpy as np

    kernel = _drop_kernel()
    if kernel is None:
        return _numpy_drops(states, weights)
    flat = np.ascontiguousarray(states, dtype=np.uint32)
    if flat.ndim != 1:
        return drops_at(flat.reshape(-1), weights).reshape(flat.shape)
    out = np.empty(len(flat), dtype=np.int64)
    kernel.drops(len(flat), flat, np.ascontiguousarray(weights, dtype=np.int32),
                 np.empty(POOL_SUM, dtype=np.int64), out)
    return out


@functools.cache
def _drop_kernel() -> ModuleType | None:
    """:mod:`emucore.fm.drop_kernel` when it runs compiled, else None (imported on the first
    many-state roll: the one-state look-ups never load it)."""
    from emucore import compiled
    from emucore.fm import drop_kernel

    return drop_kernel if compiled.runs_compiled(drop_kernel.__name__) else None


def _numpy_drops(states: NDArray, weights: NDArray) -> NDArray[np.int64]:
    """:func:`drops_at` on numpy arrays: every step, output and search vectorised."""
    import numpy as np

    from emucore.hw import psyq_rand

    threshold = psyq_rand.roll_2048(psyq_rand.output(psyq_rand.step(states))).astype(np.int64)
    cumulative = np.cumsum(np.asarray(weights, np.int64)[1:])
    index = np.searchsorted(cumulative, threshold, side="left")
    return np.where(index < len(cumulative), index + 1, 0)


def drop_roll_state(fields: Mapping[str, int]) -> int:
    """The RNG state ``Duel_SelectCardDrop`` rolls from, read from an FM state image's
    fields (``emucore.fm.machine.fields_of``). A finished duel stored the state after the
    rewards: a rolled drop is one call back, else the stored state is the roll's. A duel
    still running has the result outro (``func_80020F4C``, 14 calls against a CPU) still to
    come before the roll, whatever else it still calls."""
    from emucore.fm import state as S  # the duel's modules: not for a drop look-up
    from emucore.fm.timeline import result_outro

    state = fields["rng_state"]
    if fields["phase"] == S.PHASE_OVER:
        return jump_int(state, -1) if fields["drop"] else state
    outro = result_outro(with_opponent=fields["opponent"] > 0).calls
    return jump_int(state, outro)


def add_starchips(current: int, prize: int) -> int:
    """Starchips after a prize, clamped to 999,999."""
    return min(current + prize, STARCHIP_CAP)


def award_card(copies: int) -> int:
    """Trunk copies of a card after ``Duel_AwardCard`` (+1, capped at 250)."""
    return min(copies + 1, TRUNK_CAP)
