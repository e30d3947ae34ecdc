"""Music of our own: pieces in whole bars, synthesised the same on every run, tuned to equal
temperament, looped per screen by the app."""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from frontend_fmdriver import new_app, press, to_main_menu, wait

from emucore.frontend import music, sound


def test_equal_temperament():
    """Source: twelve-tone equal temperament with A4 = 440 Hz (ISO 16): C5 = 523.25 Hz,
    A3 = 220 Hz, E2 = 82.41 Hz."""
    assert music.frequency("A4") == 440.0
    assert music.frequency("C5") == pytest.approx(523.251, abs=1e-3)
    assert music.frequency("A3") == pytest.approx(220.0)
    assert music.frequency("E2") == pytest.approx(82.407, abs=1e-3)
    assert music.frequency("F#5") == pytest.approx(739.989, abs=1e-3)


@pytest.mark.parametrize("name", ["title", "menu", "duel", "victory", "defeat"])
def test_each_piece_loops_in_whole_bars_and_is_deterministic(name):
    """Source: the pieces' contract: every voice spans the same whole bars, so one loop is
    bars x 16 sixteenths long; two renders are identical; nothing clips."""
    piece = music.PIECES[name]
    step = round(music.RATE * 60 / piece.bpm / 4)
    samples = music.render(name)
    assert samples.dtype == np.int16
    assert len(samples) == music.bars(piece) * music.SIXTEENTHS_PER_BAR * step
    assert np.array_equal(samples, music.render.__wrapped__(name))
    assert int(np.abs(samples.astype(np.int32)).max()) <= int(32767 * music.VOLUME)
    assert abs(int(samples[-1])) < 32767 * music.VOLUME * 0.05  # the last note has faded


def test_uneven_voices_are_refused():
    with pytest.raises(ValueError, match="whole bars"):
        music.bars(music.Piece(120, "A4:16", "A2:8"))


def test_the_app_loops_a_piece_per_screen():
    """Source: the screens' choice: title, menu screens, duel."""
    app = new_app()
    wait(app, 1)
    assert app.sound.music == "title"
    to_main_menu(app)
    assert app.sound.music == "menu"
    press(app, "cross")
    assert app.sound.music == "menu"
    press(app, "left")  # a new game has Duel Master K alone
    press(app, "cross")
    assert app.sound.music == "duel"


def test_music_on_the_dummy_driver_with_mute_and_volume(pg):
    player = sound.Sound()
    assert player.available  # SDL_AUDIODRIVER=dummy
    player.play_music("duel")
    assert pygame.mixer.Channel(0).get_busy()
    assert player.set_volume("music", 2.0) == 1.0 and player.set_volume("effects", -1) == 0.0
    assert player.volumes == {"music": 1.0, "effects": 0.0}
    player.toggle_mute()
    assert not pygame.mixer.Channel(0).get_busy()
    player.toggle_mute()
    assert pygame.mixer.Channel(0).get_busy() and player.music == "duel"
