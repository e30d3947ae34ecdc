"""Duel rules whose expected values are read from the decompiled routines
(krystalgamer/memories-decomp). The differences D1-D13 of docs/fm-fidelity.md have their
own files beside this one (first turn, end, chain, field actions, ritual); Dark Hole (D4)
and Dark-piercing Light (D5) are here with the other magic.
"""

from __future__ import annotations

import pytest
from oracle_duel import T, new_duel, play, turn

from emucore.duel.protocol import IllegalAction
from emucore.fm.actions import Attack, ChangePosition, EndTurn
from emucore.fm.rank import select_drop
from emucore.hw.psyq_rand import INCREMENT, MASK32, MULTIPLIER, Rand

# Monsters sharing guardian star 1 (played with star 0), so no star bonus enters a battle.
STRONG, WEAK, MIDDLE = 39, 13, 62  # ATK 2000, ATK 1200, ATK 1300 / DEF 1400
SWAMP_BATTLEGUARD, LEGENDARY_SWORD = 12, 301
REVERSE_TRAP, DARK_HOLE, DRAGON_CAPTURE_JAR = 689, 336, 329
DARK_PIERCING_LIGHT, SWORDS, SPARKS = 350, 348, 343


def test_same_star_precondition():
    """The battle tests below rely on equal first stars (no Duel_CalcGuardianStarBonus)."""
    assert T.star_1[STRONG] == T.star_1[WEAK] == T.star_1[MIDDLE]
    assert (T.atk[STRONG], T.atk[WEAK], T.atk[MIDDLE], T.def_[MIDDLE]) == (2000, 1200, 1300, 1400)


def test_reverse_trap_takes_twice_the_equip_bonus():
    """func_8001B170 case 5/6: when D_8009B154 (the play's equip bonus, +500 per equip in
    DuelScene_UpdateCardPlacement state 3) is not 0 and the opponent holds Reverse Trap, the
    monster's stat_modifier -= 2 x D_8009B154: +500 becomes -500."""
    assert T.equip[LEGENDARY_SWORD, SWAMP_BATTLEGUARD]
    d = new_duel((WEAK, SWAMP_BATTLEGUARD, LEGENDARY_SWORD), (REVERSE_TRAP,))
    turn(d)
    turn(d, face_down=True)
    events = play(d, (0, 1))
    assert [e.card for e in events if e.kind == "trap"] == [REVERSE_TRAP]
    assert d.card(0, "monster", 1).atk == T.atk[SWAMP_BATTLEGUARD] + 500 - 2 * 500


def test_failed_combination_costs_one_call_and_keeps_the_later_monster():
    """DuelScene_UpdateCardPlacement state 7: a failure makes one rand() call (the fly-off
    speed) and, both cards being monsters, the earlier card A flies off and B stays."""
    assert not T.fusion[STRONG, WEAK] and not T.fusion[WEAK, STRONG]
    d = new_duel((STRONG, WEAK), (WEAK,))
    before = d.rng.calls
    events = play(d, (0, 1))
    assert d.rng.calls - before == 1
    assert [(e.discarded, e.kept) for e in events if e.kind == "failure"] == [(STRONG, WEAK)]
    assert d.card(0, "monster", 0).card == WEAK


def test_failed_combination_discards_the_non_monster():
    """DuelScene_UpdateCardPlacement state 7: when B is not a monster and A is, the slots are
    swapped so B flies off and the monster A stays."""
    assert not T.fusion[STRONG, DARK_HOLE] and not T.equip[DARK_HOLE, STRONG]
    d = new_duel((STRONG, DARK_HOLE), (WEAK,))
    events = play(d, (0, 1))
    assert [(e.discarded, e.kept) for e in events if e.kind == "failure"] == [(DARK_HOLE, STRONG)]
    assert d.card(0, "monster", 0).card == STRONG


def _battle_board(defender_defends: bool = False):
    """Side 0 holds STRONG and WEAK, side 1 holds MIDDLE (in defence if asked); side 0 to act
    on its third turn."""
    d = new_duel((STRONG, WEAK, STRONG), (MIDDLE, MIDDLE))
    turn(d)
    play(d)
    if defender_defends:
        d.step(ChangePosition(0))
    d.step(EndTurn())
    turn(d)
    turn(d)
    play(d)
    return d


def test_battle_win_against_attack_position():
    """DuelScene_UpdateBattle state 3, result > 0 against an attack-position defender: the
    defender's LP -= result; the attacker's +0x0B and effective_attacks (+0x02) rise."""
    d = _battle_board()
    d.step(Attack(0, 0))
    assert d.lp(1) == 8000 - (2000 - 1300)
    assert d.card(1, "monster", 0) is None
    assert d.counters(0)["effective_attacks"] == 1


