"""ocg1999/tcglite screens on the psx machine, driven headless by pad words."""

from __future__ import annotations

import pytest
from paper_kit import board, duel

from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.frontend.app import App
from emucore.frontend.systems import ocg1999 as screens
from emucore.frontend.systems import paper_board
from emucore.frontend.systems import tcglite as tcg_screens
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.actions import ATTACK, EndTurn, Set, Summon
from emucore.paper.view import board_view

NOTHING = IDLE["psx"]


@pytest.fixture
def app(headless_app):
    return headless_app("psx", "ocg1999")


def press(app: App, *buttons: str, pad: int = 0, idle: int = 1) -> None:
    """One frame with ``buttons`` held on ``pad``, then ``idle`` frames of nothing."""
    word = word_from_buttons("psx", set(buttons))
    app.step((word, NOTHING) if pad == 0 else (NOTHING, word))
    for _ in range(idle):
        app.step((NOTHING, NOTHING))


def start(app: App, mode_downs: int, title=screens.title_screen) -> None:
    app.switch(title(app))
    for _ in range(mode_downs):
        press(app, "down")
    press(app, "cross")  # the mode
    press(app, "cross")  # player 1's deck: the first
    press(app, "down")
    press(app, "cross")  # player 2's deck: the second


def label(d, action) -> str:
    """The screen's label of one of the acting side's choices, read from its view."""
    return paper_board.action_label(d.catalogue, board_view(d, d.acting_side), action)


def end_turn(app: App, screen, pad: int = 0) -> None:
    """Start opens the turn's own actions; End turn is the last of them."""
    press(app, "start", pad=pad)
    labels = [label(screen.duel, a) for a in screen.choices]
    assert labels[-1] == "End turn"
    for _ in range(len(labels) - 1):
        press(app, "down", pad=pad)
    press(app, "cross", pad=pad)


def settle(app: App, screen) -> None:
    """Let a banner and the computer's turn play out (up to 3000 frames)."""
    for _ in range(3000):
        if screen.banner is None and (screen.duel.acting_side in screen.humans or
                                      screen.duel.over):
            return
        app.step((NOTHING, NOTHING))


def test_vs_computer_duel_played_from_the_pad(app):
    start(app, 0)
    screen = app.screen
    assert isinstance(screen, screens.DuelScreen) and screen.humans == {0}
    duel = screen.duel
    assert app.fb.pixels.shape == (240, 320)
    assert screen.banner is not None and screen.banner[0].startswith("TURN 1")
    settle(app, screen)
    assert duel.acting_side == 0
    turn = duel.state.turn
    end_turn(app, screen)
    assert duel.state.turn == turn + 1 and duel.acting_side == 1
    noted = screen.noted
    settle(app, screen)  # the computer plays its turn step by step, each action logged
    assert duel.acting_side == 0 or duel.over
    assert screen.noted > noted


def test_the_cursor_lists_what_a_hand_card_can_do(app):
    start(app, 0)
    screen = app.screen
    settle(app, screen)
    duel = screen.duel
    hand = duel.state.sides[0].hand
    for col in range(len(hand)):
        screen.row, screen.col = "hand", col
        press(app, "cross")
        if screen.choices:
            break
        assert app.notices[-1] in {f"{t}." for t in paper_board.REFUSALS.values()}
    assert screen.choices and all(getattr(a, "hand", None) == col for a in screen.choices)
    before = len(hand)
    press(app, "cross")  # the first thing this card can do
    assert len(duel.state.sides[0].hand) < before or duel.state.sides[0].spells


