"""DM1 decks: the 40-card rule, deck files, shuffling and weighted picks from 2048-weight tables.

Every weighted pick is the cartridge's drop picker (reference/dm1/memory_map_added.csv, bank
0x0D $4027): ``(rand(0..7) << 8) | rand(0..255)`` gives 0..2047, and the card is the first
whose cumulative weight is above it. Whether the cartridge pre-builds a CPU deck or samples
its table per draw is unknown (spec/dm1.md §3); emucore's choice (choices D6): before the
duel, 40 cards are picked from the table that way. A player's deck is shuffled by
Fisher-Yates from the last card down, ``j = rand() % (i + 1)`` (choices D6; ``%`` keeps its
small bias).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from emucore.dm1.rng import ranged
from emucore.dm1.state import DECK_SIZE
from emucore.duel import deckfile

Rand = Callable[[], int]


class DeckError(ValueError):
    """A deck breaks a rule (size, unknown card). ``str()`` is one line."""


def check_deck(cards: Sequence[int], data: object, where: str = "deck") -> list[int]:
    """The deck as a list if it has exactly 40 known cards, else :class:`DeckError`.
    Any number of copies of a card is allowed."""
    if len(cards) != DECK_SIZE:
        raise DeckError(f"{where}: {len(cards)} cards, a deck needs exactly {DECK_SIZE}")
    for i, card in enumerate(cards):
        if not isinstance(card, int) or not 1 <= card < len(data.names):  # type: ignore[attr-defined]
            raise DeckError(f"{where}: card {i + 1} ({card!r}) is not a card number 1..365")
    return list(cards)


def read_deck_file(path: Path | str, data: object) -> list[int]:
    """A DM1 deck file (:mod:`emucore.duel.deckfile`: one card number or name per line,
    ``2x CARD`` or ``2 x CARD`` for copies, ``#`` notes): exactly 40 known cards, any number
    of copies. Any problem is one :class:`UserFileError` line naming the file and the line."""
    cards = deckfile.read_deck_file(path, data.card_id,  # type: ignore[attr-defined]
                                    what="DM1 decks")
    return cards.check((DECK_SIZE, DECK_SIZE))


@functools.cache
def _cumulative(weights: bytes) -> tuple[list[int], list[int]]:
    w = np.frombuffer(weights, dtype=np.int32)
    cards = np.flatnonzero(w)
    return np.cumsum(w[cards]).tolist(), cards.tolist()


def roll(rand: Rand) -> int:
    """The drop picker's roll 0..2047: ``(rand(0..7) << 8) | rand(0..255)``, two draws."""
    high = ranged(rand(), 0, 7)
    return (high << 8) | ranged(rand(), 0, 255)


def card_at(weights: np.ndarray, value: int) -> int:
    """The card a roll 0..2047 picks from a 2048-weight table (``weights[id]``): the first
    whose cumulative weight is above it."""
    upper, cards = _cumulative(np.ascontiguousarray(weights, dtype=np.int32).tobytes())
    return cards[bisect.bisect_right(upper, value)]


def pick(weights: np.ndarray, rand: Rand, count: int = 1) -> list[int]:
    """``count`` cards from a 2048-weight table, one :func:`roll` each (see :func:`card_at`)."""
    upper, cards = _cumulative(np.ascontiguousarray(weights, dtype=np.int32).tobytes())
    return [cards[bisect.bisect_right(upper, roll(rand))] for _ in range(count)]


def deal(weights: np.ndarray, rand: Rand) -> list[int]:
    """A 40-card deck picked from a 2048-weight table."""
    return pick(weights, rand, DECK_SIZE)


def shuffle(cards: list[int], rand: Rand) -> list[int]:
    """Fisher-Yates from the last card down with ``rand() % (i + 1)``."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rand() % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out
