"""roms_tables/dm1: counts, look-ups, the approximations' markers and refusal of bad tables."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
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
    assert (t.pools.sum(axis=1) == 2048).all()
    assert sorted(t.pools[10].nonzero()[0].tolist()) == [24, 58, 123]  # Tristan


# --- the facts added to reference/dm1 in 2026-12 (its README, last section) -----------------

def test_fusion_table_counts_equal_the_rom_but_eight_recipes():
    """reference/dm1/README.md: "With them: 2,151 table pairs, 52 results, 263 materials —
    results and materials now equal the ROM counts"; Elegant Egotist's effect is a magic
    card, not a row of the ROM table."""
    counts = tables.load("dm1").counts()
    assert (counts["fusions"], counts["fusion_results"], counts["fusion_materials"]) == \
        (2151, 52, 263)
    assert counts["fusion_by_magic"] == 1


def test_tables_check_command_reports_the_fusion_counts(capsys):
    """Issue 18 must-hold: `emucore tables check --json` counts 2,151 DM1 fusion pairs (plus
    Elegant Egotist's effect), 52 results and 263 materials (reference/dm1/README.md)."""
    from emucore import cli
    assert cli.main(["tables", "check", "--json"]) == 0
    dm1 = json.loads(capsys.readouterr().out)["dm1"]
    assert (dm1["fusions"], dm1["fusion_by_magic"], dm1["fusion_results"],
            dm1["fusion_materials"]) == (2151, 1, 52, 263)
    assert (dm1["drops"], dm1["rewards"], dm1["equips"], dm1["starter_pool"]) == \
        (568, 160, 1295, 100)


@pytest.mark.parametrize("a,b,result", [(26, 91, 92), (30, 108, 97), (94, 229, 97),
                                        (36, 108, 99), (97, 108, 99), (103, 281, 204)])
def test_the_added_recipes_are_in_the_fusion_table(a, b, result):
    """reference/dm1/fusion_pairs_added.csv rows, e.g. "26,Battle Ox,91,Mystic Horseman,92,
    Rabid Horseman" and "97,Dragon Zombie,108,Graveyard & Hand,99,Pumpking the King"."""
    t = tables.load("dm1")
    assert t.fusion_result(a, b) == t.fusion_result(b, a) == result


# drop_distinct_cards of reference/dm1/opponents.csv, by ROM duelist index 0..15
DROP_DISTINCT = (17, 36, 16, 32, 33, 100, 36, 31, 28, 46, 29, 40, 49, 24, 29, 22)
DECK_DISTINCT = (13, 39, 18, 29, 61, 101, 66, 38, 56, 33, 3, 28, 10, 19, 49, 27)


def test_every_drop_table_sums_to_2048_with_the_roms_distinct_count():
    """reference/dm1/drops.csv: "Every opponent sums to exactly 2048 and has exactly the ROM's
    drop_distinct_cards" (opponents.csv)."""
    t = tables.load("dm1")
    assert t.drops.sum(axis=1).tolist() == [2048] * 16
    assert tuple((t.drops > 0).sum(axis=1).tolist()) == DROP_DISTINCT
    assert t.drops[8, 36] == 170 and t.drops[8, 95] == 221  # Bandit Keith: 8.3 % and 10.79 %
    assert all(r["approximate"] == 0 for r in t.raw["drops.csv"].rows())


def test_every_deck_pool_has_the_roms_distinct_count():
    """reference/dm1/opponents.csv: deck_distinct_cards per opponent."""
    t = tables.load("dm1")
    assert tuple((t.pools > 0).sum(axis=1).tolist()) == DECK_DISTINCT


def test_rewards_at_every_tenth_win_with_the_correction():
    """reference/dm1/victory_rewards.csv and its README note: "Simon's 90-win reward is #22
    Summoned Skull; Exodia's head #21 is Yami Yugi's 100-win reward"; Bandit Keith's first
    row "Bandit Keith,10,325,Machine Conversion"."""
    t = tables.load("dm1")
    assert t.rewards.shape == (16, 10) and (t.rewards > 0).all()
    assert t.rewards[13, 8] == 22 and t.rewards[15, 9] == 21 and t.rewards[8, 0] == 325
    assert len(set(t.rewards.ravel().tolist())) == 152  # "The 152 distinct cards"


def test_equip_lists_from_the_reference():
    """reference/dm1/equips_inferred_from_fm.csv: 1,295 entries; "Legendary Sword has 50
    entries starting 12, 15, 26, 27, 29, 33, 38". Issue 15 item 9: Horn of Light (non-dark
    horned monsters) and Horn of the Unicorn (dark ones) have distinct lists (22 and 40)."""
    t = tables.load("dm1")
    assert int(t.equip.sum()) == 1295 and len(t.raw["equips.csv"]) == 1295
    sword = np.flatnonzero(t.equip[301]).tolist()
    assert len(sword) == 50 and sword[:7] == [12, 15, 26, 27, 29, 33, 38]
    light, unicorn = t.equip[313], t.equip[314]
    assert (int(light.sum()), int(unicorn.sum())) == (22, 40) and not (light & unicorn).any()
    assert (t.raw["equips.csv"]["approximate"] == 0).all()


def test_starter_pool_and_magic():
    """reference/dm1/starter_pool.csv: 100 monsters, "average ATK 737, max 1200"; README: "The
    seven magic cards of a new deck: Raigeki, Sparks x2, Hinotama, Mooyan Curry, Red
    Medicine, Dark-piercing Light"."""
    t = tables.load("dm1")
    atk = t.stat[0, t.starter_pool, 0]
    assert len(set(t.starter_pool)) == 100 and int(atk.max()) == 1200
    assert round(float(atk.mean())) == 737
    assert sorted(t.starter_magic) == [337, 338, 339, 343, 343, 344, 350]


def test_yami_yugi_simon_and_pegasus_pools():
    """reference/dm1/deck_yami_yugi_estimate.csv (27 cards, "15,Flame Swordsman,206.6"),
    deck_partial_lists.csv (Simon 18 of 19, all Spellcasters; Pegasus's first 12)."""
    t = tables.load("dm1")
    yami = t.pools[15]
    assert int((yami > 0).sum()) == 27 and yami[15] == 207 and yami[48] == yami[217] == 2
    simon = np.flatnonzero(t.pools[13]).tolist()
    listed = [2, 34, 35, 42, 44, 106, 114, 115, 128, 142, 190, 213, 216, 220, 253, 259, 268,
              284]
    assert set(listed) < set(simon) and len(simon) == 19
    assert all(t.type_id[c] == 1 for c in simon)  # Spellcaster
    pegasus = set(np.flatnonzero(t.pools[14]).tolist())
    assert {12, 14, 42, 44, 61, 64, 66, 78, 110, 118, 119, 120} < pegasus
    status = {r["id"]: r["pool"] for r in t.opponents}
    assert status[15] == status[10] == "estimated" and status[13] == "approximate"


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
    ("drops.csv", 2, "weight", "1", "sums to"),
    ("rewards.csv", 2, "wins", "15", "multiple of 10"),
    ("starter_pool.csv", 2, "card_id", "301", "is not a monster"),
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
