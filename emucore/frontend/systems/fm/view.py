"""A read-only picture of an FM duel for the screens, taken after each step through the
engine's public board view (``FmDuel.card/lp/counters/deck_remaining/terrain``), never
through its records."""

from __future__ import annotations

from dataclasses import dataclass

from emucore.fm.engine import CardView, FmDuel

ROWS = ("hand", "monster", "magic")


@dataclass(frozen=True)
class SideView:
    lp: int
    deck_left: int
    hand: tuple[CardView | None, ...]
    monsters: tuple[CardView | None, ...]
    magic: tuple[CardView | None, ...]
    counters: dict[str, int]
    swords: int

    def row(self, name: str) -> tuple[CardView | None, ...]:
        return {"hand": self.hand, "monster": self.monsters, "magic": self.magic}[name]


@dataclass(frozen=True)
class BoardView:
    sides: tuple[SideView, SideView]
    acting_side: int
    over: bool
    terrain: int
    winner: int | None  # None while the duel runs
    rng_state: int


def board_view(duel: FmDuel) -> BoardView:
    """Everything the duel screen draws, read once after a step."""
    sides = []
    for side in (0, 1):
        rows = [tuple(duel.card(side, row, col) for col in range(5)) for row in ROWS]
        sides.append(SideView(duel.lp(side), len(duel.deck_remaining(side)), *rows,
                              duel.counters(side), duel.swords(side)))
    return BoardView((sides[0], sides[1]), duel.acting_side, duel.over, duel.terrain,
                     duel.winner, duel.rng_fork().state)
