"""The list of legal actions, built lazily.

A hand phase allows every ordered chain of up to five hand cards on every landing column
with both face choices and both guardian stars: thousands of actions, all legal by
construction (any chain resolves somehow). :class:`ActionList` is a read-only sequence over
the product of those choices: ``len``, indexing and iteration cost nothing until used, so a
random driver picks ``actions[k]`` without building the rest.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from emucore.fm.actions import AUTO, Activate, Attack, ChangePosition, EndTurn, FmAction, Play


class ActionList(Sequence):
    """A sequence of actions made of segments, each the cartesian product of a few lists."""

    def __init__(self) -> None:
        # (make, dims, size, each dim with its stride and length: the index's digits)
        self._segments: list[tuple[Callable[..., FmAction], tuple[Sequence[Any], ...], int,
                                   tuple[tuple[Sequence[Any], int, int], ...]]] = []
        self._starts: list[int] = []  # each segment's first index
        self._length = 0
        self._sealed = False

    def add(self, make: Callable[..., FmAction], *dims: Sequence[Any]) -> None:
        """Append ``make(*choice)`` for every choice in the product of ``dims`` (only while
        the list is being built: lists are shared between equal boards once returned)."""
        if self._sealed:
            raise TypeError("a returned action list is shared and read-only")
        size = math.prod(map(len, dims))
        if size:
            strides = [math.prod(map(len, dims[i + 1:])) for i in range(len(dims))]
            digits = tuple(zip(dims, strides, map(len, dims), strict=True))
            self._segments.append((make, dims, size, digits))
            self._starts.append(self._length)
            self._length += size

    def seal(self) -> ActionList:
        """Make the list read-only (lists are cached and shared between equal boards)."""
        self._sealed = True
        return self

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("action index out of range")
        segment = bisect.bisect_right(self._starts, index) - 1
        make, _, _, digits = self._segments[segment]
        index -= self._starts[segment]
        return make(*[dim[index // stride % n] for dim, stride, n in digits])

    def __iter__(self) -> Iterator[FmAction]:
        for make, dims, _, _ in self._segments:
            for choice in itertools.product(*dims):
                yield make(*choice)

    def __repr__(self) -> str:
        return f"ActionList({self._length} actions)"

    def segments(self) -> Iterator[tuple[Callable[..., FmAction], tuple[Sequence[Any], ...]]]:
        """Each segment's factory and the lists whose product it makes, in list order (the
        prompts read a hand phase's plays from them without building the product)."""
        for make, dims, _, _ in self._segments:
            yield make, dims


@functools.lru_cache(maxsize=64)
def chains(positions: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every ordered selection of two or more of ``positions`` (up to five)."""
    return tuple(p for k in range(2, min(5, len(positions)) + 1)
                 for p in itertools.permutations(positions, k))


NONE = ActionList().seal()  # once the duel is over
NO_CHOICE = (False,)
BOTH = (False, True)
STARS = (0, 1)
MONSTER, TRAP, RITUAL, EQUIP, OTHER = "monster", "trap", "ritual", "equip", "other"  # kinds


def kind_of(card_type: int) -> str:
    """How a hand card may be played: by its type (0-19 monsters, 21 trap, 22 ritual,
    23 equip)."""
    if card_type < 20:
        return MONSTER
    return SPECIAL_KINDS.get(card_type, OTHER)


SPECIAL_KINDS = {21: TRAP, 22: RITUAL, 23: EQUIP}


def _single(position: int, zone: int, face_down: bool, star: int) -> Play:
    """A one-card play (an action-list factory)."""
    return Play((position,), zone, face_down, star)


@functools.lru_cache(maxsize=4096)
def hand_phase(held: tuple[tuple[int, str], ...], occupied_m: tuple[int, ...],
               occupied_t: tuple[int, ...]) -> ActionList:
    """Every play for a hand of (position, kind) and the occupied columns of both rows.

    A monster lands in the monster row (AUTO when it has room, or onto any occupied column);
    a trap, or any face-down non-monster, is set in the magic/trap row; a face-up equip goes
    onto an occupied monster column; other face-up magic is activated (a ritual with either
    star for its result); every ordered chain of two or more hand cards lands in the monster
    row.
    """
    out = ActionList()
    monsters = ((AUTO,) if len(occupied_m) < 5 else ()) + occupied_m
    magic = ((AUTO,) if len(occupied_t) < 5 else ()) + occupied_t
    for j, kind in held:
        if kind == MONSTER:
            out.add(_single, (j,), monsters, BOTH, STARS)
        elif kind == TRAP:
            out.add(_single, (j,), magic, BOTH, (0,))
        else:
            out.add(_single, (j,), occupied_m if kind == EQUIP else (AUTO,), NO_CHOICE,
                    STARS if kind == RITUAL else (0,))
            out.add(_single, (j,), magic, (True,), (0,))
    out.add(Play, chains(tuple(j for j, _ in held)), monsters, BOTH, STARS)
    return out.seal()


def plays(actions: ActionList) -> Iterator[tuple[tuple[int, ...], Sequence[int],
                                                Sequence[bool], Sequence[int]]]:
    """The plays of a :func:`hand_phase` list, one per raised chain: (hand positions in raise
    order, landing columns, faces, stars), each of the last three a list the product takes."""
    for make, (cards, zones, faces, stars) in actions.segments():
        for chain in (cards if make is Play else [(j,) for j in cards]):
            yield chain, zones, faces, stars


@functools.lru_cache(maxsize=4096)
def field_phase(ready: tuple[int, ...], attackers: tuple[int, ...], targets: tuple[int, ...],
                activations: tuple[tuple[int, tuple[int, ...] | None], ...]) -> ActionList:
    """End turn; attacks of the ``attackers`` on ``targets`` (empty when they may not
    attack); position changes of the ``ready`` monsters; activations (column, equip targets
    or None)."""
    out = ActionList()
    out.add(EndTurn)
    out.add(Attack, attackers, targets)
    out.add(ChangePosition, ready)
    for col, fits in activations:
        if fits is None:
            out.add(Activate, (col,))
        else:
            out.add(Activate, (col,), fits)
    return out.seal()
