"""rand() counts of the presentation timeline, derived by hand from the decompiled routines
(krystalgamer/memories-decomp, src/game and src/overlays/duel_effects)."""

from __future__ import annotations

from emucore.fm import timeline as tl
from emucore.fm.actions import (
    Battle,
    DuelEnd,
    Equip,
    Failure,
    Fusion,
    Magic,
    RitualSummon,
    Trap,
)
from emucore.hw.psyq_rand import Rand


def test_result_outro_is_fourteen_calls():
    """func_80020F4C state 2: one sprite per D_80090928 entry with kind != 0 (all 7 for
    either winner), each (rand() & 0x3F) + 0x140 and Rand_GetInterval(0x1000): 7 x 2 = 14.
    Without an opponent D_80090960 has one kind-0 entry: 6 x 2 = 12."""
    assert tl.result_outro().rand_calls == 14
    assert tl.result_outro(with_opponent=False).rand_calls == 12
    end = DuelEnd(0, "lp", (60, 40), "B-POW", 3, "bcd", 1)
    assert [(a.name, a.rand_calls) for a in tl.animations_for(end)] == [("result_outro", 14)]


def test_damage_number_start_calls():
    """func_80153200 start: func_8014F030 over the D_8015AF18 record's particles (6 calls
    each; counts 32/64/64/32/64/64/64) and func_8014EF2C(64) (6 x 64 = 384). The record is
    |damage| / 1000 capped at 2 (+3 direct); the number 0 takes record 6."""
    assert tl.damage_number(500).start_calls == 6 * 32 + 384 == 576
    assert tl.damage_number(1500).start_calls == 6 * 64 + 384 == 768
    assert tl.damage_number(-4200).start_calls == 768
    assert tl.damage_number(0).start_calls == 768
    assert tl.damage_number(900, direct=True).start_calls == 576
    assert tl.damage_number(1000, direct=True).start_calls == 768


def test_damage_number_frames_from_its_colour():
    """func_80153200 draws every particle with func_80156064 (rand() % 2 twice) on each frame
    after the first while its colour is lit, fading it with func_80153F28(color, 8): a channel
    at 255 takes 31 steps of 8 down to 7, then one to 0 -> 32 frames of 2 x 64 calls."""
    anim = tl.damage_number(2500, colour_level=255)
    assert (anim.frame_calls, anim.frames) == (128, 32)
    assert anim.rand_calls == 768 + 32 * 128
    assert tl.damage_number(2500).rand_calls is None  # the colour is overlay data


def test_fade_frames():
    """func_80153F28: subtract the step while the channel exceeds step + 1, else set 0."""
    assert tl.fade_frames(255, 8) == 32
    assert tl.fade_frames(9, 8) == 1
    assert tl.fade_frames(10, 8) == 2
    assert tl.fade_frames(0, 8) == 0


def test_fixed_costs():
    """Failure fly-off: DuelScene_UpdateCardPlacement state 7, rand() & 255 (1). CPU ritual
    star: DuelEffect_ApplyRitual state 3, rand() & 1 (1). Exodia sparkle: func_80018FEC,
    rand() & 0xFF and Rand_GetInterval(0xB0) (2). Battle shake: DuelScene_UpdateBattle
    state 8, (rand() & 3) - 2 for x and y (2 per frame). Destruction: func_80149F90, per tile
    rand() % 4, rand() % (size / 2) and (rand() - rand()) % 12 over 5 x 7 tiles (140)."""
    assert tl.failure_fly_off().rand_calls == 1
    assert tl.ritual_star_roll().rand_calls == 1
    assert tl.exodia_sparkle().rand_calls == 2
    assert tl.battle_shake(frames=10).rand_calls == 20
    assert tl.destruction().start_calls == 140


def test_overlay_effect_start_calls():
    """Equip (func_80154688): func_8014EF2C(16) = 96. Fusion (func_80157794):
    func_8014EF2C(12) + func_8014F030(64) = 72 + 384. Star flash (func_801481A8):
    func_8014F89C(32) + func_8014F89C(48) (4 calls per vector) + func_8014EF2C(16)."""
    assert tl.effect(tl.Effect.EQUIP).rand_calls == 96
    assert tl.effect(tl.Effect.FUSION).start_calls == 456
    assert tl.effect(tl.Effect.STAR_FLASH).start_calls == 4 * 80 + 96


