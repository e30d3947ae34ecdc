"""The starter kernel's passes across a block (emucore.planning.starter_kernel: ``holds``,
``fourth_copies``) against a plain count of each index's picks with numpy, on random slot
bytes; and the search's block size. Source of the expected values: the copy limit of
NameEntry_BuildStarterDeck (a 4th copy of a card is drawn again, emucore.fm.deck.COPY_LIMIT)
counted directly, independent of the passes' pair compares."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_starter_kernel import PURE  # the kernel run as Python from its source

from emucore import tables
from emucore.fm.deck import COPY_LIMIT
from emucore.planning import starter

FM = tables.load("fm")
PLAN = starter.plan(FM)


def random_picks(seed: int, drawn: int, lanes: int, slots: int) -> np.ndarray:
    """[pick, index] slot bytes in 1 .. ``slots``, few enough slots that 4th copies are
    common."""
    rng = np.random.default_rng(seed)
    return rng.integers(1, slots + 1, size=(drawn, lanes), dtype=np.uint8)


def copies(picks: np.ndarray) -> np.ndarray:
    """[index, slot] how often each index's picks hold each slot."""
    counts = np.zeros((picks.shape[1], 256), dtype=np.int64)
    np.add.at(counts, (np.arange(picks.shape[1])[None, :], picks.astype(np.int64)), 1)
    return counts


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20), st.integers(1, 40), st.integers(2, 30))
def test_fourth_copies_flags_exactly_the_indices_past_the_limit(seed, drawn, lanes, slots):
    """``four[j]`` is set exactly where some slot appears more than COPY_LIMIT times among
    index j's picks (no false alarm, none missed)."""
    picks = random_picks(seed, drawn, lanes, slots)
    four = np.full(lanes, 7, dtype=np.uint8)
    run = np.empty(lanes, dtype=np.uint8)
    PURE.fourth_copies(picks, drawn, lanes, four, run)
    expected = copies(picks).max(axis=1) > COPY_LIMIT
    assert (four.astype(bool) == expected).all()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20), st.integers(1, 40), st.integers(2, 30),
       st.lists(st.tuples(st.integers(1, 30), st.integers(1, 3)), max_size=4,
                unique_by=lambda pair: pair[0]))
def test_holds_counts_each_wanted_slot(seed, drawn, lanes, slots, wish):
    """``ok[j]`` is set exactly where index j's picks hold every wanted slot at least the
    wanted number of times (no wish: every index)."""
    picks = random_picks(seed, drawn, lanes, slots)
    wanted = np.zeros((1, starter.FIELDS), dtype=np.int64)
    need = np.zeros((1, starter.FIELDS), dtype=np.int64)
    for k, (slot, n) in enumerate(wish):
        wanted[0, k], need[0, k] = slot, n
    ok = np.zeros(lanes, dtype=np.uint8)
    run = np.empty(lanes, dtype=np.uint8)
    PURE.holds(picks, wanted, need, 0, drawn, lanes, ok, run)
    counts = copies(picks)
    expected = np.ones(lanes, dtype=bool)
    for slot, n in wish:
        expected &= counts[:, slot] >= n
    assert (ok.astype(bool) == expected).all()


def test_kernel_wishes_run_in_large_blocks():
    """A wish the kernel counts runs in KERNEL_BLOCK blocks when it runs compiled; one it
    cannot count (eleven group-2 cards) keeps the lanes' blocks."""
    counted = starter.Want.of([100, 100, 8, 337], PLAN)
    wide = starter.Want.of(sorted(PLAN.groups[1].cards)[:11], PLAN)
    assert starter.block_size(counted, FM) == (
        starter.KERNEL_BLOCK if starter.kernel_compiled() else starter.LANES)
    assert starter.block_size(wide, FM) == starter.LANES


def test_fourth_copies_at_the_last_picks():
    """A slot first drawn at the 4th pick from the end and at every pick after it is past
    the limit; the same slot one pick fewer is not (the pair compares' edge)."""
    for drawn in range(COPY_LIMIT + 1, 21):
        picks = np.arange(1, drawn + 1, dtype=np.uint8)[:, None].repeat(2, axis=1)
        picks[drawn - COPY_LIMIT - 1:, 0] = 200  # four copies, the first at drawn - 4
        picks[drawn - COPY_LIMIT:, 1] = 200  # three copies
        four = np.zeros(2, dtype=np.uint8)
        PURE.fourth_copies(picks, drawn, 2, four, np.empty(2, dtype=np.uint8))
        assert four.tolist() == [1, 0]
