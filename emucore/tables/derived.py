"""Values derived from a tables object, built once per object.

Card facts, AI data, rank rows, drop sums and starter lanes are pure functions of a loaded
tables object (and of a few small arguments). Tables objects hold numpy arrays, so they are
not hashable: :func:`per_tables` keys its memo by the object's identity and keeps the object
alive beside the value, so an identity can never be reused by another object.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from typing import Any, TypeVar

    _T = TypeVar("_T")


def per_tables(build: Callable[..., _T]) -> Callable[..., _T]:
    """Decorate ``build(tables, *args)`` (positional, hashable ``args``) so that each
    (tables object, args) is built once."""
    made: dict[tuple[Hashable, ...], tuple[object, _T]] = {}

    @functools.wraps(build)
    def get(tables: Any, *args: Hashable) -> _T:
        key = (id(tables), *args)
        hit = made.get(key)
        if hit is None:
            hit = made[key] = (tables, build(tables, *args))
        return hit[1]

    return get
