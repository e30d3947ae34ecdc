"""The duel's whole rand() stream in AI-against-AI duels: every call accounted for, every
animation charged, each direct attack costing what the runners' tools measured, and every
drop what ``emucore fm drop`` names at the end event's state.

Sources: the fixed rows DIRECT_HIGH 4864 and DIRECT_LOW 2624 of tests/oracle/data/
animation_costs.csv (the runners' tools, measured in the game), with the decompiled code's
one exception (func_80153200 shows the number 0 with record 6's 64 particles, so a direct
attack for 0 costs 4864); the drop roll of ``Duel_SelectCardDrop``.
"""

from __future__ import annotations

import json

from emucore.cli import main
from emucore.fm.ai import choose_action
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw.psyq_rand import BOOT_STATE, jump

DUELISTS = (1, 4, 7, 9, 11, 15, 17, 21, 26, 30, 33, 37, 38, 39)
DECK = list(range(1, 35)) + [330, 338, 343, 320, 683, 301]  # magic, a field card, a trap


def _duels(count: int):
    """``count`` AI-against-AI duels, each a list of (action, events, calls made)."""
    for k in range(count):
        duelist = DUELISTS[k % len(DUELISTS)]
        d = new_duel(FmSetup(deck=DECK, duelist=duelist, state=int(jump(BOOT_STATE, 97 * k)),
                             computer=[0, 1]))
        steps = []
        while not d.over:
            before = d.rng.calls
            action = choose_action(d)
            events = d.step(action)
            steps.append((action, events, d.rng.calls - before))
        yield duelist, steps


def test_forty_ai_duels_charge_every_animation_and_every_call():
    """Every animation event carries an integer count; with the action's rng_calls the
    events of a step account for every call it made; each direct attack costs 4864 at 1000
    or more (or 0) and 2624 below."""
    direct = animations = 0
    for _, steps in _duels(40):
        for action, events, calls in steps:
            assert action.rng_calls + sum(e.rand_calls for e in events) == calls
            for k, event in enumerate(events):
                if event.kind == "animation":
                    animations += 1
                    assert isinstance(event.rand_calls, int) and event.rand_calls >= 0
                    assert isinstance(event.exact, bool)
                if event.kind == "battle" and event.outcome == "direct":
                    direct += 1
                    shown = events[k + 1:k + 3]
                    number = next(e for e in shown if e.kind == "animation")
                    assert number.name == "damage_number"
                    expected = 2624 if 0 < event.result < 1000 else 4864
                    assert number.rand_calls == expected
    assert direct > 20 and animations > 400


def test_every_player_win_drops_what_fm_drop_names(capsys):
    """The drop of every win of side 0 against the computer equals ``emucore fm drop`` at the
    end event's drop_state (the state after the outro, before the roll)."""
    wins = 0
    for duelist, steps in _duels(40):
        end = steps[-1][1][-1]
        assert end.kind == "ended"
        if end.winner != 0:
            continue
        wins += 1
        assert main(["fm", "drop", "--duelist", str(duelist), "--pool", end.pool, "--state",
                     end.drop_state, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["card"] == end.drop
    assert wins >= 5
