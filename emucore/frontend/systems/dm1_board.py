"""The DM1 board as the duel screen shows it, and a step's events as beats to show one by one.

The engine applies a whole action at once (an attack, the destruction it causes and the LP it
costs); a player follows it one event at a time. :class:`Board` is what the screen draws: a
copy of the engine's zones, LP and the player's hand, read once per step. Each event of a step
becomes a :class:`Beat` holding its line, its motion and the board before and after it, so the
screen plays the step event by event and ends on the engine's own board. The board changes an
event makes are the event's own data (the zone it names, the LP it reports) or, for a zone it
fills, the engine's zone after the step: no rule is worked out here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from emucore.dm1.actions import DIRECT
from emucore.dm1.view import (
    ATTACK,
    DEFEND,
    EMPTY,
    HIDDEN,
    ZONES,
    Dm1View,
    HandCard,
    ZoneView,
)
from emucore.duel.protocol import Event, EventKind
from emucore.frontend.systems.dm1_text import describe

Slot = ZoneView  # one zone as shown

# Motions that show an outcome: they wait on the player's own turn too (placing a card, a
# draw or a pass of the player's own wait only on the computer's turn).
OUTCOMES = frozenset(("attack", "destroy", "life", "magic"))


@dataclass(frozen=True)
class Board:
    """What the duel screen draws: both sides' zones (side-major), LP, the player's hand,
    the terrain and the turn."""

    slots: tuple[Slot, ...]
    lp: tuple[int, int]
    hand: tuple[HandCard, ...]
    field: int
    turn: int

    @classmethod
    def of(cls, view: Dm1View) -> Board:
        """The engine's board now, from the player's view of it."""
        return cls(view.zones, view.lp, view.hand, view.field, view.turn)

    def slot(self, side: int, zone: int) -> Slot:
        return self.slots[side * ZONES + zone]

    def visible(self, side: int, zone: int) -> bool:
        """Whether the player may see the card in the zone (the view says)."""
        return self.slot(side, zone).visible

    def _with(self, side: int, zone: int, slot: Slot) -> Board:
        slots = list(self.slots)
        slots[side * ZONES + zone] = slot
        return replace(self, slots=tuple(slots))

    def revealed(self, side: int, zone: int) -> Board:
        """The board with the zone's card face-up (a battle shows both monsters)."""
        slot = self.slot(side, zone)
        return self._with(side, zone, slot.revealed()) if slot.card else self

    def after(self, event: Event, post: Board) -> Board:
        """The board once ``event`` has been shown; ``post`` is the engine's board after
        the whole step (where a zone the event fills ends up)."""
        change = _AFTER.get(event.kind)
        return change(self, event, post) if change is not None else self

    def _after_placed(self, event: Event, post: Board) -> Board:
        board = self._with(event.side, event.zone, post.slot(event.side, event.zone))
        return replace(board, hand=post.hand) if event.side == 0 else board

    def _after_destroyed(self, event: Event, post: Board) -> Board:
        return self._with(event.side, event.zone, EMPTY)

    def _after_life(self, event: Event, post: Board) -> Board:
        lp = list(self.lp)
        lp[event.side] = event.lp
        return replace(self, lp=(lp[0], lp[1]))

    def _after_order(self, event: Event, post: Board) -> Board:
        slot = self.slot(event.side, event.zone)
        return self._with(event.side, event.zone,
                          replace(slot, stance=ATTACK if event.attack else DEFEND))

    def _after_draw(self, event: Event, post: Board) -> Board:
        return replace(self, hand=post.hand) if event.side == 0 else self

    def _after_turn(self, event: Event, post: Board) -> Board:
        return replace(self, turn=event.turn)

    def _after_magic(self, event: Event, post: Board) -> Board:
        """A magic card's changes: the terrain, and each zone whose card stays (its ATK,
        level and face, a hidden card that the magic turned up) or that the card targeted
        (Elegant Egotist changes the card)."""
        board = replace(self, field=post.field, hand=post.hand if event.side == 0 else
                        self.hand)
        for side in (0, 1):
            for zone in range(ZONES):
                now, then = board.slot(side, zone), post.slot(side, zone)
                targeted = side == event.side and zone == event.target
                if then.card and (then.card == now.card or now.card == HIDDEN or targeted):
                    board = board._with(side, zone, then)
        return board


# How each event kind changes the board shown (kinds not listed change nothing).
_AFTER = {EventKind.PLACED: Board._after_placed, EventKind.FUSION: Board._after_placed,
          EventKind.DESTROYED: Board._after_destroyed, EventKind.LIFE: Board._after_life,
          "order": Board._after_order, EventKind.MAGIC: Board._after_magic,
          EventKind.EQUIP: Board._after_magic, EventKind.DRAW: Board._after_draw,
          EventKind.TURN: Board._after_turn}


@dataclass(frozen=True)
class Beat:
    """One event as shown: its log line, its motion ("" when it needs no wait), the side and
    zones it concerns, and the board before and after it."""

    line: str
    motion: str
    wait: bool
    event: Event
    before: Board
    after: Board

    @property
    def side(self) -> int:
        return getattr(self.event, "side", 0)

    @property
    def zone(self) -> int:
        return getattr(self.event, "zone", -1)

    @property
    def target(self) -> int:
        """The attacked zone of a battle (-1 for a direct attack or another event)."""
        target = getattr(self.event, "target", -1)
        return -1 if self.event.kind != EventKind.BATTLE or target == DIRECT else target


def beats(t: Any, events: list[Event], pre: Board, post: Board) -> list[Beat]:
    """The beats of one step: every event, its line read on the board as shown at that
    moment (so a face-down card stays unnamed), and whether it waits (the computer's
    events, and the outcomes of the player's)."""
    out: list[Beat] = []
    board = pre
    for event in events:
        if event.kind == EventKind.BATTLE:  # the battle shows both monsters face-up
            board = board.revealed(event.side, event.zone)
            if event.target != DIRECT:
                board = board.revealed(1 - event.side, event.target)
        after = board.after(event, post)
        said = describe(t, event, board)
        if said is not None:
            line, motion = said
            wait = bool(motion) and (getattr(event, "side", 0) == 1 or motion in OUTCOMES)
            out.append(Beat(line, motion, wait, event, board, after))
        elif out:
            out[-1] = replace(out[-1], after=after)  # a silent change: part of the last beat
        board = after
    return out
