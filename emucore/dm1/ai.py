"""The DM1 computer player: one deterministic decision rule (no RNG calls).

The cartridge's AI is not public (spec/dm1.md §7 item 6); the reference says only that the
computer never plays magic cards. emucore's rule (choices D10), reading the true state (face-down
cards included):

Play (one card, or none):
 0. Pass when playing would lose: the hand's last card with the deck spent and LP below the
    opponent's (an empty hand loses to the higher LP).
 1. Fusion: summoning a hand monster onto an own monster whose fusion result has a higher
    ATK than both materials — take the highest result ATK (ties: first hand card, lowest zone).
 2. Else, with a free zone: the highest-ATK hand monster into the lowest free zone.
 3. Else (five monsters): the highest-ATK hand monster onto the lowest-ATK own monster if it is
    stronger; otherwise pass while the deck has cards and the hand is not full (keep the
    stronger field, draw another card); else the lowest-ATK hand monster onto the lowest-ATK
    own monster. (Passing only while cards remain to draw keeps every duel finite.)
 4. With no monster in hand (a player's deck only): the first legal magic play.

Orders (each monster in zone order):
 a. If it may attack and the opponent has no monster: attack directly.
 b. If it may attack: attack the opponent monster it beats (ATK above the defender's ATK in
    attack position or DEF in defence position) with the highest ATK; none beaten: defend.
 c. If it may not attack (first turn, Swords, a seal): hold in attack position when its ATK is
    at least its DEF and no opponent monster's ATK exceeds it; else defend.
 Forced to attack (Stop Defense) with nothing beaten: attack the monster that costs least
 (the smallest LP loss).
"""

from __future__ import annotations

from emucore.dm1.actions import DIRECT, NO_TARGET, Order, Pass, Summon
from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import ATTACK, DECK_SIZE, HAND_SLOTS, ORDERS, PLAY, ZONES
from emucore.duel.protocol import Action


def choose_action(duel: Dm1Duel) -> Action | None:
    """The computer's action for the acting side (None once the duel is over)."""
    phase = duel.v.phase[0]
    if phase == PLAY:
        return _play(duel)
    if phase == ORDERS:
        return _order(duel)
    return None


def _play(duel: Dm1Duel) -> Action:
    side = duel.acting_side
    kind, fusion = duel.t.kind_list, duel.t.fusion_list
    atk = duel.atk[duel.v.field[0]][1]  # level-0 ATK on the current terrain
    hand = duel.hand_cards(side)
    deck_left = duel.v.draw_cursor[side] < DECK_SIZE
    if len(hand) == 1 and not deck_left and duel.lp(side) < duel.lp(1 - side):
        return Pass()
    monsters = [(i, c) for i, c in enumerate(hand) if kind[c] == 0]
    if not monsters:
        return duel.legal_actions()[0]
    cards = duel.v.zone_card
    own = [(z, cards[side * ZONES + z]) for z in range(ZONES)]
    best: tuple[int, int, int] | None = None  # (result ATK, hand index, zone)
    for i, c in monsters:
        for z, o in own:
            r = fusion[c][o] if o else 0
            if r and atk[r] > atk[c] and atk[r] > _level_atk(duel, side, z) and (
                    best is None or atk[r] > best[0]):
                best = (atk[r], i, z)
    if best is not None:
        return Summon(best[1], best[2])
    strongest = max(monsters, key=lambda m: (atk[m[1]], -m[0]))[0]
    free = [z for z, o in own if not o]
    if free:
        return Summon(strongest, free[0])
    weakest_zone = min(range(ZONES), key=lambda z: (_level_atk(duel, side, z), z))
    if atk[hand[strongest]] > _level_atk(duel, side, weakest_zone):
        return Summon(strongest, weakest_zone)
    if deck_left and len(hand) < HAND_SLOTS:
        return Pass()
    weakest_hand = min(monsters, key=lambda m: (atk[m[1]], m[0]))[0]
    return Summon(weakest_hand, weakest_zone)


def _level_atk(duel: Dm1Duel, side: int, zone: int) -> int:
    return duel.zone_attack(side, zone)


def _order(duel: Dm1Duel) -> Action:
    side, zone = duel.acting_side, duel.next_to_order()
    foe = 1 - side
    mine = duel.zone_attack(side, zone)
    targets = duel.occupied(foe)
    if not duel.may_attack(side, zone):
        threatened = any(duel.zone_attack(foe, t) > mine for t in targets)
        hold = mine >= duel.zone_defense(side, zone) and not threatened
        return Order(zone, hold, NO_TARGET)
    if not targets:
        return Order(zone, True, DIRECT)
    beaten = [(duel.zone_attack(foe, t), -t, t) for t in targets if mine > _guard(duel, foe, t)]
    if beaten:
        return Order(zone, True, max(beaten)[2])
    if duel.v.forced_attack[side]:
        cheapest = min(targets, key=lambda t: (_guard(duel, foe, t) - mine, t))
        return Order(zone, True, cheapest)
    return Order(zone, False, NO_TARGET)


def _guard(duel: Dm1Duel, side: int, zone: int) -> int:
    """The value an attack on this monster is compared with: ATK in attack position, else DEF."""
    if duel.zone_stance(side, zone) == ATTACK:
        return duel.zone_attack(side, zone)
    return duel.zone_defense(side, zone)


def play_out(duel: Dm1Duel, max_steps: int = 10_000) -> int:
    """Let the computer play both sides to the end; returns the number of steps."""
    steps = 0
    while not duel.over and steps < max_steps:
        duel.step(choose_action(duel))  # type: ignore[arg-type]
        steps += 1
    return steps
