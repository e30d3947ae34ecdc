"""Starter-deck search: which RNG indices give a new game a deck holding given cards.

``NameEntry_BuildStarterDeck`` (scalar version: :func:`emucore.fm.deck.starter_deck`) draws
seven weighted groups. Every pick costs one threshold ``rand()`` plus one discarded ``rand()``
per scanned id (the hit included), so a pick of card ``id`` advances the state by ``id + 1``
calls: an affine map. Here each lane holds one starting index and a pick is one table gather
and one multiply-add:

* the lane keeps the *stepped* state ``u`` (the state the threshold call just stored);
  ``t = (u >> 16) & 0x7FF`` picks the card, and ``u' = A[t] * u + C[t]`` is the next stepped
  state (``id`` discarded calls, then the next threshold call);
* only bits 0..26 of ``u`` ever reach a threshold (bits 16..26), and the low bits of a
  product or sum never depend on higher ones, so a deck depends on the state modulo 2^27
  alone: ``A``, ``C`` and the card's slot in its group share one 64-bit table word
  (``A`` bits 0..26, ``C`` bits 27..53, slot bits 56..63, read as the word's top byte) and
  the garbage above bit 26 is never masked;
* the copy limit (a pick landing on a 4th copy is repeated) is rare: each group is first
  drawn as if every pick were kept, then a sorting network counts, per lane, the copies
  past the third; only those lanes drop them and draw the picks they still owe, with the
  limit applied (the rejected picks' calls were spent either way);
* a lane dies as soon as a finished group leaves it unable to hold the wanted cards, and
  the survivors are compacted.

Because a deck depends on the state modulo 2^27, the indices 0..2^27-1 cover every possible
starter deck exactly once.

When :mod:`emucore.planning.starter_kernel` runs compiled, :func:`search_block` hands the
indices to it instead: the same table words, in C, blocks of 512 indices drawn pick by pick
with every array in the L1 cache (docs/planning.md, "Starter search: the limit"). The lanes
stay the path of a Python-only install and of wishes the kernel cannot count
(:func:`kernel_want`).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

from emucore import compiled
from emucore.fm.deck import COPY_LIMIT, SCAN_COUNT
from emucore.hw import psyq_rand
from emucore.tables.derived import per_tables
from emucore.tables.fm import FmTables

GROUPS = range(1, 8)
THRESHOLDS = 2048
LOW_BITS = 27  # a starter deck depends on the state modulo 2^27
LOW_MASK = (1 << LOW_BITS) - 1
SLOT_SHIFT = 56  # the card's 1-based slot in its group: the top byte of a table word
INDEX_LIMIT = 1 << 32
LANES = 1 << 15  # indices per vectorised block (arrays stay in the L2 cache)

U64 = np.uint64
TOP_BYTE = 7 if sys.byteorder == "little" else 0  # where a word's slot byte sits in memory


@dataclass(frozen=True)
class Group:
    """One starter group as the lanes use it."""

    number: int
    drawn: int
    cards: frozenset[int]
    cards_by_slot: NDArray[np.int64]  # [slot] -> card id; slot 0 (a lost pick) -> 0
    word: NDArray[np.uint64]  # [t] -> A | C << 27 | slot << 56
    slot: dict[int, int]  # card id -> its slot (1..); a lost pick has slot 0


@dataclass(frozen=True)
class StarterPlan:
    """The seven groups, precomputed once per table set."""

    groups: tuple[Group, ...]
    fast: bool  # no card in two groups and no lost pick: the lane filter applies

    def group_of(self, card: int) -> list[int]:
        """The groups (1-based) that can deal ``card``."""
        return [g.number for g in self.groups if card in g.cards]


def _group(tables: FmTables, number: int) -> Group:
    weights = tables.starter_weights[number, 1 : SCAN_COUNT + 1].astype(np.int64)
    index = np.searchsorted(np.cumsum(weights), np.arange(1, THRESHOLDS + 1), side="left")
    card_of = np.where(index < SCAN_COUNT, index + 1, 0)
    scanned = np.minimum(index + 1, SCAN_COUNT)
    cards = [int(c) for c in np.flatnonzero(tables.starter_weights[number])]
    if len(cards) > 255:
        raise ValueError(f"starter group {number} has {len(cards)} cards; at most 255 fit a slot")
    slot = {card: i + 1 for i, card in enumerate(cards)}
    word = np.empty(THRESHOLDS, dtype=np.uint64)
    for t in range(THRESHOLDS):
        # ``scanned`` discarded calls, then the next pick's threshold call.
        a, c = psyq_rand.jump_coefficients(int(scanned[t]) + 1)
        word[t] = ((a & LOW_MASK) | ((c & LOW_MASK) << LOW_BITS)
                   | (slot.get(int(card_of[t]), 0) << SLOT_SHIFT))
    return Group(number, int(tables.starter_drawn[number]), frozenset(cards),
                 np.array([0, *cards], dtype=np.int64), word, slot)


def _build(tables: FmTables) -> StarterPlan:
    groups = tuple(_group(tables, g) for g in GROUPS)
    seen: set[int] = set()
    fast = True
    for g in groups:
        fast &= not (seen & g.cards) and bool((g.word >> U64(SLOT_SHIFT)).all())
        seen |= g.cards
    return StarterPlan(groups, fast)


@per_tables
def plan(tables: FmTables) -> StarterPlan:
    """The lane tables for ``tables`` (built once per table object)."""
    return _build(tables)


def first_stepped(states: NDArray) -> NDArray[np.uint64]:
    """The stepped state of each lane's first threshold call, as 64-bit lanes."""
    return psyq_rand.step(states).astype(np.uint64)


