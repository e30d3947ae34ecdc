"""The stand-in for the original FM machine (tests/capture/fm_original.py), driven by
hand-written pad sequences."""

from __future__ import annotations

import pytest

from emucore import tables as T
from emucore.capture.rammap import FM, FM_INPUT, Range
from emucore.fm import deck as fm_deck
from emucore.fm.machine import field_offset
from emucore.fm.setup import FmSetup, new_duel
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
    r = FM_INPUT.get(name) or FM.by_name().get(name) or RNG
    return int.from_bytes(m.read(r), "little")


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


def to_k(m: FmOriginal) -> None:
    """Free Duel: close the box, hold Down+Right to Duel Master K (cell 39), Cross; the
    deck screen: Circle; then wait for the deal."""
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


def hand_ready(m: FmOriginal) -> bool:
    return val(m, "scene") == 0x8004 and val(m, "step") == 0x01


def browse_ready(m: FmOriginal) -> bool:
    return (val(m, "scene") == 0x8005 and val(m, "step") == 0x83 and val(m, "jobs") == 0
            and val(m, "field_status") == 0)


def grid_to(m: FmOriginal, name: str, col: int, row: int, ready) -> None:
    """Hold one direction a frame at a time while the cursor is idle (Up > Left > ...)."""
    while True:
        wait_for(m, ready)
        c, r = val(m, name) & 0xFF, val(m, name) >> 8
        if (c, r) == (col, row):
            return
        tap(m, fo.UP if r > row else fo.DOWN if r < row else fo.LEFT if c > col else fo.RIGHT)


def target_ready(m: FmOriginal) -> bool:
    return val(m, "step") == 0x06 and val(m, "jobs") == 0 and val(m, "target_status") == 0


def star(m: FmOriginal, choice: int) -> None:
    if val(m, "scene") == 0x8008:
        wait_for(m, lambda: val(m, "step") == 0x83)
        if choice:
            tap(m, fo.DOWN)
        tap(m, fo.CROSS)


def play_turn(m: FmOriginal, turn: int) -> None:
    """One turn of side 0: a fusion of two monsters on even turns, else the first card set
    face down; activate set magic; attack with every ready monster (3-D, skipped); Start."""
    duel = m.duel
    types = [duel.facts.type[c] for c in duel.hand(0)]
    monsters = [j for j, t in enumerate(types) if t < fo.MAGIC]
    if turn % 2 == 0 and len(monsters) >= 2:
        for j in monsters[:2]:
            while val(m, "hand") != j:
                tap(m, fo.RIGHT)
            tap(m, fo.UP)
        tap(m, fo.CROSS)
    else:
        tap(m, fo.CROSS)
        wait_for(m, lambda: val(m, "step") == 0x83)
        if types[0] >= fo.MAGIC and types[0] != fo.TRAP:
            tap(m, fo.RIGHT)              # magic arrives face up: set it
            wait_for(m, lambda: val(m, "step") == 0x83)
        tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "step") == 0x84 and val(m, "jobs") == 0)
    tap(m, fo.CROSS)
    star(m, 1)
    for col in range(5):
        v = duel.card(0, "magic", col)
        if not duel.over and v and v.face_down and v.card_type != fo.TRAP:
            grid_to(m, "field", col, 3, lambda: browse_ready(m))
            tap(m, fo.CROSS)
            wait_for(m, lambda: val(m, "step") == 0x87 and val(m, "activate_arrows") == 0x80)
            tap(m, fo.RIGHT)
            wait_for(m, lambda: val(m, "activate_arrows") == 0x80)
            tap(m, fo.CROSS)
            if v.card_type == fo.EQUIP:
                mine = [c for c in range(5) if duel.card(0, "monster", c)]
                grid_to(m, "target", mine[0], 2, lambda: target_ready(m))
                tap(m, fo.CROSS)
            star(m, 0)
    for col in range(5):
        v = duel.card(0, "monster", col)
        if turn > 1 and not duel.over and v and not v.used and not v.defending:
            grid_to(m, "field", col, 2, lambda: browse_ready(m) or duel.over)
            tap(m, fo.CROSS)
            wait_for(m, lambda: target_ready(m))
            foes = [c for c in range(5) if duel.card(1, "monster", c)]
            if foes:
                grid_to(m, "target", foes[0], 1, lambda: target_ready(m))
            tap(m, fo.SQUARE if foes else fo.CROSS)
            if val(m, "main_mode") == 0xC1:
                idle(m, 3)
                tap(m, fo.CIRCLE)
    if not duel.over:
        wait_for(m, lambda: browse_ready(m))
        tap(m, fo.START)


