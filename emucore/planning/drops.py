"""Drop odds and drop manipulation (spec/fm-engine.md §9.3-9.4).

A win rolls ``Duel_SelectCardDrop`` once: ``(rand() & 0x7FF) + 1`` over the 2048 weights of
the pool the rank picks, so a card's chance is its weight / 2048. Manipulation asks at which
numbers ``k`` of extra ``rand()`` calls before that roll the roll yields a wanted card; the
roll is :func:`emucore.fm.rank.select_drop` evaluated on many states at once
(:func:`emucore.fm.rank.drops_at`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from emucore.fm import rank
from emucore.fm.overlay import BUILT_IN, OverlayTables
from emucore.fm.timeline import timeline_for
from emucore.hw import psyq_rand
from emucore.tables.fm import DUELIST_COUNT, POOL_SUM, POOLS, FmTables

DROP_POOLS = POOLS[1:]  # sa_pow, bcd, sa_tec
POOL_RANKS = {"sa_pow": "S/A-POW", "bcd": "B/C/D-POW or TEC", "sa_tec": "S/A-TEC"}
POOL_SHORT = {"sa_pow": "SA-POW", "bcd": "BCD", "sa_tec": "SA-TEC"}  # chart labels
FOREST, MOUNTAIN, YAMI = 1, 3, 6  # the terrains their field cards set (timeline.field)
USUAL_FIELDS = (1, 2, 4, 5)  # Forest, Wasteland, Sogen, Umi
UNREACHED = 1 << 40

class Spendable(NamedTuple):
    """An animation with a fixed number of ``rand()`` calls (emucore.fm.timeline), named as
    the runners' tables name it (tests/oracle/data/animation_costs.csv: DUMP, EQUIP, ...).
    ``at_will``: an action the player takes when they choose, whose calls nothing else
    changes; only those are offered to spend calls with."""

    name: str
    calls: int
    at_will: bool

    @property
    def what(self) -> str:
        """The action in words."""
        return SPENDABLE[self.name][0]


# name -> (what it is, whether the player causes it at will)
SPENDABLE = {
    "DUMP": ("failed combination step (the discarded card flies off)", True),
    "EQUIP": ("equip step (an equip card onto a monster; not the two swords)", True),
    "FUSION": ("fusion step of two monsters", True),
    "FIELD_YAMI": ("Yami field card", True),
    "FIELD_MOUNT": ("Mountain field card", True),
    "FIELD_USUAL": ("Forest, Wasteland, Sogen or Umi field card", True),
    "DIRECT_LOW": ("direct attack dealing less than 1000", True),
    "DIRECT_HIGH": ("direct attack dealing 1000 or more", True),
    "SWORD_EQUIP": ("Legendary Sword or Sword of Dark Destruction equip step", True),
    "DAMAGE_MAGIC": ("damage magic card (Sparks, Hinotama, Final Flame, Ookazi, Tremendous "
                     "Fire) that no Goblin's Fan answers", True),
    # not the player's to cause alone: the CPU's trap answers an attack; leaving a 3-D
    # battle at its circles comes with the battle's card break-ups, which vary
    "TRAP_TRIGGERED": ("a trap the CPU set springs on an attack", False),
    "SPAWN_3D": ("3-D battle left when its circles appear (plus its card break-ups)", False),
}


def fixed_costs(tables: OverlayTables = BUILT_IN) -> tuple[Spendable, ...]:
    """The fixed-cost animations, read from the timeline of ``tables`` (a disc's
    ``duel_effects`` tables may differ from the built-in ones). An animation whose count
    rests on an estimated table is left out: its figure is not known to be the game's."""
    t = timeline_for(tables)
    animations = {
        "DUMP": t.failure, "EQUIP": t.equip, "FUSION": t.fusion(False),
        "FIELD_YAMI": t.field(YAMI), "FIELD_MOUNT": t.field(MOUNTAIN),
        "FIELD_USUAL": t.field(FOREST), "DIRECT_LOW": t.damage_number(999, direct=True),
        "DIRECT_HIGH": t.damage_number(1000, direct=True), "SWORD_EQUIP": t.sword_equip,
        "DAMAGE_MAGIC": t.burn,
        "TRAP_TRIGGERED": t.trap(), "SPAWN_3D": t.circles}
    usual = {t.field(terrain).calls for terrain in USUAL_FIELDS}
    out = []
    for name, (_what, at_will) in SPENDABLE.items():
        animation = animations[name]
        if animation.run is not None or not animation.exact:
            continue
        if name == "FIELD_USUAL" and len(usual) != 1:
            continue  # the four no longer cost the same: no one figure
        out.append(Spendable(name, animation.calls, at_will))
    return tuple(out)


