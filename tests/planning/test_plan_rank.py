"""Rank planner: every bracket boundary of the rank table, the rank ranges, and plans that
really give the rank they promise when scored by the engine's own Duel_CalcRankScore."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emucore import tables
from emucore.fm import rank
from emucore.planning import rankplan

FM = tables.load("fm")

# spec/fm-engine.md §9.2, written out independently of the tables: (first count, value)
SPEC = {
    "turns": [(0, 12), (5, 8), (9, 0), (29, -8), (33, -12)],
    "effective_attacks": [(0, 4), (2, 2), (4, 0), (10, -2), (20, -4)],
    "defensive_wins": [(0, 0), (2, -10), (6, -20), (10, -30), (15, -40)],
    "face_down_plays": [(0, 0), (1, -2), (11, -4), (21, -6), (31, -8)],
    "pure_magic": [(0, 2), (1, -4), (4, -8), (7, -12), (10, -16)],
    "traps_triggered": [(0, 2), (1, -8), (3, -16), (5, -24), (7, -32)],
    "cards_used": [(0, 15), (9, 12), (13, 0), (33, -5), (37, -7)],
    "lp": [(0, -7), (100, -5), (1000, 0), (7000, 4), (8000, 6)],
    "fusions": [(0, 4), (1, 0), (5, -4), (10, -8), (15, -12)],
    "equips": [(0, 4), (1, 0), (5, -4), (10, -8), (15, -12)],
}
BOUNDARIES = [(name, row, i) for row, name in enumerate(rank.COUNTERS)
              for i in range(len(SPEC[name]))]


@pytest.mark.parametrize(("name", "row", "i"), BOUNDARIES)
def test_every_bracket_boundary(name: str, row: int, i: int) -> None:
    first, value = SPEC[name][i]
    assert rank.score_change(FM, row, first) == value
    if i:
        assert rank.score_change(FM, row, first - 1) == SPEC[name][i - 1][1]
    b = rankplan.brackets(FM, row)[i]
    assert (b.low, b.value) == (first, value)
    if i + 1 < len(SPEC[name]):
        assert b.high == SPEC[name][i + 1][0] - 1
        assert rank.score_change(FM, row, b.high) == value


# §9.3: score -> rank at every edge of the rank table.
RANK_EDGES = [(100, "S-POW"), (99, "S-POW"), (90, "S-POW"), (89, "A-POW"), (80, "A-POW"),
              (79, "B-POW"), (70, "B-POW"), (69, "C-POW"), (60, "C-POW"), (59, "D-POW"),
              (50, "D-POW"), (49, "D-TEC"), (40, "D-TEC"), (39, "C-TEC"), (30, "C-TEC"),
              (29, "B-TEC"), (20, "B-TEC"), (19, "A-TEC"), (10, "A-TEC"), (9, "S-TEC"),
              (0, "S-TEC"), (-1, "S-TEC"), (-90, "S-TEC")]


@pytest.mark.parametrize(("score", "name"), RANK_EDGES)
def test_rank_edges_and_ranges_agree(score: int, name: str) -> None:
    assert rank.rank_result(score).rank == name
    r = rankplan.find_rank(FM, name)
    assert r.low <= score <= r.high


def test_unknown_rank() -> None:
    with pytest.raises(ValueError, match="unknown rank 'S-BCD'"):
        rankplan.find_rank(FM, "S-BCD")


START = dict(turns=0, effective_attacks=0, defensive_wins=0, face_down_plays=0, pure_magic=0,
             traps_triggered=0, cards_used=5, lp=8000, fusions=0, equips=0)


def test_standing_at_the_start_of_a_duel() -> None:
    now = rankplan.standing(FM, START)
    # 50 + 2 + 12 + 4 + 0 + 0 + 2 + 2 + 15 + 6 + 4 + 4 = 101 -> clamped S-POW
    assert now.score == 101 and now.result.rank == "S-POW"


def test_s_tec_by_traps_and_low_lp() -> None:
    """A mid-duel state where S-TEC needs traps and LP under 100: the planner says so."""
    counters = dict(START, turns=12, effective_attacks=12, defensive_wins=6, face_down_plays=12,
                    pure_magic=4, traps_triggered=5, cards_used=30, lp=500, fusions=5, equips=5)
    # 50 + 2 + 0 - 2 - 20 - 4 - 8 - 24 + 0 - 5 - 4 - 4 = -19 already: S-TEC as things stand
    assert rankplan.standing(FM, counters).result.rank == "S-TEC"
    plan = rankplan.plan_rank(FM, counters, rankplan.find_rank(FM, "S-TEC"))
    assert plan.reachable and plan.cost == 0
    less = dict(counters, defensive_wins=0, traps_triggered=1, lp=1500)
    # 50 + 2 + 0 - 2 + 0 - 4 - 8 - 8 + 0 + 0 - 4 - 4 = 22 (B-TEC)
    assert rankplan.standing(FM, less).score == 22
    plan = rankplan.plan_rank(FM, less, rankplan.find_rank(FM, "S-TEC"))
    todo = {c.counter: c.more for c in plan.changes if c.more}
    # cheapest 13 points down: 2 more defensive wins (-10) + LP into 1..99 (-7) = cost 3
    assert plan.cost == 3 and todo == {"defensive_wins": 2, "lp": 1}
    assert "2 more defensive wins" in plan.text() and "LP 1-99" in plan.text()


def test_out_of_reach() -> None:
    late = dict(START, turns=40, effective_attacks=25, defensive_wins=20, traps_triggered=9,
                pure_magic=12, cards_used=38)
    plan = rankplan.plan_rank(FM, late, rankplan.find_rank(FM, "S-POW"))
    assert not plan.reachable and plan.text() == "S-POW: out of reach"


COUNTERS = st.fixed_dictionaries({
    name: st.integers(1, 9000) if name == "lp" else st.integers(0, 45)
    for name in rank.COUNTERS})


def reachable_scores(counters: dict[str, int], end: str) -> set[int]:
    """Every score a plan could reach, by plain enumeration of bracket choices per row."""
    sums = {rank.BASE_SCORE + rank.END_ADJUSTMENT[end]}
    for row, name in enumerate(rank.COUNTERS):
        values = {b.value for b in rankplan.brackets(FM, row)
                  if (name == "lp" and b.high >= 1) or (name != "lp" and b.high >= counters[name])}
        sums = {s + v for s, v in itertools.product(sums, values)}
    return sums


@settings(max_examples=40, deadline=None)
@given(COUNTERS, st.sampled_from(["lp", "deckout", "exodia"]))
def test_plans_deliver_their_rank(counters: dict[str, int], end: str) -> None:
    scores = reachable_scores(counters, end)
    for target, plan in zip(rankplan.rank_ranges(FM), rankplan.plan_all(FM, counters, end),
                            strict=True):
        assert plan.reachable == any(target.low <= s <= target.high for s in scores)
        if not plan.reachable:
            continue
        final = {c.counter: c.low for c in plan.changes}  # the plan's counts at its end
        for c in plan.changes:
            assert c.low <= c.high and c.more == (
                (0 if c.low <= c.now <= c.high else 1) if c.counter == "lp" else c.low - c.now)
        score = rank.rank_score(FM, final, rank.END_ADJUSTMENT[plan.end])
        assert score == plan.score and rank.rank_result(score).rank == target.name
        high = {c.counter: c.high for c in plan.changes}  # ... and at its limits
        assert rank.rank_result(rank.rank_score(FM, high, rank.END_ADJUSTMENT[end])).rank == \
            target.name


def test_any_end_may_choose_a_deck_out() -> None:
    plan = rankplan.plan_rank(FM, START, rankplan.find_rank(FM, "C-TEC"), end=None)
    fixed = rankplan.plan_rank(FM, START, rankplan.find_rank(FM, "C-TEC"))
    assert plan.end == "deckout" and plan.cost < fixed.cost


@pytest.mark.parametrize("bad", [dict(START, lp=0), dict(START, turns=256),
                                 {k: v for k, v in START.items() if k != "turns"}])
def test_impossible_counters(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        rankplan.standing(FM, bad)


def test_the_rank_meter_reads_a_live_duel() -> None:
    from emucore.fm.setup import FmSetup, new_duel

    duel = new_duel(FmSetup(deck=sorted(list(range(1, 21)) * 2), duelist=1), FM)
    for _ in range(6):
        duel.step(duel.legal_actions()[0])
    meter = rankplan.duel_standing(duel)
    side = duel.counters(0)
    counters = rankplan.counters_from_side(side)
    assert counters["cards_used"] == side["draw_cursor"] and counters["turns"] == side["turns"]
    assert meter.score == rank.rank_score(FM, counters, 2)
    assert meter.result == rank.rank_result(meter.score)


def test_lp_is_read_as_signed_16_bits() -> None:
    side = dict(START, lp=0xFFFF, draw_cursor=5)
    assert rankplan.counters_from_side(side)["lp"] == -1
