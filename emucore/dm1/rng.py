"""The one random stream of a DM1 duel.

The Game Boy cartridge's generator is not public (spec/dm1.md §7 item 6). emucore's named
choice, in this one place: the 32-bit linear congruential generator of ``emucore.hw.psyq_rand``
(``s = s * 0x41C64E6D + 0x3039 mod 2^32``, output ``(s >> 16) & 0x7FFF``), seeded with the
duel's seed verbatim. Which routines draw from it, and in what order, is listed in
docs/dm1.md; any change that alters results bumps :data:`RNG_VERSION` (recorded in replays).
"""

from __future__ import annotations

from emucore.hw.psyq_rand import INCREMENT, MASK32, MULTIPLIER

RNG_VERSION = 1


def next_state(state: int) -> int:
    """One step of the stream (the caller stores the state in the duel record)."""
    return (state * MULTIPLIER + INCREMENT) & MASK32


def output(state: int) -> int:
    """The 15-bit value a step yields."""
    return (state >> 16) & 0x7FFF
