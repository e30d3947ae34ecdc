"""Fuzzing ``fm deal --states``: state lists (files and stdin) and deck files mutated line by
line. The house rules of ``fuzz_harness.run_cli`` hold (exit 0 or 2, one stderr line, inputs
unchanged); an answer is one line per listed state, each the one-state deal
(``fm deal --state S --json``) plus its line number.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from fuzz_harness import deck_text, fresh, mutated_lines, run_cli
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_batch import run_stdin, state_list

from emucore import cli

pytestmark = pytest.mark.fuzz

DECK = "".join(f"{c}\n" for c in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 3 + list(range(11, 21)))


def _deal(duelist: int, deck: str) -> list[str]:
    return ["fm", "deal", "--duelist", str(duelist), "--deck", deck, "--sort", "atk"]


def _listed(data: bytes) -> list[int]:
    """The line numbers of the states a list holds, read as the command reads it."""
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return [n for n, line in enumerate(text.split("\n"), 1) if line.split("#", 1)[0].strip()]


def _one_state(duelist: int, deck: str, state: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main([*_deal(duelist, deck), "--state", state, "--json"]) == 0
    return json.loads(out.getvalue())


@given(data=state_list(), deck=st.one_of(st.just(DECK), mutated_lines(DECK), deck_text()),
       duelist=st.sampled_from(["1", "39", "0", "40", "x"]), as_json=st.booleans())
def test_state_lists_and_decks_from_files(work, data, deck, duelist, as_json):
    folder = fresh(work)
    (folder / "states.txt").write_bytes(data)
    (folder / "deck.txt").write_text(deck)
    argv = ["fm", "deal", "--duelist", duelist, "--deck", str(folder / "deck.txt"), "--sort",
            "atk", "--states", str(folder / "states.txt")]
    run_cli("state list / fm deal --states FILE", argv + ["--json"] * as_json, folder)


@given(data=state_list(), duelist=st.sampled_from([1, 26, 39]))
def test_state_lists_on_stdin_answer_the_one_state_deals(work, data, duelist):
    folder = fresh(work)
    deck = folder / "deck.txt"
    deck.write_text(DECK)
    code, out, err = run_stdin("state list / fm deal --states -",
                               [*_deal(duelist, str(deck)), "--states", "-", "--json"], data)
    if code:
        assert out == "" and err.startswith("emucore: error: <stdin>: line ")
        return
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["line"] for row in rows] == _listed(data)
    for row in rows:
        assert row == {"line": row["line"],
                       **_one_state(duelist, str(deck), row["state_before"])}
