"""Forbidden Memories deck preparation, exact to the RNG call (spec/fm-engine.md §2).

* :func:`sort_deck` — the order the last Build Deck sort left the player's deck in.
* :func:`shuffle_deck` — ``Duel_ShuffleDeck`` (0x800243F4): copy a given deck, or deal one from
  a duelist's weight pool, then 160 full-range pair swaps (320 ``rand()`` calls).
* :func:`deal` — ``Duel_ShuffleBothDecks`` (0x800245A0): the player first, then the CPU.
* :func:`starter_deck` — ``NameEntry_BuildStarterDeck``: a new game's 40 cards.
* :func:`deal_many` — :func:`deal` for many starting states at once, as numpy lanes.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from emucore.fm.state import Shuffle
from emucore.hw import psyq_rand
from emucore.hw.psyq_rand import Rand
from emucore.tables.fm import FmTables
from emucore.tables.schema import TableError

DECK_SIZE = 40
COPY_LIMIT = 3  # DECK_CARD_COPY_LIMIT
SWAP_COUNT = DECK_SIZE * 4  # DUEL_DECK_SHUFFLE_SWAP_COUNT = 160 -> 320 rand() calls
# Choice: the original rolls until the deck is full; a pool so thin that a million rolls do
# not deal 40 cards is a broken table (a retail pool needs about 50 rolls).
MAX_DEAL_ROLLS = 1_000_000
DEAL_CHUNK = 128  # rolls peeked at a time (a retail pool needs about 50-100)
SCAN_COUNT = 720  # STARTER_DECK_WEIGHT_SCAN_COUNT: ids 721/722 are never dealt
DUEL_MASTER_K = 39  # plays a copy of the player's deck, shuffled independently
SORT_ORDERS = ("none", "id", "abc", "max", "atk", "def", "type", "ai")
_DECK_SIZE, _ROLL_MASK = np.uint32(DECK_SIZE), np.uint32(0x7FF)  # for peeked values in place


def sort_deck(cards: Sequence[int], order: str, tables: FmTables) -> list[int]:
    """The deck in the order a Build Deck sort leaves it.

    ``none`` keeps the given list; ``id`` sorts by card id; the others by the game's per-card
    ordinal tables (cards.csv ``*_sort``). Choice: ties (only the ``ai`` ordinals have any)
    keep their given relative order (a stable sort); the original sort routine's tie
    behaviour is not documented.
    """
    if order not in SORT_ORDERS:
        raise ValueError(f"unknown sort order {order!r}; choose one of {', '.join(SORT_ORDERS)}")
    if order == "none":
        return list(cards)
    if order == "id":
        return sorted(cards)
    keys = tables.sort_keys[order]
    return sorted(cards, key=lambda c: int(keys[c]))


@functools.lru_cache(maxsize=256)
def _roll_table(weights: bytes) -> NDArray[np.int16]:
    """For every roll 1..2048, at ``roll - 1``, the 0-based id index the weighted walk over
    the first 720 ids stops at, or -1 when the walk does not reach the roll. A pool that
    cannot deal a 40-card deck (the original would draw forever) is a TableError."""
    cumulative = np.cumsum(np.frombuffer(weights, dtype=np.int64)[1 : SCAN_COUNT + 1])
    index = np.searchsorted(cumulative, np.arange(1, 2049), side="left")
    reached = np.where(index < SCAN_COUNT, index, -1)
    dealable = len(np.unique(reached[reached >= 0]))
    if dealable * COPY_LIMIT < DECK_SIZE:
        raise TableError("fm deck pool", f"only {dealable} cards can be dealt from it "
                         f"(a {DECK_SIZE}-card deck needs {-(-DECK_SIZE // COPY_LIMIT)} "
                         f"cards with weight on ids 1..{SCAN_COUNT})")
    table = reached.astype(np.int16)
    table.setflags(write=False)  # shared by every deal from this pool
    return table


def roll_table(weights: NDArray) -> NDArray[np.int16]:
    """:func:`_roll_table` of a weight pool (cached per pool)."""
    return _roll_table(np.ascontiguousarray(weights, dtype=np.int64).tobytes())


def generate_pool_deck(rng: Rand, weights: NDArray) -> tuple[list[int], list[int]]:
    """The null-source branch of ``Duel_ShuffleDeck``: deal 40 cards from a weight pool.

    One ``rand()`` per attempt, ``(rand() & 0x7FF) + 1``; an attempt that lands on a card
    already held three times, or that does not reach its threshold within 720 ids, is
    discarded. The permutation byte of each dealt card is its deck position. The values
    are peeked a chunk at a time and the stream advanced by the attempts made.
    """
    table = roll_table(weights)
    counts = [0] * SCAN_COUNT
    cards: list[int] = []
    rolls = 0
    while len(cards) < DECK_SIZE and rolls < MAX_DEAL_ROLLS:
        used = 0
        values = rng.peek(min(DEAL_CHUNK, MAX_DEAL_ROLLS - rolls))
        values &= _ROLL_MASK  # Rand.rand_2048's roll is this + 1, its table entry at this
        for index in table[values].tolist():
            used += 1
            if index >= 0 and counts[index] < COPY_LIMIT:
                counts[index] += 1
                cards.append(index + 1)
                if len(cards) == DECK_SIZE:
                    break
        rng.advance(used)
        rolls += used
    if len(cards) < DECK_SIZE:
        raise TableError("fm deck pool", f"{MAX_DEAL_ROLLS} rolls dealt only {len(cards)} "
                         "cards (weight too thin on too few cards)")
    return cards, list(range(DECK_SIZE))


def swap_stage(rng: Rand, cards: list[int], perm: list[int]) -> None:
    """160 iterations of ``x = rand()%40; y = rand()%40``; swap both arrays (even if x == y).

    The 320 values are peeked at once and the swaps run on one list of positions, which
    then reorders both arrays: exactly :meth:`Rand.rand_mod` called 320 times.
    """
    values = rng.peek(2 * SWAP_COUNT)
    values %= _DECK_SIZE
    values = iter(values.tolist())
    order = list(range(DECK_SIZE))
    for x, y in zip(values, values, strict=True):  # consecutive pairs (x, y)
        order[x], order[y] = order[y], order[x]
    cards[:] = map(cards.__getitem__, order)
    perm[:] = map(perm.__getitem__, order)
    rng.advance(2 * SWAP_COUNT)


def shuffle_deck(rng: Rand, source: Sequence[int] | None,
                 weights: NDArray | None = None) -> Shuffle:
    """``Duel_ShuffleDeck``: copy ``source`` (no RNG) or deal from ``weights``, then swap."""
    if source is not None:
        if len(source) != DECK_SIZE:
            raise ValueError(f"a deck has {DECK_SIZE} cards, not {len(source)}")
        cards, perm = list(source), list(range(DECK_SIZE))
    else:
        if weights is None:
            raise ValueError("a generated deck needs a weight pool")
        cards, perm = generate_pool_deck(rng, weights)
    swap_stage(rng, cards, perm)
    return Shuffle(tuple(cards), tuple(perm))


@dataclass(frozen=True)
class Deal:
    """Both decks as a duel starts, and what the deal cost in ``rand()`` calls."""

    player: Shuffle
    cpu: Shuffle
    state_before: int
    state_after: int
    calls: int


def deal(rng: Rand, player_deck: Sequence[int], duelist: int, tables: FmTables) -> Deal:
    """``Duel_ShuffleBothDecks``: the player's deck (already sorted), then the CPU's.

    Duel Master K (39) passes the player's deck as the CPU source too, so he plays a copy of
    it, shuffled independently (320 more calls). Everyone else deals from their deck pool.
    """
    before, calls = rng.state, rng.calls
    player = shuffle_deck(rng, player_deck)
    if duelist == DUEL_MASTER_K:
        cpu = shuffle_deck(rng, player_deck)
    else:
        cpu = shuffle_deck(rng, None, tables.pools[duelist, 0])
    return Deal(player, cpu, before, rng.state, rng.calls - calls)


def starter_deck(rng: Rand, tables: FmTables) -> list[int]:
    """``NameEntry_BuildStarterDeck``: seven weighted groups, drawn in order.

    Per pick: one threshold ``(rand() & 0x7FF) + 1``, then one discarded ``rand()`` for every
    id scanned, the hit included. A pick that lands on a card already held three times (across
    all groups) is repeated. quirk: a pick that scans 720 ids without reaching its threshold
    is lost, not repeated (cannot happen with retail pools, which sum to 2048 within 720 ids).
    """
    counts = np.zeros(SCAN_COUNT, dtype=np.int64)
    deck: list[int] = []
    for group in range(1, 8):
        cumulative = np.cumsum(tables.starter_weights[group, 1 : SCAN_COUNT + 1].astype(np.int64))
        remaining = int(tables.starter_drawn[group])
        while remaining:
            threshold = rng.rand_2048()
            index = int(np.searchsorted(cumulative, threshold, side="left"))
            scanned = min(index + 1, SCAN_COUNT)
            rng.state = int(psyq_rand.jump(rng.state, scanned))  # the discarded calls
            rng.calls += scanned
            if index < SCAN_COUNT:
                if counts[index] >= COPY_LIMIT:
                    remaining += 1
                else:
                    counts[index] += 1
                    deck.append(index + 1)
            remaining -= 1
    return deck


@dataclass(frozen=True)
class DealBatch:
    """:func:`deal` for N starting states: arrays of shape (N, 40) and (N,)."""

    player_cards: NDArray[np.int16]
    player_perm: NDArray[np.uint8]
    cpu_cards: NDArray[np.int16]
    cpu_perm: NDArray[np.uint8]
    state_after: NDArray[np.uint32]
    calls: NDArray[np.int64]


def _lanes_rand(states: NDArray[np.uint32], active: NDArray[np.bool_] | None = None
                ) -> NDArray[np.uint32]:
    """Advance every (active) lane one ``rand()`` in place; return the outputs."""
    stepped = psyq_rand.step(states)
    if active is None:
        states[:] = stepped
    else:
        states[active] = stepped[active]
    return psyq_rand.output(stepped)


def _lanes_swap(states: NDArray[np.uint32], cards: NDArray, perm: NDArray) -> None:
    rows = np.arange(len(states))
    for _ in range(SWAP_COUNT):
        x = (_lanes_rand(states) % DECK_SIZE).astype(np.intp)
        y = (_lanes_rand(states) % DECK_SIZE).astype(np.intp)
        cards[rows, x], cards[rows, y] = cards[rows, y], cards[rows, x].copy()
        perm[rows, x], perm[rows, y] = perm[rows, y], perm[rows, x].copy()


def _lanes_pool_deck(states: NDArray[np.uint32], weights: NDArray
                     ) -> tuple[NDArray, NDArray, NDArray[np.int64]]:
    n = len(states)
    cumulative = np.cumsum(np.asarray(weights, np.int64)[1 : SCAN_COUNT + 1])
    cards = np.zeros((n, DECK_SIZE), dtype=np.int16)
    counts = np.zeros((n, SCAN_COUNT), dtype=np.int8)
    filled = np.zeros(n, dtype=np.int64)
    calls = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    while True:
        active = filled < DECK_SIZE
        if not active.any():
            break
        out = _lanes_rand(states, active)
        calls += active
        threshold = (out & 0x7FF).astype(np.int64) + 1
        index = np.searchsorted(cumulative, threshold, side="left")
        ok = active & (index < SCAN_COUNT)
        safe = np.minimum(index, SCAN_COUNT - 1)
        ok &= counts[rows, safe] < COPY_LIMIT
        hit = rows[ok]
        counts[hit, safe[ok]] += 1
        cards[hit, filled[ok]] = safe[ok] + 1
        filled[ok] += 1
    perm = np.tile(np.arange(DECK_SIZE, dtype=np.uint8), (n, 1))
    return cards, perm, calls


def deal_many(states: NDArray[np.uint32], player_deck: Sequence[int], duelist: int,
              tables: FmTables) -> DealBatch:
    """:func:`deal` from every state in ``states`` at once (same results, lane by lane)."""
    lanes = np.array(states, dtype=np.uint32, copy=True)
    n = len(lanes)
    player = np.tile(np.asarray(player_deck, dtype=np.int16), (n, 1))
    player_perm = np.tile(np.arange(DECK_SIZE, dtype=np.uint8), (n, 1))
    _lanes_swap(lanes, player, player_perm)
    calls = np.full(n, 2 * SWAP_COUNT, dtype=np.int64)
    if duelist == DUEL_MASTER_K:
        cpu = np.tile(np.asarray(player_deck, dtype=np.int16), (n, 1))
        cpu_perm = np.tile(np.arange(DECK_SIZE, dtype=np.uint8), (n, 1))
    else:
        cpu, cpu_perm, generated = _lanes_pool_deck(lanes, tables.pools[duelist, 0])
        calls += generated
    _lanes_swap(lanes, cpu, cpu_perm)
    calls += 2 * SWAP_COUNT
    return DealBatch(player, player_perm, cpu, cpu_perm, lanes, calls)
