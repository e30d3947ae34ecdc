"""The list of legal actions, built lazily.

A hand phase allows every ordered chain of up to five hand cards on every landing column
with both face choices and both guardian stars: thousands of actions, all legal by
construction (any chain resolves somehow). :class:`ActionList` is a read-only sequence over
the product of those choices: ``len``, indexing and iteration cost nothing until used, so a
random driver picks ``actions[k]`` without building the rest.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from emucore.fm.actions import FmAction


class ActionList(Sequence):
    """A sequence of actions made of segments, each the cartesian product of a few lists."""

    def __init__(self) -> None:
        self._segments: list[tuple[Callable[..., FmAction], tuple[Sequence[Any], ...], int]] = []
        self._length = 0

    def add(self, make: Callable[..., FmAction], *dims: Sequence[Any]) -> None:
        """Append ``make(*choice)`` for every choice in the product of ``dims``."""
        size = math.prod(map(len, dims))
        if size:
            self._segments.append((make, dims, size))
            self._length += size

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("action index out of range")
        for make, dims, size in self._segments:
            if index < size:
                choice = []
                for dim in reversed(dims):
                    index, k = divmod(index, len(dim))
                    choice.append(dim[k])
                return make(*reversed(choice))
            index -= size
        raise IndexError("action index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[FmAction]:
        for make, dims, _ in self._segments:
            for choice in itertools.product(*dims):
                yield make(*choice)

    def __repr__(self) -> str:
        return f"ActionList({self._length} actions)"


@functools.lru_cache(maxsize=64)
def chains(positions: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every ordered selection of two or more of ``positions`` (up to five)."""
    return tuple(p for k in range(2, min(5, len(positions)) + 1)
                 for p in itertools.permutations(positions, k))
