"""The search helpers of spec/fm-ai.md §4 on the golden boards of §11 (G2-G5, G7, G8)."""

from __future__ import annotations

import pytest
from fm_ai_util import board

from emucore.fm import snapshot as sn
from emucore.fm.ai import helpers as h
from emucore.fm.ai.helpers import State


def test_g2_find_killer_weakest_winner_with_guardian_stars():
    records = {1: (1, 1500, 0, 0, 0, 1), 2: (1, 1200, 0, 0, 0, 1), 3: (1, 2000, 0, 0, 0, 3),
               4: (1, 1000, 0, sn.USED, 0, 6), 56: (1, 1600, 0, 0, 0, 2)}
    assert h.find_killer(board(records), 56, 0) == 2
    del records[2]
    assert h.find_killer(board(records), 56, 0) == 1


def test_find_killer_never_returns_9999_and_ignores_position():
    b = board({1: (1, 9999, 0, sn.DEFENCE, 0, 1), 56: (1, 100, 0, 0, 0, 1)})
    assert h.find_killer(b, 56, 0) == 0
    b = board({1: (1, 2000, 0, sn.DEFENCE, 0, 1), 56: (1, 100, 0, 0, 0, 1)})
    assert h.find_killer(b, 56, 0) == 1


def g3():
    return board({56: (10, 2500, 2000, sn.FACE_DOWN), 57: (11, 1800, 2100, 0),
                  58: (12, 2100, 1000, 0)})


def test_g3_strongest_weakest_ties_and_hiding():
    b, s = g3(), State()
    assert h.find_strongest(b, s, 2, 3, 1, 0) == 57
    assert h.find_strongest(b, s, 2, 3, 0, 0) == 56
    assert h.find_weakest(b, s, 2, 3, 1, 0) == 57
    assert h.find_strongest(b, s, 0, 4, 1, 0) == 58


def test_strongest_returns_a_magic_card_in_a_window_without_monsters():
    b = board({11: (343, 0, 0, 0, 20), 12: (344, 0, 0, 0, 20)})
    assert h.find_strongest(b, State(), 2, 2, 1, 0) == 11


def test_card_set_exclusion_and_the_id_zero_quirk():
    s = State()
    h.add_card(s, 11)          # the card in slot 57
    b = g3()
    assert h.find_strongest(b, s, 2, 3, 1, 1) == 58
    assert h.excluded(b, s, 1, 0)          # id 0 is "in" a set that is not full
    s.card_set = list(range(1, 33))
    assert not h.excluded(b, s, 1, 0)
    h.add_card(s, 99)                      # full: ignored
    assert 99 not in s.card_set


def test_find_first_card_skips_stale_used_flags_before_the_empty_test():
    b = board({1: (0, 1000, 1000, sn.USED), 2: (0, 0, 0, 0), 3: (5, 0, 0, sn.FACE_DOWN)})
    assert h.find_first_card(b, 0, 1) == 2          # zone 1 (unused only) skips slot 1
    assert h.find_first_card(b, 0, 0) == 1
    assert h.find_first_card(b, 2, 0) == 3
    assert h.find_first_card(b, 1, 0) == 0


def test_find_card_and_match_type_hide_face_down_player_cards():
    b = board({57: (10, 1, 1, sn.FACE_DOWN, 5), 58: (10, 1, 1, 0, 5)})
    assert h.find_card(b, 10, 5, 1) == 58
    assert h.find_card(b, 10, 5, 0) == 57
    assert h.match_type(b, State(), 5, 5, 1, 0) == 58
    assert h.count_cards(b, 5) == 2


def combo_board(field: dict[int, int], hand: list[int]):
    from fm_ai_util import SYNTH_STATS
    records = {slot: (card, *SYNTH_STATS[card]) for slot, card in field.items()}
    records.update({11 + i: (card, *SYNTH_STATS[card]) for i, card in enumerate(hand)})
    return board(records)


