"""1999 Official Rules tables: the 90 Vol.1 + Starter Box cards, Field bonuses, 47 fusions.

Card ids are 1..90 in the reference order (Vol.1 first). Fusions whose result and materials
are all among the 90 cards resolve through :meth:`Ocg1999Tables.fusion_result`; the other
Series-1 fusions are listed with their material names for reference (ids 0). The schemas
and constants live in :mod:`emucore.tables.ocg1999_lookup` (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from emucore.tables.catalogue import CardCatalogue
from emucore.tables.ocg1999_lookup import (
    ATTRIBUTES,
    CARD_COUNT,
    CARD_TYPES,
    EFFECTS,
    FUSION_COUNT,
    MONSTER_TYPES,
    PROPERTIES,
    SCHEMAS,
    card_info,
    fusion_pairs,
)
from emucore.tables.schema import Table, TableError, check_refs, read_table

__all__ = ["ATTRIBUTES", "CARD_COUNT", "CARD_TYPES", "EFFECTS", "FUSION_COUNT", "MONSTER_TYPES",
           "PROPERTIES", "SCHEMAS", "Ocg1999Tables", "load"]


@dataclass
class Ocg1999Tables(CardCatalogue):
    """The checked tables, plus per-id lists the paper engine reads."""

    raw: dict[str, Table]
    cards: list[dict[str, object]]  # cards[id - 1]: one row per card
    field_bonus: dict[int, dict[str, int]]  # field card id -> monster type -> delta
    fusions: list[dict[str, object]]  # every fusions.csv row
    _by_name: dict[str, int] = field(default_factory=dict)
    _fusion_pairs: dict[tuple[int, int], int] = field(default_factory=dict)
    card_count: int = CARD_COUNT

    def card_info(self, ident: int) -> dict[str, object]:
        """What ``emucore card ocg1999 ID`` shows
        (:func:`emucore.tables.ocg1999_lookup.card_info`)."""
        return card_info(self.cards[ident - 1])

    def fusion_result(self, a: int, b: int) -> int | None:
        """The Fusion Monster two named materials make (order-free), or None."""
        return self._fusion_pairs.get((min(a, b), max(a, b)))

    def fusion_recipes(self) -> dict[int, tuple[int, ...]]:
        """Fusion result id -> material ids, for the fusions playable with these 90 cards."""
        return {result: pair for pair, result in self._fusion_pairs.items()}


def _rows(table: Table) -> list[dict[str, object]]:
    return [dict(r) for r in table.rows()]


def load(folder: Path) -> Ocg1999Tables:
    """Read, check and index the ocg1999 tables in ``folder``."""
    raw = {s.file: read_table(folder, s) for s in SCHEMAS}
    cards = raw["cards.csv"]
    if cards["id"].tolist() != list(range(1, CARD_COUNT + 1)):
        raise TableError(cards.path, f"ids must be 1..{CARD_COUNT} in order")
    rows = _rows(cards)
    monster = np.zeros(CARD_COUNT + 1, dtype=bool)
    monster[cards["id"]] = cards["card_type"] == "monster"
    fusion_kind = np.zeros(CARD_COUNT + 1, dtype=bool)
    fusion_kind[cards["id"]] = cards["monster_kind"] == "fusion"
    fields_ = np.zeros(CARD_COUNT + 1, dtype=bool)
    fields_[cards["id"]] = cards["effect"] == "field"
    for i, r in enumerate(rows):
        if (r["card_type"] == "monster") != (r["level"] != 0):
            raise cards.fail(i, "level", "monsters (and only monsters) have a level")
    check_refs(raw["field_bonus.csv"], "field_id", fields_, "a Field card")
    fusions = raw["fusions.csv"]
    known = np.ones(CARD_COUNT + 1, dtype=bool)
    known[1:] = monster[1:]
    check_refs(fusions, "card_id", np.where(np.arange(CARD_COUNT + 1) == 0, True, fusion_kind),
               "a Fusion Monster card or 0")
    for n in (1, 2, 3):
        check_refs(fusions, f"material_{n}_id", known, "a monster card or 0")
    bonus: dict[int, dict[str, int]] = {}
    fb = raw["field_bonus.csv"]
    for fid, kind, delta in zip(fb["field_id"].tolist(), fb["monster_type"], fb["delta"].tolist(),
                                strict=True):
        bonus.setdefault(fid, {})[str(kind)] = delta
    fusion_rows = _rows(fusions)
    return Ocg1999Tables(raw=raw, cards=rows, field_bonus=bonus, fusions=fusion_rows,
                         _by_name={str(r["name"]).casefold(): int(r["id"]) for r in rows},
                         _fusion_pairs=fusion_pairs(fusion_rows))
