"""Position changes and who may attack (docs/fm-fidelity.md D13), read from
``DuelScene_UpdateFieldActions`` (krystalgamer/memories-decomp): the player's position change
runs ``func_8001D240``, which toggles 0x800 and never sets the used flag 0x4000; the player's
attack needs ``(flags & 0xC800) == 0x8000``; the computer's "defend" (AI state 2) sets 0x4000
after the switch (or at once when already defending) and its attack (AI state 3) turns a
defending attacker to attack first."""

from __future__ import annotations

import pytest
from oracle_duel import T, new_duel, play, turn

from emucore.duel.protocol import IllegalAction
from emucore.fm.actions import Attack, ChangePosition, EndTurn

STRONG, WEAK = 39, 13  # ATK 2000 and 1200, the same first star


def _second_turn(computer: tuple[int, ...] = ()):
    """Both sides hold one monster; side 0 acts on its second turn."""
    d = new_duel((STRONG, STRONG), (WEAK,), computer=computer)
    turn(d)
    turn(d)
    play(d)
    return d


def test_the_players_position_change_keeps_the_monster_ready():
    d = _second_turn()
    d.step(ChangePosition(0))
    d.step(ChangePosition(0))
    d.step(ChangePosition(0))
    view = d.card(0, "monster", 0)
    assert view.defending and not view.used
    with pytest.raises(IllegalAction) as err:
        d.step(Attack(0, 0))
    assert err.value.rule == "defence"
    assert not [a for a in d.legal_actions() if isinstance(a, Attack) and a.attacker == 0]
    d.step(ChangePosition(0))
    d.step(Attack(0, 0))
    assert d.lp(1) == 8000 - (T.atk[STRONG] - T.atk[WEAK])


def test_the_computers_defend_uses_the_monster():
    d = _second_turn(computer=(0,))
    d.step(ChangePosition(0))
    view = d.card(0, "monster", 0)
    assert view.defending and view.used
    d.step(EndTurn())


def _defended_third_turn(col: int):
    """A computer-played side 0 defends with column ``col`` on its second turn; side 0 then
    acts on its third turn."""
    d = _second_turn(computer=(0,))
    d.step(ChangePosition(col))
    d.step(EndTurn())
    turn(d)
    play(d)
    return d


def test_the_computers_defend_on_a_defender_only_uses_it():
    d = _defended_third_turn(1)
    assert d.card(0, "monster", 1).defending and not d.card(0, "monster", 1).used
    events = d.step(ChangePosition(1))
    assert d.card(0, "monster", 1).defending and d.card(0, "monster", 1).used
    assert not [e for e in events if e.kind == "position"]


def test_the_computers_attack_turns_a_defender_round_first():
    d = _defended_third_turn(0)
    events = d.step(Attack(0, 0))
    assert [e.kind for e in events][:2] == ["position", "battle"]
    assert not d.card(0, "monster", 0).defending