def test_two_players_read_their_own_pads_and_the_result_is_shown(app):
    start(app, 1)
    screen = app.screen
    duel = screen.duel
    assert screen.humans == {0, 1}
    settle(app, screen)
    first = duel.acting_side
    assert screen.handing_over  # the hand stays face down until its player takes the pad
    press(app, "cross", pad=1 - first)  # the other player's pad does nothing
    press(app, "start", pad=1 - first)
    assert screen.handing_over and not screen.choices
    press(app, "cross", pad=first)
    assert not screen.handing_over
    end_turn(app, screen, pad=first)
    assert duel.acting_side == 1 - first and screen.handing_over
    duel.state.sides[first].lp = 0  # settle it: the next action ends the duel
    duel.step(EndTurn())
    for _ in range(100):  # a turn banner, then the end of the duel
        app.step((NOTHING, NOTHING))
    assert isinstance(app.screen, screens.ResultScreen)
    press(app, "cross")
    assert isinstance(app.screen, screens.TitleScreen)


def test_match_mode_moves_on_to_the_next_duel_and_counts_the_record(app):
    start(app, 2)
    screen = app.screen
    assert screen.match is not None
    screen.duel.state.sides[1].lp = 0
    screen.duel.step(EndTurn())
    for _ in range(100):  # a turn banner, then the end of the duel
        app.step((NOTHING, NOTHING))
    result = app.screen
    assert isinstance(result, screens.ResultScreen) and result.game.record["wins"] == 1
    press(app, "cross")
    siding = app.screen
    assert isinstance(siding, screens.SideDeckScreen) and siding.side == 0
    deck_before = siding.match.decks[0]
    press(app, "cross")  # mark the first deck card
    press(app, "right")
    press(app, "cross")  # and the first side-deck card: swapped
    deck_after = siding.match.decks[0]
    assert deck_after != deck_before and len(deck_after.main) == 40
    assert sorted(deck_after.main + deck_after.side) == sorted(deck_before.main +
                                                               deck_before.side)
    press(app, "start")
    assert isinstance(app.screen, screens.DuelScreen)
    assert app.screen.match.results == [0] and app.screen.duel is not screen.duel
    saved = screens.PaperGame(screens.OCG)
    assert saved.load() is None and saved.record["wins"] == 1


def test_two_player_match_sides_each_human_in_turn(app):
    start(app, 3)
    screen = app.screen
    assert screen.match is not None and screen.humans == {0, 1}
    screen.duel.state.sides[0].lp = 0
    screen.duel.step(EndTurn())
    for _ in range(100):  # a turn banner, then the end of the duel
        app.step((NOTHING, NOTHING))
    press(app, "cross")
    assert app.screen.side == 0
    press(app, "start")
    assert isinstance(app.screen, screens.SideDeckScreen) and app.screen.side == 1
    press(app, "start", pad=1)
    assert isinstance(app.screen, screens.DuelScreen)


def test_tcglite_title_has_no_match_and_plays(app):
    app.switch(tcg_screens.title_screen(app))
    assert app.screen.modes == ["Vs Computer", "Two Players"]
    start(app, 0, tcg_screens.title_screen)
    assert isinstance(app.screen, screens.DuelScreen)
    assert app.screen.duel.profile.name == "tcglite"


def test_a_corrupt_save_is_kept_aside(app):
    game = screens.PaperGame(screens.OCG)
    game.save_file.path.parent.mkdir(parents=True, exist_ok=True)
    game.save_file.path.write_text("{not json")
    assert "corrupt save" in game.load()
    assert game.save_file.path.with_name("save.json.corrupt-1").exists()


def test_the_new_actions_have_player_labels():
    """The draw choice, a set magic card and a response window read as a player says them."""
    d = duel(OCG)
    d.step(EndTurn())
    assert [label(d, a) for a in d.legal_actions()] == [
        "Draw a card", "Skip the draw", "End turn"]
    d = duel(OCG)
    board(d, 0, hand=["Sparks", "Hitotsu-Me Giant"])
    board(d, 1, spells=[("Trap Hole", False)])
    assert label(d, Set(0)) == "Set Sparks face-down"
    d.step(Summon(1, ATTACK))
    assert [label(d, a) for a in d.legal_actions()] == ["Trap Hole", "No answer"]
