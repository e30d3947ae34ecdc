"""Attacks: the attack-trap selector ``func_8001F0D0`` (§7.1), the comparison
``func_8001EFD4`` (§4.5) and the battle table of ``DuelScene_UpdateBattle`` (§5)."""

from __future__ import annotations

from emucore.fm import choices
from emucore.fm import state as S
from emucore.fm.actions import Battle, Flip, PositionChange, Trap
from emucore.fm.board import BoardOps
from emucore.fm.cards import ATTACK_TRAPS, FAKE_TRAP
from emucore.fm.timeline import DEFAULT_VIEW
from emucore.hw import fm_stats

TRAP_THRESHOLDS = (5, 10, 15, 20, 30, 255)  # gDuel_abTrapAttackThresholds 0x8009AF24, x100
THRESHOLD_SCALE = 100
TRAP_IDS = frozenset(range(ATTACK_TRAPS[0], FAKE_TRAP + 1))  # the ids the selector looks at
TIE = fm_stats.TIE


def select_attack_trap(d: BoardOps, defender_side: int, attacker: int) -> int:
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
    if TRAP_IDS.isdisjoint(ids[first:first + S.ROW_WIDTH].tolist()):
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


def star_bonus(d: BoardOps, left: int, right: int) -> int:
    """``Duel_CalcGuardianStarBonus``: the matchup of the two active stars (+500 when the
    left one is strong against the right one, -500 the other way, else 0)."""
    return d.facts.matchup[d.active_star(left) & 0xF][d.active_star(right) & 0xF]


def compare(d: BoardOps, left: int, right: int) -> int:
    """``func_8001EFD4(left, right)``: the attacker's battle value (guardian-star bonus on the
    left side only, capped at 9999, no floor) minus the defender's plain value; on equality 0
    if either defends, -1 if both attack. quirk: the asymmetric star term."""
    flags = d.st.cards.flags
    l_defends = bool(flags[left] & S.F_DEFENCE)
    r_defends = bool(flags[right] & S.F_DEFENCE)
    actual = fm_stats.battle_value_one(d.stats(left)[l_defends], star_bonus(d, left, right))
    return fm_stats.battle_compare_one(actual, d.stats(right)[r_defends], l_defends, r_defends)


def attack(d: BoardOps, side: int, col: int, target: int, view: str = DEFAULT_VIEW) -> None:
    """Resolve one attack of ``side``'s monster column ``col`` on ``target`` (or direct), and
    play ``DuelScene_UpdateBattle``'s presentation on the duel's stream: 2-D, or the 3-D
    battle the player chose with ``view`` (timeline.VIEWS)."""
    other = 1 - side
    cards = d.st.cards
    a = d.rec(side, S.MONSTERS, col)
    a_id, flags = cards.card_id[a], cards.flags[a]
    if flags & S.F_DEFENCE:  # a defending monster switches to attack first (§5.2 of fm-ai)
        flags &= ~S.F_DEFENCE
        d.events.append(PositionChange(side, col, a_id, False))
    if flags & S.F_FACE_DOWN:
        flags &= ~S.F_FACE_DOWN
        d.events.append(Flip(side, "monster", col, a_id))
    d.set_flags(a, flags | S.F_USED)
    trap = select_attack_trap(d, other, a)
    if trap >= 0:
        _spring_trap(d, other, trap, a)
        return
    tl = d.timeline
    if target < 0:
        damage = d.stats(a)[0]  # direct: CalcCardStats ATK, no star term
        d.events.append(Battle(side, a_id, col, 0, -1, damage, "direct"))
        d.damage(other, damage)
        d.show(tl.damage_number(damage, direct=True))  # state 9
        return
    t = d.rec(other, S.MONSTERS, target)
    t_id, t_flags = cards.card_id[t], cards.flags[t]
    if t_flags & S.F_FACE_DOWN and choices.ATTACKED_CARD_REVEALED:
        t_flags &= ~S.F_FACE_DOWN
        d.set_flags(t, t_flags)
        d.events.append(Flip(other, "monster", target, t_id))
    result = compare(d, a, t)
    defending = bool(t_flags & S.F_DEFENCE)
    outcome = _outcome(result, defending)
    d.events.append(Battle(side, a_id, col, t_id, target, result, outcome))
    # state 3: life points and the rank counters
    if outcome == "win":
        d.damage(other, result)
        d.st.bump(side, "attack_destroys")
        d.st.bump(side, "effective_attacks")
    elif outcome == "win_defense":
        d.st.bump(side, "attack_destroys")
        d.st.bump(other, "defenders_lost")
    elif outcome in ("lose", "lose_defense"):
        d.damage(side, -result)
        if outcome == "lose_defense":
            d.st.bump(other, "defensive_wins")
    # state 4: the guardian-star flash when the stars decide
    if star_bonus(d, a, t):
        d.show(tl.star_flash)
    shown = _SHOWN[outcome](result, t, a)
    if view != DEFAULT_VIEW:
        _battle_3d(d, view, [record for _, record in shown if record >= 0])
        return
    # states 6-10, the defender first: each side shown with a number (D_8009B1A4) and, if
    # it loses (D_8009B1B0 < 0), its shake and its destruction
    for value, record in shown:
        d.show(tl.damage_number(value))
        if record >= 0:
            d.show(tl.shake(value))
            d.destroy(record)
            d.show(tl.destruction())