# The player's fixed-cost actions (the built-in tables); plan manip --disc reads a disc's.
EVENTS = fixed_costs()


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


def drops_after(state: int, count: int, weights: NDArray) -> NDArray[np.int64]:
    """The card ``Duel_SelectCardDrop`` gives after ``k`` extra calls, for k = 0..count-1."""
    return rank.drops_at(psyq_rand.consecutive_states(state & psyq_rand.MASK32, count),
                         weights)


def manip_offsets(state: int, want: int, weights: NDArray, bound: int) -> NDArray[np.int64]:
    """Every ``k`` in 0..bound at which the drop roll, ``k`` calls after ``state``, is ``want``."""
    return np.flatnonzero(drops_after(state, bound + 1, weights) == want)


def spend(k: int, costs: Sequence[Spendable] = EVENTS) -> list[tuple[str, int]] | None:
    """The fewest at-will fixed-cost actions of ``costs`` whose calls add up to exactly
    ``k``, as (name, times), largest cost first; ``[]`` for 0 and None when no combination
    of them reaches ``k``. Each figure is the action's own animation: the action must not
    also spring a trap or break a card."""
    return Spender(k, costs).way(k)


class Spender:
    """:func:`spend` for every ``k`` up to ``top`` (one table of fewest actions)."""

    def __init__(self, top: int, costs: Sequence[Spendable] = EVENTS) -> None:
        usable = sorted({c.calls: c for c in costs if c.at_will and c.calls > 0}.values(),
                        key=lambda c: c.calls)
        self.ones = [c for c in usable if c.calls == 1]  # one call each: any remainder
        self.usable = usable = [c for c in usable if c.calls > 1]
        # fewest[s]: fewest actions adding up to s; last[s]: the index of the last one added
        self.fewest = fewest = np.full(top + 1, UNREACHED, np.int64)
        self.last = last = np.full(top + 1, -1, np.int64)
        fewest[0] = 0
        for index, cost in enumerate(c.calls for c in usable):
            # unbounded: s may use this cost again, so go up in blocks of one cost's width
            for lo in range(cost, top + 1, cost):
                hi = min(lo + cost, top + 1)
                better = fewest[lo - cost:hi - cost] + 1 < fewest[lo:hi]
                if better.any():
                    span = np.flatnonzero(better) + lo
                    fewest[span] = fewest[span - cost] + 1
                    last[span] = index

    def reaches(self, ks: NDArray) -> NDArray[np.bool_]:
        """Whether some combination adds up to each ``k`` (each at most ``top``)."""
        ks = np.asarray(ks, np.int64)
        if self.ones:
            return np.ones(ks.shape, bool)
        return self.fewest[ks] < UNREACHED

    def way(self, k: int) -> list[tuple[str, int]] | None:
        """The fewest actions adding up to ``k`` (at most ``top``), None when none do."""
        s = k
        if self.ones:  # the rest in single calls: the best s <= k to fill up from
            s = int(np.argmin(self.fewest[:k + 1] - np.arange(k + 1)))
        if self.fewest[s] >= UNREACHED:
            return None
        times = [0] * len(self.usable)
        rest = k - s
        while s:
            times[self.last[s]] += 1
            s -= self.usable[self.last[s]].calls
        row = [(self.usable[i].name, n) for i in reversed(range(len(self.usable)))
               if (n := times[i])]
        return row + ([(self.ones[0].name, rest)] if rest else [])
