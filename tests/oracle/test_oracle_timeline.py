"""Every animation's rand() calls, checked against the whole-animation costs speed-runners'
tools charge and against counts read from the decompiled code.

The fixed rows of ``data/animation_costs.csv`` (a copy of shared/reference/fm/
animation_costs.csv: JulianAtlasovich/MrAtlas-RNG-Manip's copies of FM-Manip-Tool's
``FixedAdvs``, measured in the game) are composed as those tools compose a player's action
(the reference README, "Animation RNG costs"): each test plays the action on the engine and
sums the ``animation`` events it emits, leaving out the rows the tools charge separately as
variable (``BURN``: the 2-D destruction; ``GS_ANIM``: the guardian-star flash; ``BURN_3D``: a
card removed after a 3-D battle). The other counts are read from the routines the docstrings
name (krystalgamer/memories-decomp).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from oracle_duel import new_duel, play, turn

from emucore.fm import effect_calls as X
from emucore.fm import overlay as O
from emucore.fm import timeline as tl
from emucore.fm.actions import Attack, ChangePosition, EndTurn

ROWS = {row["name"]: row for row in csv.DictReader(
    (Path(__file__).parent / "data" / "animation_costs.csv").open(encoding="utf-8"))}
VARIABLE = {"destruction", "star_flash", "card_removed"}  # BURN, GS_ANIM, BURN_3D
STRONG, WEAK, LOW, ZERO = 39, 13, 2, 72  # ATK 2000, 1200 (DEF 1400), 800 (DEF 2000), 0
SPECTER = 9  # ATK 500, DEF 200
SET_MAGIC = 343  # Sparks, set face-down so the row stays empty of monsters
FUSE_A, FUSE_B = 2, 8  # Mystical Elf + Mushroom Man -> 638
EQUIP, EQUIPPED = 303, 3  # a plain equip (not a sword) that fits card 3
TRAP = 683  # Bear Trap, an attack trap
MOUNTAIN, YAMI, FOREST = 332, 335, 330


def row(name: str) -> int:
    return int(ROWS[name]["rand_calls"])


def charged(events: list, leave_out: set[str] = VARIABLE) -> int:
    """The calls of the step's animation events, but for the variable rows."""
    return sum(e.rand_calls for e in events
               if e.kind == "animation" and e.name not in leave_out)


def names(events: list) -> list[str]:
    return [e.name for e in events if e.kind == "animation"]


def attack_turn(player: tuple[int, ...], cpu: tuple[int, ...], target: int = 0, *,
                cpu_defends: bool = False, view: str = "2d") -> list:
    """Side 0 plays ``player[0]``; side 1 plays ``cpu[0]`` (turned to defence when asked);
    side 0 plays its next card and attacks with column 0."""
    d = new_duel(player, cpu)
    turn(d)
    play(d)
    if cpu_defends:
        d.step(ChangePosition(0))
    d.step(EndTurn())
    play(d)
    return d.step(Attack(0, target, view=view))


# ----------------------------------------------------------------------------- the fixed rows
def test_direct_high_is_4864():
    """DIRECT_HIGH: a direct attack of 1000 or more (DuelScene_UpdateBattle state 9: one
    damage number, record 1000s + 3, 64 particles)."""
    events = attack_turn((STRONG,), (SET_MAGIC,), target=-1)
    assert names(events) == ["damage_number"]
    assert charged(events) == row("DIRECT_HIGH") == 4864


def test_direct_low_is_2624():
    """DIRECT_LOW: a direct attack below 1000 (record 3, 32 particles)."""
    events = attack_turn((LOW,), (SET_MAGIC,), target=-1)
    assert charged(events) == row("DIRECT_LOW") == 2624


def test_a_direct_attack_for_zero_shows_record_six():
    """quirk: func_80153200 takes D_8015AF18[6] (64 particles) for the number 0 whatever the
    record asked: a 0-ATK monster's direct attack costs DIRECT_HIGH's 4864, not 2624."""
    events = attack_turn((ZERO,), (SET_MAGIC,), target=-1)
    assert charged(events) == 4864


def test_swipe_attack_high_and_low():
    """SWIPE_ATK_HIGH / _LOW: beating an attack-position monster by 1000+ / less: the
    defender's damage number and its shake while the number lives (state 8), then BURN."""
    high = attack_turn((STRONG,), (SPECTER,))
    assert names(high)[-3:] == ["damage_number", "shake", "destruction"]
    assert charged(high) == row("SWIPE_ATK_HIGH") == 4956
    low = attack_turn((STRONG,), (WEAK,))
    assert charged(low) == row("SWIPE_ATK_LOW") == 2716


