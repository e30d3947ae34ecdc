"""Card effects by kind: each magic/trap card names one kind in its table row (``effect``,
``amount``, ``effect_type``) and the kind is implemented here once.

A kind offers ``targets`` (every target tuple worth listing as a legal action), ``check``
(raise IllegalAction, changing nothing) and ``apply``. Target tuples:

- ``equip``: (side, zone) of a face-up monster of the card's type; the card stays in its
  magic/trap zone, stacked on the monster: +amount ATK and DEF while both stay.
- ``polymerization``: (zone_a, zone_b) of two of your monsters that are the named materials of
  a Fusion Monster in your Fusion Deck; it takes zone_a's place face-up in attack position.
- ``destroy_face_up_trap``: (side, zone) of a face-up trap card.
- ``trap_destroy_two_and_one``: (your zone, your zone, opponent's zone).
- every other kind: ().

Normal magic goes to the graveyard after resolving; equips, Field cards and continuous traps
stay. ``trap_destroy_summoned`` (Trap Hole) is activated only in the response window that
opens when the opponent places a monster face-up, and only against one with at least
``amount`` ATK; it destroys that monster.
"""

from __future__ import annotations

from itertools import combinations
from typing import Protocol

from emucore.duel.protocol import Event, IllegalAction
from emucore.paper.actions import Fused, MagicPlayed, PositionChanged, TrapActivated
from emucore.paper.cards import TRAP, Catalogue
from emucore.paper.state import SUMMON_WINDOW, ZONES, State


class EffectBoard(Protocol):
    """What a card effect reads and changes of a duel (a
    :class:`~emucore.paper.engine.PaperDuel`), named here so that the engine imports this
    module and not the other way round."""

    catalogue: Catalogue
    state: State

    def atk(self, side: int, zone: int) -> int: ...
    def place_monster(self, side: int, card: int, face_up: bool, attack: bool) -> int: ...
    def destroy_monster(self, side: int, zone: int, events: list[Event]) -> None: ...
    def destroy_spell(self, side: int, zone: int, events: list[Event]) -> None: ...
    def damage(self, side: int, amount: int, events: list[Event]) -> None: ...
    def heal(self, side: int, amount: int, events: list[Event]) -> None: ...
    def finish_trap(self, side: int, zone: int, events: list[Event]) -> None: ...

STAYS = ("equip", "field", "trap_lock_type")


def _refuse(rule: str, message: str) -> None:
    raise IllegalAction(rule, message)


def _monster_zones(duel: EffectBoard, side: int) -> list[int]:
    return [z for z, m in enumerate(duel.state.sides[side].monsters) if m]


def _arity(targets: tuple[int, ...], n: int, what: str) -> None:
    if len(targets) != n:
        _refuse("targets", f"{what} takes {n} target number(s), got {len(targets)}")


class Kind:
    """An effect kind with no targets and no effect (base of the others)."""

    def targets(self, duel: EffectBoard, side: int, card: int) -> list[tuple[int, ...]]:
        try:
            self.check(duel, side, card, ())
        except IllegalAction:
            return []
        return [()]

    def check(self, duel: EffectBoard, side: int, card: int, targets: tuple[int, ...]) -> None:
        _arity(targets, 0, duel.catalogue.name(card))

    def apply(self, duel: EffectBoard, side: int, card: int, zone: int,
              targets: tuple[int, ...], events: list[Event]) -> None:
        """Nothing by default."""


class Heal(Kind):
    def apply(self, duel, side, card, zone, targets, events):
        duel.heal(side, duel.catalogue[card].amount, events)


class Burn(Kind):
    def apply(self, duel, side, card, zone, targets, events):
        duel.damage(1 - side, duel.catalogue[card].amount, events)


class DestroyAll(Kind):
    """Dark Hole: every monster on the field."""

    def check(self, duel, side, card, targets):
        super().check(duel, side, card, targets)
        if not (_monster_zones(duel, 0) or _monster_zones(duel, 1)):
            _refuse("no-target", "there is no monster on the field")

    def apply(self, duel, side, card, zone, targets, events):
        for who in (1 - side, side):
            for z in _monster_zones(duel, who):
                duel.destroy_monster(who, z, events)


class DestroyOpponents(Kind):
    """Raigeki: every monster the opponent controls."""

    def check(self, duel, side, card, targets):
        super().check(duel, side, card, targets)
        if not _monster_zones(duel, 1 - side):
            _refuse("no-target", "the opponent has no monster")

    def apply(self, duel, side, card, zone, targets, events):
        for z in _monster_zones(duel, 1 - side):
            duel.destroy_monster(1 - side, z, events)


