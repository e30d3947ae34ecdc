"""The computer opponent of the paper rule systems: one readable decision rule.

It sees only what a player at the table sees (its own hand and set cards, face-up cards,
where the face-down ones are) and answers one action at a time.

Draw phase (where drawing is a choice): draw, unless the deck holds one card, drawing it
would end the duel without a win (the deck-out rule gives the duel to the player with more LP)
and waiting can still change that: the opponent's deck holds more than one card (its turns
bring it new cards, so the table moves on), or the main phase that follows holds a play for
us (the main-phase rules below would do more than end the turn). When neither holds, nothing
can change before one of us must draw, so the card is drawn and the deck-out rule decides:
two computers at their last cards stop waiting once neither has a play left.

Response window (the opponent attacks or places a monster face-up and we have a set card):
Trap Hole whenever it may answer the summon; Dragon Capture Jar when the attacker is of its
type (the attack is called off) or by rule 2's count; Two-Pronged Attack when the attack would
cost us a monster or LP, taking the attacker with our two weakest monsters; otherwise pass.

Main phase (the same in every main phase of the turn), first applicable rule wins:
 1. Play the best magic card (at most one a turn), in this priority:
    Polymerization when the Fusion Monster is stronger than both materials; Raigeki when the
    opponent has a monster; Dark Hole when the opponent has more monsters or more face-up
    ATK; Fissure when the opponent has a monster; a burn that finishes the opponent; an
    equip on our strongest face-up monster of its type; a Field card that helps our board
    and hand more than the one in play does; a heal when LP is at half or less; any other
    burn; Remove Trap on a face-up type lock that holds our monsters.
 2. Spring a trap, set or from the hand: Dragon Capture Jar when the opponent has more
    monsters of the locked type than we do; Two-Pronged Attack when the opponent's strongest
    ATK beats ours, giving up our two weakest.
 3. Place a monster: the highest-ATK one face-up in attack position when it beats every
    face-up attacker of the opponent's (the "threat"); otherwise the highest-DEF one set
    face-down in defence, but not before a battle phase in which we attack: that waits for
    the main phase after it, where the threat may be gone.
 4. Set a trap card.
 5. Positions (where the rules allow changes): a defender whose ATK beats the threat goes to
    attack; an attacker that the threat beats, that has no target it can win against and
    whose DEF is higher than its ATK, goes to defence.
 6. Move on: to the battle phase when some monster would attack, else end the turn.
Battle phase: strongest attacker first, each attacks the most valuable target it destroys
without loss (a face-up attacker with lower ATK, a face-up defender with lower DEF, a
face-down monster when our ATK exceeds FACE_DOWN_GUESS), or directly when the opponent has
no monster; attackers with no such target stay back. Then on to a later main phase if the
rules have one, else end the turn.
"""

from __future__ import annotations

import functools
from itertools import combinations

from emucore.duel.protocol import Action
from emucore.paper.actions import (
    ATTACK,
    DEFENCE,
    DIRECT,
    Activate,
    ActivateSet,
    Attack,
    ChangePosition,
    Draw,
    EndTurn,
    NextPhase,
    Pass,
    Set,
    Summon,
)
from emucore.paper.cards import FUSION, MAGIC, MONSTER, TRAP, CardDef
from emucore.paper.engine import PaperDuel
from emucore.paper.state import SUMMON_WINDOW

FACE_DOWN_GUESS = 1500  # the DEF the computer assumes for a face-down monster