def _pick(u: NDArray[np.uint64], group: Group, scratch: NDArray[np.uint64],
          slots: NDArray[np.uint8]) -> None:
    """One pick on every lane: advance ``u`` in place and write each lane's slot."""
    np.right_shift(u, U64(16), out=scratch)
    scratch &= U64(0x7FF)
    word = group.word.take(scratch.view(np.int64), mode="clip")  # t is 0..2047 already
    slots[:] = word.view(np.uint8)[TOP_BYTE::8]  # the slot: the word's top byte
    u *= word  # A sits in bits 0..26; what lands above bit 26 never matters
    word >>= U64(LOW_BITS)
    u += word  # C, plus the slot far above bit 26


# --- the exact lane rules (any lanes, any tables) -------------------------------------------

def _exact_group(u: NDArray[np.uint64], group: Group, counts: NDArray[np.uint8]
                 ) -> NDArray[np.int16]:
    """Draw ``group`` on every lane exactly: a 4th copy is repeated, a lost pick counts.

    ``counts`` [lane, card id] carries the copies held across groups; ``u`` advances in
    place. Returns the cards dealt, [lane, drawn] (0 for a lost pick).
    """
    n = len(u)
    dealt = np.zeros((n, group.drawn), dtype=np.int16)
    filled = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    scratch = np.empty_like(u)
    slots = np.empty(n, dtype=np.uint8)
    while True:
        live = rows[filled < group.drawn]
        if not len(live):
            return dealt
        sub = u[live]
        _pick(sub, group, scratch[: len(live)], slots[: len(live)])
        u[live] = sub
        card = group.cards_by_slot[slots[: len(live)]]
        room = counts[live, card] < COPY_LIMIT  # never full for a lost pick (card 0)
        kept, card_kept = live[room], card[room]
        dealt[kept, filled[kept]] = card_kept
        counts[kept, card_kept] += (card_kept > 0).astype(np.uint8)
        filled[kept] += 1


def exact_decks(states: NDArray, tables: FmTables) -> NDArray[np.int16]:
    """The starter deck of every starting state, [lane, 40] in dealing order."""
    starter = plan(tables)
    u = first_stepped(np.asarray(states, dtype=np.uint32))
    counts = np.zeros((len(u), tables.starter_weights.shape[1]), dtype=np.uint8)
    return np.concatenate([_exact_group(u, g, counts) for g in starter.groups], axis=1)


