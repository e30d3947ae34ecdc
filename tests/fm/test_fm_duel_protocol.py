"""End of duel with rank and drop, save/restore determinism, random-legal-action property
tests and golden replays (spec/fm-engine.md §9, §11)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fm_scenario import accounted, deck, duel, place
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emucore.duel import replay as R
from emucore.fm import machine as M
from emucore.fm import rank
from emucore.fm.actions import Attack, EndTurn, Play
from emucore.fm.replay import ADAPTER
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw.psyq_rand import Rand, jump
from emucore.tables.fm import POOLS

GOLDEN = Path(__file__).parent / "golden"


def test_player_win_against_the_cpu_rolls_one_drop_from_the_rank_pool():
    d = duel(deck(2), deck(), lp=(8000, 100), opponent=7)
    place(d, 0, "monster", 0, 1)
    d.step(Play((0,)))
    before = Rand(d.rng.state)
    events = d.step(Attack(0))
    end = events[-1]
    counters = d._counters(0)
    score = rank.rank_score(d.tables, counters, 2)
    result = rank.rank_result(score)
    # the direct attack's damage number (the runners' DIRECT_HIGH, 4864), then the result
    # outro's confetti (func_80020F4C, 14) before the drop
    for _ in range(4864 + 14):
        before.rand()
    drop_state = before.state
    expected = rank.select_drop(before, d.tables.pools[7, POOLS.index(result.pool)])
    assert (end.winner, end.reason, end.scores[0], end.rank) == (0, "lp", score, result.rank)
    assert end.drop == expected and end.drop > 0 and end.drop_state == f"0x{drop_state:08X}"
    assert d.rng.state == before.state and end.starchips == result.starchips
    assert d.st.globals.drop[0] == expected
    assert (events[-2].kind, events[-2].name, events[-2].rand_calls) == (
        "animation", "result_outro", 14)
    assert end.rand_calls == 1


def test_cpu_win_gives_nothing_and_rolls_no_drop():
    """The result outro (func_80020F4C) runs for either winner: 14 calls, then no drop. The
    battle before it (3000 against 800: the runners' SWIPE_ATK_HIGH, 4956, and the
    destruction, its own event) is charged first."""
    d = duel(deck(2), deck(1, 9, 22, 100, 101), lp=(100, 8000))
    d.step(Play((0,), face_down=True))
    d.step(EndTurn())
    d.step(Play((0,)))
    state = d.rng.state
    events = d.step(Attack(0, 0))
    assert events[-1].winner == 1 and events[-1].drop == 0 and events[-1].starchips == 0
    shown = {e.name: e.rand_calls for e in events if e.kind == "animation"}
    assert shown["damage_number"] + shown["shake"] == 4956 and shown["result_outro"] == 14
    assert d.rng.state == int(jump(state, sum(shown.values()))) and events[-1].rand_calls == 0


def _random_duel(seed: int, duelist: int, steps: int | None = None):
    d = new_duel(FmSetup(deck=list(range(1, 41)), duelist=duelist, state=seed))
    pick = Rand(seed ^ 0x5A5A)
    n = 0
    while not d.over and (steps is None or n < steps):
        acts = d.legal_actions()
        d.step(acts[pick.rand() % len(acts)])
        n += 1
    return d, pick


def test_save_then_n_steps_equals_restore_then_n_steps():
    d, pick = _random_duel(77, 12, steps=6)
    saved, pick_state = d.snapshot(), pick.state

    def run(n: int) -> bytes:
        p = Rand(pick_state)
        for _ in range(n):
            if d.over:
                break
            acts = d.legal_actions()
            d.step(acts[p.rand() % len(acts)])
        return d.snapshot()

    first = run(25)
    d.restore(saved)
    assert d.snapshot() == saved
    assert run(25) == first


def _legal_deck(cards: list[int]) -> bool:
    return max(cards.count(c) for c in set(cards)) <= 3


DECKS = st.lists(st.integers(1, 722), min_size=40, max_size=40).filter(_legal_deck)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), duelist=st.integers(0, 39), cards=DECKS, other=DECKS)
def test_random_legal_duels_keep_every_invariant(seed, duelist, cards, other):
    """Any deck (every card kind: magic, traps, equips, rituals), any duelist or two players."""
    d = new_duel(FmSetup(deck=cards, duelist=duelist, state=seed, deck2=other))
    pick = Rand(seed)
    for _ in range(400):
        if d.over:
            break
        acts = d.legal_actions()
        assert len(acts) > 0
        # Half the picks come from the head of the list, where single-card plays (magic
        # activations, sets) come before the thousands of chains.
        span = len(acts) if pick.rand() & 1 else min(len(acts), 40)
        d.step(acts[pick.rand() % span])
        accounted(d)
        for side in (0, 1):
            assert 0 <= d.lp(side) <= d.st.sides.max_lp[side]
            assert 0 <= d.st.sides.draw_cursor[side] <= 40
            assert 0 <= d.swords(side) <= 4
    assert d.over
    assert len(d.legal_actions()) == 0


def test_legal_actions_all_step_without_error():
    d, _ = _random_duel(5, 3, steps=3)
    saved = d.snapshot()
    acts = d.legal_actions()
    for i in range(0, len(acts), max(1, len(acts) // 60)):
        d.restore(saved)
        d.step(acts[i])


GOLDEN_CASES = {"simon_seed1": (1, 1), "kaiba_seed99": (17, 99), "dmk_seed7": (39, 7)}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_replays_verify(name):
    duelist, seed = GOLDEN_CASES[name]
    path = GOLDEN / f"{name}.json"
    if os.environ.get("EMUCORE_UPDATE_GOLDEN") == "1" or not path.exists():
        if os.environ.get("EMUCORE_UPDATE_GOLDEN") != "1":
            pytest.fail(f"{path} missing: run with EMUCORE_UPDATE_GOLDEN=1 to record it")
        setup = FmSetup(deck=list(range(1, 41)), duelist=duelist, sort="atk",
                        state=seed).to_json()
        pick = Rand(seed)

        def choose(d):
            acts = d.legal_actions()
            return acts[pick.rand() % len(acts)]
        R.record(ADAPTER, setup, choose).save(path)
    rec = R.load(path)
    assert rec.steps and R.verify(ADAPTER, rec) is None


def test_a_tampered_replay_names_the_first_differing_step_and_fields(tmp_path):
    rec = R.load(GOLDEN / "simon_seed1.json")
    image = bytearray(rec.steps[2].state)
    image[M.field_offset("side", "lp")] ^= 1  # side0.lp
    rec.steps[2].state = bytes(image)
    rec.steps[2].digest = "0" * 16
    mismatch = R.verify(ADAPTER, rec)
    assert mismatch.step == 3
    assert [f[0] for f in mismatch.fields] == ["side0.lp"]


def test_the_shared_contract_winner_end_reason_and_event_kinds():
    """emucore.duel.protocol: ``winner`` and ``end_reason`` are None while the duel runs (the
    RAM byte keeps its -1), then 0/1 and a reason; every FM event whose idea the systems
    share uses a kind from EventKind, and FM-only ideas use names outside it."""
    from emucore.duel.protocol import EventKind
    from emucore.fm import actions

    d = duel(deck(2), deck(1, 9, 22, 100, 101), lp=(100, 8000))
    assert (d.winner, d.end_reason, d.st.globals.winner[0]) == (None, None, -1)
    d.step(Play((0,), face_down=True))
    d.step(EndTurn())
    d.step(Play((0,)))
    kinds = [e.kind for e in d.step(Attack(0, 0))]
    assert (d.winner, d.end_reason) == (1, "lp") and kinds[-1] == EventKind.ENDED
    assert EventKind.LIFE in kinds and EventKind.BATTLE in kinds
    shared = {actions.TurnStart, actions.Drew, actions.Placed, actions.Fusion, actions.Equip,
              actions.Flip, actions.PositionChange, actions.Battle, actions.Trap,
              actions.Magic, actions.LifeChanged, actions.Destroyed, actions.Ended}
    own = {actions.Failure, actions.TerrainChange, actions.StatChange, actions.RitualSummon}
    assert all(cls.kind in EventKind.ALL for cls in shared)
    assert not any(cls.kind in EventKind.ALL for cls in own)


def test_only_the_outer_layers_import_the_computer_opponent():
    """The AI package depends on the engine, never the reverse: outside emucore/fm/ai only
    the CLI, planning, frontend and capture layers import emucore.fm.ai."""
    import re

    root = Path(__file__).resolve().parents[2] / "emucore"
    allowed = ("fm/ai/", "fm/cli.py", "planning/", "frontend/", "capture/", "cli.py",
               "core_cli.py", "cliutil.py")
    found = re.compile(r"^\s*(from emucore\.fm\.ai\b|import emucore\.fm\.ai\b|"
                       r"from emucore\.fm import .*\bai\b)", re.M)
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if found.search(p.read_text())
                 and not str(p.relative_to(root)).startswith(allowed)]
    assert offenders == []


def test_a_replay_of_the_previous_engine_version_is_refused_in_one_line(capsys, tmp_path):
    """Engine version 4 changed the rules and the stream (docs/fm-fidelity.md): a version-3
    replay is refused at step 0 with one line naming both versions."""
    from emucore.cli import main

    rec = R.load(GOLDEN / "simon_seed1.json")
    rec.engine_version = 3
    path = tmp_path / "old.json"
    rec.save(path)
    assert main(["fm", "replay", "verify", str(path)]) == 1
    out = capsys.readouterr().out.strip()
    assert "\n" not in out and "engine version 3" in out and "emucore is 4" in out