def test_swipe_defence():
    """SWIPE_DEF: beating a defender (its number is 0: record 6), then BURN."""
    events = attack_turn((STRONG,), (WEAK,), cpu_defends=True)
    assert charged(events) == row("SWIPE_DEF") == 4926


def test_losing_an_attack():
    """The tools: losing an attack = LOSE_ATTACK (the defender's 0) + SWIPE_ATK_* (the
    attacker's number, shaking) + BURN."""
    events = attack_turn((WEAK,), (STRONG,))
    assert charged(events) == row("LOSE_ATTACK") + row("SWIPE_ATK_LOW")


def test_ties():
    """The tools: a tie of two attack-position monsters = (SWIPE_DEF + BURN) twice; a tie
    against a defender = LOSE_ATTACK; losing to a defender = LOSE_ATTACK + DIRECT_*."""
    both = attack_turn((STRONG,), (STRONG,))
    assert names(both).count("destruction") == 2
    assert charged(both) == 2 * row("SWIPE_DEF")
    standoff = attack_turn((STRONG,), (LOW,), cpu_defends=True)  # 2000 against DEF 2000
    assert charged(standoff) == row("LOSE_ATTACK")
    bounced = attack_turn((WEAK,), (LOW,), cpu_defends=True)  # 1200 against DEF 2000
    assert charged(bounced) == row("LOSE_ATTACK") + row("DIRECT_LOW")


def test_fusion_equip_and_dump():
    """FUSION: one fusion step; EQUIP: one equip step; DUMP: a failed step (one call)."""
    d = new_duel((FUSE_A, FUSE_B), (SET_MAGIC,))
    fusion = play(d, (0, 1))
    assert names(fusion) == ["fusion"] and charged(fusion) == row("FUSION") == 4552
    d = new_duel((EQUIPPED, EQUIP), (SET_MAGIC,))
    equip = play(d, (0, 1))
    assert names(equip) == ["equip"] and charged(equip) == row("EQUIP") == 96
    d = new_duel((STRONG, WEAK), (SET_MAGIC,))
    dump = play(d, (0, 1))
    assert names(dump) == ["failure"] and charged(dump) == row("DUMP") == 1


@pytest.mark.parametrize(("card", "name"), [(MOUNTAIN, "FIELD_MOUNT"), (YAMI, "FIELD_YAMI"),
                                            (FOREST, "FIELD_USUAL")])
def test_field_cards(card, name):
    """FIELD_MOUNT 2880, FIELD_YAMI 1856, FIELD_USUAL 4928: effect 10 with the record of the
    terrain the card sets."""
    events = play(new_duel((card,), (SET_MAGIC,)))
    assert names(events) == ["field"] and charged(events) == row(name)


def test_a_trap_that_springs():
    """TRAP_TRIGGERED 2752: effect 8, record 0, which every sprung trap shows
    (Duel_UpdateTrapPresentation never writes the request's field_1A). The code goes on:
    battle state 3 jumps to state 10, which breaks the attacker with the tile effect's
    record 1 (AllocateRequest(3), field_1A = 1) - a destruction the tools leave out."""
    d = new_duel((WEAK,), (TRAP,))  # Bear Trap answers an ATK up to 1500
    turn(d)
    play(d, face_down=True)
    d.step(EndTurn())
    play(d)
    events = d.step(Attack(0, -1))
    assert names(events) == ["trap", "destruction"]
    assert charged(events) == row("TRAP_TRIGGERED") == 2752


def test_leaving_the_3d_battle_at_its_circles():
    """SPAWN_3D 1056: the summoning circles' set-up (func_8006CD78: 64 dust x 6, 32 sparks
    x 1, 32 embers x 6, 64 smoke x 7) before Circle stops the 3-D scene; the duel resumes
    with one card-removed breakup per card destroyed (BURN_3D) and no 2-D animation."""
    events = attack_turn((STRONG,), (WEAK,), view="3d_circles")
    assert names(events) == ["circles_3d", "card_removed"]
    assert charged(events) == row("SPAWN_3D") == 1056
    quick = attack_turn((STRONG,), (WEAK,), view="3d_skip")
    assert charged(quick) == 0 and names(quick)[-1] == "card_removed"


