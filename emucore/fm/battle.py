"""Attacks: the attack-trap selector ``func_8001F0D0`` (§7.1), the comparison
``func_8001EFD4`` (§4.5) and the battle table of ``DuelScene_UpdateBattle`` (§5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emucore.fm import choices
from emucore.fm import state as S
from emucore.fm.actions import Battle, Flip, PositionChange, Trap
from emucore.fm.board import ROW_WIDTH
from emucore.hw import fm_stats

if TYPE_CHECKING:
    from emucore.fm.engine import FmDuel

ATTACK_TRAPS = (681, 682, 683, 684, 685, 686)  # House of Adhesive Tape .. Widespread Ruin
TRAP_THRESHOLDS = (5, 10, 15, 20, 30, 255)  # gDuel_abTrapAttackThresholds 0x8009AF24, x100
THRESHOLD_SCALE = 100
FAKE_TRAP = 690
TRAP_IDS = frozenset(range(ATTACK_TRAPS[0], FAKE_TRAP + 1))  # the ids the selector looks at
TIE = fm_stats.TIE


def select_attack_trap(d: FmDuel, defender_side: int, attacker: int) -> int:
    """``func_8001F0D0`` (``Duel_SelectAttackTrap``): the record of the trap that answers
    this attack, or -1.

    Both of its walks take the defender's magic/trap row in the attacker's grid order
    (``D_800907D8``: column 4 down to 0). The first stores each attack trap's record by its
    id, so of two copies the later entry, the lower column, is kept. Among the attack traps
    present, the one with the smallest threshold that still covers the attacker's ATK
    (CalcCardStats: no guardian star, whatever its position) answers; else the first Fake
    Trap of the walk, the one in the highest column.
    """
    ids = d.st.cards.card_id
    first = d.rec(defender_side, S.MAGIC, 0)
    if TRAP_IDS.isdisjoint(ids[first:first + ROW_WIDTH].tolist()):
        return -1  # no record of the row holds one (occupied or not)
    walk = [first + c for c in reversed(d.columns(first))
            if ATTACK_TRAPS[0] <= ids[first + c] <= FAKE_TRAP]
    if not walk:
        return -1
    present = [-1] * len(ATTACK_TRAPS)
    for r in walk:
        card = ids[r]
        if card <= ATTACK_TRAPS[-1]:
            present[card - ATTACK_TRAPS[0]] = r  # a lower column overwrites a higher one
    atk = d.stats(attacker)[0]
    chosen = -1
    for i in range(len(ATTACK_TRAPS) - 1, -1, -1):
        if present[i] < 0:
            continue
        if TRAP_THRESHOLDS[i] * THRESHOLD_SCALE < atk:
            break
        chosen = present[i]
    if chosen < 0:
        chosen = next((r for r in walk if ids[r] == FAKE_TRAP), -1)
    return chosen


def compare(d: FmDuel, left: int, right: int) -> int:
    """``func_8001EFD4(left, right)``: the attacker's battle value (guardian-star bonus on the
    left side only, capped at 9999, no floor) minus the defender's plain value; on equality 0
    if either defends, -1 if both attack. quirk: the asymmetric star term."""
    flags = d.st.cards.flags
    l_defends = bool(flags[left] & S.F_DEFENSE)
    r_defends = bool(flags[right] & S.F_DEFENSE)
    bonus = d.facts.matchup[d.active_star(left) & 0xF][d.active_star(right) & 0xF]
    actual = fm_stats.battle_value_one(d.stats(left)[l_defends], bonus)
    return fm_stats.battle_compare_one(actual, d.stats(right)[r_defends], l_defends, r_defends)


def attack(d: FmDuel, side: int, col: int, target: int) -> None:
    """Resolve one attack of ``side``'s monster column ``col`` on ``target`` (or direct)."""
    other = 1 - side
    cards = d.st.cards
    a = d.rec(side, S.MONSTERS, col)
    a_id, flags = cards.card_id[a], cards.flags[a]
    if flags & S.F_DEFENSE:  # a defending monster switches to attack first (§5.2 of fm-ai)
        flags &= ~S.F_DEFENSE
        d.events.append(PositionChange(side, col, a_id, False))
    if flags & S.F_FACE_DOWN:
        flags &= ~S.F_FACE_DOWN
        d.events.append(Flip(side, "monster", col, a_id))
    d.set_flags(a, flags | S.F_USED)
    trap = select_attack_trap(d, other, a)
    if trap >= 0:
        _spring_trap(d, other, trap, a)
        return
    if target < 0:
        damage = d.stats(a)[0]  # direct: CalcCardStats ATK, no star term
        d.events.append(Battle(side, a_id, col, 0, -1, damage, "direct"))
        d.damage(other, damage)
        return
    t = d.rec(other, S.MONSTERS, target)
    t_id, t_flags = cards.card_id[t], cards.flags[t]
    if t_flags & S.F_FACE_DOWN and choices.ATTACKED_CARD_REVEALED:
        t_flags &= ~S.F_FACE_DOWN
        d.set_flags(t, t_flags)
        d.events.append(Flip(other, "monster", target, t_id))
    result = compare(d, a, t)
    defending = bool(t_flags & S.F_DEFENSE)
    outcome = _outcome(result, defending)
    d.events.append(Battle(side, a_id, col, t_id, target, result, outcome))
    if outcome == "win":
        d.destroy(t)
        d.damage(other, result)
        d.st.bump(side, "attack_destroys")
        d.st.bump(side, "effective_attacks")
    elif outcome == "win_defense":
        d.destroy(t)
        d.st.bump(side, "attack_destroys")
        d.st.bump(other, "defenders_lost")
    elif outcome == "double_ko":
        d.destroy(a)
        d.destroy(t)
    elif outcome == "lose":
        d.destroy(a)
        d.damage(side, -result)
    elif outcome == "lose_defense":
        d.damage(side, -result)
        d.st.bump(other, "defensive_wins")


def _outcome(result: int, defending: bool) -> str:
    """The row of the battle table (§5) for a comparison result."""
    if result > 0:
        return "win_defense" if defending else "win"
    if result == 0:
        return "standoff"
    if result == TIE:
        return "double_ko"
    return "lose_defense" if defending else "lose"


def _spring_trap(d: FmDuel, owner: int, trap: int, attacker: int) -> None:
    """``func_8001F364``: the trap is removed and replaces the battle; the owner's
    traps-triggered counter +0x06 rises. The attack traps destroy the attacker; Fake Trap
    only stops the attack (choices.FAKE_TRAP_DESTROYS_ATTACKER)."""
    card = d.card_at(trap)
    col = trap - d.rec(owner, S.MAGIC, 0)
    a_id = d.card_at(attacker)
    d.discard(trap)
    d.events.append(Trap(owner, card, col, a_id))
    d.st.bump(owner, "traps_triggered")
    if card != FAKE_TRAP or choices.FAKE_TRAP_DESTROYS_ATTACKER:
        d.destroy(attacker)
