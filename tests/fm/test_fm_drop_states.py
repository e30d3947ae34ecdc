"""``emucore fm drop --states FILE``: the drop roll from many states in one process.

Sources of the expected cards: the one-state command (``fm drop --state S``, the engine's
``rank.drop``), and an independent plain-Python reading of the decompiled routine: spec
fm-engine.md §1.1 (Psy-Q ``rand``: ``state * 1103515245 + 12345``, output bits 16..30) and §9.4
``Duel_SelectCardDrop`` (krystalgamer/memories-decomp ``src/game/duel_rewards.c``:
``t = (rand() & 0x7FF) + 1``, the first id whose running weight sum reaches ``t``) over the
weights of roms_tables/fm/pools.csv (sg4e/YGOFM-gamedata, checked against FM-Manip-Tool and
lundylizard/fm-drop-extractor), read here with the csv module, not emucore's loader.
"""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest

from emucore.cli import main

POOLS_CSV = Path(__file__).resolve().parents[2] / "roms_tables" / "fm" / "pools.csv"


def _weights() -> dict[tuple[int, str], list[tuple[int, int]]]:
    """(duelist, pool) -> [(card, weight)] in card-id order, straight from the CSV."""
    out: dict[tuple[int, str], list[tuple[int, int]]] = {}
    with POOLS_CSV.open(newline="") as f:
        for row in csv.DictReader(f):
            out.setdefault((int(row["duelist_id"]), row["pool"]), []).append(
                (int(row["card_id"]), int(row["weight"])))
    return {key: sorted(rows) for key, rows in out.items()}


def spec_drop(state: int, weights: list[tuple[int, int]]) -> tuple[int, int]:
    """§1.1 + §9.4 by hand: the card and the state after the one call."""
    state = (state * 1103515245 + 12345) & 0xFFFFFFFF
    threshold = (((state >> 16) & 0x7FFF) & 0x7FF) + 1
    total = 0
    for card, weight in weights:
        total += weight
        if total >= threshold:
            return card, state
    return 0, state


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def many(capsys, duelist: int, pool: str, path: str, *extra: str) -> list[dict]:
    code, out, err = run(capsys, "fm", "drop", "--duelist", str(duelist), "--pool", pool,
                         "--states", path, "--json", *extra)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_many_states_answer_what_one_state_answers(capsys, tmp_path):
    states = [0x55555555, 0, 0xFFFFFFFF, 1234, 0x1474D436, 0x80000000]
    path = tmp_path / "states.txt"
    path.write_text("# drop states\n" + "\n".join(
        f"0x{s:08x}  # hex" if i % 2 else str(s) for i, s in enumerate(states)) + "\n\n")
    rows = many(capsys, 7, "bcd", str(path))
    assert [r["line"] for r in rows] == list(range(2, 2 + len(states)))
    for row, state in zip(rows, states, strict=True):
        code, out, _ = run(capsys, "fm", "drop", "--duelist", "7", "--pool", "bcd",
                           "--state", str(state), "--json")
        assert code == 0
        assert row == {"line": row["line"], "state": f"0x{state:08X}", **json.loads(out)}
    code, out, _ = run(capsys, "fm", "drop", "--duelist", "7", "--pool", "bcd", "--states",
                       str(path))
    assert out.splitlines() == [f"{r['state']} {r['card']} {r['name']}" for r in rows]


def test_many_states_follow_the_decompiled_roll(capsys, tmp_path):
    weights = _weights()
    rng = random.Random(16)
    states = [rng.getrandbits(32) for _ in range(2000)]
    path = tmp_path / "states.txt"
    path.write_text("".join(f"{s}\n" for s in states))
    for duelist in (1, 26, 39):
        for pool in ("sa_pow", "bcd", "sa_tec"):
            rows = many(capsys, duelist, pool, str(path))
            expected = [spec_drop(s, weights[duelist, pool]) for s in states]
            assert [(r["card"], int(r["state_after"], 16)) for r in rows] == expected


def test_states_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("0x55555555\n5\n"))
    rows = many(capsys, 1, "sa_pow", "-")
    assert [r["state"] for r in rows] == ["0x55555555", "0x00000005"]


@pytest.mark.parametrize(("text", "message"), [
    ("1\n0xZZ\n", "line 2: malformed state '0xZZ'"),
    ("# x\n\n0x100000000\n", "line 3: state 0x100000000 outside 0..4294967295"),
    ("-1\n", "line 1: state -1 outside"),
])
def test_a_bad_state_line_is_one_line_naming_the_file_and_line(capsys, tmp_path, text,
                                                               message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    code, out, err = run(capsys, "fm", "drop", "--duelist", "1", "--pool", "bcd", "--states",
                         str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"{path}: {message}" in err


def test_states_is_one_of_the_state_sources(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["fm", "drop", "--duelist", "1", "--pool", "bcd", "--states", "-", "--index",
              "3"])
    assert exc.value.code == 2
    code, _, err = run(capsys, "fm", "drop", "--duelist", "1", "--pool", "bcd", "--states",
                       str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt" in err
