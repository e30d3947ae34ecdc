"""A paper rule system as one object: its profile, its cards, its named decks, and how a
duel is set up from a replay's ``setup`` block. The CLI and the replay adapter use only this.

Setup block (JSON)::

    {"seed": 305419896, "decks": ["magician", {"main": [...], "side": [...], "fusion": [...]}],
     "first": null, "ante": false}

A deck is a built-in deck name or a deck list of card ids.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emucore.duel.files import exists, want_bool, want_int
from emucore.duel.protocol import IllegalAction
from emucore.paper.cards import Catalogue
from emucore.paper.decks import DeckList, check_deck, deck_from_json, read_deck
from emucore.paper.engine import PaperDuel
from emucore.paper.profile import Profile


@dataclass(frozen=True)
class PaperSetup:
    """One paper duel's start, as a replay stores it: the RNG ``seed``, the two ``decks``
    (built-in deck names or deck lists as JSON objects), who goes ``first`` (``None``: the
    profile's rule decides) and whether the duel is played for ``ante``."""

    seed: int
    decks: tuple[object, object]
    first: int | None = None
    ante: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PaperSetup:
        """A setup block read back (ValueError naming what is wrong)."""
        if not isinstance(data, Mapping):
            raise ValueError("a setup is a JSON object")
        seed = want_int(data.get("seed"), "setup seed", 0, 0xFFFFFFFF)
        decks = data.get("decks")
        ante = want_bool(data.get("ante", False), "setup ante")
        first = data.get("first")
        if not isinstance(decks, list) or len(decks) != 2:
            raise ValueError("setup needs two decks")
        if first is not None:
            want_int(first, "setup first", 0, 1)
        return cls(seed, (decks[0], decks[1]), first, ante)

    def to_json(self) -> dict[str, Any]:
        """The setup block."""
        return {"seed": self.seed, "decks": list(self.decks), "first": self.first,
                "ante": self.ante}


@dataclass(frozen=True)
class PaperSystem:
    """One paper rule system: everything needed to start its duels."""

    name: str
    profile: Profile
    load_catalogue: Callable[[], Catalogue]
    card_id: Callable[[str], int]  # id or name -> id (KeyError with a one-line message)
    decks: Mapping[str, Callable[[], DeckList]]  # built-in decks by name
    default_decks: tuple[str, str]

    @functools.cached_property
    def catalogue(self) -> Catalogue:
        return self.load_catalogue()

    def deck(self, spec: str | Mapping[str, Any] | DeckList) -> DeckList:
        """A deck from a built-in name, a deck-file path (the command line's ``--deck``),
        a JSON deck list or a DeckList."""
        if isinstance(spec, str) and spec not in self.decks and (
                Path(spec).suffix or exists(spec)):
            return read_deck(spec, self.card_id, self.profile, self.catalogue)
        return self.stored_deck(spec)

    def stored_deck(self, spec: object) -> DeckList:
        """A deck as a replay or a script stores it: a built-in name or a card list. A
        replay is data someone else may send: it never names a file to open."""
        if isinstance(spec, DeckList):
            return spec
        if isinstance(spec, Mapping):
            return deck_from_json(dict(spec))
        if isinstance(spec, str) and spec in self.decks:
            return self.decks[spec]()
        raise ValueError(f"unknown {self.name} deck {str(spec)[:60]!r} (built-in: "
                         f"{', '.join(self.decks)}; or a card list)")

    @functools.cached_property
    def _legal_decks(self) -> set[DeckList]:
        """Deck lists already found legal under these rules (deck lists are immutable)."""
        return set()

    def check_deck(self, deck: DeckList, who: str) -> None:
        """:func:`emucore.paper.decks.check_deck` under these rules, once per deck list."""
        if deck not in self._legal_decks:
            check_deck(self.profile, self.catalogue, deck, who)
            self._legal_decks.add(deck)

    def new_duel(self, seed: int, decks: tuple[object, object] | None = None,
                 first: int | None = None, ante: bool = False) -> PaperDuel:
        """A duel; decks (built-in names or card lists) default to the two built-in decks."""
        lists = [self.stored_deck(s) for s in decks or self.default_decks]
        for who, deck in enumerate(lists):
            self.check_deck(deck, f"player {who + 1} deck")
        return PaperDuel(self.profile, self.catalogue, lists, seed, first, ante,
                         check_decks=False)

    def setup(self, seed: int, decks: tuple[object, object] | None = None,
              first: int | None = None, ante: bool = False) -> PaperSetup:
        """The setup for these choices (deck files are stored as card lists)."""
        specs = decks or self.default_decks
        stored = [s if isinstance(s, str) and s in self.decks else self.deck(s).to_json()
                  for s in specs]
        return PaperSetup(seed, (stored[0], stored[1]), first, ante)

    def duel_from_setup(self, setup: Mapping[str, Any]) -> PaperDuel:
        """A fresh duel from a setup block (ValueError naming what is wrong)."""
        s = PaperSetup.from_json(setup)
        try:
            return self.new_duel(s.seed, s.decks, s.first, s.ante)
        except IllegalAction as exc:
            raise ValueError(str(exc)) from None