def decks_at(indices: Sequence[int], tables: FmTables) -> NDArray[np.int16]:
    """The starter deck dealt from each RNG index."""
    return exact_decks(psyq_rand.state_at(np.asarray(indices, dtype=np.uint64)), tables)


# --- the fast filter ------------------------------------------------------------------------

@cache
def _network(n: int) -> tuple[tuple[int, int], ...]:
    """Batcher's odd-even merge sort comparators for ``n`` items (pairs past ``n`` dropped)."""
    size = 1
    while size < n:
        size *= 2
    pairs = []
    p = 1
    while p < size:
        k = p
        while k >= 1:
            for j in range(k % p, size - k, 2 * k):
                for i in range(min(k, size - j - k)):
                    a, b = i + j, i + j + k
                    if a // (2 * p) == b // (2 * p) and b < n:
                        pairs.append((a, b))
            k //= 2
        p *= 2
    return tuple(pairs)


def _excess(rows: list[NDArray[np.uint8]]) -> NDArray[np.uint8]:
    """Per lane, the picks beyond a card's third copy.

    Sorts the lanes' values across ``rows`` (the list's arrays are swapped around, one
    replaced by a spare, so each lane keeps its multiset but not its order); after sorting,
    ``sorted[i] == sorted[i + 3]`` holds once for every copy past the third.
    """
    spare = np.empty_like(rows[0])
    for a, b in _network(len(rows)):
        low = np.minimum(rows[a], rows[b], out=spare)
        np.maximum(rows[a], rows[b], out=rows[b])
        spare, rows[a] = rows[a], low
    excess = np.zeros(len(rows[0]), dtype=np.uint8)
    for i in range(len(rows) - COPY_LIMIT):
        excess += rows[i] == rows[i + COPY_LIMIT]
    return excess


@dataclass(frozen=True)
class Want:
    """The wanted cards with multiplicity, checked against a plan."""

    need: dict[int, int]  # card id -> copies wanted

    @classmethod
    def of(cls, cards: Sequence[int], starter: StarterPlan) -> Want:
        need = dict(Counter(cards))
        for card, copies in need.items():
            if not starter.group_of(card):
                raise ValueError(f"card {card} is in no starter group: no starter deck holds it")
            if copies > COPY_LIMIT:
                raise ValueError(f"card {card} wanted {copies} times; a deck holds at most "
                                 f"{COPY_LIMIT} copies")
            reach = sum(g.drawn for g in starter.groups if card in g.cards)
            if copies > reach:
                raise ValueError(f"card {card} wanted {copies} times; its groups deal only "
                                 f"{reach} cards")
        return cls(need)

    def still_possible(self, starter: StarterPlan, done: int, held: dict[int, NDArray]
                       ) -> NDArray[np.bool_] | None:
        """Lanes that can still reach every wanted count once groups 1..``done`` are dealt."""
        ok = None
        for card, copies in self.need.items():
            later = sum(g.drawn for g in starter.groups[done:] if card in g.cards)
            if later >= copies:
                continue
            enough = held[card] >= copies - later
            ok = enough if ok is None else ok & enough
        return ok

    def key(self) -> tuple[tuple[int, int], ...]:
        """The wish as a hashable ``(card, copies)`` tuple."""
        return tuple(sorted(self.need.items()))


@cache
def _lane_offsets(count: int) -> tuple[NDArray[np.uint64], NDArray[np.uint64]]:
    """``(a_k, c_k)`` with ``a_k * s + c_k`` = the state ``k + 1`` calls after ``s``."""
    from_zero = psyq_rand.consecutive_states(0, count + 1)
    from_one = psyq_rand.consecutive_states(1, count + 1)
    with np.errstate(over="ignore"):
        a = from_one - from_zero
    return a[1:].astype(np.uint64), from_zero[1:].astype(np.uint64)


def lanes_from(index: int, count: int) -> NDArray[np.uint64]:
    """The stepped state of the first threshold call for indices ``index .. index+count-1``."""
    a, c = _lane_offsets(count)
    with np.errstate(over="ignore"):
        return a * U64(int(psyq_rand.state_at(index))) + c


