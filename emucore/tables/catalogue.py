"""What every system's table object shares: row counts and finding a card by id or name."""

from __future__ import annotations

from emucore.duel.files import decimal
from emucore.tables.schema import Table


class CardCatalogue:
    """Mixin for a system's tables. Subclasses provide ``raw`` (file name -> Table),
    ``card_count`` (ids are 1..card_count) and ``_by_name`` (casefolded name -> id)."""

    raw: dict[str, Table]
    card_count: int
    _by_name: dict[str, int]

    def counts(self) -> dict[str, int]:
        """Rows per table file."""
        return {name.removesuffix(".csv"): len(t) for name, t in self.raw.items()}

    def card_id(self, token: str) -> int:
        """A card id from an id (``12`` or ``#12``) or a case-insensitive name; KeyError with
        a one-line message if there is no such card."""
        token = str(token).strip()
        ident = decimal(token.removeprefix("#"))
        if ident is not None:
            if 1 <= ident <= self.card_count:
                return ident
            raise KeyError(f"card id {ident} outside 1..{self.card_count}")
        ident = self._by_name.get(token.casefold())
        if ident is None:
            raise KeyError(f"unknown card {token!r}")
        return ident
