"""Forbidden Memories deck preparation, exact to the RNG call (spec/fm-engine.md §2).

* :func:`sort_deck` — the order the last Build Deck sort left the player's deck in.
* :func:`shuffle_deck` — ``Duel_ShuffleDeck`` (0x800243F4): copy a given deck, or deal one from
  a duelist's weight pool, then 160 full-range pair swaps (320 ``rand()`` calls).
* :func:`deal` — ``Duel_ShuffleBothDecks`` (0x800245A0): the player first, then the CPU.
* :func:`starter_deck` — ``NameEntry_BuildStarterDeck``: a new game's 40 cards.
* :func:`deal_many` / :func:`shuffle_many` — :func:`deal` / the player's shuffle for many
  starting states at once.

The swap stages and the pool deal are the loops of :mod:`emucore.fm.deal_kernel`, one
implementation for one state and for many, compiled by the install (emucore.compiled:
about half a microsecond a full deal over 1,000 states) and run as Python without it.
Run as Python, the kernel costs about 160 us a deal, so from :data:`LANES_FROM` states on
the batch functions then take numpy lanes instead (:func:`lanes_deal`: all states step
together, about 16 us a deal over 1,000 states); both are tested equal to a plain reading
of the routines.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from emucore.fm import choices, deal_kernel
from emucore.fm.state import DECK_SIZE, Shuffle
from emucore.hw import psyq_rand
from emucore.hw.psyq_rand import Rand
from emucore.tables.derived import per_tables
from emucore.tables.fm import FmTables
from emucore.tables.fm_lookup import SORT_ORDERS
from emucore.tables.schema import TableError

COPY_LIMIT = 3  # DECK_CARD_COPY_LIMIT
SWAP_COUNT = DECK_SIZE * 4  # DUEL_DECK_SHUFFLE_SWAP_COUNT = 160 -> 320 rand() calls
MAX_DEAL_ROLLS = choices.MAX_DEAL_ROLLS   # the rolls of one deal at most (a choice)
SCAN_COUNT = 720  # STARTER_DECK_WEIGHT_SCAN_COUNT: ids 721/722 are never dealt
DUEL_MASTER_K = 39  # plays a copy of the player's deck, shuffled independently
KERNEL_COMPILED = not deal_kernel.__file__.endswith(".py")
LANES_FROM = 64  # numpy lanes beat the kernel run as Python from here (measured: even)


def sort_deck(cards: Sequence[int], order: str, tables: FmTables) -> list[int]:
    """The deck in the order a Build Deck sort leaves it.

    ``none`` keeps the given list; ``id`` sorts by card id; the others by the game's per-card
    ordinal tables (cards.csv ``*_sort``). Ties keep their given relative order (a stable
    sort: a choice, see :mod:`emucore.fm.choices`).
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
def _roll_table(weights: bytes) -> memoryview:
    """For every roll 1..2048, at ``roll - 1``, the 0-based id index the weighted walk over
    the first 720 ids stops at, or -1 when the walk does not reach the roll: 2048 ``int16``
    (-1..719 only, what the kernel's unchecked count lookup relies on), read-only. A pool
    that cannot deal a 40-card deck (the original would draw forever) is a TableError."""
    cumulative = np.cumsum(np.frombuffer(weights, dtype=np.int64)[1 : SCAN_COUNT + 1])
    index = np.searchsorted(cumulative, np.arange(1, 2049), side="left")
    reached = np.where(index < SCAN_COUNT, index, -1)
    dealable = len(np.unique(reached[reached >= 0]))
    if dealable * COPY_LIMIT < DECK_SIZE:
        raise TableError("fm deck pool", f"only {dealable} cards can be dealt from it "
                         f"(a {DECK_SIZE}-card deck needs {-(-DECK_SIZE // COPY_LIMIT)} "
                         f"cards with weight on ids 1..{SCAN_COUNT})")
    return memoryview(reached.astype(np.int16).tobytes()).cast("h")  # shared by every deal


