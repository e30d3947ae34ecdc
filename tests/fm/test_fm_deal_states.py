"""``emucore fm deal --states FILE``: many deals in one process, each line what the one-state
command answers.

Source of the expected answers: the one-state command ``fm deal --state S --json`` (the
plain path, ``deck.deal``), itself checked against a plain reading of the decompiled
``Duel_ShuffleBothDecks`` in tests/core/test_fm_deal_kernel.py and against emulator memory
in tests/oracle/test_oracle_tools.py.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from emucore.cli import main
from emucore.fm import lookup_cli

DECK = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 3 + list(range(11, 21))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text("".join(f"{c}\n" for c in DECK))
    return path


def deal_args(deck_file: Path, duelist: int, sort: str = "atk") -> list[str]:
    return ["fm", "deal", "--duelist", str(duelist), "--deck", str(deck_file), "--sort", sort]


def one_state(capsys, deck_file: Path, duelist: int, state: int, sort: str = "atk") -> dict:
    code, out, err = run(capsys, *deal_args(deck_file, duelist, sort), "--state", str(state),
                         "--json")
    assert code == 0, err
    return json.loads(out)


def write_states(tmp_path: Path, states: list[int]) -> Path:
    path = tmp_path / "states.txt"
    path.write_text("# deal states\n" + "".join(
        f"0x{s:x}  # hex\n" if i % 2 else f"{s}\n\n" for i, s in enumerate(states)))
    return path


def test_every_line_is_the_one_state_deal(capsys, deck_file, tmp_path):
    """40 random states and the extremes, three duelists (Duel Master K's copy among them)
    and two sorts: each JSON line is the one-state object plus its input line number."""
    rng = random.Random(29)
    states = [0, 0xFFFFFFFF, 0x55555555] + [rng.getrandbits(32) for _ in range(40)]
    path = write_states(tmp_path, states)
    for duelist, sort in ((1, "atk"), (7, "none"), (39, "id")):
        code, out, err = run(capsys, *deal_args(deck_file, duelist, sort), "--states",
                             str(path), "--json")
        assert code == 0 and err == ""
        rows = [json.loads(line) for line in out.splitlines()]
        assert len(rows) == len(states)
        text = path.read_text().split("\n")
        for row, state in zip(rows, states, strict=True):
            assert text[row["line"] - 1].split("#")[0].strip() in (str(state), f"0x{state:x}")
            assert row == {"line": row["line"], **one_state(capsys, deck_file, duelist, state,
                                                            sort)}


def test_text_rows_name_the_state_both_decks_and_the_calls(capsys, deck_file, tmp_path):
    path = write_states(tmp_path, [5, 0xDEADBEEF])
    code, out, _ = run(capsys, *deal_args(deck_file, 7), "--states", str(path), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    code, out, _ = run(capsys, *deal_args(deck_file, 7), "--states", str(path))
    assert code == 0
    assert out.splitlines() == [
        f"{r['state_before']} player {' '.join(map(str, r['player_after']))} cpu "
        f"{' '.join(map(str, r['cpu_after']))} calls {r['rand_calls']} -> {r['state_after']}"
        for r in rows]


def test_blocks_of_states_answer_as_one(capsys, deck_file, tmp_path, monkeypatch):
    """The states are dealt DEALS_AT_ONCE at a time: blocks of 3 give the same lines."""
    path = write_states(tmp_path, list(range(100, 110)))
    code, whole, _ = run(capsys, *deal_args(deck_file, 26), "--states", str(path), "--json")
    monkeypatch.setattr(lookup_cli, "DEALS_AT_ONCE", 3)
    code, blocks, _ = run(capsys, *deal_args(deck_file, 26), "--states", str(path), "--json")
    assert code == 0 and blocks == whole and len(whole.splitlines()) == 10


def test_states_from_stdin_and_an_empty_list(capsys, deck_file, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("0x55555555\n5\n"))
    code, out, _ = run(capsys, *deal_args(deck_file, 1), "--states", "-", "--json")
    assert [json.loads(line)["state_before"] for line in out.splitlines()] == [
        "0x55555555", "0x00000005"]
    monkeypatch.setattr("sys.stdin", io.StringIO("# nothing\n\n"))
    assert run(capsys, *deal_args(deck_file, 1), "--states", "-") == (0, "", "")


def test_a_bad_state_line_is_one_line_naming_the_file_and_line(capsys, deck_file, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("1\n0xZZ\n")
    code, out, err = run(capsys, *deal_args(deck_file, 1), "--states", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"{path}: line 2: malformed state '0xZZ'" in err


def test_states_is_one_of_the_state_sources(deck_file):
    for extra in (["--states", "-", "--index", "3"], []):
        with pytest.raises(SystemExit) as exc:
            main([*deal_args(deck_file, 1), *extra])
        assert exc.value.code == 2
