"""DM1 replays, snapshots, the RNG stream and the ``emucore dm1`` commands."""

from __future__ import annotations

import json

import pytest
from dm1_helpers import FILLER, deck

from emucore import cli
from emucore.dm1 import ai, rng
from emucore.dm1.duel import Dm1Duel
from emucore.dm1.replay import ADAPTER
from emucore.dm1.state import RECORD_SIZE
from emucore.duel import replay as replays

SETUP = {"seed": 99, "opponent": 4, "player_pool": 9, "shuffle": True}


def test_the_stream_is_the_named_lcg():
    state, values = 0x55555555, []
    for _ in range(5):
        state = rng.next_state(state)
        values.append(rng.output(state))
    assert values == [27155, 4859, 20868, 23650, 5236]  # the psyq_rand boot sequence


def test_rng_use_at_the_start_of_a_duel():
    dealt = Dm1Duel(opponent=10, seed=5, player_pool=10)
    assert dealt.v.rng_calls[0] == 80  # 40 rolls per dealt deck
    assert set(dealt.v.deck.tolist()) <= {58, 24, 123}  # Tristan's pool only
    given = Dm1Duel(deck([FILLER]), opponent=0, seed=5)
    assert given.v.rng_calls[0] == 39 + 40  # Fisher-Yates over 40 cards + the opponent deal


def test_shuffle_depends_on_the_seed_only():
    cards = list(range(1, 41))
    a = Dm1Duel(cards, opponent=0, seed=7).v.deck.tolist()[:40]
    b = Dm1Duel(cards, opponent=0, seed=7).v.deck.tolist()[:40]
    c = Dm1Duel(cards, opponent=0, seed=8).v.deck.tolist()[:40]
    assert a == b and a != c and sorted(a) == cards


def test_snapshot_then_run_equals_restore_then_run():
    duel = ADAPTER.new_duel(SETUP)
    for _ in range(6):
        duel.step(ai.choose_action(duel))
    saved = duel.snapshot()
    assert len(saved) == RECORD_SIZE
    ai.play_out(duel)
    end = duel.digest()
    other = ADAPTER.new_duel(SETUP)
    other.restore(saved)
    ai.play_out(other)
    assert other.digest() == end


def test_replay_records_and_verifies(tmp_path):
    rep = replays.record(ADAPTER, SETUP, ai.choose_action)
    assert rep.steps and rep.rng_version == rng.RNG_VERSION
    rep.save(tmp_path / "r.json")
    assert replays.verify(ADAPTER, replays.load(tmp_path / "r.json")) is None


def test_replay_verification_names_the_first_differing_step_and_field():
    rep = replays.record(ADAPTER, SETUP, ai.choose_action)
    rep.steps[3].digest = "0" * 16
    state = bytearray(rep.steps[3].state)
    state[22] ^= 1  # side0.lp low byte
    rep.steps[3].state = bytes(state)
    mismatch = replays.verify(ADAPTER, rep)
    assert mismatch.step == 4 and [f[0] for f in mismatch.fields] == ["side0.lp"]


def test_replay_with_another_rng_version_is_refused():
    rep = replays.record(ADAPTER, SETUP, ai.choose_action)
    rep.rng_version += 1
    assert replays.verify(ADAPTER, rep).step == 0


@pytest.mark.parametrize("setup", [{"seed": "x"}, {"seed": 1, "colour": 2},
                                   {"seed": 1, "opponent": 16, "player_pool": 0},
                                   {"seed": 1, "deck": [1] * 39}])
def test_bad_setup_is_a_value_error(setup):
    with pytest.raises(ValueError):
        ADAPTER.new_duel(setup)


def _run(capsys, *argv):
    code = cli.main(["dm1", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_duel_json(capsys):
    code, out, _ = _run(capsys, "duel", "--opponent", "3", "--seed", "7", "--auto", "--json")
    data = json.loads(out)
    assert code == 0 and data["winner"] in (0, 1, 2) and data["log"][0]["kind"] == "turn"
    duel = ADAPTER.new_duel({"seed": 7, "opponent": 3, "player_pool": 9})
    ai.play_out(duel)
    assert data["digest"] == duel.digest()


def test_cli_replay_record_and_verify(capsys, tmp_path):
    path = tmp_path / "r.json"
    assert _run(capsys, "replay", "record", "--opponent", "1", "--seed", "3",
                "--out", str(path))[0] == 0
    assert _run(capsys, "replay", "verify", str(path))[0] == 0
    data = json.loads(path.read_text())
    data["steps"][0]["action"]["zone"] = (data["steps"][0]["action"]["zone"] + 1) % 5
    path.write_text(json.dumps(data))
    code, out, _ = _run(capsys, "replay", "verify", str(path))
    assert code == 1 and ": step 1:" in out.splitlines()[0]


@pytest.mark.parametrize("lines,message", [("39 x 24\n", "39 cards, a deck needs exactly 40"),
                                           ("39 x 24\nNo Such Card\n", "unknown card"),
                                           ("40 x 366\n", "outside 1..365")])
def test_cli_bad_deck_is_one_line_exit_2(capsys, tmp_path, lines, message):
    path = tmp_path / "deck.txt"
    path.write_text(lines)
    code, out, err = _run(capsys, "duel", "--deck", str(path), "--auto")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_cli_deck_file_with_names_and_copies(capsys, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("# my deck\n30 x Skull Servant\n5 x 1\n5 x sparks\n")
    code, out, _ = _run(capsys, "deck", str(path), "--json")
    assert code == 0 and json.loads(out) == {"file": str(path), "cards": 40, "monsters": 35,
                                             "magic": 5}


def test_cli_stat_shows_the_glitch(capsys):
    code, out, _ = _run(capsys, "stat", "67", "--terrain", "1", "--level", "2", "--json")
    data = json.loads(out)
    assert code == 0 and (data["atk"], data["atk_before_truncation"]) == (1648, 11648)
    assert _run(capsys, "stat", "301")[0] == 2


def test_cli_opponents(capsys):
    code, out, _ = _run(capsys, "opponents", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 16
    assert sorted({r["stage"] for r in rows}) == [1, 2, 3, 4, 5]
