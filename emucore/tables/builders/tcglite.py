"""Simplified-TCG tables from ``reference/tcglite``: the normal monsters of the two 2002 starter
decks (Yugi 19, Kaiba 25), with the names spelled as the printed cards spell them.
"""

from __future__ import annotations

from pathlib import Path

from emucore.tables.builders import read_csv, write_csv, write_text

DECKS = (("yugi", "YugiDeck.csv"), ("kaiba", "KaibaDeck.csv"))

# The source files drop punctuation because the names double as image file names; these are
# the spellings printed on the 2002 starter-deck cards (Starter Deck: Yugi / Kaiba).
CARD_SPELLING = {
    "Blue Eyes White Dragon": "Blue-Eyes White Dragon",
    "D Human": "D. Human",
    "Master and Expert": "Master & Expert",
    "Ryu Kishin": "Ryu-Kishin",
    "Ryu Kishin Powered": "Ryu-Kishin Powered",
    "Gaia the Fierce Knight": "Gaia The Fierce Knight",
}

COLUMNS = ("id", "name", "deck", "level", "atk", "def", "source_name")

SOURCES = """\
# Simplified TCG (tcglite) tables — sources

Built by `tools/build_tables.py --system tcglite` from `shared/reference/tcglite/` (see its
PROVENANCE.md). Stats and names only: **no card text, no art**.

Files
- `cards.csv`: the 44 normal monsters of the two 2002 starter decks the simplified TCG ships
  (Yugi 19, Kaiba 25, one copy each, in file order): the name as printed on the card, deck,
  level, ATK, DEF, and the source file's own spelling (`source_name`). Source: yehray/yugioh at
  commit 5015a16 (`src/com/game/cards/YugiDeck.csv`, `KaibaDeck.csv`); every level/ATK/DEF was
  checked against iconmaster5326/YGOJSON (0 mismatches).

Licence: the upstream README says MIT but the repository ships no licence file, so only the
numbers are used, as game facts. Card names are Konami trademarks.

The source files are read BOM- and line-ending-agnostic (Yugi: UTF-8 BOM + CRLF; Kaiba:
CR-only). Spelling fixes (source -> card): Blue Eyes White Dragon -> Blue-Eyes White Dragon,
D Human -> D. Human, Master and Expert -> Master & Expert, Ryu Kishin -> Ryu-Kishin,
Ryu Kishin Powered -> Ryu-Kishin Powered, Gaia the Fierce Knight -> Gaia The Fierce Knight.
"""


def build(reference: Path, out: Path) -> dict[str, int]:
    """Write ``roms_tables/tcglite``; returns row counts per file."""
    rows = []
    for deck, file in DECKS:
        for r in read_csv(reference / "tcglite" / file):
            source = r["Monster"].strip()
            rows.append([len(rows) + 1, CARD_SPELLING.get(source, source), deck, r["Level"],
                         r["Attack"], r["Defense"], source])
    counts = {"cards": write_csv(out / "cards.csv", COLUMNS, rows)}
    write_text(out / "SOURCES.md", SOURCES)
    return counts