def search_block(base_index: int, count: int, want: Want, tables: FmTables
                 ) -> NDArray[np.int64]:
    """Indices in ``base_index .. base_index + count - 1`` whose starter deck holds ``want``:
    the compiled kernel when it runs and can count the wish, else the lanes."""
    if not plan(tables).fast:
        return _search_exact(base_index, count, want, tables)
    if kernel_compiled():
        counted = kernel_want(tables, want.key())
        if counted is not None:
            return search_kernel(base_index, count, counted)
    return search_lanes(base_index, count, want, tables)


def search_lanes(base_index: int, count: int, want: Want, tables: FmTables
                 ) -> NDArray[np.int64]:
    """:func:`search_block` on numpy lanes (groups that share no card and lose no pick)."""
    starter = plan(tables)
    offsets = np.arange(count, dtype=np.int64)
    u = lanes_from(base_index, count)
    held = {c: np.zeros(count, dtype=np.uint8) for c in want.need}
    with np.errstate(over="ignore"):
        for done, group in enumerate(starter.groups, start=1):
            if not len(u):
                break
            scratch = np.empty_like(u)
            picks = np.empty((group.drawn, len(u)), dtype=np.uint8)  # [pick, lane] slots
            for row in picks:
                _pick(u, group, scratch, row)
            mine = {c: group.slot[c] for c in want.need if c in group.cards}
            for c, slot in mine.items():
                held[c] += (picks == slot).sum(axis=0, dtype=np.uint8)
            if group.drawn > COPY_LIMIT:
                rows = list(picks)
                excess = _excess(rows)
                redo = np.flatnonzero(excess)
                if len(redo):
                    _repeat_picks(redo, excess[redo], np.stack([r[redo] for r in rows]), u,
                                  group, held, mine)
            keep = want.still_possible(starter, done, held)
            if keep is not None:
                alive = np.flatnonzero(keep)
                u, offsets = u[alive], offsets[alive]
                held = {c: h[alive] for c, h in held.items()}
    return offsets + base_index


def _repeat_picks(redo: NDArray, owed: NDArray[np.uint8], picks: NDArray[np.uint8],
                  u: NDArray[np.uint64], group: Group, held: dict[int, NDArray],
                  mine: dict[int, int]) -> None:
    """Lanes that were dealt a 4th copy: drop those copies and repeat the picks.

    ``picks`` [pick, lane] holds these lanes' slots. The rejected picks consumed their calls
    like any other, so ``u`` is already right; the lanes owe ``owed`` more kept picks, drawn
    here with the copy limit applied (groups are disjoint: only this group's copies count).
    """
    width = len(group.cards_by_slot)
    flat = (np.arange(len(redo)) * width + picks).ravel()
    counts = np.bincount(flat, minlength=len(redo) * width).reshape(len(redo), width)
    for c, slot in mine.items():
        held[c][redo] -= (counts[:, slot] - np.minimum(counts[:, slot], COPY_LIMIT)
                          ).astype(np.uint8)
    np.minimum(counts, COPY_LIMIT, out=counts)
    sub = u[redo]
    owed = owed.copy()
    slots = np.empty(len(redo), dtype=np.uint8)
    scratch = np.empty_like(sub)
    while owed.any():
        live = np.flatnonzero(owed)
        lane = sub[live]
        _pick(lane, group, scratch[: len(live)], slots[: len(live)])
        sub[live] = lane
        slot = slots[: len(live)]
        room = counts[live, slot] < COPY_LIMIT
        counts[live[room], slot[room]] += 1
        owed[live[room]] -= 1
        for c, wanted_slot in mine.items():
            held[c][redo[live[room]]] += slot[room] == wanted_slot
    u[redo] = sub


# --- the compiled kernel ---------------------------------------------------------------------

