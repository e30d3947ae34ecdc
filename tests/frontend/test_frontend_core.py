"""Machine profiles, pad words, pacing, framebuffer and presentation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from emucore.duel import padlog
from emucore.frontend import pad as padmod
from emucore.frontend.display import Display, fit_scale, save_png
from emucore.frontend.framebuffer import Framebuffer, text_mask, text_width
from emucore.frontend.machine import machine
from emucore.frontend.pacing import FramePacer


def test_psx_frame_rate_is_the_gpu_timing_not_60():
    psx = machine("psx")
    assert psx.frame_rate == Fraction(53_693_175 * 2, 6825 * 263)
    assert round(float(psx.frame_rate), 4) == 59.8261
    assert (psx.width, psx.height) == (320, 240)


def test_gb_frame_rate_and_palettes():
    gb = machine("gb")
    assert gb.frame_rate == Fraction(4194304, 70224)
    assert round(float(gb.frame_rate), 4) == 59.7275
    assert round(float(gb.frame_ns)) == 16_742_706
    assert list(gb.palettes) == ["green", "grey"]
    assert all(p.shape == (4, 3) for p in gb.palettes.values())
    assert gb.palettes["grey"].tolist()[0] == [255, 255, 255]


def test_psx_palette_entries_are_15_bit_colours_expanded():
    rgb = machine("psx").palettes["default"]
    assert ((rgb & 0x07) == (rgb >> 5)).all()  # low 3 bits repeat the top bits of 5
    assert rgb.shape[0] <= 256


def test_unknown_machine():
    with pytest.raises(KeyError, match="unknown machine"):
        machine("nes")


@pytest.mark.parametrize(("button", "word"), [
    ("select", 0xFFFE), ("start", 0xFFF7), ("up", 0xFFEF), ("left", 0xFF7F),
    ("l2", 0xFEFF), ("triangle", 0xEFFF), ("circle", 0xDFFF), ("cross", 0xBFFF),
    ("square", 0x7FFF)])
def test_psx_pad_word_is_active_low_in_duckstation_order(button, word):
    assert padlog.word_from_buttons("psx", [button]) == word
    assert padlog.buttons_from_word("psx", word) == [button]


def test_gb_joypad_byte():
    assert padlog.word_from_buttons("gb", ["a"]) == 0x01
    assert padlog.word_from_buttons("gb", ["down", "b"]) == 0x82
    assert padlog.word_from_buttons("gb", []) == 0x00
    assert padlog.word_from_buttons("psx", []) == 0xFFFF


def test_roles_map_to_position_buttons():
    assert padlog.bit("psx", "confirm") == padlog.bit("psx", "cross")
    assert padlog.bit("gb", "cancel") == padlog.bit("gb", "b")


def test_pad_state_edges_and_repeat():
    state = padmod.PadState("psx")
    down = padlog.word_from_buttons("psx", ["down"])
    fired = []
    for frame in range(40):
        state.advance(down)
        fired.append(state.repeat("down"))
        if frame == 0:
            assert state.pressed("down") and state.held("down")
        else:
            assert not state.pressed("down") and state.held("down")
    hits = [i for i, f in enumerate(fired) if f]
    assert hits[:3] == [0, padmod.REPEAT_DELAY + padmod.REPEAT_EVERY - 1,
                        padmod.REPEAT_DELAY + 2 * padmod.REPEAT_EVERY - 1]
    state.advance(0xFFFF)
    assert not state.held("down") and not state.repeat("down")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000
        self.slept = 0.0

    def __call__(self) -> int:
        self.now += 50_000  # every reading costs 50 microseconds (spinning advances time)
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept += seconds
        self.now += int(seconds * 1e9)


def test_pacer_has_no_drift_over_many_frames():
    clock = FakeClock()
    gb = machine("gb")
    pacer = FramePacer(gb.frame_ns, clock=clock, sleep=clock.sleep)
    start = pacer.start
    for _ in range(5973):  # 100 seconds of Game Boy frames
        pacer.wait()
    ideal = start + int(5973 * gb.frame_ns)
    assert 0 <= clock.now - ideal < 100_000  # within one clock reading after 100 s
    assert pacer.resyncs == 0 and 93 < clock.slept < 95  # all but the spun last ms


def test_pacer_resyncs_after_a_stall():
    clock = FakeClock()
    pacer = FramePacer(machine("psx").frame_ns, clock=clock, sleep=clock.sleep)
    pacer.wait()
    clock.now += 1_000_000_000  # a one-second stall
    pacer.wait()
    assert pacer.resyncs == 1 and pacer.frames == 0


def test_text_and_fill_clip():
    fb = Framebuffer(32, 16)
    fb.fill(-5, -5, 10, 10, 3)
    assert fb.pixels[:5, :5].min() == 3 and fb.pixels[5:, :].max() == 0
    end = fb.text(28, 2, "AB", 7)  # runs off the right edge: clipped, no error
    assert end == 28 + text_width("AB") + 1
    assert text_mask("I").sum() == 11  # our 'I': 3 + 5 x 1 + 3 pixels
    assert text_width("ABC") == 17


def test_unknown_character_draws_as_question_mark():
    assert (text_mask("\u4e00") == text_mask("?")).all()


@pytest.mark.parametrize(("window", "scale", "offset"), [
    ((960, 720), 3, (0, 0)), ((1000, 720), 3, (20, 0)), ((1920, 1080), 4, (320, 60)),
    ((300, 200), 1, (-10, -20))])
def test_fit_scale_letterboxes(window, scale, offset):
    assert fit_scale((320, 240), window) == (scale, offset)


def test_display_scales_palette_indices_exactly(pg):
    pg.display.init()
    gb = machine("gb")
    display = Display(gb, scale=3, palette="grey")
    fb = Framebuffer(160, 144)
    fb.fill(10, 20, 1, 1, 3)
    display.present(fb)
    window = pg.display.get_surface()
    assert tuple(window.get_at((30, 60)))[:3] == (0, 0, 0)
    assert tuple(window.get_at((32, 62)))[:3] == (0, 0, 0)
    assert tuple(window.get_at((33, 62)))[:3] == (255, 255, 255)


def test_save_png_round_trip(pg, tmp_path):
    gb = machine("gb")
    fb = Framebuffer(160, 144)
    fb.fill(0, 0, 80, 144, 2)
    target = tmp_path / "shot.png"
    save_png(gb, fb, target, scale=2, palette="grey")
    image = pg.image.load(str(target))
    assert image.get_size() == (320, 288)
    assert tuple(image.get_at((10, 10)))[:3] == (85, 85, 85)
    assert tuple(image.get_at((200, 10)))[:3] == (255, 255, 255)
    assert np.array_equal(gb.palettes["grey"][2], [85, 85, 85])
