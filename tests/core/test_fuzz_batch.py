"""Fuzzing ``emucore batch`` streams, ``fm drop --states`` lists and argparse usage errors.

* Batch streams: the valid queries of tests/core/test_batch.py mutated where their structure
  lives (tests/core/fuzz_harness.py's ``mutated_json``), mixed with junk text, bytes that are
  not UTF-8, deep nesting, lines over the 65536-character bound, ``--help`` inside a query
  and blank lines, fed on stdin. Every non-blank input line gets exactly one answer line, in
  order; a query left whole answers what the single command answers; an error is one short
  line; the exit code is 0 when every query succeeded, else 2 with one line on stderr.
* State lists: ``fm drop --states`` files and stdin, mutated line by line; an answer line per
  state or one error line.
* Usage errors: random argument lists for a sample of commands, from each command's own
  options and choices, numbers and junk: the house rules of ``fuzz_harness.run_cli`` (one
  line on stderr for exit 2, which no longer excuses argparse's usage block).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys

import pytest
from fuzz_harness import FINDINGS, RUNS, fresh, mutated_json, mutated_lines, run_cli
from hypothesis import given
from hypothesis import strategies as st
from test_batch import QUERIES

from emucore import cli
from emucore.duel.files import MAX_LINE_BYTES

pytestmark = pytest.mark.fuzz

ERROR_CHARS = 600  # the longest error answer accepted: what the user typed is cut


def run_stdin(kind: str, argv: list[str], data: bytes) -> tuple[int, str, str]:
    """``emucore argv`` with ``data`` as the bytes of stdin: exit code, stdout, stderr. Counted
    in the fuzz report; exit 0 or 2, never a traceback, one stderr line for 2."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stdin = sys.stdin, stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:
                code = exc.code
    finally:
        sys.stdin = saved
    text = err.getvalue()
    RUNS[kind] += 1
    if code not in (0, 2) or "Traceback" in text or "internal error" in text:
        FINDINGS[f"{kind}: traceback or bad exit"] += 1
    elif code == 2 and text.count("\n") != 1:
        FINDINGS[f"{kind}: not one line on stderr"] += 1
    assert code in (0, 2) and "Traceback" not in text and "internal error" not in text, text
    assert code == 0 or text.count("\n") == 1, text
    return code, out.getvalue(), text


# ----------------------------------------------------------------------- batch streams
@pytest.fixture(scope="module")
def expected() -> dict[str, object]:
    """What each valid query answers as a single command (``--json``)."""
    out = {}
    for query in QUERIES:
        with contextlib.redirect_stdout(io.StringIO()) as single:
            assert cli.main([*query, "--json"]) == 0
        out[json.dumps(query)] = json.loads(single.getvalue())
    return out


def _with_help(query: list[str], at: int, flag: str) -> str:
    return json.dumps([*query[:max(at, 1)], flag, *query[max(at, 1):]])


@st.composite
def batch_line(draw: st.DrawFn) -> bytes:
    """One input line (without its end)."""
    query = draw(st.sampled_from(QUERIES))
    kind = draw(st.integers(0, 9))
    if kind <= 2:
        text = json.dumps(query)
    elif kind <= 4:
        text = draw(mutated_json(query))
    elif kind == 5:
        text = _with_help(query, draw(st.integers(0, len(query))),
                          draw(st.sampled_from(["--help", "-h"])))
    elif kind == 6:
        text = draw(st.sampled_from(["[" * 40, "[" * 30_000, "[" * 30_000 + "]" * 30_000,
                                     '{"a": ' * 40, "", "  ", "\t", "null", "[]", "[1]"]))
    elif kind == 7:
        size = draw(st.sampled_from([MAX_LINE_BYTES - 20, MAX_LINE_BYTES + 1, 3 * MAX_LINE_BYTES]))
        text = json.dumps([*query, "x" * size])
    elif kind == 8:
        text = draw(st.text(max_size=40).filter(lambda t: "\n" not in t and "\r" not in t))
    else:
        return draw(st.binary(max_size=30)).replace(b"\n", b"").replace(b"\r", b"")
    return text.encode("utf-8")


def _lines(data: bytes) -> list[str]:
    """The input lines as batch reads them (UTF-8 with replacement, universal newlines)."""
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


@given(lines=st.lists(batch_line(), min_size=1, max_size=8),
       end=st.sampled_from([b"\n", b"\r\n"]), last=st.booleans())
