"""Duel events become the messages, sounds, zone blinks and card showcases the screen plays,
and change the shown board one by one."""

from __future__ import annotations

import pytest

from emucore.fm.actions import (
    Battle,
    Destroyed,
    Ended,
    Flip,
    Fusion,
    LifeChanged,
    Placed,
    PositionChange,
    TerrainChange,
)
from emucore.fm.view import BoardView, SideView, apply
from emucore.frontend.systems.fm import events
from emucore.frontend.systems.fm.session import FmGame

EMPTY = (None,) * 5
BOARD = BoardView((SideView(8000, 35, EMPTY, EMPTY, EMPTY, {}, 0),) * 2, 0, False, 0, None, 0)


@pytest.fixture(scope="module")
def game():
    return FmGame()


def describe(game, event, humans, shown=BOARD):
    return events.describe(game, event, humans, shown)


def _board(*events_) -> BoardView:
    shown = BOARD
    for event in events_:
        shown = apply(shown, event)
    return shown


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


def test_lp_change_names_the_new_total(game):
    message = describe(game, LifeChanged(1, -500, 7500), {0})
    assert message.text == "Opp LP -500 = 7500" and message.sound == "damage"


def test_end_of_duel_two_players(game):
    end = Ended(1, "lp", (60, 40), "C-POW", 0, "bcd", 0)
    assert describe(game, end, {0, 1}).text == "Player 2 wins!"
    assert describe(game, end, {0}).sound == "lose"


def test_a_set_card_is_never_named_until_it_flips(game):
    """Issue 14's report: "Opp: Shadow Specter to defence" right after "Opp: a card set"."""
    board = _board(Placed(1, 5, "monster", 2, True, 0))
    turn = describe(game, PositionChange(1, 2, 5, True), {0}, board)
    assert turn.text == "Opp: a set card to defence"
    assert describe(game, Destroyed(1, "monster", 2, 5), {0}, board).text == \
        "A set card destroyed"
    flipped = apply(board, Flip(1, "monster", 2, 5))
    assert game.tables.names[5] in describe(game, Destroyed(1, "monster", 2, 5), {0},
                                            flipped).text


def test_two_players_read_one_log_so_neither_set_card_is_named(game):
    board = _board(Placed(0, 5, "monster", 2, True, 0))
    assert describe(game, Placed(0, 5, "monster", 2, True, 0), {0, 1}).text == "P1: a card set"
    assert describe(game, PositionChange(0, 2, 5, True), {0, 1}, board).text == \
        "P1: a set card to defence"


def test_the_shown_board_follows_the_events():
    board = _board(Placed(1, 5, "monster", 2, True, 0), PositionChange(1, 2, 5, True))
    card = board.sides[1].monsters[2]
    assert (card.card, card.face_down, card.defending) == (5, True, True)
    board = _board(Placed(0, 7, "monster", 0, False, 0), Battle(0, 7, 0, 5, 2, 1, "win"))
    assert board.sides[0].monsters[0].used
    board = apply(_board(Placed(1, 5, "monster", 2, False, 0)), Destroyed(1, "monster", 2, 5))
    assert board.sides[1].monsters[2] is None
    assert apply(BOARD, LifeChanged(1, -500, 7500)).sides[1].lp == 7500
    assert apply(BOARD, TerrainChange(3)).terrain == 3


def test_unknown_event_kinds_play_nothing_and_change_nothing(game):
    class Animation:
        kind = "animation"
    assert describe(game, Animation(), {0}) is None
    assert apply(BOARD, Animation()) is BOARD
