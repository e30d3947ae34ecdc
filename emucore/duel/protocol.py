"""The Duel protocol: the one way anything drives a duel (DESIGN.md, rule 4).

The frontend, the computer opponents, replays, the planner and the tests all go through
``legal_actions()``, ``step(action) -> events``, ``snapshot()``/``restore()`` and ``digest()``.
Actions and events are small frozen dataclasses; each system defines its own kinds and the
codec that turns them into JSON-able dicts for replay files.

A screen builds an action part by part, as ygopro-core's prompts let a client do: an action
is a sequence of :data:`Part` (its kind, then its fields), and ``options(prefix)`` answers
which parts may come next after the ones already chosen; ``action_for(prefix)`` is the legal
action those parts make once they are complete. Both come from the same rules as
``legal_actions()`` and ``step()``: the base class filters the legal list, and a system
whose list cannot be filtered part by part (FM's lazy product) answers from its own rules.
A prefix that starts no legal action is refused with the rule that refuses the plainest
action it names (``Duel.refused``), as ygopro-core's ``MSG_RETRY`` tells a client its answer
was wrong, so a screen can say why a card has no play now.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, ClassVar, Final

Part = tuple[str, Any]
"""One part of an action as a prompt offers it: the choice's name and its value
(``("kind", "attack")``, ``("zone", 2)``)."""

DRAW: Final[int] = -1
"""``Duel.winner`` of a drawn duel; ``None`` while it runs, else the winning side 0 or 1."""


class EventKind:
    """The one vocabulary of event kinds for what the four systems share.

    A system's event class uses one of these as its ``kind`` whenever it means the same thing;
    a system-only idea (FM's terrain change, paper ante) keeps a name of its own that is not
    one of these.
    """

    TURN: Final = "turn"            # a side's turn begins (side, turn)
    PHASE: Final = "phase"          # a phase begins (paper rules)
    DRAW: Final = "draw"            # a side draws a card
    PLACED: Final = "placed"        # a card arrives on the field: summoned, set or played
    FUSION: Final = "fusion"        # two or more cards fuse into a result
    EQUIP: Final = "equip"          # an equip card powers a monster up
    MAGIC: Final = "magic"          # a magic card takes effect
    TRAP: Final = "trap"            # a trap card takes effect
    FLIP: Final = "flip"            # a face-down card turns face up
    POSITION: Final = "position"    # a monster changes between attack and defence
    ATTACK: Final = "attack"        # an attack is declared
    BATTLE: Final = "battle"        # a battle is resolved (its outcome)
    DESTROYED: Final = "destroyed"  # a card leaves the field for the graveyard
    LIFE: Final = "life"            # life points change (side, delta, lp)
    ENDED: Final = "ended"          # the duel is over (winner, reason, ...)

    ALL: Final = frozenset({TURN, PHASE, DRAW, PLACED, FUSION, EQUIP, MAGIC, TRAP, FLIP,
                            POSITION, ATTACK, BATTLE, DESTROYED, LIFE, ENDED})


class IllegalAction(ValueError):
    """An action the rules do not allow now. The duel's state is unchanged.

    ``rule`` is a short stable name for the rule that forbids it (for tests and scripts),
    spelled one way in every system: lower-case words joined by hyphens (``duel-over``);
    ``str()`` is one line for people.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule


@dataclass(frozen=True)
class Action:
    """Base of every system's actions. ``kind`` names the action in replay files."""

    kind: ClassVar[str] = "action"

    def parts(self) -> tuple[Part, ...]:
        """The action as prompt parts: ``("kind", kind)``, then each field in declaration
        order (a system leaves out fields no player chooses, as FM's ``rng_calls``)."""
        return (("kind", self.kind),
                *((f.name, getattr(self, f.name)) for f in fields(self) if f.name not in
                  self.unchosen))

    unchosen: ClassVar[frozenset[str]] = frozenset()
    """Fields that are not a player's choice and so are no prompt part."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict: ``{"kind": ..., field: value, ...}``."""
        data = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class Event:
    """Base of every system's events: something a screen or a log would show."""

    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict with the event's kind."""
        return {"kind": self.kind, **asdict(self)}


def action_from_json(data: dict[str, Any], kinds: Sequence[type[Action]]) -> Action:
    """Rebuild an action from :meth:`Action.to_json` output, given a system's action classes
    (fields that have a default may be left out)."""
    by_kind = {cls.kind: cls for cls in kinds}
    if not isinstance(data, dict):
        raise ValueError("an action is a JSON object")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in by_kind:
        raise ValueError(f"unknown action kind {str(kind)[:40]!r} (one of {', '.join(by_kind)})")
    cls = by_kind[kind]
    args = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is not MISSING or f.default_factory is not MISSING:
                continue  # a field with a default may be left out
            raise ValueError(f"action {kind!r} lacks field {f.name!r}")
        args[f.name] = _field_value(data[f.name], str(f.type), f"action {kind!r} {f.name!r}")
    return cls(**args)


def plainest_action(prefix: Sequence[Part], kinds: Sequence[type[Action]],
                    plain: dict[str, Any] | None = None) -> Action | None:
    """The action ``prefix`` names (its kind, then fields by name), each field it leaves out
    filled with the field's default or with ``plain[name]`` (what a player tries first: a
    summon in attack position, an attack on the first place it may go); ``None`` when it
    names no kind of ``kinds`` or leaves out a field with neither."""
    by_kind = {cls.kind: cls for cls in kinds}
    cls = by_kind.get(prefix[0][1]) if prefix and prefix[0][0] == "kind" else None
    if cls is None:
        return None
    chosen, plain = dict(prefix[1:]), plain or {}
    args = {}
    for f in fields(cls):
        if f.name in chosen:
            args[f.name] = chosen[f.name]
        elif f.default is MISSING and f.default_factory is MISSING:
            if f.name not in plain:
                return None
            args[f.name] = plain[f.name]
    return cls(**args)


ACTION_INT = (-(1 << 31), (1 << 31) - 1)  # any action field fits a machine word
ACTION_LIST = 64  # the longest list an action field holds (a fusion's material chain is 5)
ACTION_TEXT = 32  # the longest string an action field holds


def _field_value(value: Any, annotation: str, what: str) -> Any:
    """A JSON value checked against the field's annotation: ``bool`` takes only true/false,
    ``int`` only integers (not true/false), ``tuple[int, ...]`` a short list of integers,
    ``str`` a short string (a choice the engine names, like an FM attack's view)."""
    def integer(v: Any) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or \
                not ACTION_INT[0] <= v <= ACTION_INT[1]:
            raise ValueError(f"{what} must be an integer, not {str(v)[:40]}")
        return v
    if annotation == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{what} must be true or false, not {str(value)[:40]}")
        return value
    if annotation == "str":
        if not isinstance(value, str) or len(value) > ACTION_TEXT:
            raise ValueError(f"{what} must be a string of at most {ACTION_TEXT} characters")
        return value
    if annotation.startswith("tuple"):
        if not isinstance(value, list) or len(value) > ACTION_LIST:
            raise ValueError(f"{what} must be a list of at most {ACTION_LIST} integers")
        return tuple(integer(v) for v in value)
    return integer(value)


class Duel(ABC):
    """A duel of one rule system, driven only through this protocol."""

    system: ClassVar[str] = ""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the side to act may take now (empty once the duel is over)."""

    @abstractmethod
    def step(self, action: Action) -> list[Event]:
        """Apply one action; raise :class:`IllegalAction` (state unchanged) if not allowed."""

    @abstractmethod
    def snapshot(self) -> bytes:
        """The complete state as bytes; ``restore(snapshot())`` continues identically."""

    @abstractmethod
    def restore(self, data: bytes) -> None:
        """Return to a state taken by :meth:`snapshot`."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the duel has ended."""

    @property
    @abstractmethod
    def winner(self) -> int | None:
        """``None`` while the duel runs; then the winning side 0 or 1, or :data:`DRAW`."""

    @property
    @abstractmethod
    def end_reason(self) -> str | None:
        """``None`` while the duel runs; then why it ended (``lp``, ``deckout``, ...)."""

    @property
    @abstractmethod
    def acting_side(self) -> int:
        """The side (0 or 1) whose action :meth:`legal_actions` lists."""

    def options(self, prefix: Sequence[Part] = ()) -> list[Part]:
        """The parts that may follow ``prefix`` in a legal action, each once, in the legal
        list's order; empty when ``prefix`` is already a whole legal action. A prefix that
        starts no legal action is refused (:class:`IllegalAction`, rule ``no-such-choice``)."""
        prefix = tuple(prefix)
        n = len(prefix)
        out: dict[Part, None] = {}
        started = False
        for action in self.legal_actions():
            parts = action.parts()
            if parts[:n] == prefix:
                started = True
                if len(parts) > n:
                    out[parts[n]] = None
        if not started:
            raise self.refused(prefix)
        return list(out)

    def refused(self, prefix: Sequence[Part],
                otherwise: IllegalAction | None = None) -> IllegalAction:
        """Why ``prefix`` starts no legal action: the refusal of the plainest action it names
        (:meth:`plainest`, tried by :meth:`refusal`), else ``otherwise``, else rule
        ``no-such-choice``."""
        prefix = tuple(prefix)
        action = self.plainest(prefix)
        why = None if action is None else self.refusal(action)
        return why or otherwise or IllegalAction("no-such-choice",
                                                 f"no legal action starts with {prefix!r}")

    def plainest(self, prefix: Sequence[Part]) -> Action | None:
        """The action a player most likely means by ``prefix`` (:func:`plainest_action`);
        ``None`` here: a system says what its players try first."""
        return None

    def refusal(self, action: Action) -> IllegalAction | None:
        """Why the rules refuse ``action`` now, or ``None`` when they take it; the state is
        the same afterwards either way (here: ``step()`` on a snapshot, put back)."""
        before = self.snapshot()
        try:
            self.step(action)
        except IllegalAction as refused:
            return refused
        self.restore(before)
        return None

    def action_for(self, prefix: Sequence[Part]) -> Action | None:
        """The legal action whose parts are exactly ``prefix``; ``None`` while more parts
        are to come. A prefix that starts no legal action is refused as by :meth:`options`."""
        prefix = tuple(prefix)
        if not self.options(prefix):
            for action in self.legal_actions():
                if action.parts() == prefix:
                    return action
        return None

    def state_fields(self) -> dict[str, int]:
        """Named state fields (``side0.lp`` ...) for replay diffs; systems override."""
        return {}

    def digest(self) -> str:
        """A hash of the complete state (hex, 16 chars)."""
        return hashlib.blake2b(self.snapshot(), digest_size=8).hexdigest()
