"""The first turn of a duel (docs/fm-fidelity.md D2), read from the decompiled scene code
(krystalgamer/memories-decomp): ``func_800179F4`` (duel scene init), ``func_80018608``
(scene state 1: the first hand) and ``func_8001898C`` (the draw-phase entry, the only place
the turn counter +0x01 rises)."""

from __future__ import annotations

import pytest
from oracle_duel import T, new_duel, play, turn

from emucore.duel.protocol import IllegalAction
from emucore.fm import rank
from emucore.fm.actions import Attack, EndTurn, Play
from emucore.fm.ai import choose_action
from emucore.fm.setup import FmSetup
from emucore.fm.setup import new_duel as setup_duel
from emucore.hw.psyq_rand import BOOT_STATE, jump

STRONG, WEAK = 39, 13  # ATK 2000 and 1200, the same first star


def test_the_opening_draw_skips_the_turn_counter():
    """func_80018608 state 5 goes to the draw (scene 3) without func_8001898C: side 0's
    counter is 0 during its first turn and 1 during its second; side 1's first draw goes
    through func_8001898C and counts 1."""
    d = new_duel((WEAK,), (WEAK,))
    assert [d.counters(s)["turns"] for s in (0, 1)] == [0, 0]
    assert d.opening_events[0].turn == 0
    turn(d)
    assert d.counters(1)["turns"] == 1
    turn(d)
    assert d.counters(0)["turns"] == 1


def test_no_monster_attacks_before_the_first_end_of_turn():
    """func_800179F4 sets D_8009B16C |= 0x1000; DuelScene_UpdateFieldActions state 3 refuses
    a monster attack while it is set; the first end of turn (state 11) clears it, so side 1
    attacks on its first turn."""
    d = new_duel((STRONG,), (WEAK,))
    play(d)
    with pytest.raises(IllegalAction) as err:
        d.step(Attack(0))
    assert err.value.rule == "first-turn"
    assert not [a for a in d.legal_actions() if isinstance(a, Attack)]
    d.step(EndTurn())
    play(d)
    assert Attack(0, 0) in list(d.legal_actions())
    d.step(Attack(0, 0))  # 1200 against 2000: side 1's monster loses
    assert d.lp(1) == 8000 - (T.atk[STRONG] - T.atk[WEAK])


def test_the_first_turn_lock_binds_a_computer_played_side_zero():
    """choices.FIRST_TURN_LOCK_BINDS_COMPUTER: the original's computer path skips the test
    because the computer never moves first; emucore locks side 0 whoever plays it."""
    d = setup_duel(FmSetup(deck=list(range(1, 41)), duelist=7, computer=[0, 1]))
    d.step(Play((0,)))
    assert d.attack_locked(0)
    assert not [a for a in d.legal_actions() if isinstance(a, Attack)]


def test_thirty_computer_duels_keep_the_first_turn_rules():
    """In 30 AI-vs-AI duels side 0 never attacks before the first end of turn, and the end
    event's turn count for side 0 is the number of its turns minus one (the rank score is
    computed from that count)."""
    for index in range(30):
        state = int(jump(BOOT_STATE, index))
        d = setup_duel(FmSetup(deck=list(range(1, 41)), duelist=1 + index % 39, state=state,
                               computer=[0, 1]))
        starts = [e.side for e in d.opening_events if e.kind == "turn"]
        ended = first_turn_over = None
        while not d.over:
            action = choose_action(d)
            if isinstance(action, Attack):
                assert first_turn_over, f"duel {index}: side 0 attacks on turn 1"
            if isinstance(action, EndTurn):
                first_turn_over = True
            for event in d.step(action):
                if event.kind == "turn":
                    starts.append(event.side)
                elif event.kind == "ended":
                    ended = event
        assert ended is not None
        assert ended.turns == (starts.count(0) - 1, starts.count(1)), index
        assert ended.scores[0] == rank.rank_score(d.tables, d._counters(0),
                                                  d.counters(0)["end_adjust"])