def roll_table(weights: NDArray) -> memoryview:
    """:func:`_roll_table` of a weight pool (cached per pool)."""
    return _roll_table(np.ascontiguousarray(weights, dtype=np.int64).tobytes())


@per_tables
def _deck_pool_table(tables: FmTables, duelist: int) -> memoryview:
    """:func:`roll_table` of ``duelist``'s deck pool, found once per tables object (a
    look-up by the pool's bytes costs a few microseconds, more than a compiled deal)."""
    return roll_table(tables.pools[duelist, 0])


def _rows(lanes: int) -> tuple[array, array]:
    """The kernel's buffers for ``lanes`` decks, zeros: cards (``h``) and permutation bytes
    (``B``), 40 a row."""
    return array("h", bytes(2 * DECK_SIZE * lanes)), array("B", bytes(DECK_SIZE * lanes))


def _copies(lanes: int, source: Sequence[int]) -> tuple[array, array]:
    """``lanes`` rows holding ``source`` (40 cards) and the permutation bytes 0..39."""
    cards, perm = _rows(lanes)
    deal_kernel.fill(lanes, array("h", source), cards, perm)
    return cards, perm


def _too_thin(dealt: int) -> TableError:
    return TableError("fm deck pool", f"{MAX_DEAL_ROLLS} rolls dealt only {dealt} cards "
                      "(weight too thin on too few cards)")


def _generated(states: array, table: memoryview, rolls: array) -> tuple[array, array]:
    """A deck dealt through the pool's roll ``table`` from every state in ``states``
    (replaced by the states after), the rolls made in ``rolls``; a lane that does not fill
    its deck within :data:`MAX_DEAL_ROLLS` rolls is a TableError."""
    lanes = len(states)
    cards, perm = _rows(lanes)
    stopped = deal_kernel.generate(lanes, states, table, bytearray(SCAN_COUNT), cards, perm,
                                   rolls, MAX_DEAL_ROLLS)
    if stopped < lanes:
        row = cards[stopped * DECK_SIZE : (stopped + 1) * DECK_SIZE]
        raise _too_thin(sum(1 for card in row if card))
    return cards, perm


def generate_pool_deck(rng: Rand, weights: NDArray) -> tuple[list[int], list[int]]:
    """The null-source branch of ``Duel_ShuffleDeck``: deal 40 cards from a weight pool.

    One ``rand()`` per attempt, ``(rand() & 0x7FF) + 1``; an attempt that lands on a card
    already held three times, or that does not reach its threshold within 720 ids, is
    discarded. The permutation byte of each dealt card is its deck position
    (:func:`emucore.fm.deal_kernel.generate`).
    """
    states, rolls = array("I", [rng.state]), array("q", [0])
    cards, perm = _generated(states, roll_table(weights), rolls)
    rng.state = states[0]
    rng.calls += rolls[0]
    return cards.tolist(), perm.tolist()


def swap_stage(rng: Rand, cards: list[int], perm: list[int]) -> None:
    """160 iterations of ``x = rand()%40; y = rand()%40``; swap both arrays (even if x == y)
    (:func:`emucore.fm.deal_kernel.shuffle`)."""
    states, rows = array("I", [rng.state]), (array("h", cards), array("B", perm))
    deal_kernel.shuffle(1, states, *rows)
    cards[:], perm[:] = rows
    rng.state = states[0]
    rng.calls += 2 * SWAP_COUNT


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


def _dealt(states: array, player_deck: Sequence[int], duelist: int, tables: FmTables
           ) -> tuple[tuple[array, array], tuple[array, array], array]:
    """``Duel_ShuffleBothDecks`` from every state in ``states`` (replaced by the states
    after): the player's rows, the CPU's rows and the pool rolls each lane made."""
    lanes = len(states)
    player = _copies(lanes, player_deck)
    deal_kernel.shuffle(lanes, states, *player)
    rolls = array("q", bytes(8 * lanes))
    if duelist == DUEL_MASTER_K:
        cpu = _copies(lanes, player_deck)
    else:
        cpu = _generated(states, _deck_pool_table(tables, duelist), rolls)
    deal_kernel.shuffle(lanes, states, *cpu)
    return player, cpu, rolls


