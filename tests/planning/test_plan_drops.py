"""Drop odds and manipulation, checked against the engine's Duel_SelectCardDrop."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emucore import tables
from emucore.fm import rank
from emucore.hw import psyq_rand
from emucore.planning import drops

FM = tables.load("fm")


@pytest.mark.parametrize("duelist", range(1, 40))
def test_probabilities_sum_to_one_per_pool(duelist: int) -> None:
    pools = drops.duelist_odds(FM, duelist)
    assert set(pools) == {"sa_pow", "bcd", "sa_tec"}
    for pool, odds in pools.items():
        assert sum(o.weight for o in odds) == 2048
        assert sum(o.probability for o in odds) == pytest.approx(1.0, abs=1e-12)
        assert [o.weight for o in odds] == sorted((o.weight for o in odds), reverse=True)
        assert all(FM.pools[duelist, drops.POOLS.index(pool), o.card] == o.weight for o in odds)


def test_who_drops_a_card() -> None:
    card = FM.card_id("Meteor B. Dragon")
    found = drops.card_odds(FM, card)
    expected = {(d, p) for d in range(1, 40) for p in drops.DROP_POOLS
                if FM.pools[d, drops.POOLS.index(p), card]}
    assert {(o.duelist, o.pool) for o in found} == expected
    assert [o.weight for o in found] == sorted((o.weight for o in found), reverse=True)
    best = found[0]
    assert best.expected_wins == pytest.approx(2048 / best.weight)


def test_unknown_duelist() -> None:
    with pytest.raises(ValueError, match="unknown duelist 40"):
        drops.duelist_odds(FM, 40)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 39), st.sampled_from(drops.DROP_POOLS))
def test_manip_offsets_are_where_the_real_roll_gives_the_card(state: int, duelist: int,
                                                              pool: str) -> None:
    weights = FM.pools[duelist, drops.POOLS.index(pool)]
    rolls = [rank.drop(psyq_rand.Rand(int(psyq_rand.jump(state, k))), FM, duelist, pool)
             for k in range(300)]
    want = max(set(rolls), key=rolls.count)
    offsets = drops.manip_offsets(state, want, weights, 299)
    assert offsets.tolist() == [k for k, card in enumerate(rolls) if card == want]
    assert drops.drops_after(state, 300, weights).tolist() == rolls


def test_spend_uses_failed_combinations() -> None:
    assert drops.spend(0) == []
    name, calls, at_will = drops.EVENTS[0]
    assert calls == 1 and at_will
    assert drops.spend(7) == [(name, 7)]
    state = 0x12345678
    after = psyq_rand.Rand(state)
    for _ in range(7):  # each failed combination costs one cosmetic rand()
        after.rand()
    assert after.state == int(psyq_rand.jump(state, 7))


def test_drops_after_handles_the_array_shape() -> None:
    weights = FM.pools[1, 1]
    out = drops.drops_after(psyq_rand.BOOT_STATE, 5, weights)
    assert out.shape == (5,) and out.dtype == np.int64


def test_drops_at_many_states_is_the_scalar_roll() -> None:
    """``drops_at`` on 2,000 unrelated states gives what ``Duel_SelectCardDrop``
    (``rank.drop``, one state at a time) gives, for every drop pool of a few duelists."""
    states = np.random.default_rng(16).integers(0, 2**32, 2000, dtype=np.uint64).astype(np.uint32)
    for duelist in (1, 7, 26, 39):
        for pool in drops.DROP_POOLS:
            weights = FM.pools[duelist, drops.POOLS.index(pool)]
            scalar = [rank.drop(psyq_rand.Rand(int(s)), FM, duelist, pool) for s in states[:500]]
            assert rank.drops_at(states, weights)[:500].tolist() == scalar
