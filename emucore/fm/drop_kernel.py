# cython: boundscheck=False, wraparound=False, cdivision=True
"""The drop roll (``Duel_SelectCardDrop``) from many states, as plain loops over ints.

:func:`emucore.fm.rank.drops_at` calls these for many states at once: the pool's 2048-entry
roll table is made from its weights (:func:`fill_table`, what
:func:`emucore.fm.rank.drop_table` makes as a list), then each state costs one LCG step, a
shift, a mask and a table load (:func:`drops`, both in one call). Every value is a small
non-negative int, so the module runs as Python exactly as it runs compiled: the
install compiles it from this source (emucore.compiled) with the C types of
``drop_kernel.pxd``, and the loop over the states is then a plain C loop the compiler
vectorises.

The numbers are written out in the loops, so that the compiled loops see constants:
``rand()`` steps ``s = (s * 0x41C64E6D + 0x3039) & MASK32`` and the roll is
``((s >> 16) & 0x7FFF) & 0x7FF`` (emucore.hw.psyq_rand), one of 2048: bits 16..26 of
the product, which the 32-bit mask leaves as they are, so the loop masks nothing.

The first line's directives let the compiled loops skip index checks: every function
checks its buffers' sizes on entry, and every index is then in range by construction.
Python ignores them.
"""

from __future__ import annotations


def fill_table(weights, table) -> None:
    """``table[v]`` (2048 entries) = the card the roll ``v + 1`` gives over ``weights`` (a
    pool: the weight of card ``c`` at ``c``, index 0 unused): the rolls a card takes follow
    the previous card's, as many as its weight; 0 where the weights never reach the roll."""
    if len(table) != 2048:
        raise ValueError(f"a roll table has 2048 entries, not {len(table)}")
    roll = 0
    for card in range(1, len(weights)):
        weight = weights[card]
        if weight < 0:
            raise ValueError(f"card {card} has a negative weight {weight}")
        if weight:
            end = min(roll + weight, 2048)
            for i in range(roll, end):
                table[i] = card
            roll = end
    for i in range(roll, 2048):
        table[i] = 0


def drops(count: int, states, weights, table, out) -> None:
    """``out[i]`` = the card the roll from ``states[i]`` gives over the pool ``weights``,
    for the first ``count`` states; ``table`` (2048 entries) is scratch for the pool's roll
    table (:func:`fill_table`), made once for all the states."""
    if count < 0 or min(len(states), len(out)) < count:
        raise ValueError(f"buffers too short for {count} states")
    fill_table(weights, table)
    for i in range(count):
        out[i] = table[((states[i] * 0x41C64E6D + 0x3039) >> 16) & 0x7FF]
