"""The end of a duel (docs/fm-fidelity.md D1, D12), read from the decompiled code
(krystalgamer/memories-decomp): the result outro ``func_80020F4C`` (state 2 rolls one
confetti sprite per ``D_80090928`` entry, 7 with a CPU opponent, 6 in ``D_80090960`` without,
each ``(rand() & 0x3F) + 0x140`` and ``Rand_GetInterval(0x1000)``), then the rewards scene
``func_800218F0``, whose first frame rolls ``Duel_SelectCardDrop``; and the LP check at the
entry of ``DuelScene_UpdateFieldActions``."""

from __future__ import annotations

import json

from oracle_duel import T, new_duel, play, turn

from emucore.cli import main
from emucore.duel import replay as R
from emucore.fm import state as S
from emucore.fm.actions import Attack, Play
from emucore.fm.ai import choose_action
from emucore.fm.engine import FmDuel
from emucore.fm.replay import ADAPTER
from emucore.fm.setup import FmSetup
from emucore.fm.setup import new_duel as setup_duel
from emucore.hw.psyq_rand import BOOT_STATE, INCREMENT, MASK32, MULTIPLIER, Rand, jump

STRONG, WEAK, SPARKS = 39, 13, 343  # ATK 2000, ATK 1200, 50 burn damage


def _after(state: int, calls: int) -> int:
    """The state after ``calls`` steps of the PsyQ LCG, computed here from its constants."""
    for _ in range(calls):
        state = (state * MULTIPLIER + INCREMENT) & MASK32
    return state


def _fm_drop(capsys, duelist: int, pool: str, state: str) -> int:
    assert main(["fm", "drop", "--duelist", str(duelist), "--pool", pool, "--state", state,
                 "--json"]) == 0
    return json.loads(capsys.readouterr().out)["card"]


def _player_win() -> tuple[FmDuel, int, list]:
    """Side 0 attacks directly on its second turn and takes the CPU's last 100 LP."""
    d = new_duel((STRONG,), (SPARKS,), lp=(8000, 100))
    turn(d)
    turn(d, face_down=True)  # the CPU sets its magic card
    play(d)
    state = d.rng.state
    return d, state, d.step(Attack(0))


DIRECT_HIGH = 4864  # a direct attack of 1000+ (the runners' animation_costs.csv)


def test_player_win_shows_fourteen_outro_calls_then_rolls_the_drop(capsys):
    """The direct attack's damage number (DIRECT_HIGH), then 7 confetti sprites x 2 calls =
    14 before the drop; the end event names the state the drop was rolled from, and
    ``emucore fm drop`` at that state names the same card."""
    d, state, events = _player_win()
    kinds = [(e.kind, getattr(e, "name", None), e.rand_calls) for e in events]
    assert kinds[-3:] == [("animation", "damage_number", DIRECT_HIGH),
                          ("animation", "result_outro", 14), ("ended", None, 1)]
    end = events[-1]
    assert end.winner == 0 and end.drop > 0 and end.exact
    assert end.drop_state == f"0x{_after(state, DIRECT_HIGH + 14):08X}"
    assert d.rng.state == _after(state, DIRECT_HIGH + 15)
    assert _fm_drop(capsys, 1, end.pool, end.drop_state) == end.drop


def test_computer_duels_drop_what_fm_drop_names(capsys):
    """Every player win against the computer in ten AI-played duels shows the outro's 14
    calls before the drop, and ``emucore fm drop`` at the end event's state agrees."""
    wins = 0
    for index in range(10):
        duelist = 1 + 4 * index
        d = setup_duel(FmSetup(deck=list(range(1, 41)), duelist=duelist,
                               state=int(jump(BOOT_STATE, index)), computer=[0, 1]))
        events: list = []
        while not d.over:
            events = d.step(choose_action(d))
        end = events[-1]
        assert (events[-2].kind, events[-2].name, events[-2].rand_calls) == (
            "animation", "result_outro", 14)
        if end.winner == 0:
            wins += 1
            assert _fm_drop(capsys, duelist, end.pool, end.drop_state) == end.drop
    assert wins


