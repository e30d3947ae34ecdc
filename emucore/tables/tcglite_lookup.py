"""Simplified-TCG tables' schema and constants, and what a one-card look-up reads of them,
without numpy.

:mod:`emucore.tables.tcglite` reads and checks the table with numpy for the engine;
``emucore card tcglite`` answers from cards.csv alone (:func:`lookup`,
:class:`emucore.tables.catalogue.CardLookup`). There are no fusions in this rule system.
"""

from __future__ import annotations

from pathlib import Path

from emucore.tables.catalogue import CardLookup
from emucore.tables.csvfile import Column, Schema, TableError, read_records

CARD_COUNT = 44
DECK_SIZES = {"yugi": 19, "kaiba": 25}

SCHEMAS = (
    Schema("cards.csv", (
        Column("id", lo=1, hi=CARD_COUNT, unique=True), Column("name", "str", unique=True),
        Column("deck", "choice", choices=tuple(DECK_SIZES)), Column("level", lo=1, hi=12),
        Column("atk", lo=0, hi=9999, multiple_of=50), Column("def", lo=0, hi=9999, multiple_of=50),
        Column("source_name", "str", unique=True),
    ), rows=CARD_COUNT),
)


def card_info(row: dict[str, object]) -> dict[str, object]:
    """What ``emucore card tcglite ID`` shows of the cards.csv row ``row``."""
    return {"id": row["id"], "name": row["name"], "kind": "monster", "deck": row["deck"],
            "level": row["level"], "atk": row["atk"], "defense": row["def"]}


def names_index(rows: list[dict[str, object]]) -> dict[str, int]:
    """Casefolded name -> id, in the printed spelling and in the source files' spelling (the
    printed one wins where the two meet)."""
    by_name = {str(r["source_name"]).casefold(): int(r["id"]) for r in rows}
    by_name.update({str(r["name"]).casefold(): int(r["id"]) for r in rows})
    return by_name


def lookup(folder: Path) -> CardLookup:
    """The tcglite cards of ``folder`` for ``card`` (cards.csv, checked as the numpy reader
    checks it); ``fusion`` finds none."""
    rows = read_records(folder, SCHEMAS[0])
    if [r["id"] for r in rows] != list(range(1, CARD_COUNT + 1)):
        raise TableError(folder / "cards.csv", f"ids must be 1..{CARD_COUNT} in order")
    return CardLookup(CARD_COUNT, names_index(rows), lambda ident: card_info(rows[ident - 1]),
                      dict)
