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
* :func:`keep` counts, per index, the wanted cards: each wanted card of the group owns a
  6-bit field of ``held``, and ``inc[g, slot]`` adds one to the field of a wanted slot, so
  a pick counts with one add. The copy limit (a pick landing on a 4th copy is repeated) is
  rare: four bit masks count each slot's copies up to four (slot modulo 64, so two slots
  may share a bit) and only an index where a bit reached four draws the group again
  (:func:`redraw`) with exact counts; the rejected picks' calls are spent either way.
  ``bias[g]`` holds ``32 - copies wanted`` in each wanted field and ``top[g]`` the fields'
  bit 5: the index can still hold its wanted cards when ``held + bias`` sets every bit of
  ``top``. The others die and the survivors are compacted to the front of the block;
* the groups after the last one holding a wanted card are never drawn.

The index's first threshold call stores the state after the index's own state, which is the
next index's state: ``u`` steps once per index.
"""

COPY_LIMIT = 3


def search(u, count, words, drawn, inc, bias, top, groups, scratch, found):
    """Offsets ``i`` in ``0 .. count - 1`` whose starter deck holds the wanted cards.

    ``u`` is the stepped state of offset 0's first threshold call; ``words`` [group, t] the
    table words; ``drawn`` [group] the picks; ``inc``, ``bias`` and ``top`` the wanted cards'
    fields (module docstring); ``groups`` how many groups to draw. ``scratch`` is the block:
    ``(xs, starts, ids, picks, counts)``, the live indices' states, their states before the
    group, their offsets, [pick, index] the slots drawn, and a zeroed byte per slot (left
    zeroed). Writes the offsets to ``found`` in order and returns how many there are.
    """
    xs, starts, ids, picks, counts = scratch
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
            n = keep(xs, starts, ids, picks, words, inc, bias[g], top[g], counts, g,
                     drawn[g], n)
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


def keep(xs, starts, ids, picks, words, inc, bias, top, counts, g, drawn, n):
    """After :func:`draw`: the copy limit applied, the indices that can still hold the
    wanted cards moved to the front (states and offsets); returns how many."""
    one = 1
    m = 0
    for j in range(n):
        held = 0
        seen1 = 0
        seen2 = 0
        seen3 = 0
        seen4 = 0
        for p in range(drawn):
            slot = int(picks[p, j])  # a Python int as Python: shifts up to 63 fit
            held += inc[g, slot]
            bit = one << (slot & 63)
            seen4 |= seen3 & bit
            seen3 |= seen2 & bit
            seen2 |= seen1 & bit
            seen1 |= bit
        x = xs[j]
        if seen4:
            x, held = redraw(starts[j], words, drawn, inc, g, counts)
        xs[m] = x
        ids[m] = ids[j]
        m += ((held + bias) & top) == top
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