class DestroyWeakest(DestroyOpponents):
    """Fissure: the opponent's monster with the lowest current ATK, face-up or face-down
    (the 1999 wording names no face-up condition); on a tie the lowest zone."""

    def apply(self, duel, side, card, zone, targets, events):
        foe = 1 - side
        weakest = min(_monster_zones(duel, foe), key=lambda z: (duel.atk(foe, z), z))
        duel.destroy_monster(foe, weakest, events)


class Equip(Kind):
    def targets(self, duel, side, card):
        return [(s, z) for s in (side, 1 - side) for z in _monster_zones(duel, s)
                if self._fits(duel, card, s, z)]

    def _fits(self, duel, card, s, z) -> bool:
        m = duel.state.sides[s].monsters[z]
        return m.face_up and duel.catalogue[m.card].monster_type == duel.catalogue[
            card].effect_type

    def check(self, duel, side, card, targets):
        _arity(targets, 2, "an equip card")
        s, z = targets
        if s not in (0, 1) or not 0 <= z < ZONES or duel.state.sides[s].monsters[z] is None:
            _refuse("no-target", f"no monster at side {s} zone {z}")
        if not self._fits(duel, card, s, z):
            _refuse("equip-type", f"{duel.catalogue.name(card)} powers up only a face-up "
                                  f"{duel.catalogue[card].effect_type} monster")

    def apply(self, duel, side, card, zone, targets, events):
        s, z = targets
        spell = duel.state.sides[side].spells[zone]
        spell.target_side, spell.target_zone = s, z
        duel.state.sides[s].monsters[z].bonus += duel.catalogue[card].amount


class Field(Kind):
    """A Field card: only one in play; the newest replaces the older (either side's)."""

    def apply(self, duel, side, card, zone, targets, events):
        for who, other in enumerate(duel.state.sides):
            for z, spell in enumerate(other.spells):
                if spell and spell.face_up and (who, z) != (side, zone) and \
                        duel.catalogue[spell.card].effect == "field":
                    duel.destroy_spell(who, z, events)


class Polymerization(Kind):
    def targets(self, duel, side, card):
        return [(a, b) for a, b in combinations(_monster_zones(duel, side), 2)
                if self._result(duel, side, a, b)]

    def _result(self, duel, side, a, b) -> int:
        monsters = duel.state.sides[side].monsters
        result = duel.catalogue.fusion_of(monsters[a].card, monsters[b].card)
        return result if result in duel.state.sides[side].fusion_deck else 0

    def check(self, duel, side, card, targets):
        _arity(targets, 2, "Polymerization")
        a, b = targets
        monsters = duel.state.sides[side].monsters
        if a == b or not all(0 <= z < ZONES and monsters[z] for z in (a, b)):
            _refuse("fusion-materials", "Polymerization needs two of your monsters on the field")
        if not duel.catalogue.fusion_of(monsters[a].card, monsters[b].card):
            _refuse("fusion-materials", f"{duel.catalogue.name(monsters[a].card)} and "
                    f"{duel.catalogue.name(monsters[b].card)} are not the materials of a fusion")
        if not self._result(duel, side, a, b):
            _refuse("fusion-deck", "the Fusion Monster is not in your Fusion Deck")

    def apply(self, duel, side, card, zone, targets, events):
        a, b = targets
        s = duel.state.sides[side]
        result = self._result(duel, side, a, b)
        materials = (s.monsters[a].card, s.monsters[b].card)
        duel.destroy_monster(side, a, events)
        duel.destroy_monster(side, b, events)
        s.fusion_deck.remove(result)
        zone = duel.place_monster(side, result, True, True)
        events.append(Fused(side, zone, result, materials))


class DestroyFaceUpTrap(Kind):
    """Remove Trap: one face-up trap card on the field."""

    def targets(self, duel, side, card):
        return [(s, z) for s in (0, 1) for z, spell in enumerate(duel.state.sides[s].spells)
                if spell and spell.face_up and duel.catalogue[spell.card].kind == TRAP]

    def check(self, duel, side, card, targets):
        _arity(targets, 2, "Remove Trap")
        if tuple(targets) not in self.targets(duel, side, card):
            _refuse("no-target", f"no face-up trap at side {targets[0]} zone {targets[1]}")

    def apply(self, duel, side, card, zone, targets, events):
        duel.destroy_spell(targets[0], targets[1], events)