@pytest.mark.parametrize(("field", "hand", "depth", "result", "combo"), [
    ({1: 905}, [900, 901, 903, 907, 908], 1, 1, [1, 12]),           # a
    ({1: 905}, [901, 900, 903, 907, 908], 1, 0, [13]),              # b: position 0 masked
    ({2: 905}, [901, 900, 903, 907, 908], 1, 1, [2, 11]),           # c: position 1 masked
    ({}, [900, 901, 903, 908, 908], 2, 0, [11, 12, 13]),            # d
    ({}, [900, 901, 903, 907, 908], 2, 0, [13, 14]),                # e: fewer cards win ties
    ({}, [900, 901, 903, 907, 908], 1, 0, [13]),                    # f: no hand-hand at L=2
])
def test_g4_find_best_combo(field, hand, depth, result, combo):
    b, s = combo_board(field, hand), State()
    assert h.find_best_combo(b, s, depth, 0) == result
    assert s.combo[:s.best_depth + 1] == combo
    h.push_combo(s, clear=True)
    assert s.selection[:5] == [v for v in combo if v >= 11] + [0] * (5 - len(
        [v for v in combo if v >= 11]))


def test_g4_nothing_found_is_result_3():
    assert h.find_best_combo(board({}), State(), 2, 0) == 3


@pytest.mark.parametrize(("hand", "depth", "result", "combo"), [
    ([901, 908, 908, 908, 908], 1, 1, None),      # one window card: recorded at depth 0
    ([901, 903, 908, 908, 908], 1, 0, [11, 12]),
    ([901, 908, 908, 908, 908], 0, 1, None),
    ([901, 903, 908, 908, 908], 0, 1, None),
])
def test_g5_evaluate_fusion_quirk(hand, depth, result, combo):
    b, s = combo_board({}, hand), State()
    assert h.evaluate_fusion(b, s, 905, depth, 0) == result
    if combo:
        assert s.combo[:s.best_depth + 1] == combo


def test_g8_ghost_monster_in_find_defense_stopper():
    array = sn.Snapshot()
    card = sn.FieldCard
    player = sn.ExportSide([card(5, 1800, 1000, 0x8000), None, None, None, None],
                           [None] * 5, [], [], 8000, 0)
    before = sn.ExportSide([card(5, 1500, 0, 0x8000), card(6, 2000, 0, 0x8000), None,
                            None, None], [None] * 5, [], [], 8000, 0)
    after = sn.ExportSide([card(5, 1500, 0, 0x8000), None, None, None, None], [None] * 5, [],
                          [], 8000, 0)
    from fm_ai_util import synthetic_data
    d = synthetic_data()
    args = (d.cards.type, d.cards.star1, d.cards.star2, d.cards.atk, d.cards.dfn)
    array.export(sn.ExportView(before, player, 0, 1), *args)
    array.export(sn.ExportView(after, player, 0, 1), *args)
    b = board({}, snapshot=array)
    assert b.ids[2] == 0 and b.atk[2] == 2000          # stale ATK kept
    assert h.find_defense_stopper(b, 1) == 1
    fresh = sn.Snapshot()
    fresh.export(sn.ExportView(after, player, 0, 1), *args)
    assert h.find_defense_stopper(board({}, snapshot=fresh), 1) == 0


def test_calc_card_power_burns_and_terrain():
    from emucore.fm.ai import data as ai_data
    d = ai_data.load()
    empty = sn.ExportSide([None] * 5, [None] * 5, [], [], 1, 0)
    b = board({}, data=d, view=sn.ExportView(empty, empty, 3, 1))
    assert [h.calc_card_power(b, c, 0) for c in range(343, 348)] == [50, 100, 200, 500, 1000]
    assert h.calc_card_power(b, 343, 2) == 0
    # Blue-eyes White Dragon (1): 3000/2500, Dragon +500 on Mountain (terrain 3)
    assert h.calc_card_power(b, 1, 0) == 3500 and h.calc_card_power(b, 1, 2) == 3500
