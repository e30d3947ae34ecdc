"""AI-vs-AI duels: one duel to its end, and many from consecutive RNG indices.

The duel is created with both sides computer-played (``FmSetup.computer``), so it exports
the board before every action exactly as in ``fm duel --player ai`` and the frontend; the
one chooser, :func:`emucore.fm.ai.adapter.decide`, picks every action: side 1 as the chosen
duelist, side 0 (the player's deck) with the persona ``player_as`` (default:
choices.PLAYER_SIDE_PERSONA, i.e. the same duelist). A route's duel may instead give the
player's side a script of actions with a fallback (:func:`play_duel`). A game's ``digest``
is the final state digest, as ``fm duel --json`` reports it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from emucore.duel.protocol import IllegalAction
from emucore.fm.actions import Ended, FmAction
from emucore.fm.ai.adapter import decide, persona_of
from emucore.fm.ai.disc import Programs
from emucore.fm.overlay import OverlayTables
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw.psyq_rand import BOOT_STATE, consecutive_states, jump

MAX_STEPS = 5000   # far beyond any real duel (40 draws a side); reaching it is a bug
FALLBACKS = ("ai", "none")  # who plays the player's side once its script stops
SCRIPT_ILLEGAL, SCRIPT_ENDED = "script-illegal", "script-ended"  # reasons with fallback none


@dataclass(frozen=True)
class DuelResult:
    index: int
    winner: int | None   # 0 player side, 1 CPU, None unfinished
    reason: str
    rank: str
    drop: int
    turns: int
    steps: int
    fallbacks: int
    digest: str          # the final state digest
    rng_state: int = 0   # the RNG state as the duel ended (after the drop roll)
    player_actions: tuple[FmAction, ...] = ()  # the player's actions (kept for a script)
    scripted: int = 0    # how many of them came from the script

    def to_json(self) -> dict:
        """One game as ``fm sim --json`` lists it."""
        return {"index": self.index, "winner": self.winner, "turns": self.turns,
                "digest": self.digest, "drop": self.drop, "rank": self.rank}


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
    results: list[DuelResult] = field(default_factory=list)

    def add(self, r: DuelResult) -> None:
        self.games += 1
        self.results.append(r)
        self.turns += r.turns
        self.fallbacks += r.fallbacks
        self.reasons[r.reason] += 1
        if r.winner is None:
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
            "duels": [r.to_json() for r in self.results],
        }


def play_duel(setup: FmSetup, programs: Programs | None = None, player_as: int | None = None,
              index: int = 0, script: tuple[FmAction, ...] | None = None,
              fallback: str = "ai", effects: OverlayTables | None = None) -> DuelResult:
    """Play one duel to its end, the CPU side by the embedded AI. The player's side is the
    AI too, or, given ``script``, plays the script's actions in order until one is illegal
    (it is dropped there, with the rest of the script) or it runs out; then ``fallback``
    plays on: ``"ai"`` the embedded AI, ``"none"`` stops the duel unfinished with reason
    :data:`SCRIPT_ILLEGAL` or :data:`SCRIPT_ENDED`. Both sides are exported as computer
    sides when the AI may play the player (``setup.computer`` [0, 1]), else only the CPU's.
    ``effects``: the duel_effects tables (default the built-in ones; ``new_duel``)."""
    ai_player = script is None or fallback == "ai"
    duel = new_duel(replace(setup, computer=[0, 1] if ai_player else [1]), effects=effects)
    personas = (persona_of(duel, 0, player_as), persona_of(duel, 1))   # fixed for the duel
    end: Ended | None = None
    steps = fallbacks = 0
    pending = list(reversed(script)) if script is not None else []
    played: list[FmAction] = []
    scripted, stopped = 0, ""
    while not duel.over and steps < MAX_STEPS:
        events = None
        if pending and duel.acting_side == 0:
            try:
                events = duel.step(pending[-1])
                played.append(pending.pop())
                scripted += 1
            except IllegalAction:
                pending.clear()
                stopped = SCRIPT_ILLEGAL
        if events is None:
            if duel.acting_side == 0 and not ai_player:
                stopped = stopped or SCRIPT_ENDED
                break
            decision = decide(duel, programs, personas[duel.acting_side])
            fallbacks += decision.fallback
            if script is not None and duel.acting_side == 0:
                played.append(decision.action)
            events = duel.step(decision.action)
        for event in events:
            if isinstance(event, Ended):
                end = event
        steps += 1
    turns = duel.st.sides.turns[0] + duel.st.sides.turns[1]
    kept = (tuple(played), scripted)
    if end is None:
        return DuelResult(index, None, stopped or "unfinished", "", 0, turns, steps, fallbacks,
                          duel.digest(), duel.rng.state, *kept)
    return DuelResult(index, end.winner, end.reason, end.rank, end.drop, turns, steps,
                      fallbacks, duel.digest(), duel.rng.state, *kept)


def play_range(setup: FmSetup, first: int, count: int, programs: Programs | None = None,
               player_as: int | None = None, effects: OverlayTables | None = None
               ) -> list[DuelResult]:
    """Duels from consecutive RNG indices ``first .. first + count - 1``."""
    if count <= 0:
        return []
    states = consecutive_states(int(jump(BOOT_STATE, first)), count).tolist()
    return [play_duel(replace(setup, state=state), programs, player_as, index,
                      effects=effects)
            for index, state in enumerate(states, first)]


def summarize(duelist: int, results: Iterable[DuelResult],
              progress: Callable[[int], None] | None = None) -> SimSummary:
    summary = SimSummary(duelist)
    for r in results:
        summary.add(r)
        if progress:
            progress(summary.games)
    return summary
