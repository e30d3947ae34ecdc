"""The phase-based paper duel: setup, turn flow, legality and the board operations.

Every action is checked completely before anything changes (``_check``), then applied
(``_apply``); an illegal action raises :class:`IllegalAction` naming the rule and leaves the
state untouched. The duel owns one Psy-Q ``rand()`` stream (emucore.hw.psyq_rand.Rand): it
shuffles, plays rock-paper-scissors or tosses the coin, and nothing else draws from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from emucore.duel.protocol import DRAW, Action, Duel, Event, IllegalAction, Part, plainest_action
from emucore.duel.rules import Rule, RuleTable
from emucore.hw.psyq_rand import Rand
from emucore.paper import battle, effects
from emucore.paper.actions import (
    ACTION_KINDS,
    ATTACK,
    DEFENCE,
    DIRECT,
    Activate,
    ActivateSet,
    Ante,
    Attack,
    Attacked,
    ChangePosition,
    Destroyed,
    Draw,
    Drew,
    Ended,
    EndTurn,
    Flipped,
    LifeChanged,
    NextPhase,
    Pass,
    Phase,
    Placed,
    PositionChanged,
    Response,
    Set,
    Started,
    Summon,
)
from emucore.paper.cards import MAGIC, MONSTER, TRAP, Catalogue
from emucore.paper.choices import TURN_LIMIT
from emucore.paper.decks import DeckList, check_deck
from emucore.paper.profile import (
    COIN,
    LOSE_ON_DRAW,
    MORE_LP_WHEN_EMPTY,
    Profile,
)
from emucore.paper.state import (
    ATTACK_WINDOW,
    NO_WINDOW,
    NO_WINNER,
    SUMMON_WINDOW,
    ZONES,
    Monster,
    Side,
    Spell,
    State,
    decode,
    encode,
    fields_of,
)

PASSING_PHASES = ("draw", "standby")  # entered and left by themselves (draw: unless optional)
SPELL_KINDS = (MAGIC, TRAP)


class BoardRules(NamedTuple):
    """What the cards in the magic/trap zones impose on the whole board."""

    field: int  # the Field card in play (only one; the newest replaced the older), or 0
    bonus: dict[str, int]  # the Field card's flat ATK/DEF bonus by monster type
    locks: frozenset[str]  # the monster types held in defence by face-up type locks
    atk_of: dict[int, int]  # printed ATK + the Field bonus, by card id


def shuffle(cards: list[int], rng: Rand) -> None:
    """Fisher-Yates from the top index down: swap ``i`` with ``rand() % (i + 1)``.

    The paper games have no machine routine to copy; this is emucore's named choice
    (choices P2), recorded as ``RNG_VERSION`` in replays.
    """
    for i in range(len(cards) - 1, 0, -1):
        j = rng.rand_mod(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


class PaperDuel(Duel):
    """A duel of one paper rule system (``profile``) with the cards of ``catalogue``."""


    def __init__(self, profile: Profile, catalogue: Catalogue, decks: Sequence[DeckList],
                 seed: int, first: int | None = None, ante: bool = False,
                 check_decks: bool = True) -> None:
        if check_decks:
            for who, deck in enumerate(decks):
                check_deck(profile, catalogue, deck, f"player {who + 1} deck")
        self.profile = profile
        self.catalogue = catalogue
        self.cards = catalogue.cards
        self._rules_cache: BoardRules | None = None
        self._exodia = catalogue.exodia_pieces
        sides = [Side(profile.start_lp, list(d.main), list(d.fusion)) for d in decks]
        self.state = State(sides, Rand(seed & 0xFFFFFFFF))
        self.opening = self._begin(first, ante)

    # -- protocol -------------------------------------------------------------------------

    @property
    def system(self) -> str:  # type: ignore[override]
        """The rule system's id: its profile's name (``ocg1999``, ``tcglite``)."""
        return self.profile.name

    @property
    def over(self) -> bool:
        return self.state.winner != NO_WINNER

    @property
    def acting_side(self) -> int:
        st = self.state
        return st.responder if st.window else st.active

    @property
    def phase(self) -> str:
        return self.profile.phases[self.state.phase]

    @property
    def winner(self) -> int | None:
        """0 or 1, -1 for a draw, None while the duel runs."""
        return None if self.state.winner == NO_WINNER else self.state.winner

    @property
    def end_reason(self) -> str | None:
        return self.state.reason if self.over else None

    def snapshot(self) -> bytes:
        return encode(self.state)

    def restore(self, data: bytes) -> None:
        self.state = decode(data)
        self._spells_changed()

    def state_fields(self) -> dict[str, int]:
        return fields_of(self.snapshot())

    def step(self, action: Action) -> list[Event]:
        rule = self._rule(action)
        rule.check(self, action)
        events: list[Event] = []
        rule.apply(self, action, events)
        self._check_life(events)
        return events

    def is_legal(self, action: Action) -> bool:
        return self.refusal(action) is None

    def refusal(self, action: Action) -> IllegalAction | None:
        """Why the rules refuse ``action`` now (its named rule), or None when it is legal;
        nothing changes either way (a screen asks this to say why a card has no play)."""
        try:
            self._rule(action).check(self, action)
        except IllegalAction as exc:
            return exc
        return None

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        return [a for a in self._candidates() if self.is_legal(a)]

    def plainest(self, prefix: Sequence[Part]) -> Action | None:
        """What a player tries first with ``prefix``: a monster summoned in attack
        position, a card activated without targets, an attack on the opponent's first
        monster, else directly (the protocol's ``plainest_action``)."""
        return plainest_action(prefix, ACTION_KINDS,
                               {"position": ATTACK, "target": self.attack_targets()[0]})

    def attack_targets(self) -> list[int]:
        """Where an attack of the active side may go: the opponent's monsters, else DIRECT."""
        foes = self.state.sides[1 - self.state.active].monsters
        return [z for z, m in enumerate(foes) if m] or [DIRECT]

    # -- setup and turn flow --------------------------------------------------------------

    def _begin(self, first: int | None, ante: bool) -> list[Event]:
        st, events = self.state, []
        for side in st.sides:
            shuffle(side.deck, st.rng)
        events.append(self._choose_first(first))
        if ante:
            for i, side in enumerate(st.sides):
                if side.deck:
                    side.ante.append(side.deck.pop())
                    events.append(Ante(i, side.ante[-1]))
        for i in range(2):
            for _ in range(self.profile.hand_size):
                self._draw(i, events)
        if not self.over:
            self._start_turn(st.first, events)
        return events

    def _choose_first(self, first: int | None) -> Started:
        """Who goes first: given by the players, else rock-paper-scissors (the winner goes
        first; ``rand() % 3`` per hand, again on a tie) or a coin (``rand() % 2``)."""
        rng = self.state.rng
        if first is not None:
            self.state.first = first
            return Started(first, "chosen")
        if self.profile.first_player == COIN:
            self.state.first = rng.rand_mod(2)
            return Started(self.state.first, "coin")
        hands: list[int] = []
        while True:
            a, b = rng.rand_mod(3), rng.rand_mod(3)
            hands += [a, b]
            if a != b:
                break
        self.state.first = 0 if (a - b) % 3 == 1 else 1  # paper beats rock, and so on
        return Started(self.state.first, "rock_paper_scissors", tuple(hands))

    def _start_turn(self, side: int, events: list[Event]) -> None:
        """Begin the next turn, unless the turn limit ends the duel first (TURN_LIMIT)."""
        st = self.state
        if st.turn >= TURN_LIMIT:
            self._end(DRAW, "turn_limit", events)
            return
        st.turn += 1
        st.active = side
        s = st.sides[side]
        s.summons = s.magic = s.traps = 0
        self._enter_phase(0, events)

    def _enter_phase(self, index: int, events: list[Event]) -> None:
        """Enter phase ``index`` and pass on through the phases that need no decision: the
        standby phase, and the draw phase unless the draw is the player's choice."""
        st, phases = self.state, self.profile.phases
        while True:
            st.phase = index
            name = phases[index]
            events.append(Phase(st.active, st.turn, name))
            if name not in PASSING_PHASES:
                return
            if name == "draw" and self._draw_due():
                if self.profile.draw_optional:
                    return  # "may draw 1": Draw, or NextPhase to skip it
                self._draw(st.active, events)
                if self.over:
                    return
            index += 1

    def _draw_due(self) -> bool:
        """True when this turn's draw phase has a card to draw (not the first player's first
        turn where the rules skip it; an optional draw needs a card in the deck)."""
        st = self.state
        if st.turn == 1 and not self.profile.first_player_draws:
            return False
        return bool(st.sides[st.active].deck) or not self.profile.draw_optional

    def _end_turn(self, events: list[Event]) -> None:
        st = self.state
        events.append(Phase(st.active, st.turn, "end"))
        self._start_turn(1 - st.active, events)

    def _draw(self, who: int, events: list[Event]) -> None:
        side = self.state.sides[who]
        if not side.deck:
            if self.profile.deck_out == LOSE_ON_DRAW:
                self._end(1 - who, "deck_out", events)
            return
        card = side.deck.pop()
        side.hand.append(card)
        events.append(Drew(who, card))
        if self.profile.exodia_wins and len(self._exodia) >= 5 and \
                self._exodia.issubset(side.hand):
            self._end(who, "exodia", events)
        elif self.profile.deck_out == MORE_LP_WHEN_EMPTY and not side.deck:
            self._end_by_life("deck_out", events)

    def _end_by_life(self, reason: str, events: list[Event]) -> None:
        a, b = (s.lp for s in self.state.sides)
        self._end(0 if a > b else 1 if b > a else DRAW, reason, events)

    def _end(self, winner: int, reason: str, events: list[Event]) -> None:
        if not self.over:
            self.state.winner, self.state.reason = winner, reason
            events.append(Ended(winner, reason))

    def _check_life(self, events: list[Event]) -> None:
        """LP 0 loses; both players at 0 together is a draw."""
        sides = self.state.sides
        a, b = sides[0].lp <= 0, sides[1].lp <= 0
        if a or b:
            self._end(DRAW if a and b else 1 if a else 0, "both_lp" if a and b else "lp", events)

    # -- board helpers (also used by effects and the computer opponents) ------------------

    def board_rules(self) -> BoardRules:
        """What the magic/trap zones impose on the whole board, cached until a magic/trap zone
        changes (:meth:`_spells_changed`). Read only."""
        if self._rules_cache is None:
            field, locks = 0, set()
            for side in self.state.sides:
                for s in side.spells:
                    if s:
                        card = self.cards[s.card]
                        if card.effect == "field" and s.face_up:
                            field = s.card
                        elif s.face_up and card.effect == "trap_lock_type":
                            locks.add(card.effect_type)
            self._rules_cache = BoardRules(field, dict(self.catalogue.field_bonus.get(field, {})),
                                           frozenset(locks), self.catalogue.atk_with_field(field))
        return self._rules_cache

    def _spells_changed(self) -> None:
        self._rules_cache = None

    def field_card(self) -> int:
        """The Field card in play (only one; the newest replaced the older), or 0."""
        return self.board_rules().field

    def atk(self, side: int, zone: int) -> int:
        """Current ATK: printed + equips + Field bonus (never below 0)."""
        m = self.state.sides[side].monsters[zone]
        card = self.cards[m.card]
        return max(0, card.atk + m.bonus + self.board_rules().bonus.get(card.monster_type, 0))

    def defense(self, side: int, zone: int) -> int:
        """Current DEF: printed + equips + Field bonus (never below 0)."""
        m = self.state.sides[side].monsters[zone]
        card = self.cards[m.card]
        return max(0, card.defense + m.bonus + self.board_rules().bonus.get(card.monster_type,
                                                                            0))

    def atks(self) -> list[dict[int, int]]:
        """Current ATK of every monster on the board: per side, by zone (as :meth:`atk`; one
        pass for the computer's view of the table, which asks on every decision)."""
        atk_of = self.board_rules().atk_of
        by_side = []
        for side in self.state.sides:
            atks = {}
            for z, m in enumerate(side.monsters):
                if m is not None:
                    atk = atk_of[m.card] + m.bonus
                    atks[z] = atk if atk > 0 else 0
            by_side.append(atks)
        return by_side

    def locked(self, card: int) -> bool:
        """True while a face-up type lock (Dragon Capture Jar) holds monsters of this type."""
        return self.cards[card].monster_type in self.board_rules().locks

    def free_zone(self, row: list) -> int:
        """The lowest empty zone of a row, or -1."""
        return row.index(None) if None in row else -1

    def destroy_monster(self, side: int, zone: int, events: list[Event]) -> None:
        """Send a monster and the equips on it to their owners' graveyards."""
        s = self.state.sides[side]
        m = s.monsters[zone]
        s.monsters[zone] = None
        s.grave.append(m.card)
        events.append(Destroyed(side, "monster", zone, m.card))
        for owner, other in enumerate(self.state.sides):
            for z, spell in enumerate(other.spells):
                if spell and spell.target_side == side and spell.target_zone == zone:
                    self.destroy_spell(owner, z, events)

    def destroy_spell(self, side: int, zone: int, events: list[Event]) -> None:
        """Send a magic/trap card to the graveyard, removing its equip bonus."""
        s = self.state.sides[side]
        spell = s.spells[zone]
        s.spells[zone] = None
        self._spells_changed()
        s.grave.append(spell.card)
        events.append(Destroyed(side, "magic", zone, spell.card))
        target = spell.target_side >= 0 and self.state.sides[spell.target_side].monsters[
            spell.target_zone]
        if target:
            target.bonus -= self.catalogue[spell.card].amount

    def place_monster(self, side: int, card: int, face_up: bool, attack: bool) -> int:
        """Put a monster into the lowest free zone (a locked type goes to defence)."""
        s = self.state.sides[side]
        zone = self.free_zone(s.monsters)
        if attack and self.locked(card):
            attack = False
        s.monsters[zone] = Monster(card, face_up, attack, self.state.turn)
        return zone

    def damage(self, side: int, amount: int, events: list[Event]) -> None:
        """LP loss (never below 0)."""
        if amount > 0:
            s = self.state.sides[side]
            s.lp = max(0, s.lp - amount)
            events.append(LifeChanged(side, -amount, s.lp))

    def heal(self, side: int, amount: int, events: list[Event]) -> None:
        """LP gain (the paper rules set no cap)."""
        s = self.state.sides[side]
        s.lp += amount
        events.append(LifeChanged(side, amount, s.lp))

    def finish_trap(self, side: int, zone: int, events: list[Event]) -> None:
        """A used trap stays face-up on the field (``traps_stay``) or goes to the graveyard."""
        spell = self.state.sides[side].spells[zone]
        self._spells_changed()
        if self.profile.traps_stay:
            spell.face_up, spell.spent = True, True
        else:
            self.destroy_spell(side, zone, events)

    # -- legality --------------------------------------------------------------------------

    def _refuse(self, rule: str, message: str) -> None:
        raise IllegalAction(rule, message)

    def _rule(self, action: Action) -> Rule:
        """The rule for an action of this duel, or IllegalAction when it has none now."""
        if self.over:
            self._refuse("duel-over", "the duel is over")
        rule = _RULES[type(action)]
        if rule is None:
            self._refuse("unknown-action", f"{action.kind!r} is not a {self.system} action")
        if self.state.window and type(action) not in WINDOW_ACTIONS:
            self._refuse("response-window", f"player {self.acting_side + 1} is answering an "
                                            "attack or a summon: a set trap or pass")
        return rule

    def _need_main(self, what: str) -> None:
        if not self.profile.is_main(self.phase):
            self._refuse("phase", f"{what} only in a main phase (now {self.phase} phase)")

    def _hand_card(self, index: int, kinds: tuple[str, ...], what: str) -> int:
        hand = self.state.sides[self.state.active].hand
        if not 0 <= index < len(hand):
            self._refuse("no-such-card", f"no card at hand index {index}")
        card = hand[index]
        if self.catalogue[card].kind not in kinds:
            self._refuse("card-kind", f"{self.catalogue.name(card)} is not a {what}")
        return card

    def _check_summon(self, a: Summon) -> None:
        self._need_main("monsters are placed")
        self._hand_card(a.hand, (MONSTER,), "monster that can be placed from the hand")
        side = self.state.sides[self.state.active]
        if a.position not in (ATTACK, DEFENCE):
            self._refuse("position", "position must be 1 (attack) or 0 (set in defence)")
        if side.summons >= self.profile.monsters_per_turn:
            self._refuse("one-monster-per-turn",
                         f"only {self.profile.monsters_per_turn} monster per turn")
        if self.free_zone(side.monsters) < 0:
            self._refuse("monster-zones-full", "all five monster zones are taken")

    def _check_spell_from_hand(self, index: int, what: str) -> int:
        """A magic or trap card placed from the hand (face-up or set): in a main phase,
        within the turn's quota of its kind, into a free magic/trap zone."""
        self._need_main(what)
        card = self._hand_card(index, SPELL_KINDS, "magic or trap card")
        side = self.state.sides[self.state.active]
        if self.catalogue[card].kind == MAGIC:
            used, quota, rule = side.magic, self.profile.magic_per_turn, "one-magic-per-turn"
        else:
            used, quota, rule = side.traps, self.profile.traps_per_turn, "one-trap-per-turn"
        if used >= quota:
            self._refuse(rule, f"only {quota} {self.catalogue[card].kind} card per turn")
        if self.free_zone(side.spells) < 0:
            self._refuse("magic-zones-full", "all five magic/trap zones are taken")
        return card

    def _check_activate(self, a: Activate) -> None:
        card = self._check_spell_from_hand(a.hand, "magic and trap cards are played")
        effects.check(self, self.state.active, card, a.targets)

    def _check_set(self, a: Set) -> None:
        self._check_spell_from_hand(a.hand, "magic and trap cards are set")

    def _check_activate_set(self, a: ActivateSet) -> None:
        who = self.acting_side
        spells = self.state.sides[who].spells
        spell = spells[a.zone] if 0 <= a.zone < ZONES else None
        if spell is None or spell.face_up:
            self._refuse("no-set-card", f"no face-down card in magic/trap zone {a.zone}")
        trap = self.catalogue[spell.card].kind == TRAP
        own_main = self.profile.is_main(self.phase) and not self.state.window
        if not (own_main or trap):
            # p. 15: in the Battle Phase only cards other than traps are barred
            self._refuse("phase", "a set magic card is played only in its owner's main phase")
        if not (own_main or self.state.window or self.phase == "battle"):
            self._refuse("phase", f"no set card is activated in the {self.phase} phase")
        effects.check(self, who, spell.card, a.targets)

    def _own_monster(self, zone: int) -> Monster:
        monsters = self.state.sides[self.state.active].monsters
        m = monsters[zone] if 0 <= zone < ZONES else None
        if m is None:
            self._refuse("no-monster", f"no monster of yours in zone {zone}")
        return m

    def _check_change_position(self, a: ChangePosition) -> None:
        if not self.profile.position_change:
            self._refuse("position-change", f"the {self.profile.name} rules have no position "
                                            "changes")
        self._need_main("positions are changed")
        m = self._own_monster(a.zone)
        turn = self.state.turn
        if m.summoned_turn == turn:
            self._refuse("position-summoned-turn", "not on the turn the monster was placed")
        if m.changed_turn == turn:
            self._refuse("position-once-per-turn", "a monster changes position once per turn")
        if m.attacked_turn == turn:
            self._refuse("position-after-attack", "not on the turn the monster attacked")
        if self.locked(m.card):
            self._refuse("position-locked", f"{self.catalogue.name(m.card)} is held in defence")

    def _check_attack(self, a: Attack) -> None:
        if self.phase != "battle":
            self._refuse("phase", f"attacks only in the battle phase (now {self.phase} phase)")
        if self.state.turn == 1 and not self.profile.first_turn_attacks:
            self._refuse("first-turn-attack", "no attacks on the first turn of the duel")
        m = self._own_monster(a.zone)
        if not (m.attack and m.face_up):
            self._refuse("attack-position", "only monsters in attack position attack")
        if m.attacked_turn == self.state.turn:
            self._refuse("attack-once", "each monster attacks once per turn")
        foes = self.state.sides[1 - self.state.active].monsters
        if a.target == DIRECT:
            if any(foes):
                self._refuse("direct-attack", "the opponent's monsters must be attacked first")
        elif not (0 <= a.target < ZONES and foes[a.target]):
            self._refuse("no-target", f"no opponent monster in zone {a.target}")

    def _check_draw(self, a: Draw) -> None:
        if self.phase != "draw":
            self._refuse("phase", f"cards are drawn in the draw phase (now {self.phase} phase)")

    def _check_pass(self, a: Pass) -> None:
        if not self.state.window:
            self._refuse("no-window", "there is nothing to answer")

    def _check_next_phase(self, a: NextPhase) -> None:
        """Always allowed while the duel runs (outside a response window)."""

    def _check_end_turn(self, a: EndTurn) -> None:
        """Always allowed while the duel runs (outside a response window)."""

    # -- applying actions -------------------------------------------------------------------

    def _do_summon(self, a: Summon, events: list[Event]) -> None:
        who = self.state.active
        side = self.state.sides[who]
        card = side.hand.pop(a.hand)
        side.summons += 1
        face_up = a.position == ATTACK
        zone = self.place_monster(who, card, face_up, face_up)
        m = side.monsters[zone]
        events.append(Placed(who, "monster", zone, card, int(m.attack), face_up))
        if face_up:
            self._open_window(SUMMON_WINDOW, zone, 0, events)

    def _place_spell(self, hand_index: int, face_up: bool, events: list[Event]) -> int:
        """Move a hand card into the acting side's lowest free magic/trap zone, counting it
        against the turn's quota of its kind."""
        who = self.state.active
        side = self.state.sides[who]
        card = side.hand.pop(hand_index)
        if self.catalogue[card].kind == MAGIC:
            side.magic += 1
        else:
            side.traps += 1
        zone = self.free_zone(side.spells)
        side.spells[zone] = Spell(card, face_up, self.state.turn)
        self._spells_changed()
        events.append(Placed(who, "magic", zone, card, ATTACK if face_up else DEFENCE, face_up))
        return zone

    def _do_activate(self, a: Activate, events: list[Event]) -> None:
        zone = self._place_spell(a.hand, True, events)
        effects.resolve(self, self.state.active, zone, a.targets, events)

    def _do_set(self, a: Set, events: list[Event]) -> None:
        self._place_spell(a.hand, False, events)

    def _do_activate_set(self, a: ActivateSet, events: list[Event]) -> None:
        who = self.acting_side
        self.state.sides[who].spells[a.zone].face_up = True
        self._spells_changed()
        effects.resolve(self, who, a.zone, a.targets, events)
        self._close_window(events)

    def _do_pass(self, a: Pass, events: list[Event]) -> None:
        self._close_window(events)

    def _open_window(self, window: int, zone: int, target: int, events: list[Event]) -> bool:
        """Let the opponent answer an attack or a face-up summon: a window opens when it has
        a face-down card in its magic/trap zones (what a player at the table sees; which
        card it is stays hidden, so the window opens whether or not the card could answer).
        """
        st = self.state
        if not any(s and not s.face_up for s in st.sides[st.responder].spells):
            return False
        st.window, st.zone, st.target = window, zone, target
        events.append(Response(st.responder, "attack" if window == ATTACK_WINDOW
                               else "summon"))
        return True

    def _close_window(self, events: list[Event]) -> None:
        """Close the window; an attack that waited for the answer now goes ahead."""
        st = self.state
        window, st.window = st.window, NO_WINDOW
        if window == ATTACK_WINDOW and not self.over:
            self._battle(st.zone, st.target, events)

    def _do_change_position(self, a: ChangePosition, events: list[Event]) -> None:
        who = self.state.active
        m = self.state.sides[who].monsters[a.zone]
        if not m.face_up:
            m.face_up = True
            events.append(Flipped(who, a.zone, m.card))
            m.attack = True
        else:
            m.attack = not m.attack
        m.changed_turn = self.state.turn
        events.append(PositionChanged(who, a.zone, int(m.attack)))

    def _do_attack(self, a: Attack, events: list[Event]) -> None:
        who = self.state.active
        self.state.sides[who].monsters[a.zone].attacked_turn = self.state.turn
        events.append(Attacked(who, a.zone, a.target))
        if not self._open_window(ATTACK_WINDOW, a.zone, a.target, events):
            self._battle(a.zone, a.target, events)

    def attack_stands(self, zone: int, target: int) -> bool:
        """Whether an attack declared by the active side's monster in ``zone`` still goes
        ahead after the defender's answer. emucore's choice P3 (the rulebook names no case): it
        is called off when the answering trap took the attacker or its target off the field
        or put the attacker in defence; the attacker has still used its attack."""
        m = self.state.sides[self.state.active].monsters[zone]
        foes = self.state.sides[1 - self.state.active].monsters
        if m is None or not m.attack:
            return False
        return not any(foes) if target == DIRECT else foes[target] is not None

    def _battle(self, zone: int, target: int, events: list[Event]) -> None:
        """Damage calculation for the attack of the active side's monster in ``zone``."""
        if not self.attack_stands(zone, target):
            return
        who, foe = self.state.active, 1 - self.state.active
        foes = self.state.sides[foe].monsters
        atk = self.atk(who, zone)
        if target == DIRECT:
            outcome = battle.direct(atk)
        else:
            defender = foes[target]
            if not defender.face_up:
                defender.face_up = True
                events.append(Flipped(foe, target, defender.card))
            outcome = (battle.versus_attack(atk, self.atk(foe, target)) if defender.attack
                       else battle.versus_defence(atk, self.defense(foe, target)))
            if outcome.defender_destroyed:
                self.destroy_monster(foe, target, events)
            if outcome.attacker_destroyed:
                self.destroy_monster(who, zone, events)
        self.damage(who, outcome.attacker_damage, events)
        self.damage(foe, outcome.defender_damage, events)

    def _do_draw(self, a: Draw, events: list[Event]) -> None:
        self._draw(self.state.active, events)
        if not self.over:
            self._enter_phase(self.state.phase + 1, events)

    def _do_next_phase(self, a: NextPhase, events: list[Event]) -> None:
        st = self.state
        if self.profile.phases[st.phase + 1] == "end":
            self._end_turn(events)
        else:
            self._enter_phase(st.phase + 1, events)

    def _do_end_turn(self, a: EndTurn, events: list[Event]) -> None:
        self._end_turn(events)

    # -- enumeration ------------------------------------------------------------------------

    def _set_card_actions(self, side: int, traps_only: bool) -> list[Action]:
        """Activations of ``side``'s face-down cards (traps only outside a main phase)."""
        out: list[Action] = []
        for z, spell in enumerate(self.state.sides[side].spells):
            if spell and not spell.face_up and (
                    not traps_only or self.catalogue[spell.card].kind == TRAP):
                out += [ActivateSet(z, t) for t in effects.targets(self, side, spell.card)]
        return out

    def _candidates(self) -> list[Action]:
        st = self.state
        if st.window:
            return [*self._set_card_actions(st.responder, True), Pass()]
        side = st.sides[st.active]
        out: list[Action] = []
        if self.profile.is_main(self.phase):
            for i, card in enumerate(side.hand):
                kind = self.catalogue[card].kind
                if kind == MONSTER:
                    out += [Summon(i, ATTACK), Summon(i, DEFENCE)]
                elif kind in SPELL_KINDS:
                    out += [Activate(i, t) for t in effects.targets(self, st.active, card)]
                    out.append(Set(i))
            out += self._set_card_actions(st.active, False)
            out += [ChangePosition(z) for z, m in enumerate(side.monsters) if m]
        elif self.phase == "battle":
            foes = self.attack_targets()
            out += [Attack(z, t) for z, m in enumerate(side.monsters) if m for t in foes]
            out += self._set_card_actions(st.active, True)
        elif self.phase == "draw":
            out.append(Draw())
        out += [NextPhase(), EndTurn()]
        return out


WINDOW_ACTIONS = (ActivateSet, Pass)  # the only actions while a response window is open
# Each action kind: check(duel, action) and apply(duel, action, events); the checks test
# the phase (a profile names its own phases).
_RULES = RuleTable({cls: Rule(None, getattr(PaperDuel, f"_check_{cls.kind}"),
                              getattr(PaperDuel, f"_do_{cls.kind}"))
                    for cls in ACTION_KINDS})
