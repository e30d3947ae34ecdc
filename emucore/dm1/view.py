"""A public, frozen picture of a DM1 duel as one side may know it, for the screens.

The screens draw from this view and choose through the protocol's prompts
(``Duel.options``/``action_for``); they never read the duel record. A card the viewer may
not see (the other side's face-down monster) is shown as :data:`HIDDEN`, without ATK or
level; what it is stays sealed in the zone (:meth:`ZoneView.revealed`) for the moment an
event of the engine turns it up (a battle shows both monsters).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple

from emucore.dm1.state import ATTACK, DEFEND, FACE_UP, ORDERS, OVER, PLAY, ZONES

if TYPE_CHECKING:
    from emucore.dm1.duel import Dm1Duel
    from emucore.duel.protocol import Event

HIDDEN = -1  # ZoneView.card of a card the viewer may not see (0 is an empty zone)
PHASES = {PLAY: "play", ORDERS: "orders", OVER: "over"}


@dataclass(frozen=True)
class ZoneView:
    """One zone as the viewer sees it: its card (0 empty, :data:`HIDDEN` unseen), ATK and
    DEF as fought, stance, level and whether it is face-up."""

    card: int
    atk: int
    defense: int
    stance: int
    level: int
    face_up: bool
    sealed: tuple[int, int, int, int] | None = field(default=None, repr=False)
    """(card, atk, defense, level) of a hidden card, kept for :meth:`revealed` only."""

    @property
    def attacking(self) -> bool:
        return self.stance == ATTACK

    @property
    def visible(self) -> bool:
        """Whether the viewer may see (and a screen name) the card."""
        return self.card > 0

    def revealed(self) -> ZoneView:
        """The zone once its card is turned face-up (a battle shows both monsters)."""
        if self.sealed is None:
            return replace(self, face_up=True) if self.card else self
        card, atk, defense, level = self.sealed
        return ZoneView(card, atk, defense, self.stance, level, True)


EMPTY = ZoneView(0, 0, 0, DEFEND, 0, False)


class HandCard(NamedTuple):
    """A hand card the viewer holds: its number, whether it is a monster, and its ATK as
    printed (0 for a magic card)."""

    card: int
    monster: bool
    atk: int


@dataclass(frozen=True)
class Dm1View:
    """Both sides' zones (side-major), LP and hand sizes, the viewer's own hand, the terrain,
    the turn and phase, and (in the orders phase) the zone whose order is asked next with
    why it may not attack (``Dm1Duel.attack_block`` names, None when it may)."""

    for_side: int
    zones: tuple[ZoneView, ...]
    lp: tuple[int, int]
    hand_count: tuple[int, int]
    hand: tuple[HandCard, ...]
    field: int
    turn: int
    phase: str
    acting: int
    ordering: int
    attack_block: str | None

    def zone(self, side: int, zone: int) -> ZoneView:
        return self.zones[side * ZONES + zone]


def board_view(duel: Dm1Duel, for_side: int = 0) -> Dm1View:
    """The duel now as ``for_side`` may know it."""
    v = duel.v
    flags = v.zone_flags
    zones = []
    for side in (0, 1):
        for z in range(ZONES):
            card = duel.zone_card(side, z)
            if not card:
                zones.append(EMPTY)
                continue
            face_up = bool(flags[side * ZONES + z] & FACE_UP)
            facts = (card, duel.zone_attack(side, z), duel.zone_defense(side, z),
                     duel.zone_level(side, z))
            if side == for_side or face_up:
                zones.append(ZoneView(facts[0], facts[1], facts[2], duel.zone_stance(side, z),
                                      facts[3], face_up))
            else:
                zones.append(ZoneView(HIDDEN, 0, 0, duel.zone_stance(side, z), 0, False,
                                      facts))
    t, atk = duel.t, duel.atk
    hand = tuple(HandCard(c, t.is_monster(c), atk[0][1][c] if t.is_monster(c) else 0)
                 for c in duel.hand_cards(for_side))
    phase = PHASES[v.phase[0]]
    ordering = duel.next_to_order() if phase == "orders" else -1
    block = duel.attack_block(v.acting[0], ordering) if ordering >= 0 else None
    return Dm1View(for_side, tuple(zones), (duel.lp(0), duel.lp(1)),
                   (v.hand_count[0], v.hand_count[1]), hand, v.field[0], v.turn[0], phase,
                   v.acting[0], ordering, block)


def opening_events(duel: Dm1Duel) -> list[Event]:
    """What happened as the duel was set up (the first turn begins), for the screen to show
    before the first choice."""
    return list(duel.opening_events)
