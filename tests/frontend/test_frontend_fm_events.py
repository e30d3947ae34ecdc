"""Duel events become the messages, sounds, zone blinks and card showcases the screen plays."""

from __future__ import annotations

import pytest

from emucore.fm.actions import Battle, DuelEnd, Fusion, LifeChange, Placed
from emucore.frontend.systems.fm.events import describe
from emucore.frontend.systems.fm.session import FmGame


@pytest.fixture(scope="module")
def game():
    return FmGame()


def test_fusion_shows_both_materials_and_the_result(game):
    message = describe(game, Fusion(0, 2, 8, 638), {0})
    assert message.cards == (2, 8, 638) and message.joiner == "+"
    assert message.text == (f"Fusion! {game.tables.names[2]} + {game.tables.names[8]} = "
                            f"{game.tables.names[638]}")
    assert message.sound == "fusion"


def test_battle_blinks_both_zones(game):
    message = describe(game, Battle(1, 5, 3, 9, 0, 1, "win"), {0})
    assert message.focus == ((1, "monster", 3), (0, "monster", 0))
    assert message.cards == (5, 9) and message.joiner == "VS"


def test_the_opponents_face_down_card_stays_hidden(game):
    hidden = describe(game, Placed(1, 5, "monster", 2, True, 0), {0})
    assert hidden.text == "Opp: a card set"
    shown = describe(game, Placed(0, 5, "monster", 2, True, 0), {0})
    assert game.tables.names[5] in shown.text


def test_lp_change_flashes_the_side(game):
    message = describe(game, LifeChange(1, -500, 7500), {0})
    assert (message.lp_side, message.lp_delta) == (1, -500) and "7500" in message.text


def test_end_of_duel_two_players(game):
    end = DuelEnd(1, "lp", (60, 40), "C-POW", 0, "bcd", 0)
    assert describe(game, end, {0, 1}).text == "Player 2 wins!"
    assert describe(game, end, {0}).sound == "lose"
