"""FM actions (what a side does) and events (what a screen shows).

Zones are numbered per side: monster columns 0..4 and magic/trap columns 0..4 (the row is
implied by the action). Hand positions are 0..4. Every action carries ``rng_calls``: the
number of ``rand()`` calls the deciding party (the computer opponent's scripts) made before
acting; :meth:`FmDuel.step` advances the duel's single stream by that many calls first, so a
replay of actions alone reproduces the stream exactly. People and scripts leave it at 0.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from emucore.duel.protocol import Action, Event, EventKind, Part

AUTO = -1  # zone: the lowest free column of the row the play lands in
DIRECT = -1  # attack target: the opponent's life points
DECK_PICK = 100  # Play.cards entry DECK_PICK + p: the card at draw position p (fm-ai §2.4)

_T = TypeVar("_T")


def record(cls: type[_T]) -> type[_T]:
    """``dataclass(frozen=True)`` with an ``__init__`` that fills the instance's ``__dict__``
    directly: the same signature, defaults and immutability as the generated one, about
    half its cost (whose ``object.__setattr__`` per field showed in every ``step()``: each
    makes a few events, and the legal list an action)."""
    cls = dataclass(frozen=True)(cls)
    defaults: dict[str, Any] = {}
    positional, keywords, body = [], [], []
    for f in fields(cls):
        param = f.name
        if f.default is not MISSING:
            defaults[f"_default_{f.name}"] = f.default
            param += f"=_default_{f.name}"
        (keywords if f.kw_only else positional).append(param)
        body.append(f"    d[{f.name!r}] = {f.name}\n")
    params = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    exec(f"def __init__({params}):\n    d = self.__dict__\n{''.join(body)}", defaults)
    init = defaults["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls


@record
class FmAction(Action):
    rng_calls: int = field(default=0, kw_only=True)
    unchosen = frozenset({"rng_calls"})  # the computer's script calls: no player's choice


@record
class Play(FmAction):
    """The hand phase's one play: raise ``cards`` (hand positions, in raise order; 1..5) and
    place them. ``zone`` is the column the play lands on (AUTO = lowest free): an occupied
    column makes its card the first of the combination chain. ``face_down`` sets a single
    card face-down (a magic card is then set instead of activated); ``star`` 0/1 is the
    player's answer to the guardian-star dialog (0, the first star, where the dialog's
    cursor starts), for the monster that ends up placed, a field monster after a fusion or
    a failure, or a ritual's result."""

    kind = "play"
    cards: tuple[int, ...]
    zone: int = AUTO
    face_down: bool = False
    star: int = 0

    def parts(self) -> tuple[Part, ...]:
        """As the hand phase's prompts ask them (emucore.fm.prompts): each raised card as
        ``("card", j)`` in raise order, the face, the landing column (none while it is
        AUTO: an activation, or a play the prompts have not resolved) and the star."""
        zone = () if self.zone == AUTO else (("zone", self.zone),)
        return (("kind", self.kind), *(("card", j) for j in self.cards),
                ("face_down", self.face_down), *zone, ("star", self.star))


@record
class Attack(FmAction):
    """Monster column ``attacker`` attacks the opponent's column ``target`` or DIRECT.

    ``view`` is how the player commits it and what they press during a 3-D battle
    (emucore.fm.timeline.VIEWS): ``2d`` (Cross, the default), or Square and then ``3d``
    (watch it), ``3d_circles`` (Circle once the summoning circles appear) or ``3d_skip``
    (Circle before they do). A direct attack or a sprung trap plays in 2-D whatever the
    button; the computer's attacks are always 2-D."""

    kind = "attack"
    attacker: int
    target: int = DIRECT
    view: str = "2d"


@record
class ChangePosition(FmAction):
    """The player's position change (``func_8001D240``): the monster toggles between attack
    and defence and stays ready. For a computer-played side it is the AI's "defend": into
    defence (if not there) and used for the turn."""

    kind = "position"
    zone: int


@record
class Activate(FmAction):
    """Activate the set magic, field, ritual or equip card in magic/trap column ``zone``;
    an equip names the monster column ``target`` it goes onto (AUTO: the first it fits, else
    the first monster; one it does not fit makes the combination fail). ``star`` answers a
    guardian-star dialog, as :class:`Play`'s does."""

    kind = "activate"
    zone: int
    target: int = AUTO
    star: int = 0


@record
class Done(FmAction):
    """The CPU field executor's "done" (fm-ai.md §5.2, ``PlayFieldCard slot,0,0,0``): set the
    used flag 0x4000 of the card in column ``zone`` of the monster row (or the magic/trap row
    with ``magic``). Accepted in the field phase; never listed as legal."""

    kind = "done"
    zone: int
    magic: bool = False


@record
class EndTurn(FmAction):
    """End the field phase; the other side's draw phase follows at once."""

    kind = "end_turn"


