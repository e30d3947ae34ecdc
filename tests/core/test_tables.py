"""roms_tables: a rebuild equals the committed tables, and every kind of bad table is refused
with a message naming the file, the line and the column."""

from __future__ import annotations

import filecmp
import shutil
from pathlib import Path

import pytest

from emucore import SYSTEMS, tables
from emucore.tables import TableError
from emucore.tables.builders import BUILDERS
from emucore.tables.fm import load as load_fm

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "roms_tables"


@pytest.mark.parametrize("system", BUILDERS)
def test_rebuild_equals_committed_tables(system, reference_dir, tmp_path):
    import importlib

    builder = importlib.import_module(f"emucore.tables.builders.{system}")
    builder.build(reference_dir, tmp_path / system)
    compare = filecmp.dircmp(COMMITTED / system, tmp_path / system)
    assert compare.left_only == [] and compare.right_only == []
    _, mismatch, errors = filecmp.cmpfiles(COMMITTED / system, tmp_path / system,
                                           compare.common_files, shallow=False)
    assert mismatch == [] and errors == []


def test_every_system_loads_with_expected_counts():
    counts = tables.check_all()
    assert set(counts) == set(SYSTEMS)
    fm = counts["fm"]
    assert (fm["cards"], fm["fusions"], fm["equips"], fm["rituals"], fm["duelists"]) == \
        (722, 25146, 4041, 24, 39)


def test_fm_facts():
    t = tables.load("fm")
    assert t.equip[657].sum() == 621 and t.equip[301].sum() == 63  # Megamorph, Legendary Sword
    assert t.fusion[22, 31] == t.fusion[31, 22] == 72  # a live glitch fusion
    assert t.fusion_glitch.sum() == 30  # 15 pairs, stored both ways
    assert (t.pools.sum(axis=2)[1:] == 2048).all()
    assert t.rituals[665] == ((255, 296, 629), 362)
    assert t.names[1] == "Blue-eyes White Dragon" and (t.atk[1], t.def_[1]) == (3000, 2500)
    assert t.card_id("BLUE-EYES WHITE DRAGON") == 1
    assert t.duelist_row(39)["name"] == "Duel Master K"
    # fm-engine.md §6.2: Dian Keto heals 5000 (0x8009AF30: 50 x 100), Tremendous Fire burns
    # 1000 (0x8009AF38: 100 x 10), Crush Card removes ATK >= 1500 (pair {61, 150})
    assert (t.magic_class[342], t.magic_amount[342]) == (2, 5000)
    assert (t.magic_class[347], t.magic_amount[347]) == (3, 1000)
    assert (t.magic_class[661], t.removal_arg[661]) == (5, 150)
    assert (t.magic_class[669], t.magic_amount[669]) == (9, -1000)
    assert t.magic_class[1] == -1 and (t.magic_class[t.kind > 0] >= 0).all()


@pytest.fixture
def fm_copy(tmp_path) -> Path:
    folder = tmp_path / "fm"
    shutil.copytree(COMMITTED / "fm", folder)
    return folder


def _edit(path: Path, line: int, column: str, value: str) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    header = lines[0].split(",")
    cells = lines[line - 1].split(",")
    cells[header.index(column)] = value
    lines[line - 1] = ",".join(cells)
    path.write_text("\n".join(lines), encoding="utf-8")


@pytest.mark.parametrize(("file", "line", "column", "value", "message"), [
    ("cards.csv", 2, "atk", "3005", "cards.csv line 2, column atk: 3005 is not a multiple of 10"),
    ("cards.csv", 3, "def", "5120", "cards.csv line 3, column def: 5120 is above the maximum"),
    ("cards.csv", 4, "atk", "12x", "cards.csv line 4, column atk: '12x' is not an integer"),
    ("cards.csv", 5, "kind", "spell", "cards.csv line 5, column kind: 'spell' is not one of"),
    ("cards.csv", 6, "id", "2", "cards.csv line 6, column id: duplicate id 2 (first at line 3)"),
    ("fusions.csv", 10, "result", "999", "fusions.csv line 10, column result: 999 is above"),
    ("equips.csv", 2, "monster_id", "657", "equips.csv line 2, column monster_id: 657 is not a "
                                           "monster"),
    ("pools.csv", 2, "weight", "73", "pools.csv line 2, column weight: pool 1/deck sums to 2049"),
    ("rituals.csv", 2, "tribute_1", "", "rituals.csv line 2, column tribute_1: empty value"),
    ("cards.csv", 2, "type_id", "20", "cards.csv line 2, column kind: a monster's type_id"),
    ("magic.csv", 2, "class", "3", "magic.csv line 2, column class: equip cards have class 0"),
    ("magic.csv", 3, "id", "1", "magic.csv line 3, column id: 1 is not a non-monster card"),
])
def test_bad_table_is_refused_with_file_line_column(fm_copy, file, line, column, value,
                                                    message):
    _edit(fm_copy / file, line, column, value)
    with pytest.raises(TableError) as err:
        load_fm(fm_copy)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_bad_header_row_count_and_missing_file(fm_copy):
    path = fm_copy / "rituals.csv"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("ritual_id", "ritual", 1), encoding="utf-8")
    with pytest.raises(TableError, match="rituals.csv line 1: header"):
        load_fm(fm_copy)
    path.write_text("\n".join(text.split("\n")[:-2]) + "\n", encoding="utf-8")
    with pytest.raises(TableError, match="rituals.csv: 23 rows, expected 24"):
        load_fm(fm_copy)
    path.write_text(text + "1,2\n", encoding="utf-8")
    with pytest.raises(TableError, match="rituals.csv line 26: 2 fields, expected 5"):
        load_fm(fm_copy)
    path.unlink()
    with pytest.raises(TableError, match="rituals.csv: missing table file"):
        load_fm(fm_copy)
