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


SWORDS = 348


def test_the_computer_attacks_through_swords_of_revealing_light():
    """DuelScene_UpdateFieldActions: the Swords test (``D_8009B1C8->swords_turns_remaining
    != 0`` → refusal sound) and the first-turn-lock test sit in state 3's pad branch, which
    only the player's side reaches; the computer's scripted path (state 2, sub-state 3) jumps
    to ``attack:`` past both, where only ``(flags & 0xC800) == 0x8000`` is tested. So a
    computer side under Swords attacks (Attack listed and taken), the player's does not."""
    d = new_duel((STRONG, SWORDS), (WEAK, WEAK), computer=(1,))
    turn(d)                      # side 0: STRONG
    turn(d)                      # side 1: WEAK
    turn(d)                      # side 0: Swords -> side 1's counter 4
    play(d)                      # side 1's next turn: counter 3
    assert d.swords(1) == 3
    assert Attack(0, 0) in list(d.legal_actions())
    events = d.step(Attack(0, 0))
    assert [e.kind for e in events if e.kind == "battle"] == ["battle"]
    assert d.card(1, "monster", 0) is None        # 1200 against 2000: the attacker loses
    player = new_duel((STRONG, WEAK), (SWORDS,))
    turn(player)
    turn(player)
    play(player)
    with pytest.raises(IllegalAction, match=r"\[swords\]"):
        player.step(Attack(0, 0))