def test_a_duel_with_k(save_deck):
    """Free Duel -> Duel Master K -> the deck screen -> Duel_InitScene's deal -> turns of
    plays, fusions (the star dialog), activations, 3-D attacks skipped with Circle, the
    computer's turns -> the results (func_80020F4C, func_800218F0) -> back in Free Duel.
    The actions replayed on a new duel from the deal's state reach the same state."""
    m = FmOriginal(save_deck, unlocked={39})
    m.insert_memory_card(b"MC")
    to_k(m)
    assert m.log[-1].startswith("deal at index")
    state = m.dealt.state_before
    for turn in range(1, 30):
        wait_for(m, lambda: hand_ready(m) or m.duel.over, 50000)
        assert val(m, "rng") == m.duel.rng.state
        if m.duel.over:
            break
        play_turn(m, turn)
    assert m.duel.over
    kinds = {a.kind for a in m.actions}
    assert {"play", "attack", "end_turn"} <= kinds
    assert any(a.kind == "attack" and a.view == "3d_skip" for a in m.actions)
    assert any(a.kind == "play" and a.star == 1 for a in m.actions)
    duel = new_duel(FmSetup(deck=save_deck, duelist=39, state=state, computer=[1]))
    for action in m.actions:
        duel.step(action)
    calls = field_offset("globals", "rng_calls")  # counts from the deal here, not before it
    mine, theirs = m.duel.snapshot(), duel.snapshot()
    assert mine[:calls] + mine[calls + 4:] == theirs[:calls] + theirs[calls + 4:]
    wait_for(m, lambda: val(m, "scene") == 0x800C and val(m, "step") == 0x03)
    tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "scene") == 0x800D and val(m, "step") == 0x83)
    tap(m, fo.CROSS)
    wait_for(m, lambda: val(m, "main_mode") == 0xC6)
    assert val(m, "grid") == 0x0704       # ReturnFlags 0x80: the same cell, no box


def test_save_and_restore_replay_the_same(save_deck):
    """save() / restore(): the same pads after a restore give the same RAM and actions."""
    m = FmOriginal(save_deck, unlocked={39})
    m.insert_memory_card(b"MC")
    to_k(m)
    wait_for(m, lambda: hand_ready(m))
    snap = m.save()
    pads = [word(fo.RIGHT), IDLE, word(fo.CROSS), IDLE] + [IDLE] * 40 + [word(fo.CROSS), IDLE]
    runs = []
    for _ in range(2):
        m.restore(snap)
        for pad in pads:
            m.step(pad)
        runs.append((bytes(m.ram), list(m.actions), m.duel.snapshot()))
    assert runs[0] == runs[1]


def test_free_duel_cells(save_deck):
    """FreeDuel_UpdateScreen's confirm: a locked cell does nothing, cell 0 is Build Deck."""
    m = FmOriginal(save_deck, unlocked={39})
    m.insert_memory_card(b"MC")
    to_free_duel(m)
    idle(m, fo.BOX_TYPE)
    tap(m, fo.CROSS)
    idle(m)
    tap(m, fo.RIGHT)
    idle(m, fo.GLIDE)
    assert val(m, "grid") == 1
    tap(m, fo.CROSS)                      # Simon Muran, locked on a new save
    idle(m, 10)
    assert val(m, "main_mode") == 0xC6 and val(m, "opponent") == 0
    tap(m, fo.LEFT)
    idle(m, fo.GLIDE)
    with pytest.raises(AssertionError, match="Build Deck"):
        tap(m, fo.CROSS)


def test_one_raised_card_blocks_cross(save_deck):
    """DuelScene_UpdateHandActions step 1: with exactly one card raised Cross is ignored."""
    m = FmOriginal(save_deck, unlocked={39})
    m.insert_memory_card(b"MC")
    to_k(m)
    wait_for(m, lambda: hand_ready(m))
    tap(m, fo.UP)
    tap(m, fo.CROSS)
    idle(m, 30)
    assert hand_ready(m) and m.raised == [0]
    tap(m, fo.RIGHT)
    assert val(m, "hand") == 1
