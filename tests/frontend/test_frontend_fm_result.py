"""The FM result screen (issue 14, item 6): the rank score's criteria one by one for the
player's win against the computer, and no score at all for a loss (it showed the winner's
"Score -1, Rank S-TEC" as if it were the player's)."""

from __future__ import annotations

from frontend_fmdriver import press, wait

from emucore.fm.actions import Ended
from emucore.fm.engine import turns_played
from emucore.frontend import tour
from emucore.frontend.systems.fm.result import ResultScreen, criteria

DUEL = tour.STOPS["fm"][3][2]
TURNS = "Turns after your 1st"  # the rank's turn counter skips the first side's opening turn
COUNTERS = dict(turns=9, effective_attacks=6, defensive_wins=1, face_down_plays=2,
                pure_magic=1, traps_triggered=0, draw_cursor=14, lp=5200, fusions=3, equips=1)


def _texts(app) -> list[str]:
    app.fb.text_rects = []
    app.screen.draw(app, app.fb)
    texts = [text for _, text in app.fb.text_rects]
    app.fb.text_rects = None
    return texts


def test_the_criteria_add_up_to_the_engines_score(tmp_path):
    """Source: the engine's Duel_CalcRankScore total in the Ended event of a whole duel."""
    app = tour.visit("fm", "psx", DUEL, tmp_path)
    duel_screen = app.screen
    tour.press(app, "autoplay")
    end = duel_screen.end
    lines = criteria(duel_screen.game, end, duel_screen.view.sides[end.winner].counters)
    assert sum(line.points for line in lines) == end.scores[end.winner]
    assert (lines[0].label, lines[0].points) == ("Base", 50)  # spec/fm-engine.md §9
    assert end.winner == 1  # the tour's simple player loses this one ...
    texts = " ".join(_texts(app))
    assert "YOU LOSE" in texts and "Score" not in texts and "Rank" not in texts  # ... unscored


def test_a_win_reveals_the_criteria_one_by_one_then_cross_leaves(tmp_path):
    app = tour.visit("fm", "psx", next(p for n, _, p in tour.STOPS["fm"] if n == "main_menu"),
                     tmp_path)
    game, menu = app.screen.game, app.screen
    score = sum(c.points for c in criteria(game, Ended(0, "lp", (0, 0), "", 0, "", 0),
                                           COUNTERS))
    end = Ended(0, "lp", (score, 30), "D-TEC", 1, "bcd", 5)
    app.switch(ResultScreen(game, end, 2, True, menu, 0, COUNTERS))
    assert "Base" not in _texts(app)
    wait(app, 9)
    assert app.screen.revealed == 1 and "Base" in _texts(app) and TURNS not in _texts(app)
    press(app, "cross")  # shows them all
    texts = _texts(app)
    assert app.screen is not menu and {TURNS, "Equips", f"Score {score}"} <= set(texts)
    assert "Teana joins Free Duel" in texts  # the campaign's next duelist, on its own line
    press(app, "cross")
    assert app.screen is menu


def test_the_turns_criterion_says_it_counts_from_the_second_turn(tmp_path):
    """Source: docs/fm-engine.md (the first side's opening turn skips the draw-phase entry,
    "so its turn counter stays one behind its turns ... the rank reads it") and issue 26
    item 5 ("Turns 5" for a duel the board called Turn 6). The criterion's count is the
    board's last Turn less one, and its label says so."""
    app = tour.visit("fm", "psx", DUEL, tmp_path)
    duel_screen = app.screen
    tour.press(app, "autoplay")
    view = duel_screen.view
    board_turn = max(turns_played(n, s.counters["turns"]) for n, s in enumerate(view.sides))
    lines = criteria(duel_screen.game, duel_screen.end, view.sides[0].counters)
    turns = next(line for line in lines if line.label == TURNS)
    assert turns.count == board_turn - 1
