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

from emucore import SYSTEMS, tables
from emucore.fm import rank
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
    *(["card", system, "1"] for system in SYSTEMS), ["card", "fm", "KURIBOH", "--json"],
    *(["fusion", system, "1", "2"] for system in SYSTEMS),
    ["fusion", "fm", "Mystical Elf", "Dark Magician", "--json"],
], ids=" ".join)
def test_a_look_up_imports_no_numpy(argv: list[str], tmp_path: Path) -> None:
    states = tmp_path / "states.txt"
    states.write_text("0x55555555\n# a comment\n12345\n")
    assert _imports(*(str(states) if a == "STATES" else a for a in argv)) == []


def test_lean_drop_pools_are_the_numpy_tables() -> None:
    """Every pool of every duelist, as a look-up reads it, is the numpy reader's."""
    fm = tables.load("fm")
    folder = tables.folder("fm")
    for d in range(1, 40):
        for p in POOLS:
            lean = fm_lookup.drop_pool.__wrapped__(folder, d, p)
            assert lean.names == fm.names
            assert lean.weights == fm.pools[d, POOLS.index(p)].tolist()


@pytest.mark.parametrize("rewrite", [
    lambda text: text.replace("\n", "\r\n"),              # CRLF: the csv module reads it
    lambda text: text.replace("\n7,bcd,", "\n07,bcd,"),     # a duelist id with a 0 before it
    lambda text: text.replace(",bcd,", ',"bcd",'),          # quoted pool names
], ids=["crlf", "zero-padded-id", "quoted"])
def test_a_pool_file_not_plain_is_read_whole_to_the_same_weights(tmp_path: Path,
                                                                  rewrite) -> None:
    """A pools.csv the numpy reader takes but the plain cut does not (it reads the whole file
    then): the same weights for the pool, as the numpy reader of the same file gives."""
    root = tmp_path / "t"
    shutil.copytree(REPO / "roms_tables", root)
    path = root / "fm" / "pools.csv"
    path.write_bytes(rewrite(path.read_text()).encode())
    expected = tables.fm.load(root / "fm").pools[7, POOLS.index("bcd")].tolist()
    assert fm_lookup.drop_pool.__wrapped__(root / "fm", 7, "bcd").weights == expected


@pytest.mark.parametrize("system", SYSTEMS)
def test_card_look_ups_answer_as_the_numpy_tables(system: str) -> None:
    """Source: each system's numpy tables (emucore.tables.<system>, the reader every engine
    uses): every card's info, every card found by its name and its id, every listed fusion
    both ways and 3,000 random pairs, the same from the numpy-free look-up."""
    full, lean = tables.load(system), tables.lookup(system)
    ids = range(1, full.card_count + 1)
    assert lean.card_count == full.card_count
    for ident in ids:
        info = full.card_info(ident)
        assert lean.card_info(ident) == info
        assert lean.card_id(str(info["name"]).upper()) == full.card_id(str(info["name"]).upper())
        assert lean.card_id(f"#{ident}") == ident
    assert lean._by_name == full._by_name
    rng = random.Random(system)
    pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range(3000)]
    listed = list(lean._fusions)
    assert listed or system == "tcglite"
    for a, b in pairs + listed:
        assert lean.fusion_result(a, b) == full.fusion_result(a, b), (a, b)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("row, value", [(3, "x"), (5, ""), (1, "99999"), (0, "identity")])
def test_a_broken_card_file_is_the_same_error_for_both_readers(tmp_path: Path, system: str,
                                                               row: int, value: str) -> None:
    """Source: each system's numpy reader (``tables check``): a cards.csv whose first cell
    of line ``row + 1`` is changed is refused by the look-up with the same one line."""
    import importlib

    root = tmp_path / "t"
    shutil.copytree(REPO / "roms_tables", root)
    path = root / system / "cards.csv"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[row] = value + lines[row][lines[row].index(","):]
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(tables.TableError) as full:
        importlib.import_module(f"emucore.tables.{system}").load(root / system)
    with pytest.raises(tables.TableError) as lean:
        importlib.import_module(f"emucore.tables.{system}_lookup").lookup(root / system)
    assert str(lean.value) == str(full.value)


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
    """A cell of cards.csv, the pools.csv header or a row of the pool looked up (1/deck:
    lines 2-10) changed: the look-up (fm drop) names the same file, line, column and
    problem as the numpy reader (tables check)."""
    root = _broken(tmp_path, name, row, column, value)
    with pytest.raises(tables.TableError) as full:
        tables.fm.load(root / "fm")
    with pytest.raises(tables.TableError) as lean:
        fm_lookup.drop_pool.__wrapped__(root / "fm", 1, "deck")
    assert str(lean.value) == str(full.value)


