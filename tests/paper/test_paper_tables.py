"""roms_tables/ocg1999 and roms_tables/tcglite: counts, facts, lookups and bad tables."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from emucore import tables
from emucore.tables import TableError
from emucore.tables.builders import ocg1999 as build_ocg
from emucore.tables.builders import tcglite as build_tcg
from emucore.tables.ocg1999 import load as load_ocg
from emucore.tables.tcglite import load as load_tcg

COMMITTED = Path(__file__).resolve().parents[2] / "roms_tables"


def test_ocg1999_counts_and_facts() -> None:
    t = tables.load("ocg1999")
    assert t.counts() == {"cards": 90, "field_bonus": 21, "fusions": 47}
    assert sum(1 for c in t.cards if c["set"] == "Vol.1") == 40
    info = t.card_info(t.card_id("book of secret arts"))
    assert (info["effect"], info["amount"], info["effect_type"]) == ("equip", 300,
                                                                      "spellcaster")
    assert "atk" not in info
    assert t.card_info(2)["atk"] == 2500
    assert t.field_bonus[t.card_id("Umi")] == {"fish": 200, "seaserpent": 200, "thunder": 200,
                                               "aqua": 200, "machine": -200, "pyro": -200}
    assert t.fusion_result(t.card_id("Petit Dragon"), t.card_id("Firegrass")) == t.card_id(
        "Darkfire Dragon")
    assert t.fusion_result(1, 2) is None
    assert len(t.fusion_recipes()) == 5  # the Starter Box fusions; the rest need later sets
    gaia = next(f for f in t.fusions if f["name"] == "Gaia the Dragon Champion")
    assert gaia["material_1_id"] == t.card_id("Gaia The Fierce Knight")
    assert gaia["material_2_id"] == 0  # Curse of Dragon is not among the 90 cards
    aqua = next(f for f in t.fusions if f["name"] == "Aqua Dragon")
    assert aqua["material_3"] == "Zone Eater"


def test_tcglite_counts_and_printed_spellings() -> None:
    t = tables.load("tcglite")
    assert t.counts() == {"cards": 44}
    assert [len(t.decks["yugi"]), len(t.decks["kaiba"])] == [19, 25]
    names = {str(c["name"]) for c in t.cards}
    assert {"Blue-Eyes White Dragon", "D. Human", "Master & Expert", "Ryu-Kishin",
            "Ryu-Kishin Powered", "Gaia The Fierce Knight"} <= names
    assert t.card_id("Blue Eyes White Dragon") == t.card_id("blue-eyes white dragon")
    assert t.card_info(t.card_id("Dragon Zombie"))["defense"] == 0
    assert t.fusion_result(1, 2) is None


@pytest.mark.parametrize("loader", [tables.load("ocg1999"), tables.load("tcglite")],
                         ids=["ocg1999", "tcglite"])
def test_unknown_cards_are_a_one_line_key_error(loader) -> None:
    with pytest.raises(KeyError, match="unknown card"):
        loader.card_id("Exodia the Forbidden One")
    with pytest.raises(KeyError, match="outside"):
        loader.card_id("999")


def test_builders_read_bom_and_cr_only_files(reference_dir: Path, tmp_path: Path) -> None:
    counts = build_tcg.build(reference_dir, tmp_path / "tcglite")
    assert counts == {"cards": 44}
    assert build_ocg.build(reference_dir, tmp_path / "ocg1999") == {
        "cards": 90, "field_bonus": 21, "fusions": 47}
    text = (tmp_path / "tcglite" / "cards.csv").read_text(encoding="utf-8")
    assert "\r" not in text and "\ufeff" not in text
    assert "card text" in (tmp_path / "ocg1999" / "SOURCES.md").read_text(encoding="utf-8")


def _copy(tmp_path: Path, system: str) -> Path:
    folder = tmp_path / system
    shutil.copytree(COMMITTED / system, folder)
    return folder


def _edit(path: Path, line: int, column: int, value: str) -> None:
    rows = path.read_text(encoding="utf-8").splitlines()
    cells = rows[line - 1].split(",")
    cells[column] = value
    rows[line - 1] = ",".join(cells)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


@pytest.mark.parametrize(("line", "column", "value", "message"), [
    (3, 10, "2510", "not a multiple of 50"),  # Dark Magician's ATK
    (3, 14, "fly", "'fly' is not one of"),  # effect kind
    (32, 9, "4", r"monsters \(and only monsters\) have a level"),  # Legendary Sword
])
def test_bad_ocg1999_card_rows_are_named(tmp_path: Path, line: int, column: int, value: str,
                                         message: str) -> None:
    folder = _copy(tmp_path, "ocg1999")
    _edit(folder / "cards.csv", line, column, value)
    with pytest.raises(TableError, match=message) as info:
        load_ocg(folder)
    assert f"line {line}" in str(info.value) and "cards.csv" in str(info.value)


def test_a_fusion_result_that_is_not_a_fusion_card_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "ocg1999")
    _edit(folder / "fusions.csv", 2, 10, "2")
    with pytest.raises(TableError, match="line 2, column card_id: 2 is not a Fusion Monster"):
        load_ocg(folder)


def test_tcglite_deck_sizes_are_checked(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "tcglite")
    _edit(folder / "cards.csv", 2, 2, "kaiba")
    with pytest.raises(TableError, match="deck yugi has 18 cards, not 19"):
        load_tcg(folder)
