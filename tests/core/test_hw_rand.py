"""The Psy-Q rand() stream: sanity vector, jumps, inverse, index <-> state, range reductions."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from emucore.hw import psyq_rand as R


def test_boot_state_first_five_results_and_states():
    rng = R.Rand()
    rng.srand(0x55555555)
    assert [rng.rand() for _ in range(5)] == [27155, 4859, 20868, 23650, 5236]
    assert rng.state == 0x1474D436
    assert rng.calls == 5


def test_srand_stores_the_seed_verbatim():
    rng = R.Rand()
    rng.srand(0x56)
    assert rng.state == 0x56


def _walk(state: int, n: int) -> int:
    for _ in range(n):
        state = (state * 0x41C64E6D + 0x3039) & 0xFFFFFFFF
    return state


@given(st.integers(0, 2**32 - 1), st.integers(0, 3000))
def test_jump_equals_single_steps(state, n):
    assert int(R.jump(state, n)) == _walk(state, n)


@given(st.integers(0, 2**32 - 1), st.integers(-(2**40), 2**40))
def test_jump_back_undoes_jump(state, n):
    assert int(R.jump(R.jump(state, n), -n)) == state


@given(st.integers(0, 2**32 - 1))
def test_unstep_inverts_step(state):
    assert int(R.unstep(R.step(state))) == state
    assert int(R.step(R.unstep(state))) == state


def test_vectorised_streams_match_scalar():
    seeds = np.array([0, 1, 0x55555555, 0xFFFFFFFF], dtype=np.uint32)
    states = seeds.copy()
    for _ in range(7):
        states = R.step(states)
    assert [int(s) for s in states] == [_walk(int(s), 7) for s in seeds]
    run = R.consecutive_states(0x55555555, 1000)
    assert int(run[999]) == _walk(0x55555555, 999)
    assert int(R.state_at(np.array([5]))[0]) == 0x1474D436


@given(st.integers(0, 2**32 - 1))
def test_index_of_is_the_discrete_log(index):
    state = int(R.jump(R.BOOT_STATE, index))
    assert R.index_of(state) == index


def test_rand_mod_40_keeps_the_bias():
    values = np.arange(32768, dtype=np.uint32)
    counts = np.bincount(R.mod(values, 40), minlength=40)
    assert counts[:8].tolist() == [820] * 8 and counts[8:].tolist() == [819] * 32
    pct = np.bincount(values % 100, minlength=100)
    assert pct[:68].tolist() == [328] * 68 and pct[68:].tolist() == [327] * 32
    assert R.roll_2048(values).min() == 1 and R.roll_2048(values).max() == 2048
    assert R.percent(np.array([67, 68, 167]), 68).tolist() == [True, False, True]


@given(st.integers(0, 0xFFFFFFFF), st.integers(0, 1100))
def test_peek_and_advance_equal_single_calls(state, n):
    """Rand.peek shows the values of the next n rand() calls without making them, and
    Rand.advance makes them (source: the LCG definition, psyq rand 0x8008E590)."""
    rng, check = R.Rand(state), R.Rand(state)
    values = rng.peek(n).tolist()
    assert (rng.state, rng.calls) == (state, 0)
    assert values == [check.rand() for _ in range(n)]
    rng.advance(n)
    assert (rng.state, rng.calls) == (check.state, check.calls)