class View:
    """What the acting player sees, computed once per decision.

    ``mine`` and ``foes`` hold the current ATK of each side's monsters by zone (zone order);
    ``atk_of`` the ATK any card would have on entering the field now (Field bonus included);
    ``hand`` sorts our hand by card kind, filled by :meth:`sort_hand` in a main phase.
    """

    def __init__(self, duel: PaperDuel) -> None:
        state = duel.state
        self.duel = duel
        self.cards = duel.cards
        self.turn = state.turn
        self.me = me = duel.acting_side
        self.foe = foe = 1 - me
        self.side = state.sides[me]
        self.other = state.sides[foe]
        rules = duel.board_rules()
        self.atk_of, self.locks = rules.atk_of, rules.locks
        atks = duel.atks()
        self.mine, self.foes = atks[me], atks[foe]
        # the highest ATK among the opponent's attack-position monsters (0 if none)
        threat = 0
        monsters = self.other.monsters
        for z, value in self.foes.items():
            if value > threat and monsters[z].attack:
                threat = value
        self.threat = threat
        self.hand: dict[str, list[tuple[int, int]]] = {}

    def sort_hand(self) -> None:
        """(hand index, card) of our hand by card kind into ``hand``. Only a main phase plays
        from the hand, so :func:`choose` calls this there alone."""
        self.hand = hand = {MONSTER: [], FUSION: [], MAGIC: [], TRAP: []}
        cards = self.cards
        for i, card in enumerate(self.side.hand):
            hand[cards[card].kind].append((i, card))

    def face_up_total(self, side: int) -> int:
        atk = self.mine if side == self.me else self.foes
        monsters = self.duel.state.sides[side].monsters
        return sum(value for z, value in atk.items() if monsters[z].face_up)

    def count_type(self, side: int, monster_type: str) -> int:
        return sum(1 for m in self.duel.state.sides[side].monsters
                   if m and self.cards[m.card].monster_type == monster_type)

    def can_attack(self, zone: int) -> bool:
        m = self.side.monsters[zone]
        return m.attack and m.face_up and m.attacked_turn != self.turn

    def target(self, zone: int) -> int | None:
        """The opponent's zone worth attacking from ``zone`` (or DIRECT), or None."""
        if not self.foes:
            return DIRECT
        atk = self.mine[zone]
        monsters = self.other.monsters
        best_value, best = -1, None
        for z, foe_atk in self.foes.items():
            m = monsters[z]
            if not m.face_up:
                wins, value = atk > FACE_DOWN_GUESS, 0
            elif m.attack:
                wins, value = atk > foe_atk, foe_atk + 1
            else:
                wins, value = atk > self.duel.defense(self.foe, z), foe_atk
            if wins and value > best_value:
                best_value, best = value, z
        return best

    def attacks_allowed(self) -> bool:
        return self.turn > 1 or self.duel.profile.first_turn_attacks

    @functools.cached_property
    def will_attack(self) -> bool:
        """True in a main phase before the battle phase when some monster of ours would
        attack."""
        duel = self.duel
        if "battle" not in duel.profile.phases[duel.state.phase + 1:] \
                or not self.attacks_allowed():
            return False
        return any(self.can_attack(zone) and self.target(zone) is not None
                   for zone in self.mine)


def choose(duel: PaperDuel) -> Action:
    """The computer's next action for the side to act."""
    if duel.state.window:
        return _respond(duel)
    phase = duel.phase
    if phase == "draw":
        return _draw(duel)
    view = View(duel)
    if phase == "battle":
        return _battle(view) or _move_on(view)
    if duel.profile.is_main(phase):
        return _main_phase(view)
    return _move_on(view)


def _main_phase(view: View) -> Action:
    """Rules 1-6: the first main-phase rule that applies, else move on."""
    view.sort_hand()
    for rule in _MAIN_RULES:
        action = rule(view)
        if action is not None:
            return action
    return _move_on(view)


def _move_on(view: View) -> Action:
    """Rule 6 and the end of the battle phase."""
    duel = view.duel
    index = duel.state.phase
    if duel.phase == "battle":
        return NextPhase() if duel.profile.main_follows(index) and _may_place(view) \
            else EndTurn()
    return NextPhase() if view.will_attack else EndTurn()


