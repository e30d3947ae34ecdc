"""The Psy-Q C library ``rand()``/``srand()`` used unchanged by Forbidden Memories.

``srand`` (0x8008E5C0) stores its argument verbatim; ``rand`` (0x8008E590) steps the 32-bit state
``s = s * 0x41C64E6D + 0x3039 (mod 2^32)`` and returns ``(s >> 16) & 0x7FFF``. The stored state
is the full 32-bit value. Everything here works on Python ints and on numpy ``uint32`` arrays
(many independent streams at once), so seed searches run as array operations.

The plain-int part (the constants, :class:`Rand`, :func:`jump_coefficients`,
:func:`index_of`) lives in :mod:`emucore.hw.psyq_lcg`, which imports no numpy, and is
re-exported here, so every name of the stream is found in this module.

Speedrunners name a state by its *index*: the number of ``rand()`` calls after the boot state
``srand(0x55555555)``; :func:`state_at` and :func:`index_of` convert both ways.
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike, NDArray

from emucore.hw.psyq_lcg import (
    BOOT_STATE,
    INCREMENT,
    INVERSE_MULTIPLIER,
    MASK32,
    MULTIPLIER,
    Rand,
    cached_coefficients,
    index_of,
    jump_coefficients,
    jump_int,
    next_state,
)

__all__ = ["BOOT_STATE", "INCREMENT", "INVERSE_MULTIPLIER", "MASK32", "MULTIPLIER",
           "Rand", "cached_coefficients", "consecutive_states", "index_of",
           "jump", "jump_coefficients", "jump_int", "mod", "next_state", "output",
           "peek_values", "percent", "roll_2048", "state_at", "step", "unstep"]


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


def peek_values(state: int, n: int) -> NDArray[np.uint32]:
    """The values the next ``n`` calls of ``rand()`` from ``state`` would return
    (:meth:`Rand.peek`), all states at once: a loop that consumes a data-dependent number of
    values then advances by that many. Each chunk's states become its values in place (a
    deal peeks three times per duel)."""
    mult, inc = _ahead()
    chunks = []
    left = n
    while left > 0:
        take = min(left, PEEK_CHUNK)
        states = mult[:take] * np.uint32(state)
        states += inc[:take]
        state, left = int(states[-1]), left - take
        states >>= _SHIFT
        states &= _OUTPUT_MASK
        chunks.append(states)
    return chunks[0] if len(chunks) == 1 else np.concatenate(chunks or [_NONE])


def mod(values: ArrayLike, n: int) -> NDArray[np.uint32]:
    """``rand() % n`` over an array of rand() outputs (keeps the original's bias)."""
    return np.asarray(values, dtype=np.uint32) % np.uint32(n)


def roll_2048(values: ArrayLike) -> NDArray[np.uint32]:
    """``(rand() & 0x7FF) + 1`` over an array of rand() outputs."""
    return (np.asarray(values, dtype=np.uint32) & np.uint32(0x7FF)) + np.uint32(1)


def percent(values: ArrayLike, p: int) -> NDArray[np.bool_]:
    """``rand() % 100 < p`` over an array of rand() outputs."""
    return (np.asarray(values, dtype=np.uint32) % np.uint32(100)) < p