KERNEL = "emucore.planning.starter_kernel"
FIELD_BITS = 6  # a wanted card's count in the kernel's ``held`` word
FIELDS = 64 // FIELD_BITS
SLOTS = 256  # a slot is a word's top byte
KERNEL_LANES = 512  # indices per kernel block: its scratch and two groups' words fit L1
KERNEL_BLOCK = 1 << 20  # indices per search_block call on the kernel (8 MiB of offsets)


@cache
def kernel_compiled() -> bool:
    """Whether the starter kernel runs compiled here (else a scalar loop would be too slow)."""
    return compiled.runs_compiled(KERNEL)


@dataclass(frozen=True)
class KernelWant:
    """A wish as :func:`emucore.planning.starter_kernel.search` counts it."""

    words: NDArray[np.uint64]  # [group, t] the table words
    drawn: NDArray[np.int64]  # [group] picks
    inc: NDArray[np.uint64]  # [group, slot] one in the field of a wanted slot
    bias: NDArray[np.uint64]  # [group] 32 - copies wanted, in each wanted field
    top: NDArray[np.uint64]  # [group] bit 5 of each wanted field
    wanted: NDArray[np.int64]  # [group, k] the slot of the group's k-th wanted card
    need: NDArray[np.int64]  # [group, k] its copies wanted (0 past the last)
    groups: int  # groups to draw: through the last one holding a wanted card


@per_tables
def kernel_want(tables: FmTables, need: tuple[tuple[int, int], ...]) -> KernelWant | None:
    """The kernel's tables for ``need`` (:meth:`Want.key`) on a fast plan, or None when a
    group holds more wanted cards than ``held`` has fields, or draws too many picks for one."""
    starter = plan(tables)
    top_bit = 1 << (FIELD_BITS - 1)
    if max(g.drawn for g in starter.groups) >= top_bit:
        return None  # a field must hold every pick of its group plus the bias
    inc = np.zeros((len(starter.groups), SLOTS), dtype=np.uint64)
    bias = np.zeros(len(starter.groups), dtype=np.uint64)
    top = np.zeros(len(starter.groups), dtype=np.uint64)
    wanted = np.zeros((len(starter.groups), FIELDS), dtype=np.int64)
    copies_of = np.zeros((len(starter.groups), FIELDS), dtype=np.int64)
    used = Counter[int]()
    last = 0
    for card, copies in need:
        (number,) = starter.group_of(card)  # a fast plan's groups share no card
        g = number - 1
        if used[g] == FIELDS:
            return None
        shift = FIELD_BITS * used[g]
        wanted[g, used[g]] = starter.groups[g].slot[card]
        copies_of[g, used[g]] = copies
        used[g] += 1
        inc[g, starter.groups[g].slot[card]] = 1 << shift
        bias[g] += (top_bit - copies) << shift
        top[g] += top_bit << shift
        last = max(last, number)
    return KernelWant(np.stack([g.word for g in starter.groups]),
                      np.array([g.drawn for g in starter.groups], dtype=np.int64),
                      inc, bias, top, wanted, copies_of, last)


def search_kernel(base_index: int, count: int, counted: KernelWant,
                  kernel: ModuleType | None = None) -> NDArray[np.int64]:
    """:func:`search_block` through the starter kernel (``kernel``: that module, by default
    as this process loads it)."""
    if kernel is None:
        from emucore.planning import starter_kernel as kernel
    found = np.empty(count, dtype=np.int64)
    lanes = min(count, KERNEL_LANES)
    scratch = (np.empty(lanes, dtype=np.uint64), np.empty(lanes, dtype=np.uint64),
               np.empty(lanes, dtype=np.int64),
               np.empty((int(counted.drawn.max()), lanes), dtype=np.uint8),
               np.zeros(SLOTS, dtype=np.uint8),
               *(np.empty(lanes, dtype=np.uint8) for _ in range(3)))
    u = int(first_stepped(psyq_rand.state_at(base_index)))
    with np.errstate(over="ignore"):  # as Python, numpy's 64-bit scalars wrap like C's
        n = kernel.search(u, count, counted.words, counted.drawn, counted.inc, counted.bias,
                          counted.top, counted.wanted, counted.need, counted.groups,
                          scratch, found)
    return found[:n] + base_index


