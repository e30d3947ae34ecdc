"""Fixed-width integer helpers: two's-complement wraps and clamps, vectorised.

The originals store quantities in 8-, 16- and 32-bit fields; these functions reproduce what a
store into such a field does to an integer computed in a wider register.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def _wide(x: ArrayLike) -> NDArray[np.int64]:
    return np.asarray(x, dtype=np.int64)


def u8(x: ArrayLike) -> NDArray[np.int64]:
    """Keep the low 8 bits (a store into an unsigned byte)."""
    return _wide(x) & 0xFF


def s8(x: ArrayLike) -> NDArray[np.int64]:
    """Reinterpret the low 8 bits as signed (a store into a signed byte)."""
    return ((_wide(x) + 0x80) & 0xFF) - 0x80


def u16(x: ArrayLike) -> NDArray[np.int64]:
    """Keep the low 16 bits (a store into a halfword)."""
    return _wide(x) & 0xFFFF


def s16(x: ArrayLike) -> NDArray[np.int64]:
    """Reinterpret the low 16 bits as signed (``lh`` of a stored halfword)."""
    return ((_wide(x) + 0x8000) & 0xFFFF) - 0x8000


def u32(x: ArrayLike) -> NDArray[np.int64]:
    """Keep the low 32 bits (a 32-bit register after an overflowing operation)."""
    return _wide(x) & 0xFFFFFFFF


def s32(x: ArrayLike) -> NDArray[np.int64]:
    """Reinterpret the low 32 bits as signed."""
    return ((_wide(x) + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def clamp(x: ArrayLike, lo: int, hi: int) -> NDArray[np.int64]:
    """Clamp to ``lo..hi`` inclusive (the originals' compare-and-set pairs)."""
    return np.clip(_wide(x), lo, hi)
