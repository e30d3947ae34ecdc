"""Lean start: a look-up process imports only what it uses (no numpy for ``rng`` and
``fm drop``), and the lean readers and rolls answer what the numpy ones answer.

Source: the issue's measured facts (``python -c "import numpy"`` alone costs about 100 ms
more than ``python -c pass``); the numpy table reader (emucore.tables.schema/fm) and the
vectorised roll (``rank.drops_at``, itself tested against ``Duel_SelectCardDrop``'s scalar
roll) are the references. Imports are checked, never times.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from emucore import tables
from emucore.fm import deck, lookup_cli, rank
from emucore.hw import psyq_lcg, psyq_rand
from emucore.tables import fm_lookup
from emucore.tables.fm import POOLS

REPO = Path(__file__).resolve().parents[2]
# run a command in a fresh interpreter, then print which heavy modules it imported
PROBE = ("import sys, json; from emucore.cli import main; code = main(sys.argv[1:]); "
         "print(json.dumps({'code': code, 'heavy': sorted(m for m in sys.modules if m in "
         "('numpy', 'emucore.fm.engine', 'emucore.fm.state', 'emucore.planning', "
         "'tempfile'))}), file=sys.stderr)")


def _imports(*argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, timeout=120, cwd=REPO)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr
    return report["heavy"]


@pytest.mark.parametrize("argv", [
    ["rng", "at", "5"], ["rng", "index", "0x1474D436", "--json"], ["rng", "--count", "3"],
    ["fm", "drop", "--duelist", "1", "--pool", "sa_pow", "--state", "0x55555555"],
    ["fm", "drop", "--duelist", "1", "--pool", "sa_pow", "--states", "STATES", "--json"],
    ["fm", "drop", "--duelist", "7", "--pool", "bcd", "--states", "STATES"],
], ids=" ".join)
def test_a_look_up_imports_no_numpy(argv: list[str], tmp_path: Path) -> None:
    states = tmp_path / "states.txt"
    states.write_text("0x55555555\n# a comment\n12345\n")
    assert _imports(*(str(states) if a == "STATES" else a for a in argv)) == []


def test_sort_orders_written_for_the_parser_are_the_deals() -> None:
    assert lookup_cli.SORT_ORDERS == deck.SORT_ORDERS


def test_lean_drop_tables_are_the_numpy_tables() -> None:
    fm = tables.load("fm")
    lean = fm_lookup.drop_tables(tables.folder("fm"))
    assert lean.names == fm.names
    assert all(lean.weights[d, p] == fm.pools[d, POOLS.index(p)].tolist()
               for d in range(1, 40) for p in POOLS)


def test_plain_int_drops_are_the_vectorised_drops() -> None:
    """``drops_from`` through ``drop_table`` (plain ints) and ``drops_at`` (numpy) on random
    states, every drop pool of every duelist."""
    fm = tables.load("fm")
    rng = random.Random(7)
    states = [rng.getrandbits(32) for _ in range(400)] + [0, 0xFFFFFFFF]
    array = np.array(states, dtype=np.uint32)
    for duelist in range(1, 40):
        for pool in POOLS[1:]:
            weights = fm.pools[duelist, POOLS.index(pool)]
            table = rank.drop_table(weights)
            assert rank.drops_from(states, table) == rank.drops_at(array, weights).tolist()


def test_plain_int_jumps_are_the_numpy_jumps() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        state = rng.getrandbits(32)
        n = rng.choice([rng.getrandbits(32), rng.randint(-5000, 5000), rng.getrandbits(40),
                        0, 0xFFFFFFFF])
        assert psyq_lcg.jump_int(state, n) == int(psyq_rand.jump(state, n))
        assert psyq_lcg.next_state(state) == int(psyq_rand.step(state))


@pytest.mark.parametrize("name, row, column, value", [
    ("pools.csv", 5, 3, "2049"), ("pools.csv", 9, 1, "nosuch"), ("pools.csv", 2, 0, "0x"),
    ("pools.csv", 3, 3, "74"), ("pools.csv", 4, 2, ""), ("cards.csv", 7, 0, "3"),
    ("cards.csv", 0, 1, "ids"), ("pools.csv", 0, 0, "duelist"),
])
def test_a_broken_table_is_the_same_error_for_both_readers(tmp_path: Path, name: str,
                                                           row: int, column: int,
                                                           value: str) -> None:
    """A cell of cards.csv or pools.csv changed: the lean reader (fm drop) names the same
    file, line, column and problem as the numpy reader (tables check)."""
    root = tmp_path / "t"
    shutil.copytree(REPO / "roms_tables", root)
    path = root / "fm" / name
    lines = path.read_text().split("\n")
    cells = lines[row].split(",")
    cells[column] = value
    lines[row] = ",".join(cells)
    path.write_text("\n".join(lines))
    with pytest.raises(tables.TableError) as full:
        tables.fm.load(root / "fm")
    with pytest.raises(tables.TableError) as lean:
        fm_lookup.drop_tables.__wrapped__(root / "fm")
    assert str(lean.value) == str(full.value)
