"""Drop odds and drop manipulation (spec/fm-engine.md §9.3-9.4).

A win rolls ``Duel_SelectCardDrop`` once: ``(rand() & 0x7FF) + 1`` over the 2048 weights of
the pool the rank picks, so a card's chance is its weight / 2048. Manipulation asks at which
numbers ``k`` of extra ``rand()`` calls before that roll the roll yields a wanted card; the
roll is :func:`emucore.fm.rank.select_drop` evaluated on many states at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from emucore.hw import psyq_rand
from emucore.tables.fm import DUELIST_COUNT, POOL_SUM, POOLS, FmTables

DROP_POOLS = POOLS[1:]  # sa_pow, bcd, sa_tec
POOL_RANKS = {"sa_pow": "S/A-POW", "bcd": "B/C/D-POW or TEC", "sa_tec": "S/A-TEC"}
POOL_SHORT = {"sa_pow": "SA-POW", "bcd": "BCD", "sa_tec": "SA-TEC"}  # chart labels

# In-duel routines known to call rand() (spec/fm-engine.md §1.3): the calls each costs and
# whether the player can cause it at will. Only these are offered as ways to spend calls.
EVENTS = (
    ("failed combination (the discarded card flies off)", 1, True),
    ("display effect delay (func_8003B378 / func_80039F44)", 1, False),
    ("coordinate jitter (func_80037A58)", 2, False),
    ("animation offset (func_8004149C)", 1, False),
)


@dataclass(frozen=True)
class Odds:
    """One card of one pool: weight out of 2048."""

    duelist: int
    pool: str
    card: int
    weight: int

    @property
    def probability(self) -> float:
        return self.weight / POOL_SUM

    @property
    def expected_wins(self) -> float:
        """Mean number of wins with that rank until the card drops (geometric)."""
        return POOL_SUM / self.weight


def duelist_odds(tables: FmTables, duelist: int) -> dict[str, list[Odds]]:
    """Every drop pool of ``duelist``: the cards it can give, likeliest first."""
    check_duelist(duelist)
    out = {}
    for pool in DROP_POOLS:
        weights = tables.pools[duelist, POOLS.index(pool)]
        cards = np.flatnonzero(weights)
        order = cards[np.argsort(-weights[cards], kind="stable")]
        out[pool] = [Odds(duelist, pool, int(c), int(weights[c])) for c in order]
    return out


def card_odds(tables: FmTables, card: int) -> list[Odds]:
    """Every duelist and pool that drops ``card``, best chance first."""
    weights = tables.pools[1:, 1:, card]  # [duelist - 1, drop pool]
    found = [Odds(int(d) + 1, DROP_POOLS[p], card, int(weights[d, p]))
             for d, p in zip(*np.nonzero(weights), strict=True)]
    return sorted(found, key=lambda o: (-o.weight, o.duelist, DROP_POOLS.index(o.pool)))


def check_duelist(duelist: int) -> None:
    if not 1 <= duelist <= DUELIST_COUNT:
        raise ValueError(f"unknown duelist {duelist}; duelists are 1..{DUELIST_COUNT}")


def drops_at(states: NDArray, weights: NDArray) -> NDArray[np.int64]:
    """:func:`emucore.fm.rank.select_drop` from every state of ``states`` at once: the card
    each roll gives (0 when the weights never reach it). ``fm drop`` for many states."""
    threshold = psyq_rand.roll_2048(psyq_rand.output(psyq_rand.step(states))).astype(np.int64)
    cumulative = np.cumsum(np.asarray(weights, np.int64)[1:])
    index = np.searchsorted(cumulative, threshold, side="left")
    return np.where(index < len(cumulative), index + 1, 0)


def drops_after(state: int, count: int, weights: NDArray) -> NDArray[np.int64]:
    """The card ``Duel_SelectCardDrop`` gives after ``k`` extra calls, for k = 0..count-1."""
    return drops_at(psyq_rand.consecutive_states(state & psyq_rand.MASK32, count), weights)


def manip_offsets(state: int, want: int, weights: NDArray, bound: int) -> NDArray[np.int64]:
    """Every ``k`` in 0..bound at which the drop roll, ``k`` calls after ``state``, is ``want``."""
    return np.flatnonzero(drops_after(state, bound + 1, weights) == want)


def spend(k: int) -> list[tuple[str, int]]:
    """How the player can burn exactly ``k`` calls with events they control at will."""
    if k == 0:
        return []
    at_will = [(name, cost) for name, cost, controllable in EVENTS if controllable]
    name, cost = max(at_will, key=lambda e: e[1])
    out = [(name, k // cost)]
    if k % cost:
        out += spend(k % cost)
    return out
