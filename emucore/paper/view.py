"""A public, frozen picture of a paper duel (ocg1999, tcglite) as one side may know it.

The screens draw from this view and choose through the protocol's prompts
(``Duel.options``/``action_for``); they never read the duel's state. What a player at the
table sees: both sides' LP, deck and graveyard sizes, every card face-up on the field, the
own hand and the own face-down cards; the other side's face-down cards are
:data:`HIDDEN` and its hand only a count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from emucore.paper.state import ZONES

if TYPE_CHECKING:
    from emucore.paper.engine import PaperDuel

HIDDEN = -1  # the card of a zone the viewer may not see


@dataclass(frozen=True)
class ZoneCard:
    """A zone's occupant: its card (:data:`HIDDEN` when the viewer may not see it) and face."""

    card: int
    face_up: bool

    @property
    def visible(self) -> bool:
        return self.card != HIDDEN


@dataclass(frozen=True)
class MonsterView(ZoneCard):
    """A monster zone's occupant; ``attack``: in attack position."""

    attack: bool


@dataclass(frozen=True)
class SpellView(ZoneCard):
    """A magic/trap zone's occupant; ``spent``: a used trap that stays on the field."""

    spent: bool


@dataclass(frozen=True)
class SideView:
    """One side of the table: LP, deck and graveyard sizes, the hand (the cards for the
    viewer's own side, else empty) and its size, the two rows of zones."""

    lp: int
    deck: int
    grave: int
    hand: tuple[int, ...]
    hand_count: int
    monsters: tuple[MonsterView | None, ...]
    spells: tuple[SpellView | None, ...]


@dataclass(frozen=True)
class PaperView:
    """The table as ``for_side`` sees it: both sides, the turn, whose turn it is, the phase's
    name, the Field card in play (0: none) and whether the rules use magic/trap zones."""

    for_side: int
    sides: tuple[SideView, SideView]
    turn: int
    active: int
    phase: str
    field: int
    spell_zones: bool


def board_view(duel: PaperDuel, for_side: int) -> PaperView:
    """The duel now as ``for_side`` may know it."""
    st = duel.state
    sides = []
    for i, s in enumerate(st.sides):
        mine = i == for_side
        monsters = tuple(None if m is None else
                         MonsterView(m.card if mine or m.face_up else HIDDEN, m.face_up, m.attack)
                         for m in s.monsters)
        spells = tuple(None if c is None else
                       SpellView(c.card if mine or c.face_up else HIDDEN, c.face_up, c.spent)
                       for c in s.spells)
        sides.append(SideView(s.lp, len(s.deck), len(s.grave), tuple(s.hand) if mine else (),
                              len(s.hand), monsters, spells))
    profile = duel.profile
    return PaperView(for_side, (sides[0], sides[1]), st.turn, st.active, duel.phase,
                     duel.field_card(), bool(profile.magic_per_turn or profile.traps_per_turn))


__all__ = ["HIDDEN", "ZONES", "MonsterView", "PaperView", "SideView", "SpellView", "ZoneCard",
           "board_view"]
