"""Seed from the opening draws: which RNG index, as a duel's deal begins, gives the player
the cards they drew.

``Duel_ShuffleBothDecks`` shuffles the player's (sorted) deck first: 160 swaps of
``x = rand() % 40``, ``y = rand() % 40``. The player's draws take the shuffled deck in order
from position 0 (the draw cursor of the side record starts at 0), so the first ``n`` draws
are positions ``0..n-1``; the CPU's deal comes after and changes nothing here.

Lanes are consecutive indices, so lane ``i`` uses the stream values ``i+1 .. i+320``: the
values ``rand() % 40`` are computed once for the whole range and every swap step of every
lane is a slice of them, no gather. The card that ends at position ``p`` is found by walking
the swaps backwards from ``p``; a lane is dropped as soon as a position disagrees, so all
lanes walk position 0 and almost none walk the later ones.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from emucore.fm.deck import DECK_SIZE, SWAP_COUNT
from emucore.hw import psyq_rand

CALLS = 2 * SWAP_COUNT  # rand() calls of the player's shuffle
BLOCK = 1 << 19  # lanes per block: the stream slices stay in the cache


def stream_mod40(start_index: int, count: int) -> NDArray[np.uint8]:
    """``rand() % 40`` for the calls ``start_index+1 .. start_index+count``."""
    first = int(psyq_rand.jump(psyq_rand.BOOT_STATE, start_index + 1))
    states = psyq_rand.consecutive_states(first, count)
    return (psyq_rand.output(states) % np.uint32(DECK_SIZE)).astype(np.uint8)


def _source_positions(values: NDArray[np.uint8], lanes: NDArray[np.int64], position: int
                      ) -> NDArray[np.uint8]:
    """The sorted-deck position whose card each lane's shuffle moves to ``position``.

    ``values[lane + 2j]`` and ``values[lane + 2j + 1]`` are swap ``j``'s x and y.
    """
    contiguous = len(lanes) and lanes[-1] - lanes[0] == len(lanes) - 1
    pos = np.full(len(lanes), position, dtype=np.uint8)
    hit = np.empty(len(lanes), dtype=bool)
    other = np.empty(len(lanes), dtype=bool)
    for j in range(SWAP_COUNT - 1, -1, -1):
        if contiguous:
            lo = int(lanes[0]) + 2 * j
            x, y = values[lo : lo + len(lanes)], values[lo + 1 : lo + 1 + len(lanes)]
        else:
            x, y = values[lanes + 2 * j], values[lanes + 2 * j + 1]
        np.equal(pos, x, out=hit)
        np.equal(pos, y, out=other)
        hit |= other
        pos ^= (x ^ y) * hit  # x -> y and y -> x; x == y changes nothing
    return pos


def match_block(start_index: int, count: int, deck: Sequence[int], drawn: Sequence[int]
                ) -> NDArray[np.int64]:
    """Indices in ``start_index .. start_index+count-1`` whose shuffle of ``deck`` (already in
    its sorted order) puts ``drawn`` at positions 0, 1, ..."""
    cards = np.asarray(deck, dtype=np.int16)
    values = stream_mod40(start_index, count + CALLS)
    lanes = np.arange(count, dtype=np.int64)
    for position, card in enumerate(drawn):
        if not len(lanes):
            break
        source = _source_positions(values, lanes, position)
        lanes = lanes[cards[source] == card]
    return lanes + start_index


def match_piece(start_index: int, count: int, deck: tuple[int, ...], drawn: tuple[int, ...],
                block: int = BLOCK) -> NDArray[np.int64]:
    """:func:`match_block` in blocks that keep the arrays small (a process-pool entry)."""
    out = [match_block(base, min(block, start_index + count - base), deck, drawn)
           for base in range(start_index, start_index + count, block)]
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)
