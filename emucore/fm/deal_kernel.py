# cython: boundscheck=False, wraparound=False, cdivision=True
"""The deal's inner loops (``Duel_ShuffleBothDecks``), as plain loops over ints.

One implementation of the deal: :mod:`emucore.fm.deck` calls these for one state and for
many. Each function works on ``lanes`` rows at once, held in flat buffers (``array.array``:
its items are Python ints) of 40 cards a row, lane ``i`` at ``i * 40``, and on each lane's
RNG state in ``states[i]``, replaced by the state after. The arithmetic is masked to 32 bits
and every value is a small non-negative int, so the module runs as Python exactly as it runs
compiled: the install compiles it from this source (emucore.compiled) with the C types of
``deal_kernel.pxd``, and a deal is then a few thousand machine instructions instead of a few
thousand interpreter steps.

The numbers are written out in the loops, so that the compiled loops see constants (a
module-level name would be a Python object there): ``rand()`` steps
``s = (s * 0x41C64E6D + 0x3039) & MASK32`` and returns ``(s >> 16) & 0x7FFF``
(emucore.hw.psyq_rand); a deck has 40 cards (``DECK_SIZE``); a stage is 160 swaps
(``SWAP_COUNT``); a card is dealt at most 3 times (``COPY_LIMIT``); ids 1..720 are walked
(``SCAN_COUNT``); a pool roll ``(rand() & 0x7FF) + 1`` is one of 2048. The constants above
0x7FFFFFFF are module names that the ``.pxd`` makes C ``unsigned int`` globals. A swap's
two states are both made from the state before it (one step and two steps ahead), so the
compiled loop waits for one multiplication per swap instead of two; a swap index is then
one load from ``MOD40`` (``rand() % 40`` of each of the 32,768 outputs, 32 KiB that stay in
the L1 cache; the ``.pxd`` makes it a C array), fewer instructions than the compiler's
multiply-shift for ``% 40``, and the lanes go in blocks of 4 so that their chains of
dependent steps overlap.

The first line's directives let the compiled loops skip index checks: every function
checks its buffers' sizes on entry, every index is then in range by construction (``MOD40``
holds 0..39 only), and the roll table holds -1..719 only
(:func:`emucore.fm.deck.roll_table`). Python ignores them.
"""

from __future__ import annotations

from array import array

MASK32 = 0xFFFFFFFF
TWO_A, TWO_C = 0xC2A29A69, 0xD3DC167E  # rand() twice: s -> s * TWO_A + TWO_C
MOD40 = bytes(value % 40 for value in range(0x8000))  # rand() % 40 of every rand() output


def _check_rows(lanes: int, cards, perm) -> None:
    """Refuse row buffers too short for ``lanes`` rows (the compiled loops check no index,
    so the sizes are checked once here)."""
    if lanes < 0 or min(len(cards), len(perm)) < lanes * 40:
        raise ValueError(f"buffers too short for {lanes} rows of 40 cards")


def _check_states(lanes: int, states, cards, perm) -> None:
    """:func:`_check_rows`, and one state per lane."""
    _check_rows(lanes, cards, perm)
    if len(states) < lanes:
        raise ValueError(f"{len(states)} states for {lanes} lanes")


def fill(lanes: int, deck, cards, perm) -> None:
    """Every row of ``cards`` = ``deck`` (40 cards) and of ``perm`` = 0..39: a deck copied
    from a source, each card's permutation byte its position."""
    _check_rows(lanes, cards, perm)
    if len(deck) != 40:
        raise ValueError(f"a deck has 40 cards, not {len(deck)}")
    for lane in range(lanes):
        base = lane * 40
        for i in range(40):
            cards[base + i] = deck[i]
            perm[base + i] = i


