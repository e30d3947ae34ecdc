"""DM1 actions (what a side may do) and events (what happened, for screens and logs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from emucore.duel.protocol import Action, Event, action_from_json

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
class Order(Action):
    """The battle order of the monster in own ``zone``: defend, or attack ``target`` (an
    opponent zone 0..4, ``DIRECT``, or ``NO_TARGET`` when it may not attack now)."""

    kind: ClassVar[str] = "order"
    zone: int
    attack: bool
    target: int = NO_TARGET


ACTION_KINDS = (Summon, Magic, Order)


def decode_action(data: dict[str, Any]) -> Action:
    """An action from its JSON form (ValueError on a bad one)."""
    action = action_from_json(data, ACTION_KINDS)
    for name, value in vars(action).items():
        if not isinstance(value, int):
            raise ValueError(f"action field {name!r} must be an integer, not {value!r}")
    return action


@dataclass(frozen=True)
class TurnStart(Event):
    kind: ClassVar[str] = "turn"
    side: int
    turn: int


@dataclass(frozen=True)
class Drew(Event):
    kind: ClassVar[str] = "draw"
    side: int
    card: int


@dataclass(frozen=True)
class Summoned(Event):
    kind: ClassVar[str] = "summon"
    side: int
    zone: int
    card: int
    replaced: int  # the card that was in the zone and is gone (0 = none)


@dataclass(frozen=True)
class Fused(Event):
    kind: ClassVar[str] = "fusion"
    side: int
    zone: int
    material_a: int  # the card played
    material_b: int  # the card on the field
    result: int


@dataclass(frozen=True)
class MagicUsed(Event):
    kind: ClassVar[str] = "magic"
    side: int
    card: int
    effect: str
    target: int
    took_effect: bool


@dataclass(frozen=True)
class LpChanged(Event):
    kind: ClassVar[str] = "lp"
    side: int
    delta: int
    lp: int


@dataclass(frozen=True)
class Destroyed(Event):
    kind: ClassVar[str] = "destroyed"
    side: int
    zone: int
    card: int


@dataclass(frozen=True)
class Battle(Event):
    kind: ClassVar[str] = "battle"
    side: int
    zone: int
    target: int  # opponent zone or DIRECT
    attack_value: int
    defend_value: int  # the defender's ATK or DEF as fought (0 for a direct attack)
    defender_attacking: bool


@dataclass(frozen=True)
class Ordered(Event):
    kind: ClassVar[str] = "order"
    side: int
    zone: int
    attack: bool


@dataclass(frozen=True)
class DuelEnded(Event):
    kind: ClassVar[str] = "end"
    winner: int  # 0, 1, or 2 for a draw
    reason: str