def _may_place(view: View) -> bool:
    """True when a card in the hand could still be placed this turn (worth a main phase
    after the battle): a monster, magic or trap card within its quota and a free zone."""
    side, profile, duel = view.side, view.duel.profile, view.duel
    quota = {MONSTER: side.summons < profile.monsters_per_turn,
             MAGIC: side.magic < profile.magic_per_turn, TRAP: side.traps < profile.traps_per_turn}
    cards = view.cards
    kinds = {cards[card].kind for card in side.hand}
    if kinds & {MAGIC, TRAP} and duel.free_zone(side.spells) < 0:
        kinds -= {MAGIC, TRAP}
    if MONSTER in kinds and duel.free_zone(side.monsters) < 0:
        kinds.discard(MONSTER)
    return any(quota.get(kind, False) for kind in kinds)


def _draw(duel: PaperDuel) -> Action:
    """Draw, unless the deck's last card would end the duel without our winning it while
    waiting can still change that (the module docstring's draw rule). The main phase that
    follows a skipped draw holds the same hand and board, so its decision is taken here on
    the draw phase's view: a play is anything but ending the turn."""
    me, foe = duel.state.sides[duel.acting_side], duel.state.sides[1 - duel.acting_side]
    if len(me.deck) > 1 or me.lp > foe.lp:
        return Draw()
    if len(foe.deck) > 1 or not isinstance(_main_phase(View(duel)), EndTurn):
        return NextPhase()
    return Draw()


# -- response windows -------------------------------------------------------------------------


ATTACK_ANSWERS = frozenset({"trap_lock_type", "trap_destroy_two_and_one"})


def _respond(duel: PaperDuel) -> Action:
    """Answer the opponent's attack or face-up summon with a set trap, or pass."""
    state = duel.state
    cards = duel.cards
    set_cards = [(zone, cards[spell.card]) for zone, spell in
                 enumerate(state.sides[duel.acting_side].spells) if spell and not spell.face_up]
    if state.window == SUMMON_WINDOW:
        for zone, card in set_cards:
            if card.effect == "trap_destroy_summoned" and duel.is_legal(ActivateSet(zone)):
                return ActivateSet(zone)
        return Pass()
    answers = [(zone, card) for zone, card in set_cards if card.effect in ATTACK_ANSWERS]
    if answers:
        view = View(duel)
        for zone, card in answers:
            targets = _answer_attack(view, card, state.zone, state.target)
            if targets is not None:
                return ActivateSet(zone, targets)
    return Pass()


def _answer_attack(view: View, card: CardDef, attacker: int,
                   target: int) -> tuple[int, ...] | None:
    """Targets for answering the attack of the opponent's monster in ``attacker`` on our
    ``target`` with a trap, or None to keep the trap."""
    atk = view.foes[attacker]
    if card.effect == "trap_lock_type":
        attacker_type = view.cards[view.other.monsters[attacker].card].monster_type
        return () if attacker_type == card.effect_type else _spring(view, card)
    if card.effect == "trap_destroy_two_and_one" and len(view.mine) >= 2:
        m = view.side.monsters[target] if target != DIRECT else None
        if m is None or not m.face_up or atk > (view.mine[target] if m.attack else
                                               view.duel.defense(view.me, target)):
            a, b = sorted(sorted(view.mine, key=lambda z: (view.mine[z], z))[:2])
            return (a, b, attacker)
    return None


# -- rule 1: magic ------------------------------------------------------------------------


def _magic(view: View) -> Action | None:
    magic = view.hand[MAGIC]
    if not magic or view.side.magic >= view.duel.profile.magic_per_turn \
            or view.duel.free_zone(view.side.spells) < 0:
        return None
    best: tuple[int, int, tuple[int, ...]] | None = None  # (priority, hand index, targets)
    seen: set[int] = set()
    for index, card in magic:
        if card in seen:
            continue
        seen.add(card)
        scorer = _MAGIC_SCORERS.get(view.cards[card].effect)
        scored = scorer(view, card) if scorer else None
        if scored and (best is None or scored[0] > best[0]):
            best = (scored[0], index, scored[1])
    return Activate(best[1], best[2]) if best else None


