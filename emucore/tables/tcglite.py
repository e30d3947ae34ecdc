"""Simplified-TCG tables: the 44 normal monsters of the two 2002 starter decks.

Card ids are 1..44 in file order (Yugi's 19, then Kaiba's 25). There are no fusions in this
rule system, so :meth:`TcgliteTables.fusion_result` always answers None. The schema and
constants live in :mod:`emucore.tables.tcglite_lookup` (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from emucore.tables.catalogue import CardCatalogue
from emucore.tables.schema import Table, TableError, read_table
from emucore.tables.tcglite_lookup import (
    CARD_COUNT,
    DECK_SIZES,
    SCHEMAS,
    card_info,
    names_index,
)

__all__ = ["CARD_COUNT", "DECK_SIZES", "SCHEMAS", "TcgliteTables", "load"]


@dataclass
class TcgliteTables(CardCatalogue):
    """The checked card table and the two starter decks as id lists. Names are found in the
    printed spelling and in the source files' spelling."""

    raw: dict[str, Table]
    cards: list[dict[str, object]]  # cards[id - 1]
    decks: dict[str, list[int]]  # "yugi" / "kaiba" -> card ids in file order
    _by_name: dict[str, int] = field(default_factory=dict)
    card_count: int = CARD_COUNT

    def card_info(self, ident: int) -> dict[str, object]:
        """What ``emucore card tcglite ID`` shows
        (:func:`emucore.tables.tcglite_lookup.card_info`)."""
        return card_info(self.cards[ident - 1])

    def fusion_result(self, a: int, b: int) -> int | None:
        """No fusions in the simplified TCG."""
        return None


def load(folder: Path) -> TcgliteTables:
    """Read, check and index the tcglite tables in ``folder``."""
    raw = {s.file: read_table(folder, s) for s in SCHEMAS}
    table = raw["cards.csv"]
    if table["id"].tolist() != list(range(1, CARD_COUNT + 1)):
        raise TableError(table.path, f"ids must be 1..{CARD_COUNT} in order")
    rows = [dict(r) for r in table.rows()]
    decks = {name: [int(r["id"]) for r in rows if r["deck"] == name] for name in DECK_SIZES}
    for name, size in DECK_SIZES.items():
        if len(decks[name]) != size:
            raise TableError(table.path, f"deck {name} has {len(decks[name])} cards, not {size}")
    return TcgliteTables(raw=raw, cards=rows, decks=decks, _by_name=names_index(rows))
