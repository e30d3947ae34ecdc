"""AI-vs-AI duels: one duel to its end, and many from consecutive RNG indices.

Both sides are driven by :func:`emucore.fm.ai.adapter.choose_action`: side 1 as the chosen
duelist, side 0 (the player's deck) with the persona ``player_as`` (default:
choices.PLAYER_SIDE_PERSONA, i.e. the same duelist).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from emucore.fm.actions import DuelEnd
from emucore.fm.ai.adapter import choose_action, memory
from emucore.fm.ai.disc import Programs
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw.psyq_rand import BOOT_STATE, jump

MAX_STEPS = 5000   # far beyond any real duel (40 draws a side); reaching it is a bug


@dataclass(frozen=True)
class DuelResult:
    index: int
    winner: int          # 0 player side, 1 CPU, -1 unfinished
    reason: str
    rank: str
    drop: int
    turns: int
    steps: int
    fallbacks: int


@dataclass
class SimSummary:
    """Win rate, rank and drop distributions over many duels."""

    duelist: int
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    fallbacks: int = 0
    turns: int = 0
    ranks: Counter = field(default_factory=Counter)     # the player's rank on its wins
    drops: Counter = field(default_factory=Counter)     # card id -> count
    reasons: Counter = field(default_factory=Counter)

    def add(self, r: DuelResult) -> None:
        self.games += 1
        self.turns += r.turns
        self.fallbacks += r.fallbacks
        self.reasons[r.reason] += 1
        if r.winner < 0:
            self.unfinished += 1
        elif r.winner == 0:
            self.wins += 1
            self.ranks[r.rank] += 1
            if r.drop:
                self.drops[r.drop] += 1

    def to_json(self, names: list[str]) -> dict:
        return {
            "duelist": self.duelist, "games": self.games, "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "unfinished": self.unfinished, "engine_refusals": self.fallbacks,
            "mean_turns": self.turns / self.games if self.games else 0.0,
            "reasons": dict(self.reasons), "ranks": dict(self.ranks.most_common()),
            "drops": [{"id": c, "name": names[c], "count": n}
                      for c, n in self.drops.most_common()],
        }


def play_duel(setup: FmSetup, programs: Programs | None = None, player_as: int | None = None,
              index: int = 0) -> DuelResult:
    """Play one AI-vs-AI duel to its end."""
    duel = new_duel(setup)
    personas = (player_as, None)
    end: DuelEnd | None = None
    steps = 0
    while not duel.over and steps < MAX_STEPS:
        action = choose_action(duel, programs, personas[duel.acting_side])
        for event in duel.step(action):
            if isinstance(event, DuelEnd):
                end = event
        steps += 1
    turns = int(duel.st.side["turns"].sum())
    fallbacks = memory(duel).fallbacks
    if end is None:
        return DuelResult(index, -1, "unfinished", "", 0, turns, steps, fallbacks)
    return DuelResult(index, end.winner, end.reason, end.rank, end.drop, turns, steps,
                      fallbacks)


def play_range(setup: FmSetup, first: int, count: int, programs: Programs | None = None,
               player_as: int | None = None) -> list[DuelResult]:
    """Duels from consecutive RNG indices ``first .. first + count - 1``."""
    out = []
    for index in range(first, first + count):
        one = FmSetup(**{**setup.to_json(), "state": int(jump(BOOT_STATE, index))})
        out.append(play_duel(one, programs, player_as, index))
    return out


def summarize(duelist: int, results: Iterable[DuelResult],
              progress: Callable[[int], None] | None = None) -> SimSummary:
    summary = SimSummary(duelist)
    for r in results:
        summary.add(r)
        if progress:
            progress(summary.games)
    return summary
