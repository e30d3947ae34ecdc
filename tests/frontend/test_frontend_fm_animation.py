"""The FM duel's animations (issue 14, item 3): what plays comes from the presentation
timeline (emucore.fm.timeline, read from the decompiled game), the frame counts we chose are
named in animation.FRAMES, Cross skips, the fast option shortens, unknown kinds play nothing."""

from __future__ import annotations

import pytest
from frontend_fmdriver import press, wait

from emucore.fm.actions import Battle, LifeChanged, Placed, TerrainChange
from emucore.fm.view import apply
from emucore.frontend import tour
from emucore.frontend.machine import FAST_DIVISOR
from emucore.frontend.systems.fm import animation as anim

DUEL = tour.STOPS["fm"][3][2]


@pytest.fixture
def screen_app(tmp_path):
    app = tour.visit("fm", "psx", DUEL, tmp_path)
    return app.screen, app


def _board_with(screen, *events):
    for event in events:
        screen.shown = apply(screen.shown, event)


def test_a_battle_plays_what_the_engine_charged(screen_app):
    """Source: the engine's animation events (emucore.fm.timeline, DuelScene_UpdateBattle):
    the screen plays, for a battle, the pieces the engine emitted after it - a won battle's
    damage number, shake and destruction - and the battle lasts for them."""
    screen, _ = screen_app
    # Mystical Elf (2) attacks Shadow Specter (9)
    _board_with(screen, Placed(0, 2, "monster", 0, False, 0), Placed(1, 9, "monster", 0,
                                                                      False, 0))
    event = Battle(0, 2, 0, 9, 0, 300, "win")
    charged = ("damage_number", "shake", "destruction")
    playing = anim.start(screen, event, fast=False, pieces=charged)
    assert playing.pieces == charged
    assert playing.frames == anim._battle_frames(playing.pieces)
    flash = anim.start(screen, event, fast=False, pieces=("star_flash", *charged))
    assert flash.frames == playing.frames + anim.FRAMES["star_flash"]
    fast = anim.start(screen, event, fast=True, pieces=charged)
    assert fast.frames == playing.frames // FAST_DIVISOR


def test_lp_counts_down_to_the_new_value(screen_app):
    screen, _ = screen_app
    playing = anim.start(screen, LifeChanged(1, -1000, 7000), fast=False)
    assert playing.old_lp == 8000
    playing.left = playing.frames // 2
    assert 7000 < anim.shown_lp(playing, 1, 7000) < 8000
    playing.left = 0
    assert anim.shown_lp(playing, 1, 7000) == 7000
    assert anim.shown_lp(playing, 0, 8000) == 8000  # the other side does not move


def test_terrain_wipes_from_the_top(screen_app):
    screen, _ = screen_app
    playing = anim.start(screen, TerrainChange(3), fast=False)
    assert playing.old_terrain == 0
    playing.left = playing.frames // 2
    assert anim.terrain_cut(playing, 100) == 50 and anim.terrain_cut(None, 100) == 100


def test_unknown_event_kinds_play_nothing(screen_app):
    screen, _ = screen_app

    class Animation:
        kind = "animation"
        side = 0
    assert anim.start(screen, Animation(), fast=False) is None


def test_cross_skips_and_the_fast_option_shortens_the_wait(tmp_path):
    presses = [*DUEL[:-1]]  # the duel, before its opening has played
    app = tour.visit("fm", "psx", presses, tmp_path)
    screen = app.screen
    assert screen.queue or screen.timer
    press(app, "cross")
    assert not screen.queue and not screen.timer and screen.shown == screen.view

    def opening_frames(fast: bool) -> int:
        other = tour.visit("fm", "psx", presses, tmp_path / f"fast{fast}")
        other.toggles["fast_animations"] = fast
        frames = 0
        while other.screen.queue or other.screen.timer:
            wait(other, 1)
            frames += 1
        return frames
    slow, quick = opening_frames(False), opening_frames(True)
    assert quick < slow


def test_drawing_animations_never_touches_the_duels_rng(tmp_path):
    """The engine alone counts the timeline's rand() calls; the frontend's shakes, tiles
    and confetti use a hash of the frame number, so playing animations leaves the stream."""
    app = tour.visit("fm", "psx", [*DUEL[:-1]], tmp_path)
    screen = app.screen
    before = screen.duel.rng_fork().state
    frames = 0
    while (screen.queue or screen.timer) and frames < 2000:
        wait(app, 1)
        frames += 1
    assert frames > 30 and screen.duel.rng_fork().state == before
