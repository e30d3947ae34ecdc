"""FM stat routines and Game Boy BCD arithmetic (spec/fm-engine.md §4, spec/dm1.md)."""

from __future__ import annotations

import numpy as np
import pytest

from emucore import tables
from emucore.hw import fixed, fm_stats, gameboy

# Duel_CalcGuardianStarMatchup for left ids 0..15 (rows) x right ids 0..15 (columns), in units
# of 500. Derived from fm-engine.md §4.4: 1-6 and 7-10 cycles, left 0 folds to Neptune and
# left 11..15 to Venus; out-of-range right ids match nothing.
STAR_MATRIX = """
 0  1  0  0  0 -1  0  0  0  0  0  0  0  0  0  0
 0  0  1  0  0  0 -1  0  0  0  0  0  0  0  0  0
 0 -1  0  1  0  0  0  0  0  0  0  0  0  0  0  0
 0  0 -1  0  1  0  0  0  0  0  0  0  0  0  0  0
 0  0  0 -1  0  1  0  0  0  0  0  0  0  0  0  0
 0  0  0  0 -1  0  1  0  0  0  0  0  0  0  0  0
 0  1  0  0  0 -1  0  0  0  0  0  0  0  0  0  0
 0  0  0  0  0  0  0  0  1  0 -1  0  0  0  0  0
 0  0  0  0  0  0  0 -1  0  1  0  0  0  0  0  0
 0  0  0  0  0  0  0  0 -1  0  1  0  0  0  0  0
 0  0  0  0  0  0  0  1  0 -1  0  0  0  0  0  0
 0  0  0  0  0  0  0  1  0 -1  0  0  0  0  0  0
 0  0  0  0  0  0  0  1  0 -1  0  0  0  0  0  0
 0  0  0  0  0  0  0  1  0 -1  0  0  0  0  0  0
 0  0  0  0  0  0  0  1  0 -1  0  0  0  0  0  0
 0  0  0  0  0  0  0  1  0 -1  0  0  0  0  0  0
"""


def test_guardian_star_matrix_golden():
    expected = np.array(STAR_MATRIX.split(), dtype=np.int64).reshape(16, 16) * 500
    a, b = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
    assert (fm_stats.guardian_star_matchup(a, b) == expected).all()


def test_star_cycles_agree_with_the_star_table():
    stars = tables.load("fm").raw["guardian_stars.csv"]
    for star, strong, weak in zip(stars["star_id"], stars["strong_against"],
                                  stars["weak_against"], strict=True):
        assert fm_stats.guardian_star_matchup(star, strong) == 500
        assert fm_stats.guardian_star_matchup(star, weak) == -500


@pytest.mark.parametrize(("value", "bonus", "right", "expected"), [
    (9999, 500, 9900, 99),      # cap before comparing: 10499 -> 9999
    (9999, -500, 9999, -500),
    (100, -500, 0, -400),       # quirk: a 100-ATK attacker loses to a 0-ATK monster
])
def test_asymmetric_clamp_examples(value, bonus, right, expected):
    left = fm_stats.battle_value(value, bonus)
    assert fm_stats.battle_compare(left, right, False, False) == expected


def test_battle_compare_tie_marker_only_when_both_attack():
    assert fm_stats.battle_compare(1500, 1500, False, False) == fm_stats.TIE == -1
    assert fm_stats.battle_compare(1500, 1500, False, True) == 0
    assert fm_stats.battle_compare(1500, 1500, True, False) == 0


def test_card_stat_sums_modifiers_before_one_clamp():
    assert fm_stats.card_stat(300, -1000, 500) == 0
    assert fm_stats.card_stat(300, -500, 500) == 300
    assert fm_stats.card_stat(9000, 1000, 500) == 9999


