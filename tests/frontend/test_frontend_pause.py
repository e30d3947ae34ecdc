"""The pause menu Esc opens (issue 14, item 6): resume, forfeit, options, quit with a
question, over any screen, through the pad."""

from __future__ import annotations

from frontend_fmdriver import press, wait

from emucore.frontend import tour
from emucore.frontend.pause import Pause
from emucore.frontend.widgets import GAUGE_EMPTY, GAUGE_FULL

DUEL = tour.STOPS["fm"][3][2]  # the tour's way into a Free Duel


def _duel(tmp_path):
    app = tour.visit("fm", "psx", DUEL, tmp_path)
    assert type(app.screen).__name__ == "DuelScreen"
    return app


def test_esc_freezes_the_duel_and_resume_returns_to_it_unchanged(tmp_path):
    app = _duel(tmp_path)
    duel_screen, ui = app.screen, app.screen.ui.mode
    app.pause()
    assert isinstance(app.paused, Pause) and app.paused.items == ["Resume", "Forfeit",
                                                                   "Options", "Quit"]
    press(app, "left")  # would move the hand cursor if the duel were not frozen
    cursor = duel_screen.ui.cursor
    press(app, "cross")  # Resume
    assert app.paused is None and app.screen is duel_screen and duel_screen.ui.mode == ui
    assert duel_screen.ui.cursor == cursor


def test_quit_asks_first(tmp_path):
    app = _duel(tmp_path)
    app.pause()
    for _ in range(3):
        press(app, "down")
    press(app, "cross")
    assert app.paused.asking == "quit"
    press(app, "circle")  # no
    assert app.paused.asking is None and app.screen is not None
    press(app, "cross")
    idle = 0xFFFF
    from emucore.duel.padlog import word_from_buttons
    assert app.step((word_from_buttons("psx", ["cross"]), idle)) is False  # yes: the app ends


def test_forfeit_records_a_loss_and_returns_to_the_duelist_grid(tmp_path):
    app = _duel(tmp_path)
    game = app.screen.game
    duelist = app.screen.duelist
    app.pause()
    press(app, "down")
    press(app, "cross")
    assert app.paused.asking == "forfeit"
    press(app, "cross")
    assert app.paused is None and type(app.screen).__name__ == "FreeDuelSelect"
    assert game.data["records"][str(duelist)] == [0, 1]
    assert app.notices[-1] == "You forfeited: a loss"


def test_options_set_volumes_and_fast_animations(tmp_path):
    app = _duel(tmp_path)
    app.pause()
    press(app, "down")
    press(app, "down")
    press(app, "cross")  # Options
    press(app, "left")  # music one tenth down
    press(app, "down")
    press(app, "left")
    press(app, "left")  # sound two tenths down
    press(app, "down")
    press(app, "right")  # fast animations on
    assert app.sound.volumes == {"music": 0.9, "effects": 0.8}
    assert app.toggles["fast_animations"]
    assert app.paused.options.items[0] == "Music  " + GAUGE_FULL * 9 + GAUGE_EMPTY
    press(app, "circle")
    press(app, "circle")
    assert app.paused is None
    wait(app, 1)


def test_screens_without_a_duel_offer_no_forfeit(tmp_path):
    app = tour.visit("fm", "psx", next(p for n, _, p in tour.STOPS["fm"] if n == "main_menu"),
                     tmp_path)
    app.pause()
    assert app.paused.items == ["Resume", "Options", "Quit"]
    app.pause()  # Esc again closes it
    assert app.paused is None
