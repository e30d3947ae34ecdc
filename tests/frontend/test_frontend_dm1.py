"""DM1 screens (issue 14, item 8): the menu RNG steps every menu frame and goes on after a
lost duel, so a rematch deals differently; the duel screen's text fits 160x144; the opponent
list and the result show the opponent's portrait."""

from __future__ import annotations

import numpy as np

from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import END_REASONS
from emucore.frontend import layout, tour
from emucore.frontend.portraits import SIZE, portrait
from emucore.frontend.systems import dm1


def test_menus_step_the_rng_every_frame(tmp_path):
    app = tour.visit("dm1", "gb", ["start", "a"], tmp_path)  # the main menu
    game = app.screen.game
    before = game.rng
    tour.press(app, "wait:10")
    assert game.rng != before
    tour.press(app, "a")  # the opponent list ticks too
    before = game.rng
    tour.press(app, "wait:3")
    assert game.rng != before


def test_a_rematch_after_a_loss_is_dealt_differently(tmp_path):
    app = tour.visit("dm1", "gb", ["start", "a"], tmp_path)
    game = app.screen.game
    seed = game.rng
    first = Dm1Duel(game.deck, opponent=1, seed=seed)
    first._end(1, END_REASONS.index("lp"))  # the player lost
    assert first.winner == 1 and game.finish(1, first) is None
    second = Dm1Duel(game.deck, opponent=1, seed=game.rng)
    assert game.rng != seed and second.hand_cards(0) != Dm1Duel(
        game.deck, opponent=1, seed=seed).hand_cards(0)


def test_the_duel_text_stays_on_the_screen_unclipped(tmp_path):
    app = tour.visit("dm1", "gb", [*tour.STOPS["dm1"][4][2], "wait:200"], tmp_path)
    app.fb.text_rects = []
    app.screen.draw(app, app.fb)
    rects = app.fb.text_rects
    assert not layout.problems(rects, (0, 0, 160, 144))


def _stop(name):
    (presses,) = [p for n, _, p in tour.STOPS["dm1"] if n == name]
    return presses


def _shows(app, x, y, opponent):
    """Whether the framebuffer holds ``opponent``'s 32x32 portrait at (x, y)."""
    face = portrait(dm1.face_seed(opponent), app.machine.art)
    return np.array_equal(app.fb.pixels[y:y + SIZE, x:x + SIZE], face)


def test_the_opponent_list_shows_the_selected_opponents_portrait(tmp_path):
    """Source: the DM1 table's 16 opponents in stage order and portraits.py: the portrait
    beside the list is the selected opponent's, and it follows the cursor."""
    app = tour.visit("dm1", "gb", _stop("opponents"), tmp_path)
    x = 160 - SIZE - 4
    for row in range(3):
        opponent = app.screen.order[row]["id"]
        assert app.screen.menu.cursor == row
        app.screen.draw(app, app.fb)
        assert _shows(app, x, 14, opponent)
        assert not _shows(app, x, 14, app.screen.order[row + 1]["id"])
        tour.press(app, "down")


def test_the_result_stop_shows_the_opponents_portrait_above_the_outcome(tmp_path):
    """Source: the DM1 rules (passing every turn lets the opponent's attacks bring the LP to
    0) and portraits.py: the tour's result stop is the result screen of a lost duel, with
    the opponent's portrait above the text."""
    app = tour.visit("dm1", "gb", _stop("result"), tmp_path)
    screen = app.screen
    assert isinstance(screen, dm1.ResultScreen) and screen.duel.winner == 1
    app.fb.text_rects = []
    screen.draw(app, app.fb)
    assert _shows(app, (160 - SIZE) // 2, 4, screen.opponent)
    assert min(rect[1] for rect, _ in app.fb.text_rects) > 4 + SIZE
