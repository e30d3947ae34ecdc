"""``emucore batch``: many queries in one process answer exactly what single commands
answer (the same parser and handlers), one JSON line each, errors as one line.

Source of the expected answers: the single-call ``--json`` outputs of the same commands
(their own tests check them against the reference tables), so a batch is checked to be a
faster way to ask the same thing, not a second implementation.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from emucore.cli import main

QUERIES = [
    ["fusion", "fm", "Mystical Elf", "1"],
    ["card", "dm1", "1"],
    ["fm", "drop", "--duelist", "7", "--pool", "sa_pow", "--index", "123456"],
    ["fm", "rank", "--turns", "9", "--effective-attacks", "2", "--defensive-wins", "0",
     "--face-down", "0", "--pure-magic", "0", "--traps", "0", "--fusions", "1", "--equips",
     "0", "--cards-drawn", "14", "--lp", "900", "--end", "lp"],
    ["rng", "index", "0x1474D436"],
    ["rng", "at", "14810"],
]


def single(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_batch_answers_what_single_calls_answer(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    expected = [single(capsys, q) for q in QUERIES]
    queries = tmp_path / "q.jsonl"
    queries.write_text("".join(json.dumps(q) + "\n" for q in QUERIES))
    assert main(["batch", str(queries)]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["line"] for a in answers] == list(range(1, len(QUERIES) + 1))
    assert [a["result"] for a in answers] == expected and all(a["ok"] for a in answers)


def test_batch_reads_stdin_and_reports_each_bad_line(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    lines = ['["rng", "at", "5"]', "", '["fm", "drop", "--duelist", "99", "--pool", "bcd", '
             '"--index", "1"]', '["card", "fm", "No Such Card"]', '["play"]', "{oops",
             '["fm", "drop", "--duelist", "1", "--pool", "bcd", "--states", "-"]']
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["batch"]) == 2
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["line"] for a in answers] == [1, 3, 4, 5, 6, 7]
    assert answers[0]["ok"] and not any(a["ok"] for a in answers[1:])
    errors = [a["error"] for a in answers[1:]]
    assert "duelist 99 outside 1..39" in errors[0] and "No Such Card" in errors[1]
    assert errors[2].startswith("batch answers only") and errors[3].startswith("not JSON")
    assert errors[4].startswith("fm drop --states answers one line per state")
    assert all("\n" not in e for e in errors)
