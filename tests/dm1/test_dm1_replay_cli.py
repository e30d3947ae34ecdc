"""DM1 replays, snapshots, the RNG stream and the ``emucore dm1`` commands."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest
from dm1_helpers import FILLER, deck

from emucore import cli
from emucore.dm1 import ai, decks, rng
from emucore.dm1.duel import Dm1Duel, default_tables
from emucore.dm1.replay import ADAPTER, ENGINE_VERSION, RNG_VERSION
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
    assert dealt.v.rng_calls[0] == 160  # 40 picks of two draws per dealt deck
    assert set(dealt.v.deck.tolist()) <= {58, 24, 123}  # Tristan's pool only
    given = Dm1Duel(deck([FILLER]), opponent=0, seed=5)
    assert given.v.rng_calls[0] == 39 + 80  # Fisher-Yates over 40 cards + the opponent deal


def test_yami_yugi_and_simon_deal_from_their_reference_cards():
    """reference/dm1/deck_yami_yugi_estimate.csv (all 27 of Yami Yugi's cards) and
    deck_partial_lists.csv (Simon Muran's deck "is 19 cards, all Spellcaster")."""
    t = default_tables()
    yami = {15, 12, 68, 39, 14, 74, 22, 60, 31, 35, 10, 7, 38, 41, 89, 6, 27, 46, 2, 25, 37,
            30, 47, 59, 65, 48, 217}
    for seed in range(5):
        assert set(Dm1Duel(opponent=15, seed=seed, player_pool=9).v.deck.tolist()[40:]) <= yami
        simon = Dm1Duel(opponent=13, seed=seed, player_pool=9).v.deck.tolist()[40:]
        assert {int(t.type_id[c]) for c in simon} == {1}  # Spellcaster


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
    assert rep.steps and rep.rng_version == RNG_VERSION
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


def test_replay_of_an_older_engine_is_refused_in_one_line_naming_both_versions(capsys,
                                                                                tmp_path):
    """A rule change bumps ENGINE_VERSION (DESIGN.md rule 2); a replay recorded before it is
    refused with one line naming the recorded and the current version."""
    rep = replays.record(ADAPTER, SETUP, ai.choose_action)
    rep.engine_version = ENGINE_VERSION - 1
    rep.save(tmp_path / "old.json")
    code, out, _ = _run(capsys, "replay", "verify", str(tmp_path / "old.json"))
    assert code == 1 and out.strip() == (f"{tmp_path / 'old.json'}: step 0: recorded with engine "
                                         f"version {ENGINE_VERSION - 1}, this emucore is "
                                         f"{ENGINE_VERSION}")


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
    assert code == 0 and data["winner"] in (0, 1, -1) and data["log"][0]["kind"] == "turn"
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
    assert {r["pool"] for r in rows} == {"estimated", "approximate"}
    code, out, _ = _run(capsys, "opponents")
    assert "Yami Yugi" in out and "deck pool estimated" in out


def _reference_weights(reference_dir, opponent: str) -> list[tuple[int, int]]:
    """(card, weight) of one opponent in reference/dm1/drops.csv, in card order."""
    with (reference_dir / "dm1" / "drops.csv").open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["opponent"] == opponent]
    return sorted((int(r["card"]), int(r["weight_of_2048"])) for r in rows)


def test_cli_drop_rolls_the_cartridges_way(capsys, reference_dir):
    """reference/dm1/memory_map_added.csv, $4027: "drop picker: (rand(0..7)<<8)|rand(0..255)
    -> 0..2047, first cumulative weight above it", over drops.csv's Bandit Keith table."""
    code, out, _ = _run(capsys, "drop", "--opponent", "8", "--seed", "7", "--json")
    data = json.loads(out)
    state, draws = 7, []
    for _ in range(2):
        state = (state * 0x41C64E6D + 0x3039) & 0xFFFFFFFF
        draws.append((state >> 16) & 0x7FFF)
    assert code == 0 and data["roll"] == ((draws[0] % 8) << 8) | (draws[1] % 256)
    walk = _reference_weights(reference_dir, "Bandit Keith")
    upper = [sum(w for _, w in walk[:i + 1]) for i in range(len(walk))]
    first_above = next(i for i, u in enumerate(upper) if u > data["roll"])
    assert (data["card"], data["weight"]) == walk[first_above]
    with pytest.raises(SystemExit) as exit_:
        _run(capsys, "drop", "--opponent", "16", "--seed", "1")
    assert exit_.value.code == 2 and "opponent 16 outside 0..15" in capsys.readouterr().err


def test_every_roll_picks_each_card_exactly_its_weight():
    """drops.csv: weights out of 2048; the 2048 rolls split exactly by weight."""
    t = default_tables()
    for opponent in range(16):
        picked = Counter(decks.card_at(t.drops[opponent], v) for v in range(2048))
        assert picked == {c: int(t.drops[opponent, c]) for c in picked}
        assert len(picked) == int((t.drops[opponent] > 0).sum())


def test_cli_rewards(capsys):
    """reference/dm1/victory_rewards.csv: Simon Muran's 90-win reward is #22 Summoned Skull
    (the README's correction) and Yami Yugi's 100-win reward Exodia's head #21."""
    code, out, _ = _run(capsys, "rewards", "--opponent", "13", "--json")
    data = json.loads(out)
    assert code == 0 and [r["wins"] for r in data["rewards"]] == list(range(10, 101, 10))
    assert data["rewards"][8]["card"] == 22
    code, out, _ = _run(capsys, "rewards", "--opponent", "15")
    assert code == 0 and "100  #21" in out
