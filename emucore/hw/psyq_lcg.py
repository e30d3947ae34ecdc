"""The Psy-Q ``rand()`` stream on plain Python ints: no numpy, so a look-up (``emucore rng
at``, ``emucore fm drop``) starts without importing it.

``rand`` (0x8008E590) steps the 32-bit state ``s = s * 0x41C64E6D + 0x3039 (mod 2^32)`` and
returns ``(s >> 16) & 0x7FFF``. :mod:`emucore.hw.psyq_rand` re-exports every name here beside
its numpy forms (many streams at once as ``uint32`` arrays); code that works on arrays
imports that module, code that works on one state may import this one.
"""

from __future__ import annotations

import functools

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from numpy import uint32
    from numpy.typing import NDArray

MULTIPLIER = 0x41C64E6D
INCREMENT = 0x3039
INVERSE_MULTIPLIER = 0xEEB9EB65  # MULTIPLIER * INVERSE_MULTIPLIER == 1 (mod 2^32)
MASK32 = 0xFFFFFFFF
BOOT_STATE = 0x55555555  # Main_Init: srand(0x55555555) at 0x80012C48


def jump_coefficients(n: int) -> tuple[int, int]:
    """Affine map ``s -> a*s + c (mod 2^32)`` equal to ``n`` steps, in O(log n) squarings.

    Negative ``n`` jumps backwards (the inverse map is affine too).
    """
    if n < 0:
        mult, inc = INVERSE_MULTIPLIER, (-INCREMENT * INVERSE_MULTIPLIER) & MASK32
        n = -n
    else:
        mult, inc = MULTIPLIER, INCREMENT
    a, c = 1, 0
    while n:
        if n & 1:
            a, c = (a * mult) & MASK32, (c * mult + inc) & MASK32
        mult, inc = (mult * mult) & MASK32, (inc * mult + inc) & MASK32
        n >>= 1
    return a, c


@functools.lru_cache(maxsize=256)
def cached_coefficients(n: int) -> tuple[int, int]:
    """:func:`jump_coefficients`, remembered: a duel charges the same few counts (an
    animation's calls, a decision's calls) over and over."""
    return jump_coefficients(n)


def next_state(state: int) -> int:
    """The state one ``rand()`` call after ``state``."""
    return (state * MULTIPLIER + INCREMENT) & MASK32


def jump_int(state: int, n: int) -> int:
    """The state after ``n`` calls from one state (``n`` may be negative), in O(log n); a
    count of 0..2^32-1 is four steps through :func:`_byte_map`."""
    if not 0 <= n <= MASK32:
        a, c = jump_coefficients(n)
        return (a * (state & MASK32) + c) & MASK32
    state &= MASK32
    for position in range(4):
        a, c = _byte_map(position, (n >> (8 * position)) & 0xFF)
        state = (a * state + c) & MASK32
    return state


@functools.cache
def _byte_map(position: int, value: int) -> tuple[int, int]:
    """The affine map of ``value << (8 * position)`` steps (one byte of a 32-bit count),
    made the first time it is asked for: a one-shot look-up makes four, a batch of jumps
    reuses them (at most 4 x 256)."""
    return jump_coefficients(value << (8 * position))


def index_of(state: int, base: int = BOOT_STATE) -> int:
    """The discrete log: the ``n`` in 0..2^32-1 with ``jump(base, n) == state``.

    The LCG has full period 2^32, so every state has exactly one index. Bit by bit: the low
    ``k+1`` bits of the state after ``n`` steps depend only on the low ``k+1`` bits of ``n``
    modulo the period of those bits, so each bit of ``n`` is fixed in turn.
    """
    state &= MASK32
    n = 0
    current = base & MASK32  # jump(base, n)
    for bit in range(32):
        mask = (2 << bit) - 1
        if (current ^ state) & mask:
            current = jump_int(current, 1 << bit)
            n |= 1 << bit
    return n


class Rand:
    """One machine's rand() stream: the 32-bit state plus a count of calls made.

    The duel owns exactly one; every routine that calls ``rand()`` in the original calls
    :meth:`rand` here, cosmetic calls included, because they share the stream. Written
    out rather than a dataclass: importing :mod:`dataclasses` costs a look-up process more
    than the whole of this module.
    """

    def __init__(self, state: int = BOOT_STATE, calls: int = 0) -> None:
        self.state, self.calls = state, calls

    def __repr__(self) -> str:
        return f"Rand(state={self.state!r}, calls={self.calls!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.state, self.calls) == (other.state, other.calls)  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def srand(self, seed: int) -> None:
        """``srand``: store the seed verbatim."""
        self.state = seed & MASK32

    def rand(self) -> int:
        """``rand``: advance the state and return 15 bits."""
        self.state = (self.state * MULTIPLIER + INCREMENT) & MASK32
        self.calls += 1
        return (self.state >> 16) & 0x7FFF

    def advance(self, n: int) -> None:
        """Make ``n >= 0`` calls whose values nobody reads: one affine step of plain ints
        (the same state as ``n`` calls of :meth:`rand`)."""
        a, c = cached_coefficients(n)
        self.state = (a * self.state + c) & MASK32
        self.calls += n

    def peek(self, n: int) -> NDArray[uint32]:
        """The values the next ``n`` calls of :meth:`rand` would return, without making
        them, as a numpy array (:func:`emucore.hw.psyq_rand.peek_values`: the one method
        of the stream that needs numpy, imported when first called)."""
        from emucore.hw.psyq_rand import peek_values

        return peek_values(self.state, n)

    def rand_mod(self, n: int) -> int:
        """``Rand_GetInterval`` (0x800358FC): ``rand() % n``, biased for n not dividing 32768."""
        return self.rand() % n

    def rand_2048(self) -> int:
        """``(rand() & 0x7FF) + 1``: 1..2048, the weight-pool roll."""
        return (self.rand() & 0x7FF) + 1

    def percent(self, p: int) -> bool:
        """``rand() % 100 < p`` (AI ``JumpRandom``); 0..67 occur 328 times, 68..99 327."""
        return self.rand() % 100 < p
