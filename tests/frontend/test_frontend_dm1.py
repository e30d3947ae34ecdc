"""DM1 screens (issue 14, item 8): the menu RNG steps every menu frame and goes on after a
lost duel, so a rematch deals differently; the duel screen's text fits 160x144."""

from __future__ import annotations

from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import END_REASONS
from emucore.frontend import layout, tour


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
