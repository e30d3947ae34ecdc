"""The events whose meaning and fields the systems share: one class per idea.

DM1 and paper emit these (``emucore.dm1.actions``, ``emucore.paper.actions`` re-export
them); a system's own idea keeps a class of its own. FM keeps its own classes for these
kinds too, under the same names (``emucore.fm.actions.Drew``, ``LifeChanged``, ``Ended``,
``TurnStart``): every FM event carries the stream's account (``rand_calls``, in its JSON as
well), and FM's draw and end say more (the hand slot; scores, rank and drop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from emucore.duel.protocol import Event, EventKind


@dataclass(frozen=True)
class TurnStart(Event):
    """A side's turn begins (``turn`` counts the duel's turns from 1)."""

    kind: ClassVar[str] = EventKind.TURN
    side: int
    turn: int


@dataclass(frozen=True)
class Drew(Event):
    """A side drew ``card``."""

    kind: ClassVar[str] = EventKind.DRAW
    side: int
    card: int


@dataclass(frozen=True)
class LifeChanged(Event):
    """A side's life points changed by ``delta`` to ``lp``."""

    kind: ClassVar[str] = EventKind.LIFE
    side: int
    delta: int
    lp: int


@dataclass(frozen=True)
class Ended(Event):
    """The duel is over: ``winner`` 0 or 1, or ``protocol.DRAW`` (-1) for a draw, and why."""

    kind: ClassVar[str] = EventKind.ENDED
    winner: int
    reason: str
