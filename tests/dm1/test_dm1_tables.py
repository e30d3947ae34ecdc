"""roms_tables/dm1: counts, look-ups, the approximations' markers and refusal of bad tables."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from emucore import tables
from emucore.tables import TableError
from emucore.tables.dm1 import load

DM1 = Path(__file__).resolve().parents[2] / "roms_tables" / "dm1"


def test_counts_and_kinds():
    t = tables.load("dm1")
    counts = t.counts()
    assert counts["cards"] == 365 and counts["magic"] == 50 and counts["opponents"] == 16
    assert int((t.kind == 0).sum()) == 315 and int((t.kind == 1).sum()) == 50
    assert t.kind[301:351].tolist() == [1] * 50


def test_lookups():
    t = tables.load("dm1")
    assert t.card_id("b-eye white dragon") == 1 and t.card_id("#67") == 67
    assert t.card_info(1)["atk"] == 3000 and t.card_info("Sparks")["amount"] == 200
    assert t.fusion_result(2, 100) == t.fusion_result(100, 2) == 41
    assert t.fusion_result(1, 1) is None
    for bad in ("0", "366", "No Such Card"):
        with pytest.raises(KeyError):
            t.card_id(bad)


def test_stored_field_tables_and_markers():
    t = tables.load("dm1")
    assert t.stat[1, 67].tolist() == [4550, 3900]  # Forest boosts Insects x1.3
    assert t.stat[1, 278].tolist() == [300, 200]  # the named exception keeps its base
    assert t.stat[0, 67].tolist() == [3500, 3000]
    assert all(r["approximate"] == 1 for r in t.opponents)
    assert (t.pools.sum(axis=1) == 2048).all()
    assert sorted(t.pools[10].nonzero()[0].tolist()) == [24, 58, 123]  # Tristan


@pytest.fixture
def dm1_copy(tmp_path):
    shutil.copytree(DM1, tmp_path / "dm1")
    return tmp_path / "dm1"


def _edit(path: Path, line: int, column: str, value: str) -> None:
    rows = path.read_text().splitlines()
    header = rows[0].split(",")
    cells = rows[line - 1].split(",")
    cells[header.index(column)] = value
    rows[line - 1] = ",".join(cells)
    path.write_text("\n".join(rows) + "\n")


@pytest.mark.parametrize("file,line,column,value,message", [
    ("opponent_pools.csv", 2, "weight", "159", "sums to 2049"),
    ("fusions.csv", 2, "result", "301", "is not a monster"),
    ("cards.csv", 3, "atk", "805", "not a multiple of 10"),
    ("cards.csv", 3, "kind", "trap", "is not one of"),
    ("equips.csv", 2, "equip_id", "336", "is not an equip card"),
    ("magic.csv", 2, "effect", "explode", "is not one of"),
])
def test_bad_table_names_file_line_column(dm1_copy, file, line, column, value, message):
    _edit(dm1_copy / file, line, column, value)
    with pytest.raises(TableError) as err:
        load(dm1_copy)
    text = str(err.value)
    assert file in text and message in text and "\n" not in text
    if "sums to" not in message:
        assert f"line {line}" in text and column in text