def test_destruction_tiles_follow_the_stream():
    """func_80149F90's per-frame loop: with a countdown of 1 every roll (rand() % 1) lights a
    tile, so each of the 5 columns rolls on 7 frames: 35 calls if the effect lasts that long,
    4 frames x 5 columns = 20 if it ends after frame 3."""
    rng = Rand(0x1234)
    assert tl.destruction_tile_calls(rng, delay=1, frames=60) == 35
    assert rng.calls == 35
    assert tl.destruction_tile_calls(Rand(0), delay=1, frames=3) == 20


def test_battle_timeline():
    """DuelScene_UpdateBattle: states 6-10 visit the defender, then the attacker; a side with
    D_8009B1B0 != 0 shows a damage number; a losing one (< 0) shakes and breaks (effect 3).
    A direct attack shows one direct-damage number (state 9). The computer never takes the
    3-D path (state 5 of DuelScene_UpdateFieldActions clears D_8009B229)."""
    names = lambda anims: [a.name for a in anims]  # noqa: E731
    win = Battle(0, 39, 0, 62, 0, 700, "win")
    assert names(tl.animations_for(win)) == ["damage_number", "battle_shake", "destruction"]
    assert names(tl.animations_for(Battle(0, 13, 1, 62, 0, -200, "lose_defense"))) == \
        ["damage_number", "damage_number"]
    assert names(tl.animations_for(Battle(0, 39, 0, 39, 0, -1, "double_ko"))) == \
        ["damage_number", "battle_shake", "destruction"] * 2
    direct = tl.animations_for(Battle(0, 39, 0, 0, -1, 2000, "direct"))
    assert [(a.name, a.start_calls) for a in direct] == [("damage_number", 768)]
    assert names(tl.animations_for(win, battle_3d=True)) == ["battle_3d"]
    assert names(tl.animations_for(win, battle_3d=True, cpu=True))[0] == "damage_number"
    assert names(tl.animations_for(win, star_bonus=True))[0] == "star_flash"


def test_event_mapping():
    """Fusion -> effect 1; equip -> effect 0, or effect 4 for cards 301/302
    (DuelScene_UpdateCardPlacement state 5); failure -> the fly-off call; a CPU ritual ->
    effect 22 and its star roll; Stop Defense -> effect 12 for each of the five columns."""
    assert [a.name for a in tl.animations_for(Fusion(0, 1, 2, 3))] == ["fusion"]
    assert [a.name for a in tl.animations_for(Equip(0, 301, 12, 500))] == ["sword_equip"]
    assert [a.name for a in tl.animations_for(Equip(0, 657, 12, 1000))] == ["equip"]
    assert tl.total_rand_calls(tl.animations_for(Failure(0, 1, 2))) == 1
    ritual = tl.animations_for(RitualSummon(1, 670, 364, 0), cpu=True)
    assert [a.name for a in ritual] == ["ritual", "ritual_star"]
    assert len(tl.animations_for(Magic(0, 320, "stop_defense"))) == 5


def test_trap_timeline():
    """func_8001F364 shows every sprung trap with effect 8 at its card (and counts the
    owner's +0x06); an attack trap then breaks the attacker and Fake Trap its own card with
    descriptor 1 (DuelScene_UpdateBattle states 3 and 10); Goblin Fan's burn comes back as
    effect 7 (DuelEffect_ApplyDirectDamage)."""
    assert [a.name for a in tl.animations_for(Trap(1, 681, 0, 39))] == \
        ["trap", "destruction_trap"]
    assert [a.name for a in tl.animations_for(Trap(1, 690, 0, 39))] == \
        ["trap", "destruction_trap"]
    assert [a.name for a in tl.animations_for(Trap(1, 687, 0, 343))] == \
        ["trap", "burn_returned"]
    assert [a.name for a in tl.animations_for(Trap(1, 689, 0, 12))] == ["trap"]


def test_the_charged_animations_have_whole_counts():
    """choices.CHARGED_ANIMATIONS names only animations whose every call is fixed by the
    decompiled code: the outro (func_80020F4C, 14), the fly-off (placement state 7, 1) and
    the equip effect (func_80154688: func_8014EF2C(16), 96, nothing per frame)."""
    from emucore.fm.choices import CHARGED_ANIMATIONS

    counts = {a.name: a.rand_calls for a in (tl.result_outro(), tl.failure_fly_off(),
                                             tl.effect(tl.Effect.EQUIP))}
    assert set(CHARGED_ANIMATIONS) == set(counts)
    assert counts == {"result_outro": 14, "failure": 1, "equip": 96}