def shuffle(lanes: int, states, cards, perm) -> None:
    """The swap stage of ``Duel_ShuffleDeck`` on every lane: 160 times ``x = rand() % 40``,
    ``y = rand() % 40``, swap both arrays at x and y (even when x == y).

    Both arrays undergo the same swaps, so the swaps are made once, on a row of positions
    (``order``: where each slot's entry comes from), and both rows are then read through it:
    two loads and two stores a swap instead of four of each. The lanes go in blocks of 4,
    their swaps side by side, so that the four chains of dependent LCG steps overlap; the
    last lanes short of a block go one by one."""
    _check_states(lanes, states, cards, perm)
    order = bytearray(160)
    block = array("I", bytes(16))
    held_cards = array("h", bytes(80))
    held_perm = bytearray(40)
    start = 0
    while start < lanes:
        width = 4 if lanes - start >= 4 else 1
        for k in range(width):
            block[k] = states[start + k]
            for i in range(40):
                order[k * 40 + i] = i
        if width == 4:
            for _ in range(160):
                for k in range(4):
                    block[k] = _swap(order, k * 40, block[k])
        else:
            for _ in range(160):
                block[0] = _swap(order, 0, block[0])
        for k in range(width):
            _apply(order, k * 40, held_cards, held_perm, cards, perm, (start + k) * 40)
            states[start + k] = block[k]
        start += width


def _swap(order, row: int, state: int) -> int:
    """One swap of the stage on the positions at ``order[row]`` from ``state``: returns the
    state after its two ``rand()`` calls."""
    first = (state * 0x41C64E6D + 0x3039) & MASK32
    state = (state * TWO_A + TWO_C) & MASK32
    x = row + MOD40[(first >> 16) & 0x7FFF]
    y = row + MOD40[(state >> 16) & 0x7FFF]
    held = order[x]
    order[x] = order[y]
    order[y] = held
    return state


def _apply(order, row: int, held_cards, held_perm, cards, perm, base: int) -> None:
    """Rows ``cards`` and ``perm`` at ``base`` read through the positions at ``order[row]``
    (40 entries): slot ``i`` takes the entry at ``order[row + i]``; ``held_cards`` and
    ``held_perm`` (40 each) are scratch for the rows before."""
    for i in range(40):
        held_cards[i] = cards[base + i]
        held_perm[i] = perm[base + i]
    for i in range(40):
        cards[base + i] = held_cards[order[row + i]]
        perm[base + i] = held_perm[order[row + i]]


def generate(lanes: int, states, table, counts, cards, perm, rolls, max_rolls: int) -> int:
    """The null-source branch of ``Duel_ShuffleDeck`` on every lane: 40 cards dealt from a
    weight pool, one ``rand()`` per attempt, their permutation bytes 0..39.

    ``table[v]`` is the 0-based id at which the weighted walk over ids 1..720 reaches the
    roll ``v + 1`` (``v = rand() & 0x7FF``), or -1 when the walk does not reach it; an attempt
    that lands on a card already held three times is discarded too. ``counts`` (720 zeros) is
    scratch, zero again on return. ``rolls[lane]`` is set to the attempts made. Returns the
    first lane whose deck is not full after ``max_rolls`` attempts (it stops there), or
    ``lanes`` when every lane is dealt.
    """
    _check_states(lanes, states, cards, perm)
    if len(table) != 2048 or len(counts) != 720 or len(rolls) < lanes:
        raise ValueError("a roll table has 2048 entries, the counts 720, the rolls a lane each")
    for lane in range(lanes):
        base = lane * 40
        state = states[lane]
        filled = 0
        made = 0
        while filled < 40 and made < max_rolls:
            state = (state * 0x41C64E6D + 0x3039) & MASK32
            made += 1
            index = table[(state >> 16) & 0x7FF]
            if index >= 0 and counts[index] < 3:
                counts[index] += 1
                cards[base + filled] = index + 1
                perm[base + filled] = filled
                filled += 1
        for i in range(filled):
            counts[cards[base + i] - 1] = 0
        states[lane] = state
        rolls[lane] = made
        if filled < 40:
            return lane
    return lanes
