"""The rank planner: the score and rank a win would give now, and for every rank the cheapest
counter changes that still reach it (spec/fm-engine.md §9.2-9.3).

Scoring is ``emucore.fm.rank`` itself; here only the search. Rules of the search, chosen here
(the game has no planner to copy):

* every counter only grows during a duel except LP, which damage and healing move both ways;
  a winner's LP is at least 1, so the 0-99 bracket means 1-99;
* a plan picks one bracket per counter; reaching bracket ``b`` of a growing counter costs the
  events still missing (``min_count - now``), staying costs nothing but adds a limit
  ("keep turns at most 8"); moving LP to another bracket costs 1 (one LP change);
* the duel's end (LP win +2, deck-out -40, Exodia +40) is the one given, or with ``end=None``
  the cheapest of the three (an end other than an LP win costs 1 more);
* among plans of equal cost the one changing fewer counters wins, then the one whose score
  lies deepest inside the target's range.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from emucore.fm import rank
from emucore.tables.fm import FmTables

LP_RANGE = (1, 0x7FFF)  # a winner's LP as the score reads it (s16, above 0)
DEFAULT_END = "lp"
END_COST = {"lp": 0, "deckout": 1, "exodia": 1}
PHRASES = {
    "turns": "turns", "effective_attacks": "effective attacks",
    "defensive_wins": "defensive wins", "face_down_plays": "face-down plays",
    "pure_magic": "magic cards used", "traps_triggered": "traps triggered",
    "cards_used": "cards drawn", "lp": "LP", "fusions": "fusions", "equips": "equips used",
}


@dataclass(frozen=True)
class RankRange:
    """The scores that give one rank."""

    name: str
    low: int  # inclusive; -1000 stands for "any lower score"
    high: int  # inclusive; 1000 stands for "any higher score"


def rank_ranges(tables: FmTables) -> list[RankRange]:
    """Every rank with its score range, best POW first (ranks.csv, lowest bound open)."""
    out = []
    upper = 1000
    for score_min, name, _chips, _pool in tables.ranks:
        low = max(score_min, -1000)
        out.append(RankRange(name, low, upper))
        upper = low - 1
    return out


def find_rank(tables: FmTables, name: str) -> RankRange:
    """A rank by name (case-insensitive); ValueError lists the valid ones."""
    for r in rank_ranges(tables):
        if r.name.casefold() == name.strip().casefold():
            return r
    names = ", ".join(r.name for r in rank_ranges(tables))
    raise ValueError(f"unknown rank {name!r}; ranks are {names}")


def check_counters(counters: Mapping[str, int]) -> dict[str, int]:
    """The ten counters as the side record can hold them (ValueError otherwise)."""
    out = {}
    for name in rank.COUNTERS:
        if name not in counters:
            raise ValueError(f"missing counter {name}")
        value = int(counters[name])
        lo, hi = LP_RANGE if name == "lp" else (0, 255)
        if not lo <= value <= hi:
            raise ValueError(f"counter {name}={value} outside {lo}..{hi}")
        out[name] = value
    return out


def counters_from_side(side: Mapping[str, int]) -> dict[str, int]:
    """The ten score counters from a side record's fields (``FmDuel.counters(side)`` or the
    ``sideN.*`` fields of a state image): cards used = draw cursor, LP read as s16."""
    counters = {c: int(side[c]) for c in rank.COUNTERS if c not in ("cards_used", "lp")}
    counters["cards_used"] = int(side["draw_cursor"])
    lp = int(side["lp"]) & 0xFFFF
    counters["lp"] = lp - 0x10000 if lp >= 0x8000 else lp  # Duel_CalcRankScore reads s16
    return counters


@dataclass(frozen=True)
class Bracket:
    """One row of the rank table for one counter: counts ``low..high`` score ``value``."""

    row: int
    low: int
    high: int  # inclusive; large for the open top bracket
    value: int


def brackets(tables: FmTables, row: int) -> list[Bracket]:
    """The five brackets of a rank-table row."""
    out, low = [], 0
    for top, value in zip(tables.rank_thresholds[row], tables.rank_values[row], strict=True):
        out.append(Bracket(row, low, int(top) - 1, int(value)))
        low = int(top)
    return out


@dataclass(frozen=True)
class Change:
    """What one counter must do: end inside ``low..high``; ``more`` events still needed."""

    counter: str
    now: int
    low: int
    high: int
    more: int
    value: int  # the score change of that bracket

    def todo(self) -> str:
        """What must still happen ("" when nothing)."""
        if not self.more:
            return ""
        if self.counter == "lp":
            return f"LP {self.low}-{self.high}"
        return f"{self.more} more {PHRASES[self.counter]}"

    def limit(self) -> str:
        """The most this counter may reach ("" when unlimited)."""
        if self.counter == "lp" or self.high >= 255:
            return ""
        return f"{PHRASES[self.counter]} <= {self.high}"


@dataclass(frozen=True)
class Plan:
    """The cheapest way to a rank, or ``reachable=False``."""

    rank: str
    reachable: bool
    cost: int = 0
    score: int = 0
    end: str = DEFAULT_END
    changes: tuple[Change, ...] = ()

    def text(self) -> str:
        if not self.reachable:
            return f"{self.rank}: out of reach"
        todo = [c.todo() for c in self.changes if c.todo()]
        if self.end != DEFAULT_END:
            todo.insert(0, f"win by {self.end}")
        limits = [c.limit() for c in self.changes if c.limit()]
        return (f"{self.rank}: {', '.join(todo) or 'win as things stand'}"
                f"  (score {self.score}, cost {self.cost})"
                + (f"\n    keep {', '.join(limits)}" if limits else ""))

    def to_json(self) -> dict[str, object]:
        return {"rank": self.rank, "reachable": self.reachable, "cost": self.cost,
                "score": self.score, "end": self.end,
                "changes": [c.__dict__ for c in self.changes]}


def _options(tables: FmTables, counters: Mapping[str, int]) -> list[list[Change]]:
    """Per counter, every bracket still reachable with its cost."""
    per_counter = []
    for row, name in enumerate(rank.COUNTERS):
        now = counters[name]
        options = []
        for b in brackets(tables, row):
            if name == "lp":
                low, high = max(b.low, LP_RANGE[0]), min(b.high, LP_RANGE[1])
                if low > high:
                    continue
                more = 0 if low <= now <= high else 1
            else:
                if b.high < now:
                    continue
                low, high = max(b.low, now), min(b.high, 255)
                more = low - now
            options.append(Change(name, now, low, high, more, b.value))
        per_counter.append(options)
    return per_counter


def _cheapest(options: list[list[Change]], base: int, target: RankRange
              ) -> tuple[tuple[int, int, int], tuple[Change, ...]] | None:
    """Dynamic programme over counters: partial score -> (cost, changed counters, picks)."""
    best: dict[int, tuple[int, int, tuple[Change, ...]]] = {base: (0, 0, ())}
    for choices in options:
        nxt: dict[int, tuple[int, int, tuple[Change, ...]]] = {}
        for score, (cost, changed, picks) in best.items():
            for ch in choices:
                key = score + ch.value
                cand = (cost + ch.more, changed + (ch.more > 0), (*picks, ch))
                if key not in nxt or cand[:2] < nxt[key][:2]:
                    nxt[key] = cand
        best = nxt
    middle = (max(target.low, -140) + min(target.high, 140)) / 2
    found = [((cost, changed, abs(score - middle)), score, picks)
             for score, (cost, changed, picks) in best.items()
             if target.low <= score <= target.high]
    if not found:
        return None
    key, score, picks = min(found, key=lambda f: f[0])
    return (key[0], key[1], score), picks


def plan_rank(tables: FmTables, counters: Mapping[str, int], target: RankRange,
              end: str | None = DEFAULT_END) -> Plan:
    """The cheapest way from ``counters`` to a win with rank ``target``."""
    counters = check_counters(counters)
    options = _options(tables, counters)
    ends = [end] if end else list(rank.END_ADJUSTMENT)
    found = []
    for e in ends:
        result = _cheapest(options, rank.BASE_SCORE + rank.END_ADJUSTMENT[e], target)
        if result:
            (cost, changed, score), picks = result
            found.append(((cost + END_COST[e], changed), e, score, picks))
    if not found:
        return Plan(target.name, False)
    (cost, _changed), e, score, picks = min(found, key=lambda f: f[0])
    return Plan(target.name, True, cost, score, e, picks)


@dataclass(frozen=True)
class Standing:
    """A win right now: score and rank (the frontend's rank meter)."""

    score: int
    result: rank.RankResult


def standing(tables: FmTables, counters: Mapping[str, int], end: str = DEFAULT_END
             ) -> Standing:
    """Score and rank if the duel ended now with ``end``."""
    counters = check_counters(counters)
    if end not in rank.END_ADJUSTMENT:
        raise ValueError(f"unknown end {end!r}; choose {', '.join(rank.END_ADJUSTMENT)}")
    score = rank.rank_score(tables, counters, rank.END_ADJUSTMENT[end])
    return Standing(score, rank.rank_result(score))


def plan_all(tables: FmTables, counters: Mapping[str, int], end: str | None = DEFAULT_END
             ) -> list[Plan]:
    """:func:`plan_rank` for every rank, best POW first."""
    return [plan_rank(tables, counters, r, end) for r in rank_ranges(tables)]


def duel_standing(duel: object, side: int = 0, end: str = DEFAULT_END) -> Standing:
    """The rank meter: score and rank ``side`` would get by winning ``duel`` now
    (``duel`` is an ``emucore.fm`` duel; only its public ``counters`` and ``tables`` are used)."""
    counters = counters_from_side(duel.counters(side))  # type: ignore[attr-defined]
    counters["lp"] = max(counters["lp"], LP_RANGE[0])  # a winner keeps at least 1 LP
    return standing(duel.tables, counters, end)  # type: ignore[attr-defined]
