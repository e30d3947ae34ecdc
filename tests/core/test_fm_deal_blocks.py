"""The deal kernel's shuffle in blocks of 4 lanes and its ``rand() % 40`` table
(emucore/fm/deal_kernel.py), against a plain reading of ``Duel_ShuffleDeck``'s swap stage.

Source of the expected values: docs/fm-engine.md §2 and the decompiled ``Duel_ShuffleDeck``
(0x800243F4) as transcribed in krystalgamer/memories-decomp: 160 times ``x = rand() % 40``,
``y = rand() % 40``, swap the cards and the permutation bytes at x and y. Psy-Q ``rand``:
``s = s * 1103515245 + 12345 (mod 2^32)``, output bits 16..30; the state before an output
``v`` is found with the inverse multiplier (``1103515245 * 0xEEB9EB65 = 1 mod 2^32``).
"""

from __future__ import annotations

from array import array

import numpy as np
import pytest

from emucore.fm import deal_kernel

INVERSE = 0xEEB9EB65  # 1103515245 * INVERSE = 1 (mod 2^32)


def _before(state: int) -> int:
    """The state one ``rand()`` before ``state``."""
    return ((state - 12345) * INVERSE) & 0xFFFFFFFF


def _shuffle(state: int, cards: list[int], perm: list[int]) -> tuple[list, list, int]:
    """The swap stage read plainly: the rows after and the state after."""
    cards, perm = list(cards), list(perm)
    for _ in range(320 // 2):
        state = (state * 1103515245 + 12345) & 0xFFFFFFFF
        x = ((state >> 16) & 0x7FFF) % 40
        state = (state * 1103515245 + 12345) & 0xFFFFFFFF
        y = ((state >> 16) & 0x7FFF) % 40
        cards[x], cards[y] = cards[y], cards[x]
        perm[x], perm[y] = perm[y], perm[x]
    return cards, perm, state


def _rows(lanes: int, seed: int) -> tuple[list[int], list[int]]:
    """``lanes`` rows of random cards and random permutation bytes (not 0..39: the kernel
    must carry any bytes)."""
    rng = np.random.default_rng(seed)
    return (rng.integers(1, 723, 40 * lanes).tolist(), rng.integers(0, 256, 40 * lanes).tolist())


def test_the_inverse_multiplier_is_one():
    """The test's own step back is the inverse of the step."""
    assert (1103515245 * INVERSE) & 0xFFFFFFFF == 1
    assert _before((0x1234 * 1103515245 + 12345) & 0xFFFFFFFF) == 0x1234


def _shuffle_lanes(states: np.ndarray, cards: np.ndarray, perm: np.ndarray) -> None:
    """The plain reading on many lanes at once (numpy, in place): rows (N, 40), states."""
    rows = np.arange(len(states))
    for _ in range(160):
        picks = []
        for _ in range(2):
            states[:] = states * np.uint64(1103515245) + np.uint64(12345) & np.uint64(0xFFFFFFFF)
            picks.append(((states >> np.uint64(16)) & np.uint64(0x7FFF)).astype(np.int64) % 40)
        x, y = picks
        for row in (cards, perm):
            row[rows, x], row[rows, y] = row[rows, y], row[rows, x].copy()


def test_every_rand_output_as_the_first_swap_index():
    """32,768 lanes whose first ``rand()`` returns 0, 1, ..., 32767 (so the first ``x`` is
    every output ``% 40``, the kernel's table read at every entry): every lane's rows and
    state after equal the plain reading (numpy over all lanes, one lane by hand)."""
    starts = [_before((v << 16) | (v * 7 & 0xFFFF)) for v in range(0x8000)]
    assert [(((s * 1103515245 + 12345) & 0xFFFFFFFF) >> 16) & 0x7FFF for s in starts[:3]] == [
        0, 1, 2]
    states = array("I", starts)
    cards = array("h", list(range(1, 41)) * len(starts))
    perm = array("B", list(range(40)) * len(starts))
    deal_kernel.shuffle(len(starts), states, cards, perm)
    want_states = np.array(starts, dtype=np.uint64)
    want_cards = np.tile(np.arange(1, 41, dtype=np.int64), (len(starts), 1))
    want_perm = np.tile(np.arange(40, dtype=np.int64), (len(starts), 1))
    _shuffle_lanes(want_states, want_cards, want_perm)
    assert states.tolist() == want_states.tolist()
    assert cards.tolist() == want_cards.reshape(-1).tolist()
    assert perm.tolist() == want_perm.reshape(-1).tolist()
    by_hand = _shuffle(starts[12345], list(range(1, 41)), list(range(40)))
    assert by_hand == (want_cards[12345].tolist(), want_perm[12345].tolist(), states[12345])


@pytest.mark.parametrize("lanes", [1, 2, 3, 4, 5, 7, 8, 9, 13])
def test_any_lane_count_shuffles_what_the_routine_shuffles(lanes: int):
    """Blocks of 4 with a short last block: each of ``lanes`` rows (random cards and
    bytes) and states equals the plain reading; rows and states past ``lanes`` (the buffers
    hold 3 more) are left as they were."""
    total = lanes + 3
    starts = np.random.default_rng(lanes).integers(0, 2**32, total, dtype=np.uint64).tolist()
    card_rows, perm_rows = _rows(total, lanes)
    states, cards, perm = array("I", starts), array("h", card_rows), array("B", perm_rows)
    deal_kernel.shuffle(lanes, states, cards, perm)
    for lane in range(total):
        row = slice(lane * 40, lane * 40 + 40)
        got = (cards[row].tolist(), perm[row].tolist(), states[lane])
        if lane < lanes:
            assert got == _shuffle(starts[lane], card_rows[row], perm_rows[row]), lane
        else:
            assert got == (card_rows[row], perm_rows[row], starts[lane]), lane
