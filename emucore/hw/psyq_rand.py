"""The Psy-Q C library ``rand()``/``srand()`` used unchanged by Forbidden Memories.

``srand`` (0x8008E5C0) stores its argument verbatim; ``rand`` (0x8008E590) steps the 32-bit state
``s = s * 0x41C64E6D + 0x3039 (mod 2^32)`` and returns ``(s >> 16) & 0x7FFF``. The stored state
is the full 32-bit value. Everything here works on Python ints and on numpy ``uint32`` arrays
(many independent streams at once), so seed searches run as array operations.

Speedrunners name a state by its *index*: the number of ``rand()`` calls after the boot state
``srand(0x55555555)``; :func:`state_at` and :func:`index_of` convert both ways.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

MULTIPLIER = 0x41C64E6D
INCREMENT = 0x3039
INVERSE_MULTIPLIER = 0xEEB9EB65  # MULTIPLIER * INVERSE_MULTIPLIER == 1 (mod 2^32)
MASK32 = 0xFFFFFFFF
BOOT_STATE = 0x55555555  # Main_Init: srand(0x55555555) at 0x80012C48
RNG_VERSION = 1  # bump when an RNG-consuming routine changes in a way that alters results


def step(state: ArrayLike) -> NDArray[np.uint32]:
    """One ``rand()`` state transition (mod 2^32), vectorised over ``uint32`` arrays."""
    s = np.asarray(state, dtype=np.uint32)
    with np.errstate(over="ignore"):
        return s * np.uint32(MULTIPLIER) + np.uint32(INCREMENT)


def unstep(state: ArrayLike) -> NDArray[np.uint32]:
    """The inverse transition: the state one ``rand()`` call earlier."""
    s = np.asarray(state, dtype=np.uint32)
    with np.errstate(over="ignore"):
        return (s - np.uint32(INCREMENT)) * np.uint32(INVERSE_MULTIPLIER)


def output(state: ArrayLike) -> NDArray[np.uint32]:
    """What ``rand()`` returns for a state it has just stored: 15 bits, 0..32767."""
    return (np.asarray(state, dtype=np.uint32) >> np.uint32(16)) & np.uint32(0x7FFF)


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


PEEK_CHUNK = 512  # Rand.peek computes at most this many states per vectorised step


@functools.cache
def _ahead() -> tuple[NDArray[np.uint32], NDArray[np.uint32]]:
    """The affine maps of 1 .. PEEK_CHUNK steps, as two uint32 arrays."""
    maps = [jump_coefficients(k) for k in range(1, PEEK_CHUNK + 1)]
    return (np.array([a for a, _ in maps], dtype=np.uint32),
            np.array([c for _, c in maps], dtype=np.uint32))


_NONE = np.zeros(0, dtype=np.uint32)
_SHIFT, _OUTPUT_MASK = np.uint32(16), np.uint32(0x7FFF)  # rand()'s value of a state


def jump(state: ArrayLike, n: int) -> NDArray[np.uint32]:
    """The state after ``n`` calls (``n`` may be negative), in O(log n)."""
    a, c = jump_coefficients(n)
    s = np.asarray(state, dtype=np.uint32)
    with np.errstate(over="ignore"):
        return s * np.uint32(a) + np.uint32(c)


def state_at(index: ArrayLike) -> NDArray[np.uint32]:
    """The state after ``index`` calls from the boot state, vectorised over indices."""
    idx = np.asarray(index, dtype=np.uint64)
    flat = idx.reshape(-1)
    out = np.empty(flat.shape, dtype=np.uint32)
    for i, k in enumerate(flat.tolist()):
        out[i] = jump(BOOT_STATE, int(k))
    return out.reshape(idx.shape)


def consecutive_states(start: int, count: int) -> NDArray[np.uint32]:
    """``count`` consecutive states beginning with ``start`` (``start`` itself first)."""
    out = np.empty(count, dtype=np.uint32)
    block = 1
    out[0] = start
    while block < count:
        take = min(block, count - block)
        out[block : block + take] = jump(out[:take], block)
        block += take
    return out


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
            current = int(jump(current, 1 << bit))
            n |= 1 << bit
    return n


@dataclass
class Rand:
    """One machine's rand() stream: the 32-bit state plus a count of calls made.

    The duel owns exactly one; every routine that calls ``rand()`` in the original calls
    :meth:`rand` here, cosmetic calls included, because they share the stream.
    """

    state: int = BOOT_STATE
    calls: int = 0

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

    def peek(self, n: int) -> NDArray[np.uint32]:
        """The values the next ``n`` calls of :meth:`rand` would return, without making
        them (all states at once: a loop that consumes a data-dependent number of values
        then :meth:`advance`s by that many). Each chunk's states become its values in
        place (a deal peeks three times per duel)."""
        mult, inc = _ahead()
        chunks = []
        state, left = self.state, n
        while left > 0:
            take = min(left, PEEK_CHUNK)
            states = mult[:take] * np.uint32(state)
            states += inc[:take]
            state, left = int(states[-1]), left - take
            states >>= _SHIFT
            states &= _OUTPUT_MASK
            chunks.append(states)
        return chunks[0] if len(chunks) == 1 else np.concatenate(chunks or [_NONE])

    def rand_mod(self, n: int) -> int:
        """``Rand_GetInterval`` (0x800358FC): ``rand() % n``, biased for n not dividing 32768."""
        return self.rand() % n

    def rand_2048(self) -> int:
        """``(rand() & 0x7FF) + 1``: 1..2048, the weight-pool roll."""
        return (self.rand() & 0x7FF) + 1

    def percent(self, p: int) -> bool:
        """``rand() % 100 < p`` (AI ``JumpRandom``); 0..67 occur 328 times, 68..99 327."""
        return self.rand() % 100 < p


def mod(values: ArrayLike, n: int) -> NDArray[np.uint32]:
    """``rand() % n`` over an array of rand() outputs (keeps the original's bias)."""
    return np.asarray(values, dtype=np.uint32) % np.uint32(n)


def roll_2048(values: ArrayLike) -> NDArray[np.uint32]:
    """``(rand() & 0x7FF) + 1`` over an array of rand() outputs."""
    return (np.asarray(values, dtype=np.uint32) & np.uint32(0x7FF)) + np.uint32(1)


def percent(values: ArrayLike, p: int) -> NDArray[np.bool_]:
    """``rand() % 100 < p`` over an array of rand() outputs."""
    return (np.asarray(values, dtype=np.uint32) % np.uint32(100)) < p
