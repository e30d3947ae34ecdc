"""1999 Official Rules tables: the 90 Vol.1 + Starter Box cards, Field bonuses, 47 fusions.

Card ids are 1..90 in the reference order (Vol.1 first). Fusions whose result and materials
are all among the 90 cards resolve through :meth:`Ocg1999Tables.fusion_result`; the other
Series-1 fusions are listed with their material names for reference (ids 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from emucore.tables.catalogue import CardCatalogue
from emucore.tables.schema import Column, Schema, Table, TableError, check_refs, read_table

CARD_COUNT = 90
FUSION_COUNT = 47
CARD_TYPES = ("monster", "magic", "trap")
PROPERTIES = ("", "normal", "equip", "field", "continuous")
ATTRIBUTES = ("", "dark", "earth", "fire", "light", "water", "wind")
MONSTER_TYPES = ("", "aqua", "beast", "beastwarrior", "dinosaur", "dragon", "fairy", "fiend",
                 "fish", "insect", "machine", "plant", "pyro", "reptile", "rock", "seaserpent",
                 "spellcaster", "thunder", "warrior", "wingedbeast", "zombie")
EFFECTS = ("", "equip", "destroy_all_monsters", "destroy_weakest_opponent",
           "destroy_opponent_monsters", "heal", "burn", "polymerization", "destroy_face_up_trap",
           "field", "trap_destroy_summoned", "trap_destroy_two_and_one", "trap_lock_type")
_STAT = {"lo": 0, "hi": 9999, "multiple_of": 50, "optional": True}

SCHEMAS = (
    Schema("cards.csv", (
        Column("id", lo=1, hi=CARD_COUNT, unique=True), Column("name", "str", unique=True),
        Column("name_ja", "str"), Column("set", "choice", choices=("Vol.1", "Starter Box")),
        Column("card_type", "choice", choices=CARD_TYPES),
        Column("property", "choice", choices=PROPERTIES),
        Column("monster_kind", "choice", choices=("", "normal", "fusion")),
        Column("attribute", "choice", choices=ATTRIBUTES),
        Column("monster_type", "choice", choices=MONSTER_TYPES),
        Column("level", lo=1, hi=12, optional=True), Column("atk", **_STAT),
        Column("def", **_STAT), Column("rarity", "choice", choices=("common", "rare", "super",
                                                                      "ultra")),
        Column("password", "str"), Column("effect", "choice", choices=EFFECTS),
        Column("amount", lo=0, hi=8000), Column("effect_type", "choice", choices=MONSTER_TYPES),
    ), rows=CARD_COUNT),
    Schema("field_bonus.csv", (Column("field_id", lo=1, hi=CARD_COUNT),
                               Column("monster_type", "choice", choices=MONSTER_TYPES[1:]),
                               Column("delta", lo=-1000, hi=1000, multiple_of=100)),
           key=("field_id", "monster_type")),
    Schema("fusions.csv", (
        Column("id", lo=1, hi=FUSION_COUNT, unique=True), Column("name", "str", unique=True),
        Column("name_ja", "str"), Column("first_set", "str"),
        Column("attribute", "choice", choices=ATTRIBUTES[1:]),
        Column("monster_type", "choice", choices=MONSTER_TYPES[1:]),
        Column("level", lo=1, hi=12), Column("atk", lo=0, hi=9999, multiple_of=10),
        Column("def", lo=0, hi=9999, multiple_of=10), Column("password", "str"),
        Column("card_id", lo=0, hi=CARD_COUNT),
        Column("material_1", "str"), Column("material_2", "str"),
        Column("material_3", "str", optional=True),
        *(Column(f"material_{n}_id", lo=0, hi=CARD_COUNT) for n in (1, 2, 3)),
    ), rows=FUSION_COUNT),
)


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
        """What ``emucore card ocg1999 ID`` shows (empty fields left out)."""
        row = self.cards[ident - 1]
        hidden = {"amount"} if row["amount"] == 0 else set()
        if row["card_type"] != "monster":
            hidden |= {"level", "atk", "def"}
        return {k: v for k, v in row.items() if v != "" and k not in hidden}

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
    pairs: dict[tuple[int, int], int] = {}
    fusion_rows = _rows(fusions)
    for r in fusion_rows:
        a, b, result = int(r["material_1_id"]), int(r["material_2_id"]), int(r["card_id"])
        if result and a and b and not r["material_3"]:
            pairs[(min(a, b), max(a, b))] = result
    return Ocg1999Tables(raw=raw, cards=rows, field_bonus=bonus, fusions=fusion_rows,
                         _by_name={str(r["name"]).casefold(): int(r["id"]) for r in rows},
                         _fusion_pairs=pairs)
