"""The stand-in for the original FM machine (tests/capture/fm_original.py), driven by
hand-written pad sequences."""

from __future__ import annotations

import pytest

from emucore import tables as T
from emucore.capture.rammap import FM_INPUT, Range
from emucore.fm import deck as fm_deck
from emucore.fm.actions import EndTurn, Play
from emucore.hw.psyq_rand import BOOT_STATE, Rand, jump_int
from tests.capture import fm_original as fo
from tests.capture.fm_original import FmOriginal

IDLE = 0xFFFF
RNG = Range("rng", fo.RNG, 4, None, "gRand_dwSeed")


@pytest.fixture(scope="module")
def save_deck() -> list[int]:
    return fm_deck.starter_deck(Rand(BOOT_STATE), T.load("fm"))


def word(*bits: int) -> int:
    held = 0
    for b in bits:
        held |= b
    return ~held & 0xFFFF


def val(m: FmOriginal, name: str) -> int:
    return int.from_bytes(m.read(FM_INPUT.get(name, RNG)), "little")


def idle(m: FmOriginal, frames: int = 1) -> None:
    for _ in range(frames):
        m.step(IDLE)


def tap(m: FmOriginal, *bits: int) -> None:
    m.step(word(*bits))
    m.step(IDLE)


def wait_for(m: FmOriginal, ready, limit: int = 5000) -> int:
    for n in range(limit):
        if ready():
            return n
        m.step(IDLE)
    raise AssertionError("never ready")


def menu_ready(m: FmOriginal) -> bool:
    return m.read(Range("busy", 0x80184598, 6, None, "")) == bytes(6)


def to_main_menu(m: FmOriginal) -> None:
    idle(m, fo.INTRO)
    tap(m, fo.START)
    wait_for(m, lambda: menu_ready(m))
    tap(m, fo.DOWN)
    tap(m, fo.CROSS)
    wait_for(m, lambda: menu_ready(m) and val(m, "menu_item") == 5)


def to_free_duel(m: FmOriginal) -> None:
    to_main_menu(m)
    tap(m, fo.DOWN)
    tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "main_mode") == 0xC6)


def test_title_rand_every_frame(save_deck):
    """Main_RunMenu calls rand() once a frame from power-on (state 0x55555555)."""
    m = FmOriginal(save_deck)
    for n in range(1, 60):
        m.step(IDLE)
        assert val(m, "rng") == jump_int(BOOT_STATE, n)
        assert val(m, "main_mode") == 0xC8


def test_start_opens_the_title_menu_then_load_and_free_duel(save_deck):
    """MainMenu_UpdateFrontendMenu: START first (ignored during the intro), a 16-frame
    slide-in, Down moves to Load; the load, the slide to the main group on 5, Down to 6."""
    m = FmOriginal(save_deck)
    m.insert_memory_card(b"MC" + bytes(100))
    tap(m, fo.START)   # still the intro: ignored
    idle(m, fo.INTRO)
    assert menu_ready(m)
    tap(m, fo.START)
    assert not menu_ready(m)
    assert wait_for(m, lambda: menu_ready(m)) == fo.SLIDE  # busy 16 frames after the press frame
    tap(m, fo.DOWN)
    assert val(m, "menu_item") == 1
    tap(m, fo.CROSS)
    assert m.read(Range("loading", 0x8018459B, 1, None, "")) != b"\0"
    wait_for(m, lambda: menu_ready(m))
    assert val(m, "menu_item") == 5
    deck = m.read(FM_INPUT["deck"])
    assert [int.from_bytes(deck[i:i + 2], "little") for i in range(0, 80, 2)] == save_deck
    tap(m, fo.UP)
    assert val(m, "menu_item") == 10          # wraps within the main group
    tap(m, fo.DOWN)
    tap(m, fo.DOWN)
    tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "main_mode") == 0xC6)


def test_wrong_choices_fail_loudly(save_deck):
    """A confirm the test plans never make raises (New Game; Load with no card)."""
    m = FmOriginal(save_deck)
    idle(m, fo.INTRO)
    tap(m, fo.START)
    wait_for(m, lambda: menu_ready(m))
    with pytest.raises(AssertionError, match="New Game"):
        tap(m, fo.CROSS)
    m = FmOriginal(save_deck)
    idle(m, fo.INTRO)
    tap(m, fo.START)
    wait_for(m, lambda: menu_ready(m))
    tap(m, fo.DOWN)
    with pytest.raises(AssertionError, match="memory card"):
        tap(m, fo.CROSS)


def test_free_duel_box_ignores_directions_until_closed(save_deck):
    """FreeDuel_UpdateScreen only pumps the text box (func_80039794) while it is up; then
    Held directions move the target at once and the committed cell after the tween;
    FreeDuel_Entry calls rand() every frame."""
    m = FmOriginal(save_deck)
    m.insert_memory_card(b"MC")
    to_free_duel(m)
    before = val(m, "rng")
    for _ in range(fo.BOX_TYPE + 10):
        tap(m, fo.RIGHT)
        assert val(m, "grid_target") == 0
    assert val(m, "rng") == jump_int(before, 2 * (fo.BOX_TYPE + 10))
    tap(m, fo.CROSS)                      # closes the box; the next frame reads no pad
    m.step(word(fo.DOWN, fo.RIGHT))
    m.step(IDLE)
    assert val(m, "grid_target") == 0x0101 and val(m, "grid") == 0
    idle(m, fo.GLIDE)
    assert val(m, "grid") == 0x0101


def test_a_turn_with_k(save_deck):
    """Free Duel -> Duel Master K -> the deck screen (Circle) -> the deal -> a face-down
    monster in the first free zone -> Start; the computer's turn; the hand phase again."""
    m = FmOriginal(save_deck, unlocked={39})
    m.insert_memory_card(b"MC")
    to_free_duel(m)
    idle(m, fo.BOX_TYPE)
    tap(m, fo.CROSS)
    idle(m)
    while val(m, "grid") != 0x0704:       # held: one diagonal step per glide
        m.step(word(fo.DOWN, fo.RIGHT))
    idle(m)
    tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "duel_runner") == 0x80)
    tap(m, fo.CIRCLE)
    wait_for(m, lambda: val(m, "duel_runner") == 0x81)
    assert m.log[-1].startswith("deal at index")
    wait_for(m, lambda: val(m, "scene") == 0x8004 and val(m, "step") == 0x01)
    card = m.duel.hand(0)[0]
    monster = m.duel.facts.type[card] < fo.MAGIC
    tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "step") == 0x83)
    if not monster:
        tap(m, fo.RIGHT)   # face down
        wait_for(m, lambda: val(m, "step") == 0x83)
    tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "step") == 0x84 and val(m, "jobs") == 0)
    tap(m, fo.CROSS)
    if val(m, "scene") == 0x8008:
        wait_for(m, lambda: val(m, "step") == 0x83)
        tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "scene") == 0x8005 and val(m, "step") == 0x83
             and val(m, "jobs") == 0)
    assert m.actions == [Play(cards=(0,), zone=0, face_down=True)]
    tap(m, fo.START)
    wait_for(m, lambda: val(m, "scene") == 0x8004 and val(m, "step") == 0x01, 20000)
    assert m.actions[1] == EndTurn() and m.actions[-1] == EndTurn()
    assert val(m, "rng") == m.duel.rng.state
    state = m.save()
    m.step(word(fo.RIGHT))
    assert val(m, "hand") == 1
    m.restore(state)
    assert val(m, "hand") == 0
    m.step(word(fo.RIGHT))
    assert val(m, "hand") == 1