def _battle_3d(d: BoardOps, view: str, destroyed: list[int]) -> None:
    """State 5 hands the battle to the 3-D scene (``Main_RunAnimatedBattle``); the duel then
    resumes (``DuelScene_UpdateResume``): the Swords of Revealing Light of each side that
    has them in force are set up again (effect 21), and each card the battle destroyed
    breaks up (effect 11, blocking), the defender first. No damage number, shake or tile
    destruction runs after a 3-D battle."""
    tl = d.timeline
    d.show(tl.battle_3d(view, len(destroyed)))
    for side in (0, 1):
        if d.st.sides.swords[side]:
            d.show(tl.swords)
    for record in destroyed:
        d.destroy(record)
        d.show(tl.card_removed)


def _outcome(result: int, defending: bool) -> str:
    """The row of the battle table (§5) for a comparison result."""
    if result > 0:
        return "win_defense" if defending else "win"
    if result == 0:
        return "standoff"
    if result == TIE:
        return "double_ko"
    return "lose_defense" if defending else "lose"


# DuelScene_UpdateBattle state 3 per outcome: the sides shown, the defender first, as
# (the number shown, the record destroyed or -1), from (result, defender, attacker)
_SHOWN = {
    "win": lambda r, t, a: ((r, t),),
    "win_defense": lambda r, t, a: ((0, t),),
    "standoff": lambda r, t, a: ((0, -1),),
    "double_ko": lambda r, t, a: ((0, t), (0, a)),
    "lose": lambda r, t, a: ((0, -1), (r, a)),
    "lose_defense": lambda r, t, a: ((0, -1), (r, -1)),
}


def _spring_trap(d: BoardOps, owner: int, trap: int, attacker: int) -> None:
    """``func_8001F364``: the trap is removed and replaces the battle; the owner's
    traps-triggered counter +0x06 rises. The trap's light (effect 8) plays; then state 10
    breaks the attacker for an attack trap, or the trap's own card for Fake Trap (which only
    stops the attack: choices.FAKE_TRAP_DESTROYS_ATTACKER), with tile record 1."""
    card = d.card_at(trap)
    col = trap - d.rec(owner, S.MAGIC, 0)
    a_id = d.card_at(attacker)
    d.discard(trap)
    d.events.append(Trap(owner, card, col, a_id))
    d.st.bump(owner, "traps_triggered")
    d.show(d.timeline.trap())
    if card != FAKE_TRAP or choices.FAKE_TRAP_DESTROYS_ATTACKER:
        d.destroy(attacker)
    d.show(d.timeline.destruction(trap=True))
