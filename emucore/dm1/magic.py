"""The 50 DM1 magic cards, dispatched on the ``effect`` column of roms_tables/dm1/magic.csv.

Level-up cards (equips) go on own monsters only; level-down (Spellbinding Circle) hits the
opponent's. Levels stay within -1..2 (``emucore.hw.gameboy``); a level change beyond the range,
an equip on a monster not on its list, or Elegant Egotist on a monster other than Harpie Lady
has no effect and the card is spent (choices D7: the cartridge's message for these is unknown).
An equip or Elegant Egotist with no own monster on the field may still be played, to no effect
(choices D7: spent like an equip on a monster off its list).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from emucore.dm1.actions import NO_TARGET, Equipped, MagicUsed
from emucore.dm1.state import ATTACK, FACE_UP, SEALED, ZONES, Views
from emucore.duel.protocol import Event, IllegalAction
from emucore.hw.gameboy import LEVEL_MAX, LEVEL_MIN
from emucore.tables.dm1 import EFFECTS


class MagicBoard(Protocol):
    """What a magic card reads and changes of a duel (a :class:`~emucore.dm1.duel.Dm1Duel`),
    named here so that the engine imports this module and not the other way round."""

    t: Any                 # the duel's tables (emucore.tables.dm1)
    v: Views
    events: list[Event]

    @property
    def acting_side(self) -> int: ...
    def occupied(self, side: int) -> list[int]: ...
    def zone_card(self, side: int, zone: int) -> int: ...
    def destroy(self, side: int, zone: int) -> None: ...
    def damage(self, side: int, amount: int) -> None: ...
    def heal(self, side: int, amount: int) -> None: ...


TARGETED = frozenset((EFFECTS.index("equip"), EFFECTS.index("transform")))


def targets(duel: MagicBoard, card: int) -> list[int]:
    """The targets a magic card may be activated on now."""
    if duel.t.effect[card] in TARGETED:
        return duel.occupied(duel.acting_side) or [NO_TARGET]
    return [NO_TARGET]


def check_target(duel: MagicBoard, card: int, target: int) -> None:
    """Raise :class:`IllegalAction` for a target the card may not take."""
    allowed = targets(duel, card)
    if target not in allowed:
        raise IllegalAction("magic-target", f"{duel.t.names[card]} takes target "
                                            f"{' or '.join(map(str, allowed))}, not {target}")


def activate(duel: MagicBoard, card: int, target: int) -> None:
    """Duel_PlayMagic (spell verb table, bank 3 0x0EF82): apply the card's effect."""
    effect = EFFECTS[duel.t.effect[card]]
    at = len(duel.events)
    took = _HANDLERS[effect](duel, card, target)
    event = Equipped if effect == "equip" else MagicUsed
    duel.events.insert(at, event(duel.acting_side, card, effect, target, took))


def _equip(duel: MagicBoard, card: int, target: int) -> bool:
    side = duel.acting_side
    if target == NO_TARGET:
        return False
    monster = duel.zone_card(side, target)
    if not duel.t.equip[card, monster]:
        return False
    return _shift_level(duel, side, target, +1)


def _shift_level(duel: MagicBoard, side: int, zone: int, delta: int) -> bool:
    i = side * ZONES + zone
    levels = duel.v.zone_level
    new = levels[i] + delta
    if not LEVEL_MIN <= new <= LEVEL_MAX:
        return False
    levels[i] = new
    return True


def _transform(duel: MagicBoard, card: int, target: int) -> bool:
    side = duel.acting_side
    row = duel.t.magic_rows[card]
    if target == NO_TARGET or duel.zone_card(side, target) != row["transform_from"]:
        return False
    duel.v.zone_card[side * ZONES + target] = row["transform_to"]  # level and order kept
    return True


def _force_attack(duel: MagicBoard, card: int, target: int) -> bool:
    """Stop Defense: the opponent's monsters switch to attack position now and must attack on
    the opponent's next turn (choices D8: a reading of "must attack next turn")."""
    foe = 1 - duel.acting_side
    stances = duel.v.zone_stance
    for z in duel.occupied(foe):
        stances[foe * ZONES + z] = ATTACK
    duel.v.forced_attack[foe] = 1
    return True


def _seal_type(duel: MagicBoard, card: int, target: int) -> bool:
    """Dragon Capture Jar: every monster of the sealed type on the field (both sides) is
    sealed — it may not attack while it stays (choices D9: sealing lasts while on the field)."""
    sealed_type = duel.t.magic_rows[card]["sealed_type"]
    flags = duel.v.zone_flags
    hit = False
    for side in (0, 1):
        for z in duel.occupied(side):
            if duel.t.type_id[duel.zone_card(side, z)] == sealed_type:
                flags[side * ZONES + z] |= SEALED
                hit = True
    return hit


def _field(duel: MagicBoard, card: int, target: int) -> bool:
    duel.v.field[0] = duel.t.terrain_of[card]
    return True


def _destroy(duel: MagicBoard, sides: tuple[int, ...]) -> bool:
    hit = False
    for side in sides:
        for z in duel.occupied(side):
            duel.destroy(side, z)
            hit = True
    return hit


def _destroy_all(duel: MagicBoard, card: int, target: int) -> bool:
    return _destroy(duel, (0, 1))


def _destroy_opponent(duel: MagicBoard, card: int, target: int) -> bool:
    return _destroy(duel, (1 - duel.acting_side,))


def _heal(duel: MagicBoard, card: int, target: int) -> bool:
    duel.heal(duel.acting_side, int(duel.t.amount[card]))
    return True


def _burn(duel: MagicBoard, card: int, target: int) -> bool:
    duel.damage(1 - duel.acting_side, int(duel.t.amount[card]))
    return True


def _lock(duel: MagicBoard, card: int, target: int) -> bool:
    """Swords of Revealing Light: reveal the opponent's monsters; the opponent may not attack
    during its next ``lock_turns`` turns (the counter drops at the end of each of its turns)."""
    foe = 1 - duel.acting_side
    _reveal_side(duel, foe)
    duel.v.lock_turns[foe] = duel.t.magic_rows[card]["lock_turns"]
    return True


def _level_down_all(duel: MagicBoard, card: int, target: int) -> bool:
    foe = 1 - duel.acting_side
    changed = [_shift_level(duel, foe, z, -1) for z in duel.occupied(foe)]
    return any(changed)


def _reveal_side(duel: MagicBoard, side: int) -> None:
    flags = duel.v.zone_flags
    for z in duel.occupied(side):
        flags[side * ZONES + z] |= FACE_UP


def _reveal(duel: MagicBoard, card: int, target: int) -> bool:
    _reveal_side(duel, 0)
    _reveal_side(duel, 1)
    return True


_HANDLERS: dict[str, Callable[[MagicBoard, int, int], bool]] = {
    "equip": _equip, "transform": _transform, "force_attack": _force_attack,
    "seal_type": _seal_type, "field": _field, "destroy_all": _destroy_all,
    "destroy_opponent": _destroy_opponent, "heal": _heal, "burn": _burn, "lock": _lock,
    "level_down_all": _level_down_all, "reveal": _reveal,
}
