"""The duel screen turns pad presses into exactly the Duel-protocol actions the player means."""

from __future__ import annotations

import pytest
from frontend_fmdriver import new_app, press, wait

from emucore.fm.actions import DIRECT, Attack, ChangePosition, EndTurn, Play
from emucore.frontend.systems.fm.duel import DuelScreen
from emucore.frontend.systems.fm.session import FmGame

MONSTER_DECK = [card for card in range(2, 15) for _ in range(3)] + [15]


class Recorder:
    """A duel wrapper that records every action the screen steps (the protocol only)."""

    def __init__(self, duel) -> None:
        self.duel, self.actions = duel, []

    def step(self, action):
        self.actions.append(action)
        return self.duel.step(action)

    def __getattr__(self, name):
        return getattr(self.duel, name)


def start(deck: list[int]):
    """A free duel of ``deck`` on the screen, its opening messages skipped."""
    app = new_app()
    game = FmGame()
    game.new_game()
    game.data["deck"] = list(deck)
    duel = Recorder(game.start_duel(1))
    screen = DuelScreen(game, duel, None, 1)
    app.switch(screen)
    press(app, "cross")  # skip the opening messages
    return app, screen, duel


@pytest.fixture
def duel_app():
    return start(MONSTER_DECK)


def test_raised_cards_are_numbered_and_played_in_raise_order(duel_app):
    app, screen, duel = duel_app
    press(app, "right")
    press(app, "right")
    press(app, "up")  # raise hand card 2 first
    press(app, "left")
    press(app, "left")
    press(app, "up")  # then hand card 0
    assert screen.ui.raised == [2, 0]
    press(app, "cross")
    assert screen.ui.mode == "face"
    press(app, "right")  # face down
    press(app, "cross")
    assert screen.ui.mode == "zone" and screen.ui.zone_row == "monster"
    press(app, "cross")
    assert screen.ui.mode == "star"
    press(app, "right")  # the second guardian star
    press(app, "cross")
    assert duel.actions == [Play((2, 0), 0, True, 1)]
    assert screen.ui.mode == "field"


def test_cancel_backs_out_without_acting(duel_app):
    app, screen, duel = duel_app
    press(app, "up")
    press(app, "cross")
    press(app, "circle")
    assert screen.ui.mode == "hand" and screen.ui.raised == []
    assert duel.actions == []


def settle(app, screen) -> None:
    """Skip the messages of the last action (Cross skips; it does not act meanwhile)."""
    while screen.queue or screen.timer:
        press(app, "cross")


def play_first_card(app, screen) -> None:
    for _ in range(4):  # choose, face up, zone, star
        press(app, "cross")
    settle(app, screen)


def test_position_change_end_turn_and_attack(duel_app):
    app, screen, duel = duel_app
    play_first_card(app, screen)
    assert duel.actions == [Play((0,), 0, False, 0)]
    press(app, "triangle")
    assert duel.actions[-1] == ChangePosition(0)
    settle(app, screen)
    press(app, "start")
    assert duel.actions[-1] == EndTurn()
    for _ in range(3000):  # the computer's turn plays out
        settle(app, screen)
        if screen.view.acting_side == 0 or screen.view.over:
            break
        wait(app, 1)
    assert screen.view.acting_side == 0 and screen.ui.mode == "hand"
    play_first_card(app, screen)
    mine = screen.view.sides[0].monsters
    ready = [c for c in range(5) if mine[c] is not None and not mine[c].used]
    assert ready, "a monster placed this turn can attack"
    while screen.ui.cursor != ready[0]:
        press(app, "right")
    press(app, "cross")
    assert screen.ui.mode == "target"
    theirs = screen.view.sides[1].monsters
    expected = [c for c in range(5) if theirs[c] is not None] or [DIRECT]
    assert screen.ui.cursor == expected[0]
    press(app, "cross")
    assert duel.actions[-1] == Attack(ready[0], expected[0])


def test_a_refused_computer_action_is_replaced_by_a_legal_one(duel_app, monkeypatch):
    import emucore.fm.ai
    app, screen, duel = duel_app
    play_first_card(app, screen)
    press(app, "start")
    settle(app, screen)
    assert screen.view.acting_side == 1 and duel.phase == 0  # the computer's hand phase
    monkeypatch.setattr(emucore.fm.ai, "choose_action", lambda d: Attack(0, DIRECT))
    before = len(duel.actions)
    wait(app, 25)
    refused, taken = duel.actions[before:before + 2]
    assert refused == Attack(0, DIRECT) and isinstance(taken, Play)
    assert "The hand phase allows exactly one play" in app.notices[-1]
    assert "[" not in app.notices[-1] and app.notices[-1].endswith(".")  # one sentence


def test_field_cursor_can_look_at_but_not_use_the_opponents_cards(duel_app):
    app, screen, duel = duel_app
    play_first_card(app, screen)
    assert screen.ui.mode == "field" and screen.ui.row == "monster"
    press(app, "up")
    press(app, "up")
    press(app, "up")  # stops at the top row
    assert screen.ui.row == "opp_magic"
    press(app, "cross")
    press(app, "triangle")
    assert duel.actions == [Play((0,), 0, False, 0)]
    press(app, "down")
    press(app, "down")
    press(app, "down")
    press(app, "down")
    assert screen.ui.row == "magic"


def test_the_board_changes_only_as_the_message_that_explains_it_plays(duel_app):
    """Issue 14: the board must not show an outcome before its message (the defender stays
    until "VS"). A played card appears in its zone when "placed" shows, not before."""
    app, screen, duel = duel_app
    press(app, "cross")
    press(app, "cross")
    press(app, "cross")  # face up, zone 0 ...
    assert screen.ui.mode == "star"
    app.step()  # nothing pressed: the star prompt stays
    screen._step(app, Play((0,), 0, False, 0))
    assert screen.view.sides[0].monsters[0] is not None  # the engine placed it at once
    assert screen.shown.sides[0].monsters[0] is None  # the screen has not shown it yet
    texts = []
    while screen.queue or screen.timer:
        app.step()
        if screen.current and screen.current.text not in texts:
            texts.append(screen.current.text)
            if "placed" in screen.current.text:
                assert screen.shown.sides[0].monsters[0] is not None
    app.step()
    assert screen.shown == screen.view and any("placed" in t for t in texts)


EQUIP_DECK = [card for card in range(301, 315) for _ in range(3)][:40]  # equips only (type 23)


def test_the_screen_offers_what_the_engine_offers_for_a_lone_equip():
    """Source: the engine's hand-phase rule (emucore/fm/legal.py ``hand_phase``: a face-up
    equip goes onto an occupied monster column, a face-down one is set in the magic/trap
    row) and its refusal name ``equip-needs-monster`` (emucore/fm/engine.py ``_landing``):
    with no monster on the field the screen refuses face up with the engine's reason and
    offers the five magic/trap columns face down."""
    from emucore.frontend.systems.fm import duel as fm_duel
    app, screen, duel = start(EQUIP_DECK)
    press(app, "cross")  # the first card
    press(app, "cross")  # face up: refused
    assert screen.ui.mode == "face"
    assert app.notices[-1] == fm_duel.REFUSALS["equip-needs-monster"]
    press(app, "right")  # face down
    press(app, "cross")
    assert (screen.ui.mode, screen.ui.zone_row, screen.ui.zones) == ("zone", "magic",
                                                                     [0, 1, 2, 3, 4])
    press(app, "right")
    press(app, "cross")  # a set card has one star: the play is made at once
    assert duel.actions == [Play((0,), 1, True, 0)]