def deal(rng: Rand, player_deck: Sequence[int], duelist: int, tables: FmTables) -> Deal:
    """``Duel_ShuffleBothDecks``: the player's deck (already sorted), then the CPU's.

    Duel Master K (39) passes the player's deck as the CPU source too, so he plays a copy of
    it, shuffled independently (320 more calls). Everyone else deals from their deck pool.
    """
    before, calls = rng.state, rng.calls
    states = array("I", [before])
    (player, player_perm), (cpu, cpu_perm), rolls = _dealt(states, player_deck, duelist,
                                                           tables)
    rng.state = states[0]
    rng.calls += 4 * SWAP_COUNT + rolls[0]
    return Deal(Shuffle(tuple(player), tuple(player_perm)), Shuffle(tuple(cpu), tuple(cpu_perm)),
                before, rng.state, rng.calls - calls)


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
            if index < SCAN_COUNT:   # quirk: NameEntry_BuildStarterDeck: a scan past 720 is lost
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
    state_before: NDArray[np.uint32]
    state_after: NDArray[np.uint32]
    calls: NDArray[np.int64]

    def deal(self, lane: int) -> Deal:
        """Lane ``lane`` as the :class:`Deal` that :func:`deal` gives for its state."""
        return Deal(Shuffle(tuple(self.player_cards[lane].tolist()),
                            tuple(self.player_perm[lane].tolist())),
                    Shuffle(tuple(self.cpu_cards[lane].tolist()),
                            tuple(self.cpu_perm[lane].tolist())),
                    int(self.state_before[lane]), int(self.state_after[lane]),
                    int(self.calls[lane]))


def _kernel_lanes(states: NDArray[np.uint32]) -> array | None:
    """The states as the kernel's buffer, or None when the numpy lanes are faster (the
    kernel runs as Python and there are :data:`LANES_FROM` states or more)."""
    if not KERNEL_COMPILED and len(states) >= LANES_FROM:
        return None
    return array("I", np.asarray(states, dtype=np.uint32).tobytes())


def _arrays(rows: tuple[array, array]) -> tuple[NDArray[np.int16], NDArray[np.uint8]]:
    """Kernel rows as (N, 40) arrays over the same memory."""
    cards, perm = rows
    return (np.frombuffer(cards, dtype=np.int16).reshape(-1, DECK_SIZE),
            np.frombuffer(perm, dtype=np.uint8).reshape(-1, DECK_SIZE))


def deal_many(states: NDArray[np.uint32], player_deck: Sequence[int], duelist: int,
              tables: FmTables) -> DealBatch:
    """:func:`deal` from every state in ``states`` at once (same results, lane by lane)."""
    lanes = _kernel_lanes(states)
    if lanes is None:
        return lanes_deal(states, player_deck, duelist, tables)
    before = np.frombuffer(lanes, dtype=np.uint32).copy()
    player, cpu, rolls = _dealt(lanes, player_deck, duelist, tables)
    return DealBatch(*_arrays(player), *_arrays(cpu), before,
                     np.frombuffer(lanes, dtype=np.uint32),
                     np.frombuffer(rolls, dtype=np.int64) + 4 * SWAP_COUNT)


def shuffle_many(states: NDArray[np.uint32], source: Sequence[int]
                 ) -> tuple[NDArray[np.int16], NDArray[np.uint8], NDArray[np.uint32]]:
    """:func:`shuffle_deck` of ``source`` from every state (the player's half of the deal,
    what the opening hand depends on): the (N, 40) cards and permutation bytes and the
    states after."""
    lanes = _kernel_lanes(states)
    if lanes is None:
        lanes = np.array(states, dtype=np.uint32, copy=True)
        cards, perm = _lanes_copies(len(lanes), source)
        _lanes_swap(lanes, cards, perm)
        return cards, perm, lanes
    rows = _copies(len(lanes), source)
    deal_kernel.shuffle(len(lanes), lanes, *rows)
    return *_arrays(rows), np.frombuffer(lanes, dtype=np.uint32)