def test_a_look_up_checks_its_own_pool_and_tables_check_every_pool(tmp_path: Path) -> None:
    """A row of another pool (duelist 2's sa_pow) made to sum wrong: a look-up of duelist
    1's sa_pow answers from the unchanged rows it reads; ``tables check`` (the numpy
    reader) refuses the file at that row."""
    lines = (REPO / "roms_tables" / "fm" / "pools.csv").read_text().split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("2,sa_pow,"))
    root = _broken(tmp_path, "pools.csv", row, 3, "2048")
    with pytest.raises(tables.TableError, match="pool 2/sa_pow sums to"):
        tables.fm.load(root / "fm")
    pristine = fm_lookup.drop_pool.__wrapped__(tables.folder("fm"), 1, "sa_pow")
    assert fm_lookup.drop_pool.__wrapped__(root / "fm", 1, "sa_pow") == pristine


def _broken(tmp_path: Path, name: str, row: int, column: int, value: str) -> Path:
    """A copy of the tables with cell ``column`` of line ``row + 1`` of fm/``name`` set to
    ``value``; returns its root."""
    root = tmp_path / "t"
    shutil.copytree(REPO / "roms_tables", root)
    path = root / "fm" / name
    lines = path.read_text().split("\n")
    cells = lines[row].split(",")
    cells[column] = value
    lines[row] = ",".join(cells)
    path.write_text("\n".join(lines))
    return root


# Modules a look-up used to import for nothing: dataclasses (through inspect, ast, dis and
# tokenize) for a few record classes, hashlib for the compiled-module finder, typing for
# annotations and records, shutil (and bz2, lzma) for argparse's terminal width, json for
# an answer not asked as JSON.
UNUSED = ("dataclasses", "inspect", "hashlib", "typing", "shutil", "json")
UNUSED_PROBE = ("import sys; from emucore.cli import main; code = main(sys.argv[1:]); "
                f"unused = sorted(m for m in {UNUSED!r} if m in sys.modules); import json; "
                "print(json.dumps({'code': code, 'unused': unused}), file=sys.stderr)")