def test_terrain_boost_lookup_and_effective_stat_table():
    t = tables.load("fm")
    # Dragon on Mountain +500; Fairy on Yami -500; Reptile nowhere; normal terrain 0; magic 0.
    assert fm_stats.terrain_boost(t.terrain, 0, 3) == 500
    assert fm_stats.terrain_boost(t.terrain, 8, 6) == -500
    assert fm_stats.terrain_boost(t.terrain, 11, np.arange(7)).tolist() == [0] * 7
    assert fm_stats.terrain_boost(t.terrain, 0, 0) == 0
    assert fm_stats.terrain_boost(t.terrain, 20, 3) == 0
    ids = np.arange(1, 723)
    boost = fm_stats.terrain_boost(t.terrain, t.type_id[ids][:, None], np.arange(7)[None, :])
    atk = fm_stats.card_stat(t.atk[ids][:, None], 0, boost)
    assert atk.shape == (722, 7)
    assert atk[0].tolist() == [3000, 3000, 3000, 3500, 3000, 3000, 3000]  # Blue-eyes, Mountain


def test_fixed_width_wraps():
    assert fixed.u8(256) == 0 and fixed.s8(0xFF) == -1 and fixed.s8(128) == -128
    assert fixed.u16(-1) == 0xFFFF and fixed.s16(0x8000) == -32768
    assert fixed.u32(2**32 + 5) == 5 and fixed.s32(0xFFFFFFFF) == -1
    assert fixed.clamp(np.array([-5, 5, 50]), 0, 10).tolist() == [0, 5, 10]


def test_bcd_four_digit_truncation_glitch():
    assert int(gameboy.to_bcd(1648)) == 0x1648
    assert int(gameboy.from_bcd(gameboy.to_bcd(11648))) == 1648
    assert gameboy.truncate_display(np.array([9999, 10000, 12345])).tolist() == [9999, 0, 2345]


def test_level_and_field_multipliers_pin_the_known_example():
    # 3500 x1.3 (field) x1.6 x1.6 (level 2) = 11648 on the cartridge, shown as 1648.
    assert gameboy.scaled_stat_raw(3500, level=2, field_effect=1) == 11648
    assert gameboy.scaled_stat(3500, level=2, field_effect=1) == 1648
    assert gameboy.scaled_stat(1000, level=-1) == 600
    assert gameboy.scaled_stat(1000, level=1) == 1600
    assert gameboy.scaled_stat(1000, field_effect=-1) == 700


def test_rounding_rule_is_swappable_and_named():
    assert gameboy.ROUNDING == "floor_each"
    try:
        gameboy.set_rounding("round_each")
        assert gameboy.scaled_stat(1234, level=1) == 1974  # 1974.4 rounds down
        assert gameboy.scaled_stat(1235, level=1) == 1976
    finally:
        gameboy.set_rounding("floor_each")
    assert gameboy.scaled_stat(1235, level=1) == 1976
    assert gameboy.scaled_stat(1233, level=1) == 1972  # 1972.8 floors
    with pytest.raises(ValueError, match="unknown rounding rule"):
        gameboy.set_rounding("banker")
    with pytest.raises(ValueError, match="outside"):
        gameboy.scaled_stat(100, level=3)


def test_the_one_value_routines_equal_the_array_routines():
    """The per-step ``*_one`` functions the engine and the AI call are the array reference
    (Duel_CalcCardStats, Duel_CalcBattleAttack, func_8001EFD4) on one value."""
    grid = range(-12000, 12001, 1750)
    for base in (0, 300, 5110, 9999):
        for mod in grid:
            for terrain in (-500, 0, 500):
                assert fm_stats.card_stat_one(base, mod, terrain) == \
                    int(fm_stats.card_stat(base, mod, terrain))
    for value in (0, 100, 9500, 9999):
        for bonus in (-500, 0, 500):
            one = fm_stats.battle_value_one(value, bonus)
            assert one == int(fm_stats.battle_value(value, bonus))
            for right in (0, 100, 9500, 9999):
                for flags in ((False, False), (True, False), (False, True)):
                    assert fm_stats.battle_compare_one(one, right, *flags) == \
                        int(fm_stats.battle_compare(one, right, *flags))


def test_is_monster_is_the_type_below_20_and_matches_the_kind_column():
    """reference/fm/cards.csv: types 0..19 are the monster types, 20+ Magic/Trap/Ritual/Equip;
    the engine, the AI and the tables ask the same routine."""
    t = tables.load("fm")
    kinds = t.raw["cards.csv"]["kind"]
    assert [bool(m) for m in fm_stats.is_monster(t.type_id[1:])] == \
        [k == "monster" for k in kinds]
