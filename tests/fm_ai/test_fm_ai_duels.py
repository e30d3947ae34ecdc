"""Whole duels driven by the AI on both sides: every action is legal, every duel ends, the
rand() calls travel with the actions (a replay of the actions alone reproduces the duel),
and the ``fm sim`` command."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emucore import tables
from emucore.cli import main
from emucore.fm.actions import Ended
from emucore.fm.ai import choose_action
from emucore.fm.ai.adapter import decide
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw.psyq_rand import BOOT_STATE, jump


def player_deck(seed: int) -> list[int]:
    """A legal 40-card deck mixing monsters, magic, equips and traps."""
    t = tables.load("fm")
    ids = [c for c in range(1, 723) if t.kind_name(c) != "ritual"]
    out = []
    k = seed * 7919
    while len(out) < 40:
        k = (k * 1103515245 + 12345) & 0x7FFFFFFF
        card = ids[k % len(ids)]
        if out.count(card) < 3:
            out.append(card)
    return out


@pytest.mark.parametrize("duelist", [1, 3, 7, 8, 11, 15, 21, 26, 34, 38, 39])
def test_ai_vs_ai_duels_are_legal_and_end(duelist):
    for seed in range(3):
        duel = new_duel(FmSetup(deck=player_deck(duelist * 10 + seed), duelist=duelist,
                                state=int(jump(BOOT_STATE, 1000 * seed + duelist)),
                                computer=[0, 1]))
        steps = 0
        while not duel.over:
            decision = decide(duel)
            assert not decision.fallback
            duel.step(decision.action)   # IllegalAction would fail the test
            steps += 1
            assert steps < 2000


def test_replaying_the_actions_alone_reproduces_the_duel():
    setup = FmSetup(deck=player_deck(5), duelist=8, state=0x1234567, computer=[0, 1])
    duel = new_duel(setup)
    actions = []
    while not duel.over:
        actions.append(choose_action(duel))
        duel.step(actions[-1])
    assert any(a.rng_calls for a in actions)
    again = new_duel(setup)
    for action in actions:
        again.step(action)
    assert again.digest() == duel.digest() and again.rng.state == duel.rng.state


def test_choose_action_does_not_touch_the_duel():
    duel = new_duel(FmSetup(deck=player_deck(2), duelist=15, state=99, computer=[0, 1]))
    while not duel.over:
        before = duel.digest()
        action = choose_action(duel)
        assert duel.digest() == before
        duel.step(action)


def test_fm_sim_command(tmp_path, capsys):
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(map(str, player_deck(1))) + "\n")
    assert main(["fm", "sim", "--duelist", "4", "--deck", str(deck), "--games", "6",
                 "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # stderr is not a terminal here: no progress bar (issue 14)
    out = json.loads(captured.out)
    assert out["games"] == 6 and out["unfinished"] == 0 and out["engine_refusals"] == 0
    assert sum(out["ranks"].values()) == out["wins"]
    assert sum(d["count"] for d in out["drops"]) == out["wins"]
    assert out["terrain"] == 0                       # a Free Duel (func_80024DC8)
    assert main(["fm", "sim", "--duelist", "21", "--deck", str(deck), "--games", "1",
                 "--terrain", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["terrain"] == 5      # named: Umi


def test_fm_sim_bad_input_is_one_line_exit_2(tmp_path, capsys):
    deck = tmp_path / "deck.txt"
    deck.write_text("1\n" * 39)
    assert main(["fm", "sim", "--duelist", "4", "--deck", str(deck)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "deck.txt" in err[0]
    with pytest.raises(SystemExit) as exc:
        main(["fm", "sim", "--duelist", "40", "--deck", str(deck)])
    assert exc.value.code == 2


def test_sim_results_end_with_a_duel_end_event():
    from emucore.fm.ai.sim import play_duel
    r = play_duel(FmSetup(deck=player_deck(3), duelist=2, state=7))
    assert r.winner in (0, 1) and r.reason in ("lp", "deckout", "exodia")
    assert r.turns >= 2 and r.fallbacks == 0


@settings(max_examples=15, deadline=None)
@given(duelist=st.integers(1, 39), index=st.integers(0, 2**24), deck_seed=st.integers(0, 999),
       player_as=st.integers(1, 39))
def test_property_any_duelist_seed_and_deck(duelist, index, deck_seed, player_as):
    """Any duel ends; ``fm sim`` plays exactly the duel that stepping the chooser's actions
    plays; the chooser never falls back except for the documented stale-slot play
    (fm-ai.md §2.5, an untraced glitch of the original; emucore.fm.ai.choices)."""
    from emucore.fm.ai.adapter import STALE_SLOT
    from emucore.fm.ai.sim import play_duel
    setup = FmSetup(deck=player_deck(deck_seed), duelist=duelist,
                    state=int(jump(BOOT_STATE, index)), computer=[0, 1])
    result = play_duel(setup, player_as=player_as)     # an illegal action would raise
    assert result.winner in (0, 1)
    duel, refused = new_duel(setup), []
    while not duel.over:
        decision = decide(duel, None, player_as if duel.acting_side == 0 else None)
        refused += [decision.refused] if decision.refused else []
        duel.step(decision.action)
    assert (duel.digest(), duel.winner) == (result.digest, result.winner)
    assert set(refused) <= {STALE_SLOT} and len(refused) == result.fallbacks


def test_fm_ai_duelist_facts(capsys):
    assert main(["fm", "ai", "--duelist", "8", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert (facts["window"], facts["lp_threshold"], facts["sees_face_down"]) == (20, 2000, True)
    assert facts["ahead"]["chain"] == ["B40", "A50"]
    assert facts["behind"]["split"] == {"A": 20, "B": 60, "C": 20}


def test_fm_sim_jobs_give_the_same_results(tmp_path, capsys):
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(map(str, player_deck(9))) + "\n")
    runs = []
    for jobs in ("1", "2"):
        assert main(["fm", "sim", "--duelist", "12", "--deck", str(deck), "--games", "30",
                     "--index", "500", "--jobs", jobs, "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1] and runs[0]["games"] == 30


def test_choose_action_refuses_a_side_the_computer_does_not_play():
    """The duel names its computer sides; the chooser decides only for those (a chooser
    that acted for another side would decide on an array the duel never exports)."""
    from emucore.duel.protocol import IllegalAction
    duel = new_duel(FmSetup(deck=player_deck(4), duelist=8, state=5, computer=[1]))
    with pytest.raises(IllegalAction) as exc:
        choose_action(duel)
    assert exc.value.rule == "not-computer"


# (duelist, first index) x 8 consecutive indices = 40 pairs
SIM_VS_DUEL = [(8, 0), (12, 100), (20, 2000), (26, 30000), (33, 444)]


@pytest.mark.parametrize("duelist, first", SIM_VS_DUEL)
def test_fm_sim_plays_the_duel_fm_duel_player_ai_plays(tmp_path, capsys, duelist, first):
    """For each (duelist, index), ``fm sim --games 1`` and ``fm duel --player ai`` from the
    same index end with the same digest, winner and drop: the simulated opponent is the
    one people play (both go through the duel's own export of its computer sides)."""
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(map(str, player_deck(duelist))) + "\n")
    for index in range(first, first + 8):
        assert main(["fm", "sim", "--duelist", str(duelist), "--deck", str(deck), "--games",
                     "1", "--index", str(index), "--terrain", "0", "--json"]) == 0
        [game] = json.loads(capsys.readouterr().out)["duels"]
        assert game["index"] == index
        assert main(["fm", "duel", "--duelist", str(duelist), "--deck", str(deck), "--sort",
                     "none", "--index", str(index), "--player", "ai", "--json"]) == 0
        played = json.loads(capsys.readouterr().out)
        end = played["events"][-1]
        assert played["over"] and end["kind"] == Ended.kind
        assert (played["digest"], played["winner"], end["drop"]) == \
            (game["digest"], game["winner"], game["drop"])