class TwoAndOne(Kind):
    """Two-Pronged Attack: destroy two of your monsters and one of the opponent's."""

    def targets(self, duel, side, card):
        return [(a, b, t) for a, b in combinations(_monster_zones(duel, side), 2)
                for t in _monster_zones(duel, 1 - side)]

    def check(self, duel, side, card, targets):
        _arity(targets, 3, "Two-Pronged Attack")
        a, b, t = targets
        mine, foes = _monster_zones(duel, side), _monster_zones(duel, 1 - side)
        if a == b or a not in mine or b not in mine or t not in foes:
            _refuse("no-target", "Two-Pronged Attack needs two different monsters of yours and "
                                 "one of the opponent's")

    def apply(self, duel, side, card, zone, targets, events):
        a, b, t = targets
        duel.destroy_monster(1 - side, t, events)
        duel.destroy_monster(side, a, events)
        duel.destroy_monster(side, b, events)


class LockType(Kind):
    """Dragon Capture Jar (continuous): monsters of the type go to defence and stay there."""

    def apply(self, duel, side, card, zone, targets, events):
        kind = duel.catalogue[card].effect_type
        for who, s in enumerate(duel.state.sides):
            for z, m in enumerate(s.monsters):
                if m and m.attack and duel.catalogue[m.card].monster_type == kind:
                    m.attack = False
                    events.append(PositionChanged(who, z, 0))


class DestroySummoned(Kind):
    """Trap Hole: in the window a face-up summon opens, destroy the summoned monster if its
    ATK is at least the card's amount."""

    def check(self, duel, side, card, targets):
        super().check(duel, side, card, targets)
        st = duel.state
        if st.window != SUMMON_WINDOW or side != st.responder:
            _refuse("trap-condition", f"{duel.catalogue.name(card)} answers only the "
                                      "opponent's placing a monster face-up")
        if duel.atk(st.active, st.zone) < duel.catalogue[card].amount:
            _refuse("trap-condition", f"{duel.catalogue.name(card)} needs a monster with "
                                      f"{duel.catalogue[card].amount} ATK or more")

    def apply(self, duel, side, card, zone, targets, events):
        duel.destroy_monster(duel.state.active, duel.state.zone, events)


KINDS: dict[str, Kind] = {
    "heal": Heal(), "burn": Burn(), "destroy_all_monsters": DestroyAll(),
    "destroy_opponent_monsters": DestroyOpponents(), "destroy_weakest_opponent": DestroyWeakest(),
    "equip": Equip(), "field": Field(), "polymerization": Polymerization(),
    "destroy_face_up_trap": DestroyFaceUpTrap(), "trap_destroy_two_and_one": TwoAndOne(),
    "trap_lock_type": LockType(), "trap_destroy_summoned": DestroySummoned(),
}


def _kind(duel: EffectBoard, card: int) -> Kind:
    effect = duel.catalogue[card].effect
    if effect not in KINDS:
        _refuse("no-effect", f"{duel.catalogue.name(card)} has no effect emucore knows "
                             f"({effect or 'none'})")
    return KINDS[effect]


def targets(duel: EffectBoard, side: int, card: int) -> list[tuple[int, ...]]:
    """Every legal target tuple for playing ``card`` now."""
    kind = KINDS.get(duel.catalogue[card].effect)
    return kind.targets(duel, side, card) if kind else []


def check(duel: EffectBoard, side: int, card: int, targets: tuple[int, ...]) -> None:
    """Raise IllegalAction unless ``card`` can resolve with ``targets`` now."""
    _kind(duel, card).check(duel, side, card, tuple(targets))


def resolve(duel: EffectBoard, side: int, zone: int, targets: tuple[int, ...],
            events: list[Event]) -> None:
    """Resolve the face-up card in ``side``'s magic/trap ``zone``, then clear it away unless
    its kind stays on the field."""
    spell = duel.state.sides[side].spells[zone]
    card = spell.card
    trap = duel.catalogue[card].kind == TRAP
    events.append((TrapActivated if trap else MagicPlayed)(side, card, zone))
    _kind(duel, card).apply(duel, side, card, zone, tuple(targets), events)
    effect = duel.catalogue[card].effect
    if effect in STAYS or duel.state.sides[side].spells[zone] is not spell:
        return
    if trap:
        duel.finish_trap(side, zone, events)
    else:
        duel.destroy_spell(side, zone, events)