# Each scorer answers (priority, targets) for playing a magic card, or None to keep it.
Scored = tuple[int, tuple[int, ...]] | None


def _score_polymerization(view: View, card: int) -> Scored:
    pair = _best_fusion(view)
    return (100, pair) if pair else None


def _score_raigeki(view: View, card: int) -> Scored:
    return (90, ()) if view.foes else None


def _score_dark_hole(view: View, card: int) -> Scored:
    if view.foes and (len(view.foes) > len(view.mine)
                      or view.face_up_total(view.foe) > view.face_up_total(view.me)):
        return 80, ()
    return None


def _score_fissure(view: View, card: int) -> Scored:
    return (70, ()) if view.foes else None


def _score_burn(view: View, card: int) -> Scored:
    return (60 if view.cards[card].amount >= view.other.lp else 10), ()


def _score_equip(view: View, card: int) -> Scored:
    wanted = view.cards[card].effect_type
    monsters = view.side.monsters
    fits = [z for z in view.mine if monsters[z].face_up
            and view.cards[monsters[z].card].monster_type == wanted]
    if fits:
        return 50, (view.me, max(fits, key=lambda z: (view.mine[z], -z)))
    return None


def _score_field(view: View, card: int) -> Scored:
    if _field_gain(view, card) > _field_gain(view, view.duel.field_card()):
        return 40, ()
    return None


def _score_heal(view: View, card: int) -> Scored:
    if view.side.lp * 2 <= view.duel.profile.start_lp:
        return 30, ()
    return None


def _score_remove_trap(view: View, card: int) -> Scored:
    lock = _hurting_lock(view)
    return (20, lock) if lock else None


def _best_fusion(view: View) -> tuple[int, int] | None:
    """The pair of our monsters whose fusion (in our Fusion Deck) is strongest, if it beats
    both materials."""
    monsters = view.side.monsters
    catalogue = view.duel.catalogue
    materials = [z for z in view.mine if monsters[z].card in catalogue.fusion_materials]
    best: tuple[int, tuple[int, int]] | None = None
    for a, b in combinations(materials, 2):
        result = catalogue.fusion_of(monsters[a].card, monsters[b].card)
        if result and result in view.side.fusion_deck:
            score = view.atk_of[result]
            if score > max(view.mine[a], view.mine[b]) and (best is None or score > best[0]):
                best = (score, (a, b))
    return best[1] if best else None


def _field_gain(view: View, field: int) -> int:
    """What a Field card is worth to us: its bonus on our monsters and hand monsters minus its
    bonus on the opponent's monsters (0 for no Field card)."""
    bonus = view.duel.catalogue.field_bonus.get(field, {})
    if not bonus:
        return 0
    ours = [view.side.monsters[z].card for z in view.mine] + [c for _, c in view.hand[MONSTER]]
    theirs = [view.other.monsters[z].card for z in view.foes]

    def value(cards: list[int]) -> int:
        return sum(bonus.get(view.cards[c].monster_type, 0) for c in cards)

    return value(ours) - value(theirs)


def _hurting_lock(view: View) -> tuple[int, int] | None:
    """(side, zone) of a face-up type lock holding a type we play, if any."""
    ours = {view.cards[view.side.monsters[z].card].monster_type for z in view.mine}
    ours |= {view.cards[c].monster_type for _, c in view.hand[MONSTER]}
    for s, side in enumerate(view.duel.state.sides):
        for z, spell in enumerate(side.spells):
            card = spell and view.cards[spell.card]
            if card and spell.face_up and card.effect == "trap_lock_type" \
                    and card.effect_type in ours:
                return (s, z)
    return None


