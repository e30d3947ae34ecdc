"""The DM1 duel: turn flow, summons and fusions, battle orders and the end of the duel.

A turn (side ``s``): draw one card (not on the duel's first turn; nothing when the deck is
empty or the hand already holds six cards); if all five Exodia pieces are in hand, ``s`` wins.
Then ``s`` may play one card (:class:`Summon` or :class:`Magic`) or none (:class:`Pass`); a
player whose hand is empty loses to the higher LP at once (equal LP: a draw), so playing the
last card of the hand ends the duel. Then ``s`` gives every own monster, zone by zone, an
:class:`Order`: defend, or attack. An
attack-position monster must attack — an opponent monster if there is one, else directly —
except on the duel's first turn, under Swords of Revealing Light, or when sealed (Dragon
Capture Jar); it then holds in attack position. When every monster has its order the turn
passes. Magic effects live in :mod:`emucore.dm1.magic`.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Sequence
from typing import Any, ClassVar

from emucore import tables
from emucore.dm1 import choices, decks, magic, rng
from emucore.dm1.actions import (
    DIRECT,
    NO_TARGET,
    Battle,
    Destroyed,
    Drew,
    Ended,
    Fused,
    LifeChanged,
    Magic,
    Order,
    Ordered,
    Pass,
    Passed,
    Summon,
    Summoned,
    TurnStart,
)
from emucore.dm1.state import (
    ACTED,
    ATTACK,
    DECK_SIZE,
    DEFEND,
    DRAWN,
    END_EMPTY_HAND,
    END_EXODIA,
    END_LP,
    END_REASONS,
    FACE_UP,
    FUSION_EMPTY,
    HAND_SLOTS,
    NO_WINNER,
    OPENING_HAND,
    ORDERS,
    OVER,
    PLAY,
    SEALED,
    START_LP,
    ZONES,
    fields_of,
    new_record,
    views,
)
from emucore.dm1.stats import stat_tables
from emucore.duel.protocol import DRAW, Action, Duel, Event, IllegalAction
from emucore.duel.rules import Rule, RuleTable

EXODIA = frozenset((17, 18, 19, 20, 21))  # legs, arms, head: all five in hand wins


class Dm1Duel(Duel):
    """One DM1 duel: side 0 (the player) against side 1 (``opponent``, ROM duelist 0..15).

    RNG use at the start, in this order: side 0's ``deck`` is shuffled (unless ``shuffle`` is
    False), or, when no deck is given, dealt from the pool of opponent ``player_pool``; then
    side 1's ``opponent_deck`` is shuffled the same way, or else dealt from the opponent's pool.
    A dealt deck is already in random order and is not shuffled.
    """

    system: ClassVar[str] = "dm1"

    def __init__(self, deck: Sequence[int] | None = None, *, opponent: int = 0, seed: int = 0,
                 player_pool: int | None = None, opponent_deck: Sequence[int] | None = None,
                 shuffle: bool = True, data: object | None = None) -> None:
        self.t = data if data is not None else default_tables()
        self.t.opponent(opponent)  # KeyError for an unknown opponent
        self.record = new_record()
        self.v = views(self.record)
        self.atk, self.dfn = stat_tables(self.t.stat)
        self.events: list[Event] = []
        v = self.v
        v.rng_state[0] = seed & 0xFFFFFFFF
        v.opponent[0] = opponent
        v.fusion_block[0:3] = _u16([FUSION_EMPTY] * 3)
        v.winner[0] = NO_WINNER
        sides = (self._prepare(deck, player_pool, shuffle),
                 self._prepare(opponent_deck, None if opponent_deck else opponent, shuffle))
        for side, cards in enumerate(sides):
            v.deck[side * DECK_SIZE:(side + 1) * DECK_SIZE] = _u16(cards)
            v.lp[side] = START_LP
            v.hand[side * HAND_SLOTS:side * HAND_SLOTS + OPENING_HAND] = _u16(
                cards[:OPENING_HAND])
            v.hand_count[side] = v.draw_cursor[side] = OPENING_HAND
        self._begin_turn(choices.FIRST_SIDE)
        self.opening_events = self.events

    def _prepare(self, deck: Sequence[int] | None, pool: int | None, shuffle: bool) -> list[int]:
        if deck is not None:
            cards = decks.check_deck(list(deck), self.t)
            return decks.shuffle(cards, self.draw_random) if shuffle else cards
        if pool is None:
            raise decks.DeckError("side 0 needs a deck or a player_pool to deal one from")
        self.t.opponent(pool)
        return decks.deal(self.t.pools[pool], self.draw_random)

    # --- the protocol -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.v.phase[0] == OVER

    @property
    def acting_side(self) -> int:
        return self.v.acting[0]

    def snapshot(self) -> bytes:
        return bytes(self.record)

    def restore(self, data: bytes) -> None:
        if len(data) != len(self.record):
            raise ValueError(f"state image of {len(data)} bytes, expected {len(self.record)}")
        self.record[:] = data

    def state_fields(self) -> dict[str, int]:
        return fields_of(bytes(self.record))

    def legal_actions(self) -> list[Action]:
        phase = self.v.phase[0]
        if phase == PLAY:
            return self._play_actions()
        if phase == ORDERS:
            return self._order_actions()
        return []

    def step(self, action: Action) -> list[Event]:
        phase = self.v.phase[0]
        self.events = []
        if phase == OVER:
            raise IllegalAction("duel-over", "the duel is over")
        rule = _RULES[type(action)]
        if rule is None or rule.phase != phase:
            raise IllegalAction("phase", f"a {action.kind} action is not allowed in the "
                                         f"{'play' if phase == PLAY else 'order'} phase")
        hand_before = self.v.hand_count[self.acting_side]
        rule.apply(self, action, rule.check(self, action))
        if self.v.hand_count[self.acting_side] == 0 < hand_before:
            self._end_empty_hand()
        if self.v.phase[0] != OVER:
            self._advance()
        return self.events

    # --- reading the state ----------------------------------------------------------------

    def lp(self, side: int) -> int:
        return self.v.lp[side]

    def hand_cards(self, side: int) -> list[int]:
        base = side * HAND_SLOTS
        return self.v.hand[base:base + self.v.hand_count[side]].tolist()

    def hand_card(self, side: int, index: int) -> int:
        return self.v.hand[side * HAND_SLOTS + index]

    def zone_card(self, side: int, zone: int) -> int:
        return self.v.zone_card[side * ZONES + zone]

    def zone_level(self, side: int, zone: int) -> int:
        return self.v.zone_level[side * ZONES + zone]

    def zone_stance(self, side: int, zone: int) -> int:
        return self.v.zone_stance[side * ZONES + zone]

    def zone_attack(self, side: int, zone: int) -> int:
        """ATK as shown and fought with: stored terrain value x level factor, four digits."""
        i = side * ZONES + zone
        v = self.v
        return self.atk[v.field[0]][v.zone_level[i] + 1][v.zone_card[i]]

    def zone_defense(self, side: int, zone: int) -> int:
        i = side * ZONES + zone
        v = self.v
        return self.dfn[v.field[0]][v.zone_level[i] + 1][v.zone_card[i]]

    def occupied(self, side: int) -> list[int]:
        """Own zones holding a monster, in zone order."""
        cards = self.v.zone_card
        base = side * ZONES
        return [z for z in range(ZONES) if cards[base + z]]

    def next_to_order(self) -> int:
        """The zone whose order is asked next (-1 when none)."""
        side = self.v.acting[0]
        cards, flags = self.v.zone_card, self.v.zone_flags
        for z in range(ZONES):
            i = side * ZONES + z
            if cards[i] and not flags[i] & ACTED:
                return z
        return -1

    def may_attack(self, side: int, zone: int) -> bool:
        """Whether the monster may attack now (first turn, Swords and seals prevent it)."""
        return self.attack_block(side, zone) is None

    def attack_block(self, side: int, zone: int) -> str | None:
        """Why the monster may not attack now, by name (``"first-turn"``, ``"locked"`` by
        Swords of Revealing Light, ``"sealed"`` by Dragon Capture Jar), or None when it may:
        the screens say the reason in words."""
        v = self.v
        if v.turn[0] <= 1:
            return "first-turn"
        if v.lock_turns[side]:
            return "locked"
        if v.zone_flags[side * ZONES + zone] & SEALED:
            return "sealed"
        return None

    def attack_targets(self, side: int) -> list[int]:
        """Where an attack of ``side`` may go: the opponent's monsters, else ``DIRECT``."""
        return self.occupied(1 - side) or [DIRECT]

    @property
    def winner(self) -> int | None:
        """None while the duel runs, then 0, 1 or ``protocol.DRAW`` (the record's winner byte
        keeps 0xFF / 2 for running / drawn)."""
        w = self.v.winner[0]
        return None if w == NO_WINNER else DRAW if w == DRAWN else w

    @property
    def end_reason(self) -> str | None:
        return END_REASONS[self.v.end_reason[0]] if self.over else None

    # --- actions --------------------------------------------------------------------------

    def _play_actions(self) -> list[Action]:
        side = self.acting_side
        out: list[Action] = []
        kind = self.t.kind_list
        for i, card in enumerate(self.hand_cards(side)):
            if kind[card] == 0:
                out += [Summon(i, z) for z in range(ZONES)]
            else:
                out += [Magic(i, target) for target in magic.targets(self, card)]
        out.append(Pass())
        return out

    def _order_actions(self) -> list[Action]:
        side, zone = self.acting_side, self.next_to_order()
        out: list[Action] = []
        if not (self.v.forced_attack[side] and self.may_attack(side, zone)):
            out.append(Order(zone, False, NO_TARGET))
        if self.may_attack(side, zone):
            out += [Order(zone, True, t) for t in self.attack_targets(side)]
        else:
            out.append(Order(zone, True, NO_TARGET))
        return out

    def _check_hand(self, index: int, monster: bool) -> None:
        side = self.acting_side
        if not 0 <= index < self.v.hand_count[side]:
            raise IllegalAction("hand", f"no hand card {index} (hand holds "
                                        f"{self.v.hand_count[side]})")
        is_monster = self.t.kind_list[self.hand_card(side, index)] == 0
        if is_monster != monster:
            raise IllegalAction("card-kind", "summon a monster, activate a magic card")

    def _check_pass(self, action: Pass) -> None:
        """A pass is always allowed in the play phase."""

    def _do_pass(self, action: Pass, _: None) -> None:
        self.events.append(Passed(self.acting_side))

    def _check_summon(self, action: Summon) -> None:
        self._check_hand(action.hand, monster=True)
        if not 0 <= action.zone < ZONES:
            raise IllegalAction("zone", f"zone {action.zone} outside 0..{ZONES - 1}")

    def _do_summon(self, action: Summon, _: None) -> None:
        self._summon(action.hand, action.zone)

    def _check_magic(self, action: Magic) -> int:
        """The magic card the action plays, once its hand index and target are checked."""
        self._check_hand(action.hand, monster=False)
        card = self.hand_card(self.acting_side, action.hand)
        magic.check_target(self, card, action.target)
        return card

    def _do_magic(self, action: Magic, card: int) -> None:
        self._take_from_hand(action.hand)
        magic.activate(self, card, action.target)

    def _check_order(self, action: Order) -> None:
        side, zone = self.acting_side, self.next_to_order()
        may = self.may_attack(side, zone)
        if action.zone != zone:
            ok = False
        elif not action.attack:
            ok = action.target == NO_TARGET and not (may and self.v.forced_attack[side])
        elif may:
            ok = action.target in self.attack_targets(side)
        else:
            ok = action.target == NO_TARGET
        if not ok:
            raise IllegalAction("order", f"{action} is not a legal order now (zone {zone} acts;"
                                         f" choose from {self._order_actions()})")

    def _take_from_hand(self, index: int) -> int:
        side = self.acting_side
        hand = self.v.hand
        base = side * HAND_SLOTS
        count = self.v.hand_count[side]
        card = hand[base + index]
        hand[base + index:base + count - 1] = hand[base + index + 1:base + count]
        hand[base + count - 1] = 0
        self.v.hand_count[side] = count - 1
        return card

    def _summon(self, index: int, zone: int) -> None:
        """Duel_Summon: onto an empty zone, onto an own monster (fusion or replacement)."""
        side = self.acting_side
        card = self._take_from_hand(index)
        i = side * ZONES + zone
        v = self.v
        old = v.zone_card[i]
        result = self.t.fusion_list[card][old] if old else 0
        block = v.fusion_block
        if old:
            block[0], block[1] = card - 1, old - 1  # WRAM $CECB/$CECD: ROM indices
            block[2] = result - 1 if result else FUSION_EMPTY
        if result:
            self.events.append(Fused(side, zone, card, old, result))
            self._place(i, result, FACE_UP if choices.FUSION_RESULT_FACE_UP else 0)
        else:
            self.events.append(Summoned(side, zone, card, old))
            self._place(i, card, 0)

    def _place(self, i: int, card: int, flags: int) -> None:
        v = self.v
        v.zone_card[i] = card
        v.zone_level[i] = 0
        v.zone_stance[i] = ATTACK
        v.zone_flags[i] = flags

    def _order(self, action: Order, _: None = None) -> None:
        side, zone = self.acting_side, action.zone
        i = side * ZONES + zone
        v = self.v
        v.zone_stance[i] = ATTACK if action.attack else DEFEND
        v.zone_flags[i] |= ACTED
        self.events.append(Ordered(side, zone, action.attack))
        if action.target == DIRECT:
            value = self.zone_attack(side, zone)
            v.zone_flags[i] |= FACE_UP
            self.events.append(Battle(side, zone, DIRECT, value, 0, False))
            self.damage(1 - side, value)
        elif action.target != NO_TARGET:
            self._battle(side, zone, action.target)

    def _battle(self, side: int, zone: int, target: int) -> None:
        """Duel_Battle: attack vs attack (lower ATK destroyed, its controller takes the
        difference; equal destroys both) or attack vs defence (ATK > DEF destroys the defender
        without damage; otherwise the attacker's controller takes DEF - ATK)."""
        foe = 1 - side
        v = self.v
        v.zone_flags[side * ZONES + zone] |= FACE_UP
        v.zone_flags[foe * ZONES + target] |= FACE_UP
        atk = self.zone_attack(side, zone)
        attacking = self.zone_stance(foe, target) == ATTACK
        other = self.zone_attack(foe, target) if attacking else self.zone_defense(foe, target)
        self.events.append(Battle(side, zone, target, atk, other, attacking))
        if attacking:
            if atk >= other:
                self.destroy(foe, target)
            if atk <= other:
                self.destroy(side, zone)
            if atk != other:
                self.damage(foe if atk > other else side, abs(atk - other))
        elif atk > other:
            self.destroy(foe, target)
        else:
            self.damage(side, other - atk)

    # --- effects shared with magic ----------------------------------------------------------

    def destroy(self, side: int, zone: int) -> None:
        i = side * ZONES + zone
        card = self.v.zone_card[i]
        if card:
            self.events.append(Destroyed(side, zone, card))
            self._place(i, 0, 0)
            self.v.zone_stance[i] = DEFEND

    def damage(self, side: int, amount: int) -> None:
        """LP loss, floored at 0; LP 0 ends the duel."""
        lp = self.v.lp[side]
        new = max(0, lp - amount)
        self.v.lp[side] = new
        self.events.append(LifeChanged(side, new - lp, new))
        if new == 0:
            self._end(1 - side, END_LP)

    def heal(self, side: int, amount: int) -> None:
        lp = self.v.lp[side]
        new = min(choices.LP_CAP, lp + amount)
        self.v.lp[side] = new
        self.events.append(LifeChanged(side, new - lp, new))

    def draw_random(self) -> int:
        """One value of the duel's stream (0..32767); see :mod:`emucore.dm1.rng`."""
        v = self.v
        state = rng.next_state(v.rng_state[0])
        v.rng_state[0] = state
        v.rng_calls[0] = (v.rng_calls[0] + 1) & 0xFFFFFFFF
        return rng.output(state)

    # --- turn flow ----------------------------------------------------------------------------

    def _advance(self) -> None:
        """After a play or an order: orders are due, or the turn passes."""
        v = self.v
        v.phase[0] = ORDERS
        if self.next_to_order() < 0:
            side = v.acting[0]
            if v.lock_turns[side]:
                v.lock_turns[side] -= 1
            v.forced_attack[side] = 0
            self._begin_turn(1 - side)

    def _begin_turn(self, side: int) -> None:
        v = self.v
        v.turn[0] += 1
        v.acting[0] = side
        v.phase[0] = PLAY
        flags = v.zone_flags
        for i in range(side * ZONES, side * ZONES + ZONES):
            flags[i] &= ~ACTED & 0xFF
        self.events.append(TurnStart(side, v.turn[0]))
        cursor = v.draw_cursor[side]
        count = v.hand_count[side]
        # choices D4: a side that passed with six cards in hand draws nothing (the card stays
        # on the deck): a hand holds at most the five dealt plus the one drawn
        if v.turn[0] > 1 and cursor < DECK_SIZE and count < HAND_SLOTS:
            card = v.deck[side * DECK_SIZE + cursor]
            v.hand[side * HAND_SLOTS + count] = card
            v.hand_count[side] = count + 1
            v.draw_cursor[side] = cursor + 1
            self.events.append(Drew(side, card))
        if EXODIA.issubset(self.hand_cards(side)):
            self._end(side, END_EXODIA)

    def _end_empty_hand(self) -> None:
        """A player whose hand is empty: the higher LP wins, equal LP is a draw."""
        a, b = self.v.lp[0], self.v.lp[1]
        self._end(0 if a > b else 1 if b > a else DRAWN, END_EMPTY_HAND)

    def _end(self, winner: int, reason: int) -> None:
        """The duel is over; ``winner`` is the record's byte (0, 1 or ``DRAWN``)."""
        v = self.v
        if v.phase[0] == OVER:
            return
        v.phase[0] = OVER
        v.winner[0] = winner
        v.end_reason[0] = reason
        self.events.append(Ended(self.winner, END_REASONS[reason]))


# Each action kind: its phase, check(duel, action) and apply(duel, action, checked).
_RULES = RuleTable({
    Pass: Rule(PLAY, Dm1Duel._check_pass, Dm1Duel._do_pass),
    Summon: Rule(PLAY, Dm1Duel._check_summon, Dm1Duel._do_summon),
    Magic: Rule(PLAY, Dm1Duel._check_magic, Dm1Duel._do_magic),
    Order: Rule(ORDERS, Dm1Duel._check_order, Dm1Duel._order),
})


@functools.cache
def default_tables() -> Any:
    """The installed DM1 tables (loaded once per process)."""
    return tables.load("dm1")


def _u16(cards: Sequence[int]) -> memoryview:
    return memoryview(array("H", cards))
