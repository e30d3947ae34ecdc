"""tcglite: the simplified TCG of the 2002 starter decks as switches of the paper engine.

The decks are the two starter decks' normal monsters (Yugi 19, Kaiba 25; roms_tables/tcglite).
A short deck that runs out: the player who must draw from an empty deck loses (the TCG's own
deck-out rule, switch ``deck_out = LOSE_ON_DRAW``); see docs/paper.md.
"""

from __future__ import annotations

import functools

from emucore import tables
from emucore.paper.cards import MONSTER, CardDef, Catalogue, catalogue_of
from emucore.paper.decks import DeckList
from emucore.paper.profile import COIN, LOSE_ON_DRAW, Profile
from emucore.paper.system import PaperSystem

PROFILE = Profile(
    name="tcglite",
    phases=("draw", "main1", "battle", "main2", "end"),
    start_lp=8000,
    hand_size=5,
    deck_min=6,  # an opening hand of five and one draw
    deck_max=None,
    side_size=None,
    max_copies=3,
    first_player_draws=False,
    draw_optional=False,
    first_turn_attacks=False,
    monsters_per_turn=1,
    magic_per_turn=0,
    traps_per_turn=0,
    position_change=True,
    deck_out=LOSE_ON_DRAW,
    traps_stay=False,
    first_player=COIN,
    exodia_wins=False,
)


def load_catalogue() -> Catalogue:
    """The 44 normal monsters (no types or attributes in the source: none are needed)."""
    return catalogue_of(CardDef(int(r["id"]), str(r["name"]), MONSTER, "", int(r["level"]),
                                int(r["atk"]), int(r["def"]))
                        for r in tables.load("tcglite").cards)


def card_id(token: str) -> int:
    return tables.load("tcglite").card_id(token)


@functools.cache
def _starter(name: str) -> DeckList:
    return DeckList(tuple(tables.load("tcglite").decks[name]))


SYSTEM = PaperSystem("tcglite", PROFILE, load_catalogue, card_id,
                     {"yugi": lambda: _starter("yugi"), "kaiba": lambda: _starter("kaiba")},
                     ("yugi", "kaiba"))
