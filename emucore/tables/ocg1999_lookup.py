"""1999 Official Rules tables' schemas and constants, and what a one-card look-up reads of
them, without numpy.

:mod:`emucore.tables.ocg1999` reads and cross-checks every table with numpy; ``emucore card
ocg1999`` and ``emucore fusion ocg1999`` answer from cards.csv and fusions.csv alone
(:func:`lookup`, :class:`emucore.tables.catalogue.CardLookup`).
"""

from __future__ import annotations

from pathlib import Path

from emucore.tables.catalogue import CardLookup
from emucore.tables.csvfile import Column, Schema, TableError, read_records

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

SCHEMA = {s.file: s for s in SCHEMAS}


def card_info(row: dict[str, object]) -> dict[str, object]:
    """What ``emucore card ocg1999 ID`` shows of the cards.csv row ``row``: its fields, the
    empty ones, a zero amount and a non-monster's level, ATK and DEF left out."""
    hidden = {"amount"} if row["amount"] == 0 else set()
    if row["card_type"] != "monster":
        hidden |= {"level", "atk", "def"}
    return {k: v for k, v in row.items() if v != "" and k not in hidden}


def fusion_pairs(rows: list[dict[str, object]]) -> dict[tuple[int, int], int]:
    """(low id, high id) -> the Fusion Monster, for the fusions.csv rows whose result and two
    materials are all among the 90 cards (a three-material fusion is left out)."""
    pairs: dict[tuple[int, int], int] = {}
    for r in rows:
        a, b, result = int(r["material_1_id"]), int(r["material_2_id"]), int(r["card_id"])
        if result and a and b and not r["material_3"]:
            pairs[(min(a, b), max(a, b))] = result
    return pairs


def lookup(folder: Path) -> CardLookup:
    """The ocg1999 cards of ``folder`` for ``card`` and ``fusion`` (cards.csv; fusions.csv
    when a fusion is asked), each file checked as the numpy reader checks it."""
    cards = read_records(folder, SCHEMA["cards.csv"])
    if [r["id"] for r in cards] != list(range(1, CARD_COUNT + 1)):
        raise TableError(folder / "cards.csv", f"ids must be 1..{CARD_COUNT} in order")

    def pairs() -> dict[tuple[int, int], int]:
        low_high = fusion_pairs(read_records(folder, SCHEMA["fusions.csv"]))
        return {**low_high, **{(b, a): r for (a, b), r in low_high.items()}}

    return CardLookup(CARD_COUNT, {str(r["name"]).casefold(): int(r["id"]) for r in cards},
                      lambda ident: card_info(cards[ident - 1]), pairs)

