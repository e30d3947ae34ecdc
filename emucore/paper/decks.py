"""Deck lists: the main deck, the side deck and the Fusion Deck; their rules and files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from emucore.duel.deckfile import (
    MAX_CARDS,
    SECTIONS,
    DeckLine,
    copies_problem,
    read_deck_file,
    size_problem,
)
from emucore.duel.files import want_int_list
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
    parts = [tuple(want_int_list(data.get(key, []), f"deck {key!r}", 0, 0xFFFF, MAX_CARDS))
             for key in ("main", "side", "fusion")]
    return DeckList(*parts)


def check_deck(profile: Profile, catalogue: Catalogue, deck: DeckList, who: str = "deck") -> None:
    """Raise :class:`IllegalAction` naming the deck rule a deck list breaks."""
    problem = _problem(profile, catalogue, _located(deck))
    if problem is not None:
        rule, message, _ = problem
        raise IllegalAction(rule, f"{who}: {message}")


def _located(deck: DeckList) -> list[DeckLine]:
    """A deck list's cards as deck-file entries (no line numbers)."""
    parts = zip(SECTIONS, (deck.main, deck.side, deck.fusion), strict=True)
    return [DeckLine(card, 0, part) for part, cards in parts for card in cards]


def _problem(profile: Profile, catalogue: Catalogue, cards: Sequence[DeckLine]
                 ) -> tuple[str, str, DeckLine | None] | None:
    """The first deck rule ``cards`` break, as (rule, message, the entry it is at or None
    for the whole deck); None for a legal deck."""
    for entry in cards:
        part = {"main": "deck", "side": "side deck", "fusion": "fusion deck"}[entry.section]
        if entry.card not in catalogue.cards:
            return "unknown-card", f"{part} holds unknown card id {entry.card}", entry
        if entry.section != "fusion" and catalogue[entry.card].kind == FUSION:
            return "fusion-deck", (f"{catalogue.name(entry.card)} is a Fusion Monster and "
                                   "belongs in the Fusion Deck"), entry
        if entry.section == "fusion" and catalogue[entry.card].kind != FUSION:
            return "fusion-deck", "the Fusion Deck holds only Fusion Monsters", entry
    main, side, fusion = ([c for c in cards if c.section == s] for s in SECTIONS)
    problem = size_problem(main, profile.deck_min, profile.deck_max)
    if problem:
        return "deck-size", f"{problem[0]} under the {profile.name} rules", problem[1]
    if profile.side_size is None and side:
        return "side-deck-size", f"the {profile.name} rules have no side deck", side[0]
    problem = size_problem(side, profile.side_size, profile.side_size,
                           "a side deck") if side else None
    if problem:
        return "side-deck-size", *problem
    problem = (copies_problem(main + side, profile.max_copies, catalogue.name,
                              " across deck and side deck")
               or copies_problem(fusion, profile.max_copies, catalogue.name,
                                 " in the Fusion Deck"))
    if problem:
        return "max-copies", *problem
    return None


def read_deck(path: Path | str, card_id: Callable[[str], int], profile: Profile,
              catalogue: Catalogue) -> DeckList:
    """A deck file (:mod:`emucore.duel.deckfile`: one card id or name per line, ``3x NAME``
    for copies, sections ``[main]`` (the default), ``[side]`` and ``[fusion]``, ``#``
    comments) that keeps the ``profile``'s deck rules. An unknown card is a
    :class:`UserFileError`, a broken rule an :class:`IllegalAction`; both name the file and
    the line."""
    deck = read_deck_file(path, card_id, SECTIONS, f"{profile.name} decks")
    problem = _problem(profile, catalogue, deck.cards)
    if problem is not None:
        rule, message, entry = problem
        raise IllegalAction(rule, f"{deck.where(entry)}: {message}")
    return DeckList(*(tuple(deck.ids(part)) for part in SECTIONS))
