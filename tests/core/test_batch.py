"""``emucore batch``: many queries in one process answer exactly what single commands
answer (the same parser and handlers), one JSON line each, errors as one line.

Source of the expected answers: the single-call ``--json`` outputs of the same commands
(their own tests check them against the reference tables), so a batch is checked to be a
faster way to ask the same thing, not a second implementation.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def _with_deals(folder: Path, capsys: pytest.CaptureFixture[str]) -> list[list[str]]:
    """QUERIES and the deal commands (a deck file made by ``fm starter --out``, as the
    README makes one): a runner's many deals in one process."""
    deck = folder / "my.deck"
    assert main(["fm", "starter", "--index", "7", "--out", str(deck)]) == 0
    capsys.readouterr()
    return [*QUERIES, ["fm", "starter", "--index", "7"], ["fm", "starter", "--state", "0x1"],
            *(["fm", "deal", "--duelist", duelist, "--deck", str(deck), "--sort", "none",
               "--index", index] for duelist, index in (("1", "1000"), ("39", "77"),
                                                       ("7", "123456")))]


def test_batch_answers_what_single_calls_answer(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    queries_list = _with_deals(tmp_path, capsys)
    expected = [single(capsys, q) for q in queries_list]
    queries = tmp_path / "q.jsonl"
    queries.write_text("".join(json.dumps(q) + "\n" for q in queries_list))
    assert main(["batch", str(queries)]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["line"] for a in answers] == list(range(1, len(queries_list) + 1))
    assert [a["result"] for a in answers] == expected and all(a["ok"] for a in answers)


def test_a_line_that_would_write_a_file_is_refused(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A batch answers and writes nothing: ``fm starter --out`` inside a line is that line's
    one-line error, no file appears, and the next line is answered (source: the batch's
    promise, README: each answer is the command's --json output)."""
    out = tmp_path / "deck.txt"
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps(["fm", "starter", "--index", "7", "--out", str(out)]) +
                       "\n" + json.dumps(["rng", "at", "5"]) + "\n")
    assert main(["batch", str(queries)]) == 2
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert not first["ok"] and "writes no files (--out)" in first["error"]
    assert second["ok"] and not out.exists()


def test_batch_reads_stdin_and_reports_each_bad_line(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    lines = ['["rng", "at", "5"]', "", '["fm", "drop", "--duelist", "99", "--pool", "bcd", '
             '"--index", "1"]', '["card", "fm", "No Such Card"]', '["play"]', "{oops",
             '["fm", "drop", "--duelist", "1", "--pool", "bcd", "--states", "-"]',
             '["fm", "deal", "--deck", "starter", "--sort", "id", "--duelist", "2", '
             '"--states", "-"]']
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["batch"]) == 2
    out, err = capsys.readouterr()
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["line"] for a in answers] == [1, 3, 4, 5, 6, 7, 8]
    assert answers[0]["ok"] and not any(a["ok"] for a in answers[1:])
    errors = [a["error"] for a in answers[1:]]
    assert "duelist 99 outside 1..39" in errors[0] and "No Such Card" in errors[1]
    assert errors[2].startswith("emucore: error: <stdin>: line 5: batch answers only")
    assert errors[3].startswith("emucore: error: <stdin>: line 6: not valid JSON")
    assert errors[4].endswith("line 7: fm drop --states answers one line per state itself; "
                              "run it alone")
    assert errors[5].endswith("line 8: fm deal --states answers one line per state itself; "
                              "run it alone")
    assert all("\n" not in e for e in errors)
    assert err == "emucore: error: <stdin>: 6 of 7 queries failed (their answers say why)\n"


def batch(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          data: bytes, *argv: str) -> tuple[int, list[dict], str]:
    """``emucore batch`` with ``data`` as the bytes of stdin: exit code, answers, stderr."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code = main(["batch", *argv])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


NEXT = b'["rng", "at", "14810"]\n'  # a good query after each bad one: it must be answered


@pytest.mark.parametrize("line", [b'["card", "fm", "--help"]', b'["card", "fm", "-h"]',
                                  b'["fm", "drop", "--help"]', b'["rng", "at", "-h", "1"]'])
def test_help_inside_a_line_is_that_lines_error(monkeypatch, capsys, line):
    """The issue's reproduction: ``["card","fm","--help"]`` gave a traceback and left every
    later line unanswered; argparse must neither print help nor end the process."""
    code, answers, err = batch(monkeypatch, capsys, line + b"\n" + NEXT)
    assert code == 2 and [a["line"] for a in answers] == [1, 2]
    assert not answers[0]["ok"] and "--help is not answered in a batch" in answers[0]["error"]
    assert answers[1] == {"line": 2, "ok": True, "result": {
        "index": 14810, "state": "0x29D8FA03", "twin": "0xA9D8FA03"}}
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(("line", "message"), [
    (b"[" * 100_000, "<stdin>: line 1: longer than 65536 characters"),  # the 100k
    (b"[" * 30_000 + b"]" * 30_000, "<stdin>: line 1: not valid JSON (nested deeper than 32)"),
    (b'["card", "fm", "' + b"x" * (8 << 20) + b'"]', "<stdin>: line 1: longer than 65536"),
    (b'["card", "fm", "' + b"x" * 60_000 + b'"]', "unknown card 'xxxxxxxxxx"),
    (b'["card", "fm", "Kurib\xffo"]', "unknown card 'Kurib\ufffdo'"),
    (b'["rng", "at", "1", "' + b"y" * 60_000 + b'"]', "unrecognized arguments: 'yyyyy"),
    (b'["fm", "drop", "--duelist", "1", "--pool", "bcd", "--states=-"]', "run it alone"),
    (b'["card", true]', "a query is a JSON array of arguments"),
])
def test_a_bad_line_is_one_short_error_and_the_next_line_is_answered(monkeypatch, capsys, line,
                                                                     message):
    """The issue's reproductions (a line nested 100k deep: RecursionError; a huge line echoed
    back whole; ``--states=-`` read the batch's own input) and bytes that are not UTF-8: each
    is its line's one short error, and the next line gets its answer."""
    code, answers, err = batch(monkeypatch, capsys, line + b"\n" + NEXT)
    assert code == 2 and [(a["line"], a["ok"]) for a in answers] == [(1, False), (2, True)]
    assert message in answers[0]["error"] and len(answers[0]["error"]) < 400
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_file_is_read_through_the_reading_edge(capsys, tmp_path):
    """``batch /dev/zero`` ran out of memory (the issue); a file is a regular file of bounded
    size, its lines bounded as stdin's are."""
    assert main(["batch", "/dev/zero"]) == 2
    assert capsys.readouterr().err == "emucore: error: /dev/zero: not a regular file\n"
    queries = tmp_path / "q.jsonl"
    queries.write_bytes(b"[" * 100_000 + b"\n" + NEXT)
    assert main(["batch", str(queries)]) == 2
    out, err = capsys.readouterr()
    answers = [json.loads(line) for line in out.splitlines()]
    assert answers[0]["error"] == f"emucore: error: {queries}: line 1: longer than 65536 " \
                                  "characters" and answers[1]["ok"]
    assert err == f"emucore: error: {queries}: 1 of 2 queries failed (their answers say why)\n"


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 2**31), duelist=st.integers(1, 39),
       pool=st.sampled_from(["sa_pow", "bcd", "sa_tec"]))
