"""Rank score, rank, starchips and the drop roll (spec/fm-engine.md §9)."""

from __future__ import annotations

import numpy as np
import pytest

from emucore import tables
from emucore.fm import rank
from emucore.hw.psyq_rand import Rand

T = tables.load("fm")
NEUTRAL = {"turns": 10, "effective_attacks": 5, "defensive_wins": 0, "face_down_plays": 0,
           "pure_magic": 0, "traps_triggered": 0, "cards_used": 20, "lp": 5000, "fusions": 1,
           "equips": 1}

# (row, counter value, score change) at both sides of every bracket boundary.
BOUNDARIES = [
    (0, 4, 12), (0, 5, 8), (0, 8, 8), (0, 9, 0), (0, 28, 0), (0, 29, -8), (0, 32, -8),
    (0, 33, -12), (0, 255, -12),
    (1, 1, 4), (1, 2, 2), (1, 3, 2), (1, 4, 0), (1, 9, 0), (1, 10, -2), (1, 19, -2),
    (1, 20, -4),
    (2, 1, 0), (2, 2, -10), (2, 5, -10), (2, 6, -20), (2, 9, -20), (2, 10, -30), (2, 14, -30),
    (2, 15, -40),
    (3, 0, 0), (3, 1, -2), (3, 10, -2), (3, 11, -4), (3, 20, -4), (3, 21, -6), (3, 30, -6),
    (3, 31, -8),
    (4, 0, 2), (4, 1, -4), (4, 3, -4), (4, 4, -8), (4, 6, -8), (4, 7, -12), (4, 9, -12),
    (4, 10, -16),
    (5, 0, 2), (5, 1, -8), (5, 2, -8), (5, 3, -16), (5, 4, -16), (5, 5, -24), (5, 6, -24),
    (5, 7, -32),
    (6, 8, 15), (6, 9, 12), (6, 12, 12), (6, 13, 0), (6, 32, 0), (6, 33, -5), (6, 36, -5),
    (6, 37, -7),
    (7, 0, -7), (7, 99, -7), (7, 100, -5), (7, 999, -5), (7, 1000, 0), (7, 6999, 0),
    (7, 7000, 4), (7, 7999, 4), (7, 8000, 6), (7, 65535, 6),
    (8, 0, 4), (8, 1, 0), (8, 4, 0), (8, 5, -4), (8, 9, -4), (8, 10, -8), (8, 14, -8),
    (8, 15, -12),
    (9, 0, 4), (9, 1, 0), (9, 4, 0), (9, 5, -4), (9, 9, -4), (9, 10, -8), (9, 14, -8),
    (9, 15, -12),
]


@pytest.mark.parametrize(("row", "counter", "change"), BOUNDARIES)
def test_every_bracket_boundary(row, counter, change):
    assert rank.score_change(T, row, counter) == change


def test_score_sums_base_end_adjustment_and_rows():
    assert rank.rank_score(T, NEUTRAL, rank.END_ADJUSTMENT["lp"]) == 50 + 2 + 0 + 0 + 0 + 0 \
        + 2 + 2 + 0 + 0 + 0 + 0
    fast = dict(NEUTRAL, turns=4, effective_attacks=0, cards_used=8, lp=8000, fusions=0,
                equips=0)
    assert rank.rank_score(T, fast, 2) == 50 + 2 + 12 + 4 + 0 + 0 + 2 + 2 + 15 + 6 + 4 + 4
    with pytest.raises(ValueError, match="missing counters: lp"):
        rank.rank_score(T, {k: v for k, v in NEUTRAL.items() if k != "lp"}, 0)


def test_score_is_the_sum_of_each_rows_change():
    """rank_score reads a small counter's change from a list made once per tables: the same
    value as score_change, for every counter value up to past the last threshold."""
    for value in (-3, *range(0, 300), 999, 1000, 7999, 8000, 32767):
        counters = {name: value for name in rank.COUNTERS}
        expected = 50 + sum(rank.score_change(T, row, value) for row in range(10))
        assert rank.rank_score(T, counters, 0) == expected


@pytest.mark.parametrize(("score", "name", "chips", "pool"), [
    (150, "S-POW", 5, "sa_pow"), (99, "S-POW", 5, "sa_pow"), (90, "S-POW", 5, "sa_pow"),
    (89, "A-POW", 4, "sa_pow"), (80, "A-POW", 4, "sa_pow"), (79, "B-POW", 3, "bcd"),
    (70, "B-POW", 3, "bcd"), (69, "C-POW", 2, "bcd"), (60, "C-POW", 2, "bcd"),
    (59, "D-POW", 1, "bcd"), (50, "D-POW", 1, "bcd"), (49, "D-TEC", 1, "bcd"),
    (40, "D-TEC", 1, "bcd"), (39, "C-TEC", 2, "bcd"), (30, "C-TEC", 2, "bcd"),
    (29, "B-TEC", 3, "bcd"), (20, "B-TEC", 3, "bcd"), (19, "A-TEC", 4, "sa_tec"),
    (10, "A-TEC", 4, "sa_tec"), (9, "S-TEC", 5, "sa_tec"), (0, "S-TEC", 5, "sa_tec"),
    (-40, "S-TEC", 5, "sa_tec"),
])
def test_rank_result_table(score, name, chips, pool):
    result = rank.rank_result(score)
    assert (result.rank, result.starchips, result.pool) == (name, chips, pool)


def test_rank_table_matches_ranks_csv():
    for score_min, name, chips, pool in T.ranks:
        if score_min >= 0:
            result = rank.rank_result(score_min)
            assert (result.rank, result.starchips, result.pool) == (name, chips, pool)


def test_drop_walks_cumulative_weights_in_id_order():
    weights = np.zeros(723, dtype=np.int64)
    weights[10], weights[20], weights[30] = 100, 1000, 948
    for state in range(0, 2**32, 2**28 + 12345):
        rng = Rand(state)
        probe = Rand(state)
        roll = (probe.rand() & 0x7FF) + 1
        expected = 10 if roll <= 100 else 20 if roll <= 1100 else 30
        assert rank.select_drop(rng, weights) == expected
        assert rng.calls == 1
    assert rank.select_drop(Rand(), np.zeros(723)) == 0


def test_drop_uses_the_named_pool():
    card = rank.drop(Rand(99), T, 1, "sa_tec")
    assert T.pools[1, 3, card] > 0
    with pytest.raises(ValueError, match="unknown drop pool"):
        rank.drop(Rand(), T, 1, "deck")


def test_caps():
    assert rank.add_starchips(999_998, 5) == 999_999
    assert rank.award_card(250) == 250 and rank.award_card(3) == 4
