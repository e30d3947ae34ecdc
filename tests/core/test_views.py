"""The engines' public views (emucore/dm1/view.py, emucore/paper/view.py) show what a player
may know and no more.

Source: the house standard "a computer's face-down card is never named on screen" and the
original games' tables (in DM1 the opponent's set monster shows only its back and stance; at
the paper table a set card is a back, the opponent's hand only its size). The states are
random positions of real duels (random legal play from a seeded start).
"""

from __future__ import annotations

from emucore.dm1 import view as dm1_view
from emucore.dm1.state import FACE_UP, ZONES
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper import view as paper_view
from tests.core.test_prompts import dm1_duel, random_states


def test_dm1_view_hides_the_other_sides_face_down_cards_until_revealed() -> None:
    hidden = 0
    for seed in (1, 2):
        duel = dm1_duel(seed)
        for state in random_states(duel, seed, 60):
            duel.restore(state)
            view = dm1_view.board_view(duel, 0)
            for side in (0, 1):
                for z in range(ZONES):
                    card, zone = duel.zone_card(side, z), view.zone(side, z)
                    face_up = bool(duel.v.zone_flags[side * ZONES + z] & FACE_UP)
                    if not card:
                        assert zone == dm1_view.EMPTY
                    elif side == 1 and not face_up:
                        hidden += 1
                        assert (zone.card, zone.atk, zone.level, zone.visible) == (
                            dm1_view.HIDDEN, 0, 0, False)
                        shown = zone.revealed()
                        assert (shown.card, shown.atk) == (card, duel.zone_attack(side, z))
                    else:
                        assert (zone.card, zone.atk) == (card, duel.zone_attack(side, z))
            assert [h.card for h in view.hand] == duel.hand_cards(0)
    assert hidden  # the positions include the computer's set monsters


def test_paper_view_hides_the_other_sides_hand_and_set_cards() -> None:
    hidden = 0
    for seed in (1, 2):
        duel = OCG.new_duel(seed)
        for state in random_states(duel, seed, 80):
            duel.restore(state)
            view = paper_view.board_view(duel, 0)
            assert view.sides[1].hand == () and view.sides[1].hand_count == len(
                duel.state.sides[1].hand)
            assert list(view.sides[0].hand) == duel.state.sides[0].hand
            for side in (0, 1):
                real = duel.state.sides[side]
                for row, shown in ((real.monsters, view.sides[side].monsters),
                                   (real.spells, view.sides[side].spells)):
                    for card, seen in zip(row, shown, strict=True):
                        if card is None:
                            assert seen is None
                        elif side == 1 and not card.face_up:
                            hidden += 1
                            assert seen.card == paper_view.HIDDEN and not seen.visible
                        else:
                            assert seen.card == card.card
    assert hidden
