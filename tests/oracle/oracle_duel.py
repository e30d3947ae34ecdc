"""Duels for oracle tests, built and played through the public FM API only.

Decks are unshuffled (draw order = list order) and every turn plays the card at hand
position 0, so a side plays its deck front to back: turn k plays ``front[k - 1]``.
"""

from __future__ import annotations

from emucore import tables
from emucore.fm import state as S
from emucore.fm.actions import AUTO, EndTurn, Play
from emucore.fm.engine import FmDuel
from emucore.hw.psyq_rand import Rand

T = tables.load("fm")
FILLER = tuple(c for c in range(100, 200) if T.is_monster(c))


def deck(*front: int) -> tuple[int, ...]:
    """A 40-card deck drawn in the order given, padded with plain monsters."""
    return (front + FILLER)[:40]


def new_duel(player: tuple[int, ...], cpu: tuple[int, ...], *, lp: tuple[int, int] = (8000, 8000),
             state: int = 0x1234, computer: tuple[int, ...] = ()) -> FmDuel:
    """A duel against opponent 1; ``computer`` names the sides the computer plays (their
    actions are still given by the test)."""
    perm = tuple(range(40))
    return FmDuel(T, S.Shuffle(deck(*player), perm), S.Shuffle(deck(*cpu), perm), Rand(state),
                  opponent=1, lp=lp, computer=computer)


def play(d: FmDuel, cards: tuple[int, ...] = (0,), *, face_down: bool = False,
         zone: int = AUTO, star: int = 0) -> list:
    """The acting side's one play, returning its events."""
    return d.step(Play(cards, zone=zone, face_down=face_down, star=star))


def turn(d: FmDuel, cards: tuple[int, ...] = (0,), *, face_down: bool = False) -> list:
    """Play, then end the turn."""
    events = play(d, cards, face_down=face_down)
    d.step(EndTurn())
    return events
