"""DM1 decks: the 40-card rule, deck files, shuffling and dealing an opponent's deck.

Whether the cartridge pre-builds a CPU deck or samples its 2048-weight table per draw is
unknown (spec/dm1.md §3); emucore's [choice]: before the duel, 40 cards are dealt from the
table, one roll ``rand() & 0x7FF`` (0..2047) per card over the cumulative weights (the romhack
notes' drop roll uses the same 0..2047 range). A player's deck is shuffled by Fisher-Yates from
the last card down, ``j = rand() % (i + 1)`` ([choice]; ``%`` keeps its small bias).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from emucore.dm1.state import DECK_SIZE
from emucore.duel.files import UserFileError, decimal, read_lines

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
    """A deck file: one card per line (number or name), ``N x CARD`` for copies, ``#`` notes."""
    cards: list[int] = []
    for number, text in read_lines(path):
        count, token = 1, text
        head, sep, rest = text.partition(" x ")
        if sep and decimal(head.strip()) is not None:
            count, token = int(head), rest
            if not 1 <= count <= DECK_SIZE:
                raise UserFileError(path, f"line {number}: {count} copies (1..{DECK_SIZE})")
        try:
            card = data.card_id(token)  # type: ignore[attr-defined]
        except KeyError as exc:
            raise UserFileError(path, f"line {number}: {exc.args[0]}") from None
        cards += [card] * count
        if len(cards) > DECK_SIZE:
            raise UserFileError(path, f"line {number}: more than {DECK_SIZE} cards")
    try:
        return check_deck(cards, data, str(path))
    except DeckError as exc:
        raise UserFileError(path, str(exc).removeprefix(f"{path}: ")) from None


@functools.cache
def _cumulative(weights: bytes) -> tuple[list[int], list[int]]:
    w = np.frombuffer(weights, dtype=np.int32)
    cards = np.flatnonzero(w)
    return np.cumsum(w[cards]).tolist(), cards.tolist()


def deal(weights: np.ndarray, rand: Rand) -> list[int]:
    """40 cards from a 2048-weight table: per card one roll ``rand() & 0x7FF``."""
    upper, cards = _cumulative(np.ascontiguousarray(weights, dtype=np.int32).tobytes())
    return [cards[bisect.bisect_right(upper, rand() & 0x7FF)] for _ in range(DECK_SIZE)]


def shuffle(cards: list[int], rand: Rand) -> list[int]:
    """Fisher-Yates from the last card down with ``rand() % (i + 1)``."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rand() % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out
