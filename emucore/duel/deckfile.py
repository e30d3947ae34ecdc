"""The deck file: one text format that every system reads (docs/decks.md).

::

    # my deck                  a comment: '#' at the start of a line or after a space,
    Blue-eyes White Dragon     unless a digit follows it ("Mystical Sheep #2" is a name)
    2x Dark Magician           copies: "2x NAME", "2 x NAME", "2x 17"
    17                         a card by its id in the system's tables ("#17" too)
    [side]                     a section, where the system has them: [main] (the default),
                               [side] and [fusion] in the paper games

:func:`read_deck_file` reads a file through the reading edge into :class:`DeckLine` entries,
one per copy, each keeping its line number, with the card looked up in the system's own
tables. Each system then applies its own rules (:meth:`DeckFile.check` for a size and a
copy limit, or its own checks over the entries, as the paper games do), so every problem is
one line naming the file and the line.
"""

from __future__ import annotations

import re
from collections import Counter, namedtuple
from collections.abc import Callable, Sequence
from pathlib import Path

from emucore.duel.files import UserFileError, quoted, read_text

SECTIONS = ("main", "side", "fusion")
MAX_CARDS = 200  # more cards than any system's deck part may hold (FM and DM1: 40; paper 40+)
HELP = "a deck file (one card id or name per line, '2x NAME' for copies; docs/decks.md)"
EPILOG = ("Deck files are the same for every system: one card id or name per line, '2x NAME' "
          "for copies, '#' comments, and in the paper games [side] and [fusion] sections "
          "(docs/decks.md).")

# '#' starts a comment at the start of a line or after a space when no digit follows it.
_COMMENT = re.compile(r"(^|\s)#(?!\d).*$")
_COUNT = re.compile(r"^([0-9]+)\s*x\s+(.+)$", re.IGNORECASE)
_SECTION = re.compile(r"^\[(.*)\]$")
_COUNT_DIGITS = 9  # a count with more digits is refused before it is converted


class DeckLine(namedtuple("DeckLine", "card line section", defaults=(0, "main"))):
    """One copy of a card in a deck (its id), where it was listed (``line`` 0: not from a
    file) and its section (a collections.namedtuple: see :mod:`emucore.tables.csvfile`)."""

    __slots__ = ()


class DeckFile(namedtuple("DeckFile", "path cards")):
    """A deck as read from ``path``: its cards in file order, one :class:`DeckLine` per
    copy."""

    __slots__ = ()

    def ids(self, section: str = "main") -> list[int]:
        """The card ids of one section, in file order."""
        return [c.card for c in self.cards if c.section == section]

    def where(self, entry: DeckLine | None = None) -> str:
        """``FILE line N`` for an entry read from the file, else ``FILE``."""
        return f"{self.path} line {entry.line}" if entry and entry.line else self.path

    def check(self, size: tuple[int, int], copies: int | None = None,
              name: Callable[[int], str] = str) -> list[int]:
        """The ids of a deck of one part if it holds ``size`` (lowest, highest) cards with
        at most ``copies`` of each (None: any number; ``name`` names a card in messages);
        else :class:`UserFileError` at the line of the first card too many, or naming the
        file when cards are missing."""
        problem = size_problem(self.cards, *size)
        if problem is None and copies is not None:
            problem = copies_problem(self.cards, copies, name)
        if problem is not None:
            message, entry = problem
            raise UserFileError(self.where(entry), message)
        return [c.card for c in self.cards]


Problem = tuple[str, DeckLine | None]  # what is wrong, and the entry it is at (None: the deck)


def size_problem(cards: Sequence[DeckLine], lowest: int, highest: int | None,
                 noun: str = "a deck") -> Problem | None:
    """Too few or too many cards (``highest`` None: no upper bound) for ``noun`` (the
    message's name for the part); a part that is too large is wrong at its first card too
    many."""
    if lowest <= len(cards) and (highest is None or len(cards) <= highest):
        return None
    if highest == lowest:
        need = f"exactly {lowest}"
    else:
        need = f"{lowest}..{highest}" if highest is not None else f"at least {lowest}"
    at = cards[highest] if highest is not None and len(cards) > highest else None
    return f"{len(cards)} cards, {noun} needs {need} cards", at


def copies_problem(cards: Sequence[DeckLine], limit: int, name: Callable[[int], str],
                   scope: str = "") -> Problem | None:
    """More than ``limit`` copies of a card (``scope`` says where they are counted, for the
    message): wrong at its first copy too many."""
    seen: Counter[int] = Counter()
    for entry in cards:
        seen[entry.card] += 1
        if seen[entry.card] > limit:
            total = sum(1 for c in cards if c.card == entry.card)
            return (f"{total} copies of {name(entry.card)}; no more than {limit} copies of a "
                    f"card{scope}"), entry
    return None


def read_deck_file(path: Path | str, card_id: Callable[[str], int],
                   sections: Sequence[str] = ("main",), what: str = "these decks") -> DeckFile:
    """Read a deck file through the reading edge. ``card_id`` turns a card token (id or
    name) into an id of the system's tables, raising KeyError with a one-line message;
    ``sections`` are the section headers the system knows (``main`` is always the default);
    ``what`` names the system's decks in messages ("FM decks"). Every problem is one
    :class:`UserFileError` naming the file and the line."""
    return parse_deck(read_text(path), str(path), card_id, sections, what)


def parse_deck(text: str, path: str, card_id: Callable[[str], int],
               sections: Sequence[str] = ("main",), what: str = "these decks") -> DeckFile:
    """The entries of a deck file's ``text`` (see :func:`read_deck_file`)."""
    cards: list[DeckLine] = []
    counts: Counter[str] = Counter()
    section = "main"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        where = f"{path} line {number}"
        header = _SECTION.match(line)
        if header:
            section = _section(header.group(1), sections, what, where)
            continue
        count, token = _count(line, where)
        try:
            card = card_id(token)
        except KeyError as exc:
            raise UserFileError(where, str(exc.args[0])) from None
        counts[section] += count
        if counts[section] > MAX_CARDS:
            raise UserFileError(where, f"more than {MAX_CARDS} cards in the {section} deck")
        cards += [DeckLine(card, number, section)] * count
    return DeckFile(path, tuple(cards))


def _section(name: str, sections: Sequence[str], what: str, where: str) -> str:
    """The section a ``[NAME]`` header opens, if the system has it."""
    key = name.strip().lower()
    if key == "main" or key in sections:
        return key
    others = [f"[{s}]" for s in sections if s != "main"]
    has = f"sections [main], {', '.join(others)}" if others else "no sections but [main]"
    raise UserFileError(where, f"unknown section {quoted('[' + name + ']')} ({what} have "
                               f"{has})")


def _count(line: str, where: str) -> tuple[int, str]:
    """``2x NAME`` / ``2 x NAME`` as (2, NAME); any other line as (1, line)."""
    match = _COUNT.match(line)
    if not match:
        return 1, line
    digits, token = match.group(1), match.group(2).strip()
    if len(digits) > _COUNT_DIGITS or not 1 <= int(digits) <= MAX_CARDS:
        shown = digits if len(digits) <= _COUNT_DIGITS else digits[:_COUNT_DIGITS] + "..."
        raise UserFileError(where, f"{shown} copies (1..{MAX_CARDS})")
    return int(digits), token