def test_battle_loss_against_attack_position():
    """DuelScene_UpdateBattle state 3, result < -1: the attacker's LP += result and the
    attacker is destroyed (D_8009B1B0[0] = -1); the defender stays."""
    d = _battle_board()
    d.step(Attack(1, 0))
    assert d.lp(0) == 8000 - (1300 - 1200)
    assert d.card(0, "monster", 1) is None and d.card(1, "monster", 0).card == MIDDLE


def test_battle_against_defence_position():
    """DuelScene_UpdateBattle state 3: result > 0 against a defender destroys it with no LP
    damage (defender side +0x0C); result < -1 costs the attacker LP, the attacker survives
    and the defender side's defensive_wins (+0x03) rises."""
    d = _battle_board(defender_defends=True)
    d.step(Attack(1, 0))
    assert d.lp(0) == 8000 - (1400 - 1200)
    assert d.card(0, "monster", 1).card == WEAK
    assert d.counters(1)["defensive_wins"] == 1
    d.step(Attack(0, 0))
    assert (d.lp(1), d.card(1, "monster", 0)) == (8000, None)


def test_dark_hole_removes_every_monster_and_magic_trap_card():
    """func_800257A0 (DuelEffect_ApplyBoardDestruction), Dark Hole branch: every occupied
    record of 5-14 and 20-29 goes: both sides' monsters and magic/trap rows, the caster's
    own set card too (D4)."""
    d = new_duel((STRONG, REVERSE_TRAP, DARK_HOLE), (MIDDLE, SWORDS))
    turn(d)
    turn(d)
    turn(d, face_down=True)
    turn(d, face_down=True)
    assert d.card(0, "magic", 0) and d.card(1, "magic", 0)
    play(d)
    assert all(d.card(s, row, c) is None for s in (0, 1) for row in ("monster", "magic")
               for c in range(5))


def test_dragon_capture_jar_takes_opposing_dragons_only():
    """func_800257A0, Dragon Capture Jar branch: grid entries 5-9 (the opposing monster row)
    whose type byte is 0 (Dragon) go; the caster's own dragon and other types stay."""
    assert T.type_id[STRONG] == 0 and T.type_id[MIDDLE] != 0
    d = new_duel((STRONG, WEAK, DRAGON_CAPTURE_JAR), (STRONG, MIDDLE))
    for _ in range(4):
        turn(d)
    play(d)
    assert d.card(0, "monster", 0).card == STRONG
    assert d.card(1, "monster", 0) is None and d.card(1, "monster", 1).card == MIDDLE


def test_dark_piercing_light_reveals_both_monster_rows_only():
    """DuelEffect_ApplyDarkPiercingLight: grid entries 5-14 of the caster's view
    (D_800907D8) with flags 0x9000 (occupied and face-down) are revealed: entries 5-9 the
    opposing monsters, 10-14 the caster's own monsters; no magic/trap card (D5)."""
    d = new_duel((STRONG, WEAK, DARK_PIERCING_LIGHT), (MIDDLE, SWORDS))
    for _ in range(4):
        turn(d, face_down=True)
    assert d.card(0, "monster", 1).face_down and d.card(1, "magic", 0).face_down
    play(d)
    assert not any(d.card(s, "monster", c).face_down for s, c in ((1, 0), (0, 0), (0, 1)))
    assert d.card(1, "magic", 0).face_down


def test_swords_stop_attacks():
    """DuelScene_UpdateFieldActions state 3: a monster-row attack is refused while the side's
    swords_turns_remaining (+0x19) is not 0."""
    d = new_duel((STRONG, WEAK), (SWORDS,))
    turn(d)
    turn(d)
    play(d)
    with pytest.raises(IllegalAction, match=r"\[swords\]"):
        d.step(Attack(0))


def test_the_side_not_at_zero_wins():
    """DuelScene_UpdateFieldActions entry: with one side at 0 LP the other side wins and its
    record +0x00 is set to 2 (the LP end adjustment)."""
    d = new_duel((SPARKS,), (WEAK,), lp=(8000, 50))
    play(d)
    assert d.winner == 0 and d.end_reason == "lp"
    assert d.counters(0)["end_adjust"] == 2


def test_card_drop_roll():
    """Duel_SelectCardDrop: threshold = (rand() & 2047) + 1, then the first card id whose
    running weight sum reaches it. Weights 1000 (id 1) and 1048 (id 2): a threshold up to
    1000 drops id 1, above drops id 2."""
    weights = [0] * 723
    weights[1], weights[2] = 1000, 1048
    for state in (0, 0x1234, 0xDEADBEEF, 0x55555555):
        after = (state * MULTIPLIER + INCREMENT) & MASK32
        threshold = (((after >> 16) & 0x7FFF) & 2047) + 1
        rng = Rand(state)
        assert select_drop(rng, weights) == (1 if threshold <= 1000 else 2)
        assert rng.calls == 1
