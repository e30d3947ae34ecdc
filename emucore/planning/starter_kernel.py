# cython: boundscheck=False, wraparound=False, initializedcheck=False
"""The starter search's kernel: plain loops over ints, compiled to C.

The install compiles this module to C (:mod:`emucore.compiled`; the C types are in
``starter_kernel.pxd`` beside it), where every variable is a 64-bit machine word and a pick
costs a few instructions. :mod:`emucore.planning.starter` uses it only while it runs
compiled: as Python it computes the same (numpy's 64-bit scalars wrap like C's), far too
slowly for 2^27 indices, and the numpy lanes take over.

A pick is the lanes' table-word gather and multiply-add (:mod:`emucore.planning.starter`):
``w = words[g, (x >> 16) & 0x7FF]``, ``x = x * w + (w >> 27)``, the card's slot in the
word's top byte. One index's picks form a chain of dependent loads and multiplies, so the
indices go in blocks as long as the scratch arrays (a few hundred, in the L1 cache), group by
group (the groups share no card, so a group's copy limit is its own):

* :func:`draw` makes every pick of the group for every live index of the block, pick by
  pick, so the processor overlaps the independent indices' chains; it keeps each index's
  state from before the group and the slots it drew;
* :func:`holds` counts each wanted card's copies among the picks and :func:`fourth_copies`
  spots the indices whose picks land on some slot a 4th time, both in loops across the
  indices over the ``[pick, index]`` bytes, which the compiler makes vector compares (16
  indices an instruction with the base x86-64 SSE2): for a group of 16 picks, 120 byte
  compares of pick pairs (117), no table look-up, no false alarm;
* :func:`keep` applies the copy limit (a pick landing on a 4th copy is repeated): it is
  rare (about 2% of indices in group 1), and only those indices draw the group again
  (:func:`redraw`) with exact counts; the rejected picks' calls are spent either way. Each
  wanted card of the group owns a 6-bit field of ``held``, and ``inc[g, slot]`` adds one
  to the field of a wanted slot; ``bias[g]`` holds ``32 - copies wanted`` in each wanted
  field and ``top[g]`` the fields' bit 5: the index can still hold its wanted cards when
  ``held + bias`` sets every bit of ``top``. The others die and the survivors are
  compacted to the front of the block;
* the groups after the last one holding a wanted card are never drawn.

The index's first threshold call stores the state after the index's own state, which is the
next index's state: ``u`` steps once per index.
"""

COPY_LIMIT = 3


def search(u, count, words, drawn, inc, bias, top, wanted, need, groups, scratch, found):
    """Offsets ``i`` in ``0 .. count - 1`` whose starter deck holds the wanted cards.

    ``u`` is the stepped state of offset 0's first threshold call; ``words`` [group, t] the
    table words; ``drawn`` [group] the picks; ``inc``, ``bias`` and ``top`` the wanted cards'
    fields (module docstring); ``wanted`` and ``need`` [group, k] the slot and the copies
    of the group's k-th wanted card (copies 0 past the last); ``groups`` how many groups to
    draw. ``scratch`` is the block: ``(xs, starts, ids, picks, counts, ok, four, run)``, the
    live indices' states, their states before the group, their offsets, [pick, index] the
    slots drawn, a zeroed byte per slot (left zeroed) and three bytes per index. Writes the
    offsets to ``found`` in order and returns how many there are.
    """
    xs, starts, ids, picks, counts, ok, four, run = scratch
    lanes = len(xs)
    low32 = 0xFFFFFFFF
    matches = 0
    base = 0
    while base < count:
        n = min(lanes, count - base)
        for j in range(n):
            xs[j] = u
            ids[j] = base + j
            u = (u * 0x41C64E6D + 0x3039) & low32
        g = 0
        while n and g < groups:
            draw(xs, starts, picks, words, g, drawn[g], n)
            holds(picks, wanted, need, g, drawn[g], n, ok, run)
            fourth_copies(picks, drawn[g], n, four, run)
            n = keep(xs, starts, ids, words, inc, bias[g], top[g], counts, g, drawn[g], n,
                     ok, four)
            g += 1
        for j in range(n):
            found[matches] = ids[j]
            matches += 1
        base += lanes
    return matches


def draw(xs, starts, picks, words, g, drawn, n):
    """Group ``g``'s ``drawn`` picks, as if every pick were kept, for live indices
    ``0 .. n - 1``: ``starts`` gets their states before, ``picks`` [pick, index] the slots."""
    for j in range(n):
        starts[j] = xs[j]
    for p in range(drawn):
        for j in range(n):
            x = xs[j]
            w = words[g, (x >> 16) & 0x7FF]
            xs[j] = x * w + (w >> 27)
            picks[p, j] = w >> 56


def holds(picks, wanted, need, g, drawn, n, ok, run):
    """``ok[j]``: whether index ``j``'s picks as drawn hold group ``g``'s wanted cards.
    Every loop runs across the indices (``run`` counts), which the compiler turns into
    vector compares."""
    for j in range(n):
        ok[j] = 1
    k = 0
    while k < need.shape[1] and need[g, k]:
        slot = wanted[g, k]
        for j in range(n):
            run[j] = 0
        for p in range(drawn):
            for j in range(n):
                run[j] += picks[p, j] == slot
        for j in range(n):
            ok[j] &= run[j] >= need[g, k]
        k += 1


def fourth_copies(picks, drawn, n, four, run):
    """``four[j]``: whether index ``j``'s picks as drawn land on some slot more than
    ``COPY_LIMIT`` times, that is whether some pick has ``COPY_LIMIT`` equal picks after it
    (its first copy does). Like :func:`holds`, loops across the indices."""
    for j in range(n):
        four[j] = 0
    for p in range(drawn - COPY_LIMIT):
        for j in range(n):
            run[j] = 0
        for q in range(p + 1, drawn):
            for j in range(n):
                run[j] += picks[q, j] == picks[p, j]
        for j in range(n):
            four[j] |= run[j] >= COPY_LIMIT


def keep(xs, starts, ids, words, inc, bias, top, counts, g, drawn, n, ok, four):
    """After :func:`holds` and :func:`fourth_copies`: the copy limit applied (the indices
    with a 4th copy draw the group again, exactly), the indices that can still hold the
    wanted cards moved to the front (states and offsets); returns how many."""
    m = 0
    for j in range(n):
        x = xs[j]
        good = int(ok[j])  # a Python int as Python: m must not wrap like a byte
        if four[j]:
            x, held = redraw(starts[j], words, drawn, inc, g, counts)
            good = ((held + bias) & top) == top
        xs[m] = x
        ids[m] = ids[j]
        m += good
    return m


def redraw(x, words, drawn, inc, g, counts):
    """Group ``g`` drawn exactly from stepped state ``x``: a pick landing on a 4th copy is
    repeated. Returns the state after the group and the wanted cards' ``held`` fields;
    ``counts`` is zeroed again on return."""
    held = 0
    kept = 0
    while kept < drawn:
        w = words[g, (x >> 16) & 0x7FF]
        x = x * w + (w >> 27)
        slot = w >> 56
        if counts[slot] < COPY_LIMIT:
            counts[slot] += 1
            held += inc[g, slot]
            kept += 1
    for slot in range(len(counts)):
        counts[slot] = 0
    return x, held