def test_plan_manip_from_a_duels_end_rolls_from_the_drop_state(capsys, tmp_path):
    """``plan manip --replay`` at the last step of a won duel starts from the end event's
    drop_state (after the outro, before the roll); its k = 0 row, when listed, is the drop."""
    for index in range(10):
        setup = FmSetup(deck=list(range(1, 41)), duelist=1, state=int(jump(BOOT_STATE, index)),
                        computer=[0, 1])
        rec = R.record(ADAPTER, setup.to_json(), choose_action)
        d = ADAPTER.new_duel(rec.setup)
        for step in rec.steps:
            events = d.step(ADAPTER.decode_action(step.action))
        if d.winner == 0:
            break
    end = events[-1]
    assert end.kind == "ended" and end.winner == 0
    path = tmp_path / "won.json"
    rec.save(path)
    assert main(["plan", "manip", "--duelist", "1", "--want", str(end.drop), "--rank",
                 end.rank, "--replay", str(path), "--bound", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"] == end.drop_state and [r["k"] for r in out["offsets"]] == [0]


def test_a_computer_win_runs_the_outro_and_rolls_no_drop():
    """The outro runs for either winner (func_80020F4C reads D_80090928[winner]); the drop
    is rolled only for the player's win. The battle's own animations come first: 2000
    against 1200 is the runners' SWIPE_ATK_LOW (2716), then the destruction."""
    d = new_duel((WEAK,), (STRONG,), lp=(100, 8000))
    turn(d)
    play(d)
    state = d.rng.state
    events = d.step(Attack(0, 0))
    assert events[-1].winner == 1 and events[-1].drop == 0 and events[-1].rand_calls == 0
    shown = [(e.name, e.rand_calls) for e in events if e.kind == "animation"]
    assert [name for name, _ in shown] == ["damage_number", "shake", "destruction",
                                           "result_outro"]
    assert shown[0][1] + shown[1][1] == 2716 and shown[-1][1] == 14
    assert d.rng.state == _after(state, sum(calls for _, calls in shown))


def test_two_player_duel_outro_is_twelve_calls():
    """Without an opponent the outro reads D_80090960: one kind-0 entry, 6 x 2 = 12; no drop."""
    perm = tuple(range(40))
    cards = (SPARKS,) + tuple(c for c in range(1, 200) if T.is_monster(c))[:39]
    d = FmDuel(T, S.Shuffle(cards, perm), S.Shuffle(cards, perm), Rand(7), opponent=-1,
               lp=(8000, 50))
    state = d.rng.state
    events = d.step(Play((0,)))  # Sparks: 50 damage
    assert d.winner == 0 and events[-1].drop == 0
    # the burn effect (func_80154B30: 16 trails x (8 + 32 x 6) = 3200), then the outro
    assert [(e.name, e.rand_calls) for e in events if e.kind == "animation"] == [
        ("burn", 3200), ("result_outro", 12)]
    assert d.rng.state == _after(state, 3200 + 12)


def test_both_at_zero_the_acting_side_wins_unless_it_is_at_zero():
    """DuelScene_UpdateFieldActions entry: when either side is at 0 LP the acting side wins
    unless its own LP is 0, then the other side. With both at 0 while side 1 acts, side 0
    wins (the check does not favour a fixed side)."""
    d = new_duel((WEAK,), (WEAK, SPARKS))
    turn(d)
    d.st.sides.lp[0] = d.st.sides.lp[1] = 0  # a hand-made board: both sides at 0
    play(d)
    assert d.winner == 0 and d.end_reason == "lp"
    d = new_duel((WEAK,), (WEAK,), lp=(0, 0))
    play(d)
    assert d.winner == 1
