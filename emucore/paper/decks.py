"""Deck lists: the main deck, the side deck and the Fusion Deck; their rules and files."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from emucore.duel.files import UserFileError, read_text, want_int_list
from emucore.duel.protocol import IllegalAction
from emucore.paper.cards import FUSION, Catalogue
from emucore.paper.profile import Profile


@dataclass(frozen=True)
class DeckList:
    """A player's cards by id. The side deck and the Fusion Deck stay out of the shuffle."""

    main: tuple[int, ...]
    side: tuple[int, ...] = ()
    fusion: tuple[int, ...] = ()

    def to_json(self) -> dict[str, list[int]]:
        return {"main": list(self.main), "side": list(self.side), "fusion": list(self.fusion)}


def deck_from_json(data: object) -> DeckList:
    """A deck from :meth:`DeckList.to_json` output (ValueError if malformed)."""
    if not isinstance(data, dict):
        raise ValueError("a deck must be an object with main/side/fusion lists")
    parts = [tuple(want_int_list(data.get(key, []), f"deck {key!r}", 0, 0xFFFF, MAX_PART))
             for key in ("main", "side", "fusion")]
    return DeckList(*parts)


def check_deck(profile: Profile, catalogue: Catalogue, deck: DeckList, who: str = "deck") -> None:
    """Raise :class:`IllegalAction` naming the deck rule a deck list breaks."""
    for part, cards in (("deck", deck.main), ("side deck", deck.side),
                        ("fusion deck", deck.fusion)):
        for card in cards:
            if card not in catalogue.cards:
                raise IllegalAction("unknown_card", f"{who}: {part} holds unknown card id {card}")
    fusions_in_main = [c for c in deck.main + deck.side if catalogue[c].kind == FUSION]
    if fusions_in_main:
        raise IllegalAction("fusion_deck", f"{who}: {catalogue.name(fusions_in_main[0])} is a "
                            "Fusion Monster and belongs in the Fusion Deck")
    if any(catalogue[c].kind != FUSION for c in deck.fusion):
        raise IllegalAction("fusion_deck", f"{who}: the Fusion Deck holds only Fusion Monsters")
    if len(deck.main) < profile.deck_min or (profile.deck_max and
                                              len(deck.main) > profile.deck_max):
        most = f"..{profile.deck_max}" if profile.deck_max else " or more"
        raise IllegalAction("deck_size", f"{who}: {len(deck.main)} cards, the {profile.name} "
                            f"rules need {profile.deck_min}{most}")
    if profile.side_size is None and deck.side:
        raise IllegalAction("side_deck_size", f"{who}: the {profile.name} rules have no side deck")
    if deck.side and len(deck.side) != profile.side_size:
        raise IllegalAction("side_deck_size", f"{who}: side deck of {len(deck.side)} cards, "
                            f"it must be exactly {profile.side_size}")
    for counted in (Counter(deck.main + deck.side), Counter(deck.fusion)):
        card, copies = counted.most_common(1)[0] if counted else (0, 0)
        if copies > profile.max_copies:
            raise IllegalAction("max_copies", f"{who}: {copies} copies of {catalogue.name(card)}"
                                f", at most {profile.max_copies} across deck and side deck")


# A '#' starts a comment at the start of a line or after a space when it is not followed by a
# digit ("Mystical Sheep #2" is a card name).
_COMMENT = re.compile(r"(^|\s)#(?!\d).*$")
_COUNT = re.compile(r"^([0-9]{1,9})\s*x\s+(.+)$", re.IGNORECASE)
MAX_PART = 200  # more cards than any deck part may hold (the rules allow 40..60 in the main)
SECTIONS = {"[main]": "main", "[side]": "side", "[fusion]": "fusion"}


def read_deck(path: Path | str, card_id: Callable[[str], int]) -> DeckList:
    """Parse a deck file: one card (id or name) per line, ``3x NAME`` for copies, sections
    ``[main]`` (the default), ``[side]`` and ``[fusion]``; ``#`` comments. Unknown cards raise
    :class:`UserFileError` naming the line."""
    text = read_text(path)
    parts: dict[str, list[int]] = {"main": [], "side": [], "fusion": []}
    section = "main"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        if line.lower() in SECTIONS:
            section = SECTIONS[line.lower()]
            continue
        count, name = 1, line
        match = _COUNT.match(line)
        if match:
            count, name = int(match.group(1)), match.group(2).strip()
            if not 1 <= count <= MAX_PART:
                raise UserFileError(f"{path} line {number}", f"{count} copies (1..{MAX_PART})")
        try:
            ident = card_id(name)
        except KeyError as exc:
            raise UserFileError(f"{path} line {number}", str(exc.args[0])) from None
        parts[section] += [ident] * count
        if len(parts[section]) > MAX_PART:
            raise UserFileError(f"{path} line {number}", f"more than {MAX_PART} cards in "
                                                         f"the {section} deck")
    return DeckList(tuple(parts["main"]), tuple(parts["side"]), tuple(parts["fusion"]))
