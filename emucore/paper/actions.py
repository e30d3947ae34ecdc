"""The actions a player takes and the events a duel reports (for screens, logs and replays).

Positions: ``ATTACK`` is face-up attack position; ``DEFENCE`` on a summon means set face-down
in defence position. Monster and magic/trap zones fill from the lowest free zone, so actions
name hand indices and zones, never free-zone choices.
"""

from __future__ import annotations

from dataclasses import dataclass

# The shared events this system emits (emucore.duel.events), listed with its own.
from emucore.duel.events import Drew as Drew
from emucore.duel.events import Ended as Ended
from emucore.duel.events import LifeChanged as LifeChanged
from emucore.duel.protocol import Action, Event, EventKind, action_from_json

ATTACK = 1
DEFENCE = 0
DIRECT = -1  # Attack.target for a direct attack


@dataclass(frozen=True)
class Summon(Action):
    """Place the monster at ``hand`` index: face-up attack (ATTACK) or set face-down (DEFENCE)."""

    kind = "summon"
    hand: int
    position: int


@dataclass(frozen=True)
class Activate(Action):
    """Play the magic or trap card at ``hand`` index face-up. ``targets`` depend on its
    effect kind."""

    kind = "activate"
    hand: int
    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class Set(Action):
    """Set the magic or trap card at ``hand`` index face-down in a magic/trap zone."""

    kind = "set"
    hand: int


@dataclass(frozen=True)
class ActivateSet(Action):
    """Activate the face-down card in the acting side's magic/trap ``zone``."""

    kind = "activate_set"
    zone: int
    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class ChangePosition(Action):
    """Switch the monster in ``zone`` between attack and defence (flipping it face-up)."""

    kind = "change_position"
    zone: int


@dataclass(frozen=True)
class Attack(Action):
    """The monster in ``zone`` attacks the opponent's monster in ``target`` (or DIRECT)."""

    kind = "attack"
    zone: int
    target: int


@dataclass(frozen=True)
class Draw(Action):
    """Draw the draw phase's card (where the rules make the draw a choice; skipping it is
    :class:`NextPhase`)."""

    kind = "draw"


@dataclass(frozen=True)
class Pass(Action):
    """Let the attack or summon that opened a response window go ahead without a trap."""

    kind = "pass"


@dataclass(frozen=True)
class NextPhase(Action):
    """Go on to the next phase (from the last one: end the turn)."""

    kind = "next_phase"


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn now."""

    kind = "end_turn"


ACTION_KINDS = (Summon, Activate, Set, ActivateSet, ChangePosition, Attack, Draw, Pass,
                NextPhase, EndTurn)


def decode_action(data: dict) -> Action:
    """An action from its JSON form (ValueError on a bad one)."""
    if not isinstance(data, dict):
        raise ValueError(f"an action must be an object, not {type(data).__name__}")
    action = action_from_json(data, ACTION_KINDS)
    for name, value in vars(action).items():
        ok = (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, tuple) and all(isinstance(v, int) for v in value))
        if not ok:
            raise ValueError(f"action {action.kind!r}: field {name!r} must be integer(s)")
    return action


@dataclass(frozen=True)
class Started(Event):
    """The duel began: who goes first and why (rps hands are 0 rock, 1 paper, 2 scissors)."""

    kind = "started"
    first: int
    how: str
    hands: tuple[int, ...] = ()


@dataclass(frozen=True)
class Ante(Event):
    kind = "ante"
    side: int
    card: int


@dataclass(frozen=True)
class Phase(Event):
    kind = EventKind.PHASE
    side: int
    turn: int
    phase: str


@dataclass(frozen=True)
class Placed(Event):
    """A card arrived on the field from the hand: a monster summoned or set (``row``
    "monster"), a magic or trap card played or set (``row`` "magic")."""

    kind = EventKind.PLACED
    side: int
    row: str
    zone: int
    card: int
    position: int  # ATTACK or DEFENCE for a monster; ATTACK for a face-up magic/trap
    face_up: bool


@dataclass(frozen=True)
class TookEffect(Event):
    """A magic or trap card takes effect (from ``zone`` of its owner's magic/trap row); the
    kind is one of the two below."""

    side: int
    card: int
    zone: int


@dataclass(frozen=True)
class MagicPlayed(TookEffect):
    kind = EventKind.MAGIC


@dataclass(frozen=True)
class TrapActivated(TookEffect):
    kind = EventKind.TRAP


@dataclass(frozen=True)
class Response(Event):
    """A response window opened: ``side`` may answer the opponent's attack or summon
    (``cause`` "attack" or "summon") with a set trap, or pass."""

    kind = "response"
    side: int
    cause: str


@dataclass(frozen=True)
class PositionChanged(Event):
    kind = EventKind.POSITION
    side: int
    zone: int
    position: int


@dataclass(frozen=True)
class Flipped(Event):
    kind = EventKind.FLIP
    side: int
    zone: int
    card: int


@dataclass(frozen=True)
class Attacked(Event):
    kind = EventKind.ATTACK
    side: int
    zone: int
    target: int


@dataclass(frozen=True)
class Destroyed(Event):
    """A card left the field for the graveyard (``row`` "monster" or "magic")."""

    kind = EventKind.DESTROYED
    side: int
    row: str
    zone: int
    card: int


@dataclass(frozen=True)
class Fused(Event):
    kind = EventKind.FUSION
    side: int
    zone: int
    card: int
    materials: tuple[int, ...]
