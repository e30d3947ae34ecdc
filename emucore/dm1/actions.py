"""DM1 actions (what a side may do) and events (what happened, for screens and logs).

Events whose meaning every system shares use the kinds of :class:`EventKind`; the DM1-only
ideas (a battle order, a passed play) have names of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

# The shared events this system emits (emucore.duel.events), listed with its own.
from emucore.duel.events import Drew as Drew
from emucore.duel.events import Ended as Ended
from emucore.duel.events import LifeChanged as LifeChanged
from emucore.duel.events import TurnStart as TurnStart
from emucore.duel.protocol import Action, Event, EventKind, action_from_json

NO_TARGET = -1  # a magic card without a target; an attack-position monster that holds
DIRECT = 5  # an order's target: the opponent's life points


@dataclass(frozen=True)
class Summon(Action):
    """Put hand card ``hand`` (a monster) into own ``zone`` (0..4). Onto an occupied zone this
    attempts a fusion with the monster there; without a recipe the new monster replaces it."""

    kind: ClassVar[str] = "summon"
    hand: int
    zone: int


@dataclass(frozen=True)
class Magic(Action):
    """Activate hand card ``hand`` (a magic card), on own ``target`` zone or ``NO_TARGET``."""

    kind: ClassVar[str] = "magic"
    hand: int
    target: int = NO_TARGET


@dataclass(frozen=True)
class Pass(Action):
    """Play no card this turn (the rules let a side play one card; it may play none)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Order(Action):
    """The battle order of the monster in own ``zone``: defend, or attack ``target`` (an
    opponent zone 0..4, ``DIRECT``, or ``NO_TARGET`` when it may not attack now)."""

    kind: ClassVar[str] = "order"
    zone: int
    attack: bool
    target: int = NO_TARGET


ACTION_KINDS = (Summon, Magic, Pass, Order)


def decode_action(data: dict[str, Any]) -> Action:
    """An action from its JSON form (ValueError on a bad one)."""
    action = action_from_json(data, ACTION_KINDS)
    for name, value in vars(action).items():
        if not isinstance(value, int):
            raise ValueError(f"action field {name!r} must be an integer, not {value!r}")
    return action


@dataclass(frozen=True)
class Summoned(Event):
    kind: ClassVar[str] = EventKind.PLACED
    side: int
    zone: int
    card: int
    replaced: int  # the card that was in the zone and is gone (0 = none)


@dataclass(frozen=True)
class Fused(Event):
    kind: ClassVar[str] = EventKind.FUSION
    side: int
    zone: int
    material_a: int  # the card played
    material_b: int  # the card on the field
    result: int


@dataclass(frozen=True)
class MagicUsed(Event):
    kind: ClassVar[str] = EventKind.MAGIC
    side: int
    card: int
    effect: str
    target: int
    took_effect: bool


@dataclass(frozen=True)
class Equipped(MagicUsed):
    """An equip card played on own ``target`` (``took_effect``: the monster went up a level)."""

    kind: ClassVar[str] = EventKind.EQUIP


@dataclass(frozen=True)
class Passed(Event):
    """The acting side played no card this turn."""

    kind: ClassVar[str] = "pass"
    side: int


@dataclass(frozen=True)
class Destroyed(Event):
    kind: ClassVar[str] = EventKind.DESTROYED
    side: int
    zone: int
    card: int


@dataclass(frozen=True)
class Battle(Event):
    kind: ClassVar[str] = EventKind.BATTLE
    side: int
    zone: int
    target: int  # opponent zone or DIRECT
    attack_value: int
    defend_value: int  # the defender's ATK or DEF as fought (0 for a direct attack)
    defender_attacking: bool


@dataclass(frozen=True)
class Ordered(Event):
    """A monster's battle order for the turn (given every turn, changed or not)."""

    kind: ClassVar[str] = "order"
    side: int
    zone: int
    attack: bool