def _lanes_rand(states: NDArray[np.uint32], active: NDArray[np.bool_] | None = None
                ) -> NDArray[np.uint32]:
    """Advance every (active) lane one ``rand()`` in place; return the outputs."""
    stepped = psyq_rand.step(states)
    if active is None:
        states[:] = stepped
    else:
        states[active] = stepped[active]
    return psyq_rand.output(stepped)


def _lanes_copies(n: int, source: Sequence[int]) -> tuple[NDArray[np.int16], NDArray[np.uint8]]:
    """``n`` rows of ``source`` (40 cards) and of the permutation bytes 0..39."""
    if len(source) != DECK_SIZE:
        raise ValueError(f"a deck has {DECK_SIZE} cards, not {len(source)}")
    return (np.tile(np.asarray(source, dtype=np.int16), (n, 1)),
            np.tile(np.arange(DECK_SIZE, dtype=np.uint8), (n, 1)))


def _lanes_swap(states: NDArray[np.uint32], cards: NDArray, perm: NDArray) -> None:
    rows = np.arange(len(states))
    for _ in range(SWAP_COUNT):
        x = (_lanes_rand(states) % DECK_SIZE).astype(np.intp)
        y = (_lanes_rand(states) % DECK_SIZE).astype(np.intp)
        cards[rows, x], cards[rows, y] = cards[rows, y], cards[rows, x].copy()
        perm[rows, x], perm[rows, y] = perm[rows, y], perm[rows, x].copy()


def _lanes_pool_deck(states: NDArray[np.uint32], weights: NDArray
                     ) -> tuple[NDArray, NDArray, NDArray[np.int64]]:
    table = np.frombuffer(roll_table(weights), dtype=np.int16)
    n = len(states)
    cards = np.zeros((n, DECK_SIZE), dtype=np.int16)
    counts = np.zeros((n, SCAN_COUNT), dtype=np.int8)
    filled = np.zeros(n, dtype=np.int64)
    calls = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    for _ in range(MAX_DEAL_ROLLS):
        active = filled < DECK_SIZE
        if not active.any():
            break
        out = _lanes_rand(states, active)
        calls += active
        index = table[out & 0x7FF]
        safe = np.maximum(index, 0)  # index -1 (no card reached) is refused below
        ok = active & (index >= 0) & (counts[rows, safe] < COPY_LIMIT)
        hit = rows[ok]
        counts[hit, safe[ok]] += 1
        cards[hit, filled[ok]] = safe[ok] + 1
        filled[ok] += 1
    short = np.flatnonzero(filled < DECK_SIZE)
    if len(short):
        raise _too_thin(int(filled[short[0]]))
    perm = np.tile(np.arange(DECK_SIZE, dtype=np.uint8), (n, 1))
    return cards, perm, calls


def lanes_deal(states: NDArray[np.uint32], player_deck: Sequence[int], duelist: int,
               tables: FmTables) -> DealBatch:
    """:func:`deal_many` as numpy lanes: every state steps through each ``rand()`` of the
    deal together (the path while the kernel runs as Python)."""
    lanes = np.array(states, dtype=np.uint32, copy=True)
    n = len(lanes)
    player, player_perm = _lanes_copies(n, player_deck)
    _lanes_swap(lanes, player, player_perm)
    calls = np.full(n, 2 * SWAP_COUNT, dtype=np.int64)
    if duelist == DUEL_MASTER_K:
        cpu, cpu_perm = _lanes_copies(n, player_deck)
    else:
        cpu, cpu_perm, generated = _lanes_pool_deck(lanes, tables.pools[duelist, 0])
        calls += generated
    _lanes_swap(lanes, cpu, cpu_perm)
    calls += 2 * SWAP_COUNT
    return DealBatch(player, player_perm, cpu, cpu_perm, np.array(states, dtype=np.uint32),
                     lanes, calls)
