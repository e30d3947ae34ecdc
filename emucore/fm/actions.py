"""FM actions (what a side does) and events (what a screen shows).

Zones are numbered per side: monster columns 0..4 and magic/trap columns 0..4 (the row is
implied by the action). Hand positions are 0..4. Every action carries ``rng_calls``: the
number of ``rand()`` calls the deciding party (the computer opponent's scripts) made before
acting; :meth:`FmDuel.step` advances the duel's single stream by that many calls first, so a
replay of actions alone reproduces the stream exactly. People and scripts leave it at 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from emucore.duel.protocol import Action, Event, EventKind

AUTO = -1  # zone: the lowest free column of the row the play lands in
DIRECT = -1  # attack target: the opponent's life points
DECK_PICK = 100  # Play.cards entry DECK_PICK + p: the card at draw position p (fm-ai §2.4)


@dataclass(frozen=True)
class FmAction(Action):
    rng_calls: int = field(default=0, kw_only=True)


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Attack(FmAction):
    """Monster column ``attacker`` attacks the opponent's column ``target`` or DIRECT."""

    kind = "attack"
    attacker: int
    target: int = DIRECT


@dataclass(frozen=True)
class ChangePosition(FmAction):
    """The player's position change (``func_8001D240``): the monster toggles between attack
    and defence and stays ready. For a computer-played side it is the AI's "defend": into
    defence (if not there) and used for the turn."""

    kind = "position"
    zone: int


@dataclass(frozen=True)
class Activate(FmAction):
    """Activate the set magic, field, ritual or equip card in magic/trap column ``zone``;
    an equip names the monster column ``target`` it goes onto (AUTO: the first it fits, else
    the first monster; one it does not fit makes the combination fail). ``star`` answers a
    guardian-star dialog, as :class:`Play`'s does."""

    kind = "activate"
    zone: int
    target: int = AUTO
    star: int = 0


@dataclass(frozen=True)
class Done(FmAction):
    """The CPU field executor's "done" (fm-ai.md §5.2, ``PlayFieldCard slot,0,0,0``): set the
    used flag 0x4000 of the card in column ``zone`` of the monster row (or the magic/trap row
    with ``magic``). Accepted in the field phase; never listed as legal."""

    kind = "done"
    zone: int
    magic: bool = False


@dataclass(frozen=True)
class EndTurn(FmAction):
    """End the field phase; the other side's draw phase follows at once."""

    kind = "end_turn"


ACTION_KINDS: tuple[type[FmAction], ...] = (Play, Attack, ChangePosition, Activate, Done,
                                            EndTurn)


# ----------------------------------------------------------------------------- events
# Kinds the systems share come from emucore.duel.protocol.EventKind; FM-only ideas (a
# combination failure, a terrain change, a stat change, a ritual summon, an animation's
# rand() calls) keep their own.
@dataclass(frozen=True)
class FmEvent(Event):
    """Base of the FM events. ``rand_calls`` is the number of ``rand()`` calls the duel's
    stream made for this event (0 when none): with the action's ``rng_calls`` the events of
    one step account for every call the step made. Only the events that can make calls
    (an animation, a ritual's star, the drop) hold it as a field; for the others it is the
    class's 0, which keeps the many draw and placement events cheap to build."""

    rand_calls: ClassVar[int] = 0

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "rand_calls": self.rand_calls}


@dataclass(frozen=True)
class AnimationShown(FmEvent):
    """An animation whose ``rand()`` calls the engine charges (emucore.fm.timeline):
    ``name`` is the timeline's name (``result_outro``, ``failure``, ``equip``)."""

    kind = "animation"
    name: str
    rand_calls: int = field(default=0, kw_only=True)


@dataclass(frozen=True)
class TurnStart(FmEvent):
    kind = EventKind.TURN
    side: int
    turn: int


@dataclass(frozen=True)
class Draw(FmEvent):
    kind = EventKind.DRAW
    side: int
    card: int
    hand_pos: int


@dataclass(frozen=True)
class Placed(FmEvent):
    """A card arrives in a zone (row "monster" or "magic")."""

    kind = EventKind.PLACED
    side: int
    card: int
    row: str
    zone: int
    face_down: bool
    star: int


@dataclass(frozen=True)
class Fusion(FmEvent):
    kind = EventKind.FUSION
    side: int
    a: int
    b: int
    result: int


@dataclass(frozen=True)
class Equip(FmEvent):
    kind = EventKind.EQUIP
    side: int
    equip: int
    monster: int
    bonus: int


@dataclass(frozen=True)
class Failure(FmEvent):
    """A combination step that neither fuses nor equips: ``discarded`` leaves, ``kept`` stays."""

    kind = "failure"
    side: int
    discarded: int
    kept: int


@dataclass(frozen=True)
class Flip(FmEvent):
    kind = EventKind.FLIP
    side: int
    row: str
    zone: int
    card: int


@dataclass(frozen=True)
class PositionChange(FmEvent):
    kind = EventKind.POSITION
    side: int
    zone: int
    card: int
    defense: bool


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Trap(FmEvent):
    kind = EventKind.TRAP
    side: int  # the trap's owner
    card: int
    zone: int
    against: int  # the card it answered


@dataclass(frozen=True)
class Magic(FmEvent):
    kind = EventKind.MAGIC
    side: int
    card: int
    effect: str


@dataclass(frozen=True)
class TerrainChange(FmEvent):
    kind = "terrain"
    terrain: int


@dataclass(frozen=True)
class StatChange(FmEvent):
    kind = "stat"
    side: int
    zone: int
    card: int
    stat_modifier: int


@dataclass(frozen=True)
class LifeChange(FmEvent):
    kind = EventKind.LIFE
    side: int
    delta: int
    lp: int


@dataclass(frozen=True)
class Destroyed(FmEvent):
    kind = EventKind.DESTROYED
    side: int
    row: str
    zone: int
    card: int


@dataclass(frozen=True)
class RitualSummon(FmEvent):
    kind = "ritual"
    side: int
    ritual: int
    result: int  # 0 when the tributes were missing
    zone: int
    rand_calls: int = field(default=0, kw_only=True)  # CPU star roll


@dataclass(frozen=True)
class DuelEnd(FmEvent):
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

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["scores"], data["turns"] = list(self.scores), list(self.turns)
        return data
