"""``emucore fm ...`` commands: output, --json, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from emucore import tables as T
from emucore.cli import main
from emucore.duel import replay as R
from emucore.duel.files import UserFileError
from emucore.fm import deck, rank
from emucore.fm.replay import ADAPTER
from emucore.hw.psyq_rand import Rand, state_at

GOLDEN = Path(__file__).parent / "golden"
DECK = list(range(1, 41))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text("# my deck\nBlue-eyes White Dragon\n" + "\n".join(map(str, DECK[1:])) + "\n")
    return path


def test_deal_matches_the_deck_module(capsys, deck_file):
    code, out, _ = run(capsys, "fm", "deal", "--duelist", "7", "--deck", str(deck_file),
                       "--sort", "atk", "--index", "100", "--json")
    data = json.loads(out)
    t = T.load("fm")
    dealt = deck.deal(Rand(int(state_at(100))), deck.sort_deck(DECK, "atk", t), 7, t)
    assert code == 0 and data["player_after"] == list(dealt.player.cards)
    assert data["cpu_after"] == list(dealt.cpu.cards) and data["rand_calls"] == dealt.calls
    assert sorted(data["cpu_generated"]) == sorted(dealt.cpu.cards)
    assert data["player_before"] == deck.sort_deck(DECK, "atk", t)


@pytest.mark.parametrize("lines,needle", [
    (DECK[:39], "40 cards"), (DECK[:39] + ["Nonsense"], "line 41: unknown card"),
    (DECK[:36] + [5, 5, 5, 5], "more than 3 copies"),
])
def test_bad_deck_is_one_line_and_exit_2(capsys, tmp_path, lines, needle):
    path = tmp_path / "bad.txt"
    path.write_text("# header\n" + "\n".join(map(str, lines)) + "\n")
    code, _, err = run(capsys, "fm", "deal", "--duelist", "1", "--deck", str(path), "--sort",
                       "none", "--state", "0x1234")
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_starter_drop_and_rank(capsys):
    code, out, _ = run(capsys, "fm", "starter", "--index", "0", "--json")
    assert code == 0 and json.loads(out)["deck"] == deck.starter_deck(Rand(), T.load("fm"))
    code, out, _ = run(capsys, "fm", "drop", "--duelist", "1", "--pool", "bcd", "--state",
                       "0x55555555", "--json")
    assert json.loads(out)["card"] == rank.drop(Rand(), T.load("fm"), 1, "bcd")
    code, out, _ = run(capsys, "fm", "rank", "--turns", "4", "--effective-attacks", "2",
                       "--defensive-wins", "0", "--face-down", "0", "--pure-magic", "0",
                       "--traps", "0", "--fusions", "0", "--equips", "0", "--cards-drawn", "9",
                       "--lp", "8000", "--end", "lp")
    # 50 + 2 + 12 (turns) + 2 (attacks) + 0 + 0 + 2 + 2 + 12 (cards) + 6 (LP) + 4 + 4 = 96
    assert code == 0 and out.strip() == "score 96  rank S-POW  starchips 5  pool sa_pow"


def test_scripted_duel_and_replay_round_trip(capsys, tmp_path):
    script = tmp_path / "script.json"
    script.write_text(json.dumps({
        "setup": {"deck": DECK, "duelist": 1, "sort": "none", "state": 1234},
        # nobody attacks on the first turn (func_800179F4's lock): side 0 attacks on its
        # second turn
        "actions": [{"kind": "play", "cards": [0]}, {"kind": "end_turn"},
                    {"kind": "play", "cards": [0]}, {"kind": "end_turn"},
                    {"kind": "play", "cards": [0]},
                    {"kind": "attack", "attacker": 0, "target": 0}, {"kind": "end_turn"}]}))
    code, out, _ = run(capsys, "fm", "duel", "--script", str(script), "--json")
    data = json.loads(out)
    assert code == 0 and data["steps"] == 7 and data["lp"][1] < 8000
    replay_file = tmp_path / "r.json"
    code, out, _ = run(capsys, "fm", "replay", "record", "--script", str(script), "--out",
                       str(replay_file))
    assert code == 0 and data["digest"] in out
    code, out, _ = run(capsys, "fm", "replay", "verify", str(replay_file))
    assert code == 0 and out.endswith(": all 7 steps agree\n")


def test_illegal_scripted_action_names_the_rule(capsys, tmp_path):
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"setup": {"deck": DECK, "duelist": 1},
                                  "actions": [{"kind": "attack", "attacker": 0}]}))
    code, _, err = run(capsys, "fm", "duel", "--script", str(script))
    assert code == 2 and "[phase]" in err


def test_verify_reports_the_first_differing_step(capsys, tmp_path):
    rec = R.load(GOLDEN / "simon_seed1.json")
    rec.steps[4].digest = "0" * 16
    path = tmp_path / "bad.json"
    rec.save(path)
    code, out, _ = run(capsys, "fm", "replay", "verify", str(path), "--json")
    assert code == 1 and json.loads(out)["mismatch"]["step"] == 5


def test_recorded_ai_duel_verifies():
    """An AI-vs-AI duel recorded with ``emucore fm replay record --player ai`` (the actions
    carry the AI's rand() calls, so the engine alone reproduces every digest)."""
    path = GOLDEN / "ai_vs_ai_seto.json"
    rec = R.load(path)
    if os.environ.get("EMUCORE_UPDATE_GOLDEN") == "1":
        # re-record from the same setup, both sides played by the computer (a new engine
        # version moves the stream, so the AI's choices and rand() calls change with it)
        from emucore.fm.ai import choose_action
        R.record(ADAPTER, rec.setup, choose_action).save(path)
        rec = R.load(path)
    assert sum(s.action.get("rng_calls", 0) for s in rec.steps) > 0
    assert rec.setup["computer"] == [0, 1]
    assert R.verify(ADAPTER, rec) is None


def test_a_legacy_export_mark_names_the_setup_field(tmp_path):
    """Replays written before the duel knew its computer sides marked each computer action
    with ``ai_export``; verifying one says what to change instead of a digest mismatch."""
    rec = R.load(GOLDEN / "ai_vs_ai_seto.json")
    rec.steps[0].action["ai_export"] = True
    with pytest.raises(UserFileError, match="'ai_export' is no longer an action field.*'computer'"):
        R.verify(ADAPTER, rec)


def test_duel_against_the_computer_opponent(capsys, tmp_path, deck_file):
    pytest.importorskip("emucore.fm.ai.adapter")
    script = tmp_path / "me.json"
    script.write_text(json.dumps({"actions": [{"kind": "play", "cards": [0]},
                                              {"kind": "end_turn"}]}))
    code, out, _ = run(capsys, "fm", "duel", "--duelist", "7", "--deck", str(deck_file),
                       "--sort", "atk", "--index", "100", "--player", "script", "--script",
                       str(script), "--json")
    data = json.loads(out)
    sides = [e["side"] for e in data["events"] if e["kind"] == "turn"]
    # the script plays one turn, the CPU its whole turn, then the script runs out
    assert code == 0 and sides == [0, 1, 0] and data["steps"] >= 3


def test_duel_options_need_a_deck(capsys):
    code, _, err = run(capsys, "fm", "duel", "--duelist", "7", "--player", "ai")
    assert code == 2 and "--deck" in err