ACTION_KINDS: tuple[type[FmAction], ...] = (Play, Attack, ChangePosition, Activate, Done,
                                            EndTurn)


# ----------------------------------------------------------------------------- events
# Kinds the systems share come from emucore.duel.protocol.EventKind; FM-only ideas (a
# combination failure, a terrain change, a stat change, a ritual summon, an animation's
# rand() calls) keep their own.
@record
class FmEvent(Event):
    """Base of the FM events. ``rand_calls`` is the number of ``rand()`` calls the duel's
    stream made for this event (0 when none): with the action's ``rng_calls`` the events of
    one step account for every call the step made. Only the events that can make calls
    (an animation, a ritual's star, the drop) hold it as a field; for the others it is the
    class's 0, which keeps the many draw and placement events cheap to build."""

    rand_calls: ClassVar[int] = 0

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "rand_calls": self.rand_calls}


@record
class AnimationShown(FmEvent):
    """An effect or scene animation and the ``rand()`` calls it made (emucore.fm.timeline):
    ``name`` is the timeline's name (``damage_number``, ``shake``, ``destruction``,
    ``star_flash``, ``fusion``, ``equip``, ``failure``, ``trap``, ``field``, ...; docs/
    fm-fidelity.md lists them). It follows the event it animates. ``exact`` is False when
    this count, or an earlier one of the duel, rests on an estimated overlay table
    (emucore.fm.overlay), so the stream from here on is a prediction."""

    kind = "animation"
    name: str
    rand_calls: int = field(default=0, kw_only=True)
    exact: bool = field(default=True, kw_only=True)


@record
class TurnStart(FmEvent):
    kind = EventKind.TURN
    side: int
    turn: int


@record
class Drew(FmEvent):
    kind = EventKind.DRAW
    side: int
    card: int
    hand_pos: int


@record
class Placed(FmEvent):
    """A card arrives in a zone (row "monster" or "magic")."""

    kind = EventKind.PLACED
    side: int
    card: int
    row: str
    zone: int
    face_down: bool
    star: int


@record
class Fusion(FmEvent):
    kind = EventKind.FUSION
    side: int
    a: int
    b: int
    result: int


@record
class Equip(FmEvent):
    kind = EventKind.EQUIP
    side: int
    equip: int
    monster: int
    bonus: int


@record
class Failure(FmEvent):
    """A combination step that neither fuses nor equips: ``discarded`` leaves, ``kept`` stays."""

    kind = "failure"
    side: int
    discarded: int
    kept: int


@record
class Flip(FmEvent):
    kind = EventKind.FLIP
    side: int
    row: str
    zone: int
    card: int


@record
class PositionChange(FmEvent):
    kind = EventKind.POSITION
    side: int
    zone: int
    card: int
    defense: bool


@record
class Battle(FmEvent):
    """``result`` is func_8001EFD4's value (-1 = tie of two attack-position monsters)."""

    kind = EventKind.BATTLE
    side: int
    attacker: int
    attacker_zone: int
    defender: int
    defender_zone: int
    result: int
    outcome: str  # direct, win, win_defense, standoff, double_ko, lose, lose_defense


@record
class Trap(FmEvent):
    kind = EventKind.TRAP
    side: int  # the trap's owner
    card: int
    zone: int
    against: int  # the card it answered


@record
class Magic(FmEvent):
    kind = EventKind.MAGIC
    side: int
    card: int
    effect: str


@record
class TerrainChange(FmEvent):
    kind = "terrain"
    terrain: int


@record
class StatChange(FmEvent):
    kind = "stat"
    side: int
    zone: int
    card: int
    stat_modifier: int


@record
class LifeChanged(FmEvent):
    kind = EventKind.LIFE
    side: int
    delta: int
    lp: int


@record
class Destroyed(FmEvent):
    kind = EventKind.DESTROYED
    side: int
    row: str
    zone: int
    card: int


@record
class RitualSummon(FmEvent):
    kind = "ritual"
    side: int
    ritual: int
    result: int  # 0 when the tributes were missing
    zone: int
    rand_calls: int = field(default=0, kw_only=True)  # CPU star roll


@record
class Ended(FmEvent):
    kind = EventKind.ENDED
    winner: int
    reason: str  # lp, deckout, exodia
    scores: tuple[int, int]
    rank: str
    starchips: int
    pool: str
    drop: int  # 0 when no card is awarded
    drop_state: str = ""  # the RNG state (hex) the rewards scene starts from: the drop roll
    turns: tuple[int, int] = (0, 0)  # each side's turn counter +0x01, as the rank reads it
    rand_calls: int = field(default=0, kw_only=True)  # the drop roll
    exact: bool = field(default=True, kw_only=True)  # False: the drop rests on an estimate

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["scores"], data["turns"] = list(self.scores), list(self.turns)
        return data