def _search_exact(base_index: int, count: int, want: Want, tables: FmTables
                  ) -> NDArray[np.int64]:
    """The plain exact filter (used when groups share cards)."""
    states = psyq_rand.consecutive_states(int(psyq_rand.state_at(base_index)), count)
    decks = exact_decks(states, tables)
    ok = np.ones(count, dtype=bool)
    for card, copies in want.need.items():
        ok &= (decks == card).sum(axis=1) >= copies
    return np.flatnonzero(ok).astype(np.int64) + base_index


def block_size(want: Want, tables: FmTables) -> int:
    """Indices per :func:`search_block` call: :data:`KERNEL_BLOCK` where the kernel counts
    the wish (each call's Python set-up is then paid rarely), else the lanes' :data:`LANES`
    (their arrays must stay in the L2 cache)."""
    if plan(tables).fast and kernel_compiled() and kernel_want(tables, want.key()):
        return KERNEL_BLOCK
    return LANES


def search(start: int, count: int, want: Want, tables: FmTables,
           progress: Callable[[int], None] | None = None, lanes: int | None = None
           ) -> NDArray[np.int64]:
    """Every index in ``start .. start + count - 1`` whose starter deck holds ``want``, in
    blocks of ``lanes`` indices (by default :func:`block_size`)."""
    if start < 0 or count < 0 or start + count > INDEX_LIMIT:
        raise ValueError(f"index range {start}+{count} is past 2^32")
    lanes = lanes or block_size(want, tables)
    found = []
    for base in range(start, start + count, lanes):
        size = min(lanes, start + count - base)
        found.append(search_block(base, size, want, tables))
        if progress:
            progress(size)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)



def search_piece(base: int, count: int, cards: tuple[int, ...]) -> NDArray[np.int64]:
    """:func:`search` on the FM tables for a process pool (``cards`` with multiplicity)."""
    from emucore import tables as loader

    fm = loader.load("fm")
    return search(base, count, Want.of(cards, plan(fm)), fm)


@dataclass(frozen=True)
class Found:
    """What a piece of a search reports when the matches may be millions: their number, the
    first ones and an evenly spaced sample."""

    total: int
    first: NDArray[np.int64]
    sample: NDArray[np.int64]

    @classmethod
    def of(cls, found: NDArray[np.int64], first: int, sample: int) -> Found:
        picks = np.linspace(0, len(found) - 1, min(len(found), sample)).astype(np.int64)
        return cls(len(found), found[:first], found[picks])

    @classmethod
    def join(cls, parts: Sequence[Found], first: int, sample: int) -> Found:
        """The pieces of one range, in order, as one report."""
        heads = np.concatenate([p.first for p in parts]) if parts else np.zeros(0, np.int64)
        pool = np.concatenate([p.sample for p in parts]) if parts else np.zeros(0, np.int64)
        joined = cls.of(pool, 0, sample)
        return cls(sum(p.total for p in parts), heads[:first], joined.sample)


def summary_piece(base: int, count: int, cards: tuple[int, ...], first: int, sample: int
                  ) -> Found:
    """:func:`search_piece` reduced to a :class:`Found` (what a worker sends back)."""
    return Found.of(search_piece(base, count, cards), first, sample)


def best_splits(decks: NDArray[np.int16], limit: int = 5) -> list[tuple[int, int]]:
    """Cards held by the share of ``decks`` closest to one half: ``(card, decks holding it)``.

    Seeing whether the new deck holds such a card halves the candidates best.
    """
    held = np.zeros((len(decks), int(decks.max(initial=0)) + 1), dtype=bool)
    held[np.arange(len(decks))[:, None], decks] = True
    held[:, 0] = False
    share = held.sum(axis=0)
    cards = [c for c in np.argsort(np.abs(2 * share - len(decks)), kind="stable")
             if 0 < share[c] < len(decks)]
    return [(int(c), int(share[c])) for c in cards[:limit]]
