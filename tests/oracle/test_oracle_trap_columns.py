"""Which copy of a trap springs when a side has set two, read from the decompiled selectors
(krystalgamer/memories-decomp): ``Duel_SelectTrapByCardId`` (func_80025028) and
``Duel_SelectAttackTrap`` (func_8001F0D0). Both walk the first five entries of the acting
side's grid ``D_800907D8``, which name the opposing magic/trap row from column 4 down to
column 0 (side 0's view: records 29, 28, 27, 26, 25; side 1's: 14, 13, 12, 11, 10).
"""

from __future__ import annotations

from oracle_duel import T, new_duel, play, turn

from emucore.fm.actions import Attack, EndTurn

STRONG, WEAK = 39, 13  # ATK 2000 and 1200
SPARKS, MOOYAN_CURRY, LEGENDARY_SWORD, SWAMP_BATTLEGUARD = 343, 338, 301, 12
GOBLIN_FAN, BAD_REACTION, REVERSE_TRAP, FAKE_TRAP = 687, 688, 689, 690
WIDESPREAD_RUIN = 686


def set_two(trap: int, columns: tuple[int, int], player: tuple[int, ...]):
    """A duel in which side 1 sets ``trap`` in both ``columns`` over its first two turns
    while side 0 plays its first two cards; side 0 is to play its third card."""
    d = new_duel(player, (trap, trap))
    for col in columns:
        turn(d)
        play(d, zone=col, face_down=True)
        d.step(EndTurn())
    assert [d.card(1, "magic", c).card for c in columns] == [trap, trap]
    return d


def sprung(events: list) -> list[tuple[int, int]]:
    return [(e.card, e.zone) for e in events if e.kind == "trap"]


def test_goblin_fan_springs_from_the_highest_column():
    """Duel_SelectTrapByCardId: the loop runs i = 0..4 over D_800907D8[acting * 20 + i] and
    returns at the first occupied record holding the id, i.e. the opposing row's column 4
    first. With Goblin Fan in columns 1 and 3, Sparks (50) is sent back by the column-3
    copy; the column-1 copy stays set."""
    d = set_two(GOBLIN_FAN, (1, 3), (WEAK, WEAK, SPARKS))
    events = play(d)
    assert sprung(events) == [(GOBLIN_FAN, 3)]
    assert d.card(1, "magic", 1).card == GOBLIN_FAN and d.card(1, "magic", 3) is None
    assert (d.lp(0), d.lp(1)) == (8000 - 50, 8000)


def test_bad_reaction_springs_from_the_highest_column():
    """DuelEffect_ApplyLifePointRecovery asks Duel_SelectTrapByCardId(688): with Bad
    Reaction to Simochi in columns 0 and 2 the column-2 copy turns Mooyan Curry's 200 LP
    into a loss."""
    d = set_two(BAD_REACTION, (0, 2), (WEAK, WEAK, MOOYAN_CURRY))
    events = play(d)
    assert sprung(events) == [(BAD_REACTION, 2)]
    assert d.card(1, "magic", 0).card == BAD_REACTION and d.card(1, "magic", 2) is None
    assert d.lp(0) == 8000 - 200


def test_reverse_trap_springs_from_the_highest_column():
    """func_8001B170 case 5 asks Duel_SelectTrapByCardId(689) after an equip: with Reverse
    Trap in columns 0 and 4 the column-4 copy springs."""
    assert T.equip[LEGENDARY_SWORD, SWAMP_BATTLEGUARD]
    d = set_two(REVERSE_TRAP, (0, 4), (WEAK, SWAMP_BATTLEGUARD, LEGENDARY_SWORD))
    events = play(d, zone=1)
    assert sprung(events) == [(REVERSE_TRAP, 4)]
    assert d.card(1, "magic", 0).card == REVERSE_TRAP and d.card(1, "magic", 4) is None


def test_duplicate_attack_traps_keep_the_lowest_column():
    """Duel_SelectAttackTrap: the first loop walks the opposing row from column 4 down and
    stores each attack trap's slot by its id, so a later entry (a lower column) overwrites
    an earlier one: with Widespread Ruin in columns 1 and 3 the column-1 copy springs and
    destroys the attacker."""
    d = set_two(WIDESPREAD_RUIN, (1, 3), (STRONG, WEAK, WEAK))
    play(d)
    events = d.step(Attack(0))
    assert sprung(events) == [(WIDESPREAD_RUIN, 1)]
    assert d.card(1, "magic", 1) is None and d.card(1, "magic", 3).card == WIDESPREAD_RUIN
    assert d.card(0, "monster", 0) is None and d.lp(1) == 8000


def test_fake_trap_springs_from_the_highest_column():
    """Duel_SelectAttackTrap's last loop: with no attack trap covering the attack, the first
    occupied Fake Trap of the walk from column 4 down answers: with Fake Trap in columns 0
    and 2 the column-2 copy springs and the attack stops (the attacker stays)."""
    d = set_two(FAKE_TRAP, (0, 2), (STRONG, WEAK, WEAK))
    play(d)
    events = d.step(Attack(0))
    assert sprung(events) == [(FAKE_TRAP, 2)]
    assert d.card(1, "magic", 0).card == FAKE_TRAP and d.card(1, "magic", 2) is None
    assert d.card(0, "monster", 0).card == STRONG and d.lp(1) == 8000