def test_batch_streams(expected, lines, end, last):
    data = end.join(lines) + (end if last else b"")
    code, out, err = run_stdin("batch stream / batch", ["batch"], data)
    answers = [json.loads(line) for line in out.splitlines()]
    read = _lines(data)
    wanted = [n for n, text in enumerate(read, 1) if text.strip()]
    assert [a["line"] for a in answers] == wanted
    for answer in answers:
        text = read[answer["line"] - 1]
        if text in expected:
            assert answer == {"line": answer["line"], "ok": True, "result": expected[text]}
        elif not answer["ok"]:
            assert set(answer) == {"line", "ok", "error"}
            assert 0 < len(answer["error"]) <= ERROR_CHARS, answer["error"][:200]
    assert code == (0 if all(a["ok"] for a in answers) else 2)
    assert (err == "") if code == 0 else err.endswith("queries failed (their answers say why)\n")


# ------------------------------------------------------------------------- state lists
STATES = "# drop states\n0x55555555\n5  # five\n\n0xFFFFFFFF\n1474D436\n"


@st.composite
def state_list(draw: st.DrawFn) -> bytes:
    text = draw(mutated_lines(STATES))
    if draw(st.integers(0, 9)) == 0:
        text += "\n" + draw(st.sampled_from(["7" * (MAX_LINE_BYTES + 1), "0x" + "F" * 100,
                                             "#" * 70_000, "1\r2"]))
    data = text.encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        data += draw(st.binary(max_size=6))
    return data


def _states_in(data: bytes) -> int:
    return sum(1 for line in _lines(data) if line.split("#", 1)[0].strip())


DROP = ["fm", "drop", "--duelist", "7", "--pool", "bcd", "--states"]


@given(data=state_list())
def test_state_list_files(work, data):
    folder = fresh(work)
    path = folder / "states.txt"
    path.write_bytes(data)
    run_cli("state list / fm drop --states FILE", [*DROP, str(path)], folder)


@given(data=state_list())
def test_state_lists_on_stdin(data):
    code, out, err = run_stdin("state list / fm drop --states -", [*DROP, "-", "--json"], data)
    if code == 0:
        rows = [json.loads(line) for line in out.splitlines()]
        assert len(rows) == _states_in(data)
    else:
        assert out == "" and err.startswith("emucore: error: <stdin>: line ")


# ------------------------------------------------------------------------ usage errors
SAMPLE = [("card",), ("fusion",), ("rng", "at"), ("rng", "index"), ("rng", "next"),
          ("fm", "drop"), ("fm", "rank"), ("fm", "deal"), ("dm1", "rewards"), ("dm1", "drop"),
          ("dm1", "stat"), ("plan", "drops"), ("tables",), ("fm",), ()]


def _parser_of(words: tuple[str, ...]) -> argparse.ArgumentParser:
    parser = cli.build_parser([list(words)])
    for word in words:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[word]
    return parser


def _vocabulary(words: tuple[str, ...]) -> list[str]:
    """The options of a command and the choices of its arguments; not a group's commands (a
    valid command line runs: no long runs) nor output paths (nor files written)."""
    out: list[str] = []
    for action in _parser_of(words)._actions:
        if getattr(action, "file_role", "input") != "input" or action.dest == "help":
            continue
        out += action.option_strings
        if not isinstance(action, argparse._SubParsersAction):
            out += [str(c) for c in action.choices or ()]
    return out


VOCABULARY = {words: _vocabulary(words) for words in SAMPLE}
TOKEN = st.one_of(st.integers(-3, 800).map(str), st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=8),
    st.sampled_from(["--", "-", "-x", "--nosuch", "0x10", "Kuribo", "Seto 3nd", "weevil",
                     "1" * 30, "\n", "a\nb"]))


@pytest.mark.parametrize("words", SAMPLE, ids=lambda w: " ".join(w) or "emucore")
@given(data=st.data())
def test_usage_errors_over_random_argv(work, words, data):
    folder = fresh(work)
    known = [st.sampled_from(VOCABULARY[words])] if VOCABULARY[words] else []
    tokens = data.draw(st.lists(st.one_of(*known, TOKEN), max_size=6))
    with contextlib.chdir(folder):  # a relative path names a file of the example's folder
        run_cli("usage / " + (" ".join(words) or "emucore"), [*words, *tokens], folder)