# Rule 1's scorer for each magic effect kind; kinds not listed are kept in the hand.
_MAGIC_SCORERS = {
    "polymerization": _score_polymerization,
    "destroy_opponent_monsters": _score_raigeki,
    "destroy_all_monsters": _score_dark_hole,
    "destroy_weakest_opponent": _score_fissure,
    "burn": _score_burn,
    "equip": _score_equip,
    "field": _score_field,
    "heal": _score_heal,
    "destroy_face_up_trap": _score_remove_trap,
}


# -- rule 2: spring traps -------------------------------------------------------------------


def _spring_trap(view: View) -> Action | None:
    for zone, spell in enumerate(view.side.spells):
        if spell is not None and not spell.face_up and view.cards[spell.card].kind == TRAP:
            targets = _spring(view, view.cards[spell.card])
            if targets is not None:
                return ActivateSet(zone, targets)
    if view.side.traps < view.duel.profile.traps_per_turn \
            and view.duel.free_zone(view.side.spells) >= 0:
        for index, card in view.hand[TRAP]:
            targets = _spring(view, view.cards[card])
            if targets is not None:
                return Activate(index, targets)
    return None


def _spring(view: View, card: CardDef) -> tuple[int, ...] | None:
    """Targets for playing a trap in our main phase by rule 2, or None to keep it."""
    if card.effect == "trap_lock_type":
        if view.count_type(view.foe, card.effect_type) > view.count_type(view.me,
                                                                         card.effect_type):
            return ()
    elif card.effect == "trap_destroy_two_and_one" and len(view.mine) >= 2 and view.foes:
        strongest = max(view.foes, key=lambda z: (view.foes[z], -z))
        if view.foes[strongest] > max(view.mine.values()):
            weakest = sorted(view.mine, key=lambda z: (view.mine[z], z))[:2]
            a, b = sorted(weakest)  # in zone order, as legal_actions() lists the pair
            return (a, b, strongest)
    return None


# -- rules 3 and 4: place cards ------------------------------------------------------------


def _summon(view: View) -> Action | None:
    monsters = view.hand[MONSTER]
    if not monsters or view.side.summons >= view.duel.profile.monsters_per_turn \
            or view.duel.free_zone(view.side.monsters) < 0:
        return None
    index, card = max(monsters, key=lambda ic: (view.atk_of[ic[1]], -ic[0]))
    if view.atk_of[card] > view.threat:
        return Summon(index, ATTACK)
    if view.will_attack:
        return None  # set the wall in the main phase after the battle
    index, _ = max(monsters, key=lambda ic: (view.cards[ic[1]].defense, -ic[0]))
    return Summon(index, DEFENCE)


def _set_trap(view: View) -> Action | None:
    traps = view.hand[TRAP]
    if traps and view.side.traps < view.duel.profile.traps_per_turn \
            and view.duel.free_zone(view.side.spells) >= 0:
        return Set(traps[0][0])
    return None


# -- rule 5: positions --------------------------------------------------------------------


def _position(view: View) -> Action | None:
    duel = view.duel
    if not duel.profile.position_change:
        return None
    turn = view.turn
    monsters = view.side.monsters
    for zone, atk in view.mine.items():
        m = monsters[zone]
        if turn == m.summoned_turn or turn == m.changed_turn or turn == m.attacked_turn \
                or view.cards[m.card].monster_type in view.locks:
            continue
        if not m.attack:
            wanted = atk > view.threat
        else:
            wanted = (atk < view.threat and view.target(zone) is None
                      and duel.defense(view.me, zone) > atk)
        if wanted:
            return ChangePosition(zone)
    return None


# -- battle ---------------------------------------------------------------------------------


def _battle(view: View) -> Action | None:
    if not view.attacks_allowed():
        return None
    ready = [z for z in view.mine if view.can_attack(z)]
    for zone in sorted(ready, key=lambda z: (-view.mine[z], z)):
        target = view.target(zone)
        if target is not None:
            return Attack(zone, target)
    return None


# The main-phase rules in order: the first that returns an action decides.
_MAIN_RULES = (_magic, _spring_trap, _summon, _set_trap, _position)
