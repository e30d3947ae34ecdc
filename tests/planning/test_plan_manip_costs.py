"""``plan manip`` from a roll state: the fixed-cost actions it spends k with.

The figures are the runners' (tests/oracle/data/animation_costs.csv, from FM-Manip-Tool's
tables as MrAtlas-RNG-Manip copies them), and each is what the engine charges when the
action is played on a duel (its ``animation`` events); the fewest-actions split of k is
checked against a plain dynamic programme written here."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from emucore import tables
from emucore.cli import main
from emucore.fm import state as S
from emucore.fm.actions import AUTO, AnimationShown, Attack, EndTurn, Fusion, Play
from emucore.fm.engine import FmDuel
from emucore.fm.machine import fields_of
from emucore.hw import psyq_rand
from emucore.hw.psyq_rand import Rand
from emucore.planning import drops

T = tables.load("fm")
CSV = Path(__file__).parents[1] / "oracle" / "data" / "animation_costs.csv"
FILLER = tuple(c for c in range(100, 200) if T.is_monster(c))
FLAME, GIANT, ELF, BABY = 15, 3, 2, 4  # Flame Swordsman 1800, Hitotsu-me Giant, Mystical Elf 800
TIME_WIZARD, DARK_ENERGY, SWORD, SPARKS = 16, 303, 301, 343
FOREST, MOUNTAIN, YAMI = 330, 332, 335


def _runners() -> dict[str, int]:
    with CSV.open(encoding="utf-8") as f:
        return {r["name"]: int(r["rand_calls"]) for r in csv.DictReader(f) if r["rand_calls"]}


def test_fixed_costs_are_the_runners_figures():
    runners = _runners()
    ours = {e.name: e for e in drops.EVENTS}
    for name in ("DUMP", "EQUIP", "FUSION", "FIELD_YAMI", "FIELD_MOUNT", "FIELD_USUAL",
                 "DIRECT_LOW", "DIRECT_HIGH", "TRAP_TRIGGERED", "SPAWN_3D"):
        assert ours[name].calls == runners[name], name
    offered = {e.name for e in drops.EVENTS if e.at_will}
    assert {"DUMP", "EQUIP", "FUSION", "DIRECT_HIGH"} <= offered
    assert not {"TRAP_TRIGGERED", "SPAWN_3D"} & offered  # not the player's alone


def _second_turn(*hand: int) -> FmDuel:
    """The player's second turn: Flame Swordsman on the field, ``hand`` in hand, and the CPU
    with only a magic card set (so the way to its life points is open)."""
    perm = tuple(range(40))
    d = FmDuel(T, S.Shuffle(((FLAME, *hand) + FILLER)[:40], perm),
               S.Shuffle(((SPARKS,) + FILLER)[:40], perm), Rand(0x5EED), opponent=1)
    for face_down in (False, True):
        d.step(Play((0,), AUTO, face_down))
        d.step(EndTurn())
    assert d.hand(0) == list(hand) and d.acting_side == 0
    return d


def _shown(d: FmDuel, *actions) -> dict[str, int]:
    """The animations the actions showed (name -> calls), from a copy of the duel."""
    start = d.snapshot()
    out: dict[str, int] = {}
    for action in actions:
        for e in d.step(action):
            if isinstance(e, AnimationShown):
                out[e.name] = e.rand_calls
    d.restore(start)
    return out


def test_each_offered_cost_is_what_the_engine_charges():
    calls = {e.name: e.calls for e in drops.EVENTS}
    d = _second_turn(GIANT, DARK_ENERGY, MOUNTAIN, YAMI, FOREST)
    assert _shown(d, Play((0, 1)))["equip"] == calls["EQUIP"]
    assert _shown(d, Play((2, 3)))["failure"] == calls["DUMP"]  # two field cards fail
    assert _shown(d, Play((2,)))["field"] == calls["FIELD_MOUNT"]
    assert _shown(d, Play((3,)))["field"] == calls["FIELD_YAMI"]
    assert _shown(d, Play((4,)))["field"] == calls["FIELD_USUAL"]
    assert _shown(d, Play((2, 3)), Attack(0))["damage_number"] == calls["DIRECT_HIGH"]
    d = _second_turn(SWORD, SPARKS, ELF, BABY, TIME_WIZARD)
    assert _shown(d, Play((0,), 0))["sword_equip"] == calls["SWORD_EQUIP"]
    assert _shown(d, Play((1,)))["burn"] == calls["DAMAGE_MAGIC"]
    assert _shown(d, Play((2,)), Attack(1))["damage_number"] == calls["DIRECT_LOW"]
    start = d.snapshot()
    assert any(isinstance(e, Fusion) for e in d.step(Play((3, 4))))
    d.restore(start)
    assert _shown(d, Play((3, 4)))["fusion"] == calls["FUSION"]


def _fewest(k: int, costs: list[int]) -> int | None:
    """The fewest costs adding up to k, by the textbook table."""
    best = [0] + [None] * k
    for s in range(1, k + 1):
        options = [best[s - c] for c in costs if c <= s and best[s - c] is not None]
        best[s] = min(options) + 1 if options else None
    return best[k]


@pytest.mark.parametrize("names", [None, ("FUSION", "EQUIP", "DIRECT_HIGH"), ("EQUIP",)])
def test_spend_is_the_fewest_actions_adding_up_to_k(names):
    costs = [e for e in drops.EVENTS if e.at_will and (names is None or e.name in names)]
    calls = {e.name: e.calls for e in costs}
    spender = drops.Spender(12_000, costs)
    for k in [*range(0, 300), *range(4500, 4700), 9104, 9728, 11_999, 12_000]:
        way = spender.way(k)
        fewest = _fewest(k, list(calls.values()))
        if fewest is None:
            assert way is None and not spender.reaches([k])[0]
            continue
        assert sum(calls[name] * n for name, n in way) == k
        assert sum(n for _, n in way) == fewest
        assert drops.spend(k, costs) == way
    assert drops.spend(0) == [] and drops.spend(7) == [(drops.EVENTS[0].name, 7)]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_plan_manip_spends_k_with_the_offered_costs(capsys):
    state = 0x2468ACE1
    weights = T.pools[7, drops.POOLS.index("sa_pow")]
    card = int(drops.drops_after(state, 50, weights)[17])
    base = ("plan", "manip", "--duelist", "7", "--want", str(card), "--rank", "a-pow",
            "--state", hex(state), "--bound", "30000")
    out = _run(capsys, *base)
    assert "before the result outro" in out["k_means"] and not out["nearest_reachable"]
    calls = {e["event"]: e["calls"] for e in out["events"]}
    for row in out["offsets"]:
        assert sum(calls[h["event"]] * h["times"] for h in row["how"]) == row["k"]
    out = _run(capsys, *base, "--spend-with", "FUSION", "--spend-with", "EQUIP")
    assert [e["event"] for e in out["events"] if e["at_will"]] == ["EQUIP", "FUSION"]
    for row in out["offsets"] + out["nearest_reachable"]:
        assert row["how"] is None or {h["event"] for h in row["how"]} <= {"EQUIP", "FUSION"}
        assert row["how"] is None or sum(calls[h["event"]] * h["times"]
                                         for h in row["how"]) == row["k"]
    assert all(r["how"] is not None for r in out["nearest_reachable"])
    if any(r["how"] is None for r in out["offsets"]):
        assert out["nearest_reachable"] or out["reachable"] == 0
    assert main([*base, "--spend-with", "FUSION"]) == 0
    text = capsys.readouterr().out
    assert "no combination of the fixed-cost actions adds up to it" in text
    assert "FUSION" in text and "4552" in text


def test_plan_manip_from_a_snapshot_adds_the_outro(capsys, tmp_path):
    """A running duel's state image: the roll comes after the result outro's 14 calls."""
    d = _second_turn(GIANT, DARK_ENERGY, MOUNTAIN, YAMI, FOREST)
    path = tmp_path / "running.state"
    path.write_bytes(d.snapshot())
    card = int(T.pools[1, drops.POOLS.index("bcd")].argmax())  # Simon's likeliest B/C/D drop
    out = _run(capsys, "plan", "manip", "--duelist", "1", "--want", str(card), "--rank",
               "b-pow", "--snapshot", str(path), "--bound", "3000")
    stored = fields_of(path.read_bytes())["rng_state"]
    assert out["state"] == f"0x{int(psyq_rand.jump(stored, 14)):08X}"
