"""The one random stream of a DM1 duel.

The Game Boy cartridge's generator is not public (spec/dm1.md §7 item 6). emucore's named
choice, in this one place: the 32-bit linear congruential generator of ``emucore.hw.psyq_rand``
(``s = s * 0x41C64E6D + 0x3039 mod 2^32``, output ``(s >> 16) & 0x7FFF``), seeded with the
duel's seed verbatim. Which routines draw from it, and in what order, is listed in
docs/dm1.md; any change that alters results bumps ``emucore.dm1.replay.RNG_VERSION``
(recorded in replays).

The cartridge's random routine ($2112) takes a lower and an upper bound ($CE9D, $CE9E) and
leaves its result in $CE9F (reference/dm1/memory_map_added.csv); how it maps its generator
onto the range is not published. emucore's named choice is :func:`ranged`.
"""

from __future__ import annotations

from emucore.hw.psyq_rand import INCREMENT, MASK32, MULTIPLIER


def next_state(state: int) -> int:
    """One step of the stream (the caller stores the state in the duel record)."""
    return (state * MULTIPLIER + INCREMENT) & MASK32


def output(state: int) -> int:
    """The 15-bit value a step yields."""
    return (state >> 16) & 0x7FFF


def ranged(value: int, lo: int, hi: int) -> int:
    """choices D5: the routine at $2112: one stream value mapped onto ``lo..hi`` as
    ``lo + value % (hi - lo + 1)`` (exact, without bias, for the power-of-two ranges of the
    weighted pick)."""
    return lo + value % (hi - lo + 1)


class Stream:
    """A stand-alone stream over the same generator (the menu's, or a command's): each call
    steps ``state`` and returns the output, as :meth:`Dm1Duel.draw_random` does."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK32

    def __call__(self) -> int:
        self.state = next_state(self.state)
        return output(self.state)