@pytest.mark.parametrize("argv, uses", [
    (["rng", "at", "5"], ()),
    (["fm", "drop", "--duelist", "1", "--pool", "sa_pow", "--states", "STATES"], ()),
    (["fm", "drop", "--duelist", "1", "--pool", "sa_pow", "--states", "STATES", "--json"],
     ("json",)),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_look_up_imports_only_what_it_uses(argv: list[str], uses: tuple[str, ...],
                                             tmp_path: Path) -> None:
    """Source: the issue's lean start (a look-up imports only what it uses); checked by
    ``sys.modules`` in a fresh process, never by time."""
    states = tmp_path / "states.txt"
    states.write_text("0x55555555\n12345\n")
    done = subprocess.run([sys.executable, "-c", UNUSED_PROBE,
                           *(str(states) if a == "STATES" else a for a in argv)],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report == {"code": 0, "unused": list(uses)}, done.stderr


def _states_file(rng: random.Random, kind: str) -> str:
    """A states file: plain decimal lines only, 0x-hex lines only (upper and lower case, 0X,
    leading zeros, now and then too long, not hex or with a second x), or any mix of what a
    states file may hold (hex, comments, blanks, spaces, leading zeros, CRLF, values out of
    range, junk)."""
    def line() -> str:
        value = rng.choice([rng.getrandbits(32), 0, 0xFFFFFFFF, rng.getrandbits(34)])
        if kind == "plain":
            return str(value) if value <= 0xFFFFFFFF else "7"
        if kind == "hex":
            return rng.choice(["0x", "0X"]) + rng.choice(
                [f"{value:X}", f"{value:x}", f"{value:08X}", f"{value:09x}", "", "12g", "1x2", "x1"]
                if rng.random() < 0.1 else [f"{value & 0xFFFFFFFF:X}", f"{value & 0xFF:x}"])
        return rng.choice([str(value), f"0x{value:X}", f" {value} # c", "", "# only",
                           f"{value:012d}", "12a", "-1", "\u0663", "1_0", "\t5"])
    end = rng.choice(["\n", "\r\n", ""]) if kind == "mixed" else "\n"
    return end.join(line() for _ in range(rng.randint(1, 30))) + rng.choice([end, ""])


def test_plain_state_files_read_as_line_by_line(tmp_path: Path, monkeypatch) -> None:
    """Source: the line-by-line reader of ``--states`` (the only one before the one-pass read
    of plain files): on random files, decimal, hex or mixed, the same states and line numbers,
    or the same one-line error."""
    from emucore import cliutil

    def read(path: Path) -> object:
        try:
            return cliutil.read_states(str(path))
        except Exception as exc:  # noqa: BLE001 - the error is the answer compared
            return f"{type(exc).__name__}: {exc}"

    rng = random.Random(11)
    path = tmp_path / "states.txt"
    for n in range(600):
        path.write_bytes(_states_file(rng, ("plain", "hex", "mixed")[n % 3]).encode())
        fast = read(path)
        with monkeypatch.context() as patch:
            patch.setattr(cliutil, "_plain_states", lambda lines: None)
            assert read(path) == fast, path.read_bytes()


def test_split_plain_tables_are_the_csv_modules(tmp_path: Path, monkeypatch) -> None:
    """Source: Python's csv module (the only table reader before the ``str.split`` paths):
    every FM table's columns, and random CSV texts, read the same, or fail the same way."""
    import csv
    import io

    from emucore.tables import csvfile

    rng = random.Random(5)
    for _ in range(3000):
        text = "".join(rng.choice('a1,\n "x') for _ in range(rng.randint(0, 14)))
        split = csvfile._split_plain(text)
        if split is not None:
            assert [split[0], *split[1]] == list(csv.reader(io.StringIO(text, newline="")))
    folder = tables.folder("fm")
    for schema in fm_lookup.SCHEMAS:
        names = tuple(c.name for c in schema.columns)
        fast = csvfile.read_columns(folder, schema, names)
        with monkeypatch.context() as patch:
            patch.setattr(csvfile, "_plain_columns", lambda text, schema: None)
            patch.setattr(csvfile, "_split_plain", lambda text: None)
            assert csvfile.read_columns(folder, schema, names) == fast, schema.file


# sha256 of `emucore fm drop --states FILE [--json]` before the one-pass readers (main at
# fe7562d), FILE = the 2,000 states of random.Random(29).getrandbits(32), one a line.
DROPS_BEFORE = {
    (1, "sa_pow", False): "155999e031a6d3f58e4cfde33904a7bb2d02ca15ed73fc626007d898a4386ca5",
    (39, "sa_tec", False): "79c50e996429f8dc715fef57904e4881fab527c208d44f254cc22fd821e68c16",
    (1, "sa_pow", True): "8c08a747ba49082330062f0925c97e8171f9bf067255d55574c1c47fa0fac890",
    (39, "sa_tec", True): "9cacab2457c0640a2b0c35f8bad4de63e32a9c723344935d4017dc3b1446644f",
}


@pytest.mark.parametrize("duelist, pool, as_json", DROPS_BEFORE, ids=str)
def test_drops_from_a_states_file_are_the_bytes_of_before(tmp_path: Path, duelist: int,
                                                          pool: str, as_json: bool) -> None:
    """Source: the output of the code before the one-pass readers (:data:`DROPS_BEFORE`)."""
    import hashlib

    rng = random.Random(29)
    states = tmp_path / "states.txt"
    states.write_text("".join(f"{rng.getrandbits(32)}\n" for _ in range(2000)))
    done = subprocess.run([sys.executable, "-m", "emucore.cli", "fm", "drop", "--duelist",
                           str(duelist), "--pool", pool, "--states", str(states),
                           *(["--json"] if as_json else [])],
                          capture_output=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert hashlib.sha256(done.stdout).hexdigest() == DROPS_BEFORE[duelist, pool, as_json]


def test_rand_compares_and_shows_as_the_dataclass_did() -> None:
    """Source: the dataclass ``Rand`` was before (its generated ``__eq__``, ``__repr__``,
    unhashable as a mutable dataclass)."""
    assert psyq_lcg.Rand() == psyq_lcg.Rand(psyq_lcg.BOOT_STATE, 0)
    assert psyq_lcg.Rand(5, 1) != psyq_lcg.Rand(5, 2)
    assert repr(psyq_lcg.Rand(5, 2)) == "Rand(state=5, calls=2)"
    with pytest.raises(TypeError):
        hash(psyq_lcg.Rand())


def test_hex_state_lists_take_the_one_pass_read(tmp_path: Path) -> None:
    """Source: the states file the peers' drop timing uses (one 0x-hex state a line, as
    FM-Manip-Tool's users write them): read in one pass, not line by line."""
    from emucore import cliutil

    states = [random.Random(3).getrandbits(32) for _ in range(50)]
    path = tmp_path / "states.txt"
    path.write_text("".join(f"0x{s:08X}\n" for s in states))
    assert cliutil._plain_states(cliutil.input_lines(str(path))[1]) == (
        list(range(1, 51)), states)