def test_random_lines_answer_what_single_calls_answer(tmp_path_factory, index, duelist, pool):
    """Source: the one-shot commands' --json answers. A batch parses each line with its
    command's own parser and takes the answer from ``emit`` as data (no JSON round trip);
    for random indices, duelists and pools every answer equals the single call's."""
    folder = tmp_path_factory.mktemp("batch")
    deck = folder / "my.deck"
    lines = [["rng", "at", str(index)], ["rng", "index", hex(index)],
             ["fm", "drop", "--duelist", str(duelist), "--pool", pool, "--index", str(index)],
             ["fm", "starter", "--index", str(index)]]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["fm", "starter", "--index", str(index), "--out", str(deck)]) == 0
        lines.append(["fm", "deal", "--duelist", str(duelist), "--deck", str(deck), "--sort",
                      "none", "--index", str(index)])
        expected = []
        for line in lines:
            start = out.tell()
            assert main([*line, "--json"]) == 0
            expected.append(json.loads(out.getvalue()[start:]))
        queries = folder / "q.jsonl"
        queries.write_text("".join(json.dumps(q) + "\n" for q in lines))
        start = out.tell()
        assert main(["batch", str(queries)]) == 0
    answers = [json.loads(a) for a in out.getvalue()[start:].splitlines()]
    assert [a["result"] for a in answers] == expected