def test_end_of_duel_is_the_outro_then_the_drop():
    """END_OF_DUEL 15: the drop is the 15th call (14 confetti calls, then the roll)."""
    d = new_duel((STRONG,), (SET_MAGIC,), lp=(8000, 100))
    turn(d)
    play(d, face_down=True)
    d.step(EndTurn())
    play(d)
    events = d.step(Attack(0, -1))
    assert names(events)[-1] == "result_outro"
    assert events[-2].rand_calls + events[-1].rand_calls == row("END_OF_DUEL") == 15


# ----------------------------------------------------------------------------- the code's counts
def test_the_card_removed_breakup_starts_with_3568_calls():
    """func_80146760 set-up: per piece (4 x 7) three speed rolls, func_8014F608(16) (96), a
    frame roll and 16 sizes (116), then rays func_8014F754(32) and dust func_8014F180(32),
    5 each: 28 x 116 + 160 + 160 = 3568. Its glow (128, 96, 32) narrows 64 -> 12 by 8 and
    grows 16 -> 128 by 16, both there on frame 7, then fades by 8 (16 frames): 22 frames
    of 32 dust sprites (1408); each piece then rolls at least once (it lands or lights)."""
    for state in (1, 0x1234, 0xDEADBEEF):
        total = tl.Timeline().card_removed.cost(state)
        assert 3568 + 1408 + 28 <= total <= 3568 + 1408 + 28 * 8


def test_sword_equips_and_the_burn_effects():
    """func_80159AAC (301/302): 16 rotations and 24 particles (240), then 24 sprites on each
    of the 17 frames its colour (255 at most, duel-effect-four.md) fades by 15: 1056.
    func_80154B30 / func_801587D8: 16 trails x (8 + 32 x 6) = 3200, nothing per frame.
    func_801503F8: 48 x (func_8014FABC 32 + 1) = 1584. func_80153ADC: 64 x 6 + 32 x 6 at
    start, 32 sprites on 32 frames: 2624."""
    t = tl.Timeline()
    assert t.sword_equip.calls == 240 + 48 * 17 == 1056
    assert t.burn.calls == t.goblin_fan.calls == 3200
    assert t.stat_change.calls == 1584
    assert t.reveal.calls == 576 + 2048 == 2624


def test_bad_reaction_reversed_heal():
    """func_801593A8: the record's rotations (16/24/32/40/48, duel-effect-9.md) x 6 and 32
    particles at start; 32 sprites while (255, 64, 255) fades by 15 (17 frames)."""
    t = tl.Timeline()
    assert [t.bad_reaction(k).calls for k in range(5)] == [6 * r + 192 + 1088
                                                          for r in (16, 24, 32, 40, 48)]


def test_the_destruction_tiles_follow_the_stream():
    """func_80149F90: a column rolls rand() % countdown each update until its 7 tiles are
    lit; 0 lights one and restarts the countdown at the delay, anything else lowers it (1
    always lights). Values that are always 0 light a tile per roll; values of 1 with delay 4
    need 4 rolls a tile; the effect stops after its updates either way."""
    assert X.tile_rolls([0] * 400, delay=4, updates=100) == 35
    assert X.tile_rolls([1] * 400, delay=4, updates=100) == 4 * 35
    assert X.tile_rolls([1] * 400, delay=4, updates=3) == 15


def test_the_3d_destruction_burst_is_fixed():
    """func_8006F1B4: 928 calls at start (32 sparks x 9, 64 dust x 10), then 1887 over its
    95 frames of respawns; a watched 3-D battle also has the circles."""
    watched = tl.Timeline().battle_3d("3d", kills=2)
    assert watched.calls == 1056 + 2 * (928 + 1887) and not watched.exact


def test_every_count_is_charged():
    """No animation of the timeline is left without a count: every one is a number or a
    loop that returns one."""
    t = tl.Timeline()
    animations = [getattr(t, name) for name in vars(t) if isinstance(getattr(t, name),
                                                                      tl.Animation)]
    assert len(animations) > 15
    for animation in animations:
        assert isinstance(animation.cost(0x1234), int)


def test_estimated_tables_mark_their_counts():
    """An estimated overlay table (no public source pins it) marks its counts not exact;
    the same values from a disc are exact."""
    t = tl.Timeline()
    assert not t.destruction().exact and not t.star_flash.exact
    assert t.damage_number(500).exact and t.fusion(False).exact
    disc = O.with_tables(O.BUILT_IN, tiles=O.BUILT_IN.tiles, gather=O.BUILT_IN.gather)
    assert tl.Timeline(disc).destruction().exact
