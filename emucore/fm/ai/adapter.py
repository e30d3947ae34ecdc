"""The AI on the engine: read the duel's export, run a program, return an action.

The duel owns the one RNG stream and the snapshot arrays. It knows which sides the computer
plays (``FmDuel.computer_sides``) and exports the board into the acting side's array itself
when it steps such a side's action (:mod:`emucore.fm.export`). The programs run on a fork of
the stream and on a copy of the array with that same export applied; the number of
``rand()`` calls they made - in the original's order, all before the action itself - travels
with the action as ``rng_calls``, so a replay of the actions alone reproduces the stream.

The AI keeps nothing of its own between decisions: the field program's "done"
(``PlayFieldCard slot,0,0,0``) is the engine's :class:`Done` action, which sets the card
record's used flag. A refused play (:func:`decide`'s ``fallback``) is reported to the caller.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from emucore.duel.protocol import IllegalAction
from emucore.fm import actions as A
from emucore.fm import state as S
from emucore.fm.ai import choices, embedded, executors
from emucore.fm.ai import data as ai_data
from emucore.fm.ai.helpers import Board
from emucore.fm.ai.vm import FIELD_DONE, Machine
from emucore.fm.export import decision_input
from emucore.fm.snapshot import AI_HAND
from emucore.hw.psyq_rand import Rand

if TYPE_CHECKING:
    from emucore.fm.ai.disc import Programs
    from emucore.fm.engine import FmDuel
    from emucore.tables.fm import FmTables

MAX_FIELD_RUNS = 64   # a field phase never needs more runs than this (5 monsters, 5 cards)


STALE_SLOT, NO_DESTINATION, DISC_PLAY = "stale-slot", "no-destination", "disc-play"


class Decision(NamedTuple):
    """The chooser's answer: the action and, when it replaces a play the engine refused,
    what kind of play that was (:data:`STALE_SLOT`: the documented fm-ai §2.5 case, see
    choices; :data:`NO_DESTINATION`; :data:`DISC_PLAY`), else ``None``."""

    action: A.FmAction
    refused: str | None = None

    @property
    def fallback(self) -> bool:
        return self.refused is not None


def persona_of(duel: FmDuel, side: int, persona: int | None = None) -> int:
    """The duelist whose row and branches drive ``side``: ``persona`` if given; the CPU is
    the opponent; an AI-driven player side per choices.PLAYER_SIDE_PERSONA."""
    if persona:
        return persona
    opponent = duel.opponent
    if opponent <= 0:
        return choices.TWO_PLAYER_PERSONA
    if side == 0 and choices.PLAYER_SIDE_PERSONA:
        return choices.PLAYER_SIDE_PERSONA
    return opponent


def decide(duel: FmDuel, programs: Programs | None = None,
           persona: int | None = None) -> Decision:
    """The acting side's next action (see :func:`emucore.fm.ai.choose_action`)."""
    if duel.over:
        raise IllegalAction("duel-over", "the duel is over")
    side = duel.acting_side
    if side not in duel.computer_sides:
        raise IllegalAction("not-computer", f"side {side} is not played by the computer "
                            "(the setup's computer list)")
    who = persona_of(duel, side, persona)
    rng = duel.rng_fork()
    if duel.phase == S.PHASE_HAND:
        return _hand(duel, who, rng, programs)
    return Decision(_field(duel, side, who, rng, programs))


def _machine(duel: FmDuel, who: int, rng: Rand) -> Machine:
    """A machine on the acting side's array as the engine exported it (a copy: MoveCard
    marks of the run stay in it, see docs/fm-ai.md)."""
    data = _data_of(duel.t)
    snapshot, view = decision_input(duel, who)
    return Machine(Board(snapshot, view, data, data.duelists[who].row[0]), rng.rand)


def _data_of(tables: FmTables) -> ai_data.AiData:
    """``ai_data.of(tables)``, the tables last asked for recognised by identity: every
    decision asks, and most duels of a process share one tables object."""
    last = _LAST_DATA[0]
    if last is None or last[0] is not tables:
        last = _LAST_DATA[0] = (tables, ai_data.of(tables))
    return last[1]


_LAST_DATA: list[tuple[FmTables, ai_data.AiData] | None] = [None]


def _hand(duel: FmDuel, who: int, rng: Rand,
          programs: Programs | None) -> Decision:
    """One hand decision. Plays the embedded program makes only in rare cases (a stale slot
    past the exported deck, a placement without a valid destination byte) and every play of
    a disc program are tried on the engine first; one it refuses is replaced by its first
    legal play and counted."""
    m = _machine(duel, who, rng)
    if programs is None:
        embedded.hand_program(m)
    else:
        m.init(programs.hand)
        m.run()
    decoded = executors.decode_hand(m.state.selection, m.board.ids, m.board.data.cards.type)
    action = hand_play(duel, m.board, decoded, rng.calls)
    acting = m.board.view.acting
    exported = AI_HAND + len(acting.hand) + len(acting.deck)   # past it: stale slots
    if max(decoded.slots) >= exported:
        unusual: str | None = STALE_SLOT
    elif decoded.column < 0 and not decoded.activate:
        unusual = NO_DESTINATION
    else:
        unusual = DISC_PLAY if programs else None
    if unusual is None or _accepted(duel, action):
        return Decision(action)
    return Decision(replace(duel.legal_actions()[0], rng_calls=rng.calls), unusual)


def hand_play(duel: FmDuel, b: Board, decoded: executors.HandPlay, rng_calls: int = 0) -> A.Play:
    """The hand executor's play as an engine :class:`A.Play` (deep cards as A.DECK_PICK)."""
    side = b.view.acting_side
    held = len(b.view.acting.hand)   # the hand entries that hold a card
    cards = []
    for slot in decoded.slots:
        if slot < AI_HAND + held:
            cards.append(slot - AI_HAND)
        else:   # a window card still in the deck: its record index is its draw position
            cards.append(A.DECK_PICK + b.deck_index[slot] - side * S.DECK_SIZE)
    if decoded.activate:
        return A.Play(tuple(cards), A.AUTO, False, decoded.star, rng_calls=rng_calls)
    return A.Play(tuple(cards), decoded.column, decoded.face_down, decoded.star,
                rng_calls=rng_calls)


def _accepted(duel: FmDuel, action: A.FmAction) -> bool:
    """Whether the engine takes the action (tried on the duel, then undone)."""
    saved = duel.snapshot()
    try:
        duel.step(action)
    except IllegalAction:
        return False
    finally:
        duel.restore(saved)
    return True


def _field(duel: FmDuel, side: int, who: int, rng: Rand,
           programs: Programs | None) -> A.FmAction:
    """One field-phase action of ``side``. A "done" (or a disc program's action the engine
    refuses) is the engine's :class:`A.Done` on an occupied zone; on an empty zone it changes
    nothing and the program runs again, its rand() calls kept."""
    for _ in range(MAX_FIELD_RUNS):
        m = _machine(duel, who, rng)
        if programs is None:
            code = embedded.field_program(m)
        else:
            m.init(programs.field)
            code = m.run()
        if code == FIELD_DONE:
            break
        if not 1 <= m.state.selection[9] <= 10:
            break   # choices: an acting slot outside the AI's zones ends the turn
        monsters = m.board.view.other.monsters
        others = len(monsters) - monsters.count(None)
        act = executors.decode_field(m.state.selection, others, m.board.flags)
        action = field_action(act, rng.calls)
        # an attack under the first-turn lock (choices.FIRST_TURN_LOCK_BINDS_COMPUTER) is
        # refused like any action the engine does not take
        locked = isinstance(action, A.Attack) and duel.attack_locked(side)
        if action is None or locked or (programs is not None and
                                        replace(action, rng_calls=0) not in duel.legal_actions()):
            magic = m.state.selection[9] > 5
            row = S.MAGIC if magic else S.MONSTERS
            if not duel.occupied(duel.rec(side, row, act.zone)):
                continue
            return A.Done(act.zone, magic, rng_calls=rng.calls)
        return action
    return A.EndTurn(rng_calls=rng.calls)


def field_action(act: executors.FieldAction, rng_calls: int = 0) -> A.FmAction | None:
    """The engine action of a decoded PlayFieldCard (None for "done", see :func:`_field`)."""
    if act.kind == "defend":
        return A.ChangePosition(act.zone, rng_calls=rng_calls)
    if act.kind == "attack":
        return A.Attack(act.zone, act.target, rng_calls=rng_calls)
    if act.kind == "direct":
        return A.Attack(act.zone, A.DIRECT, rng_calls=rng_calls)
    if act.kind == "activate":
        return A.Activate(act.zone, act.target if act.target >= 0 else A.AUTO, rng_calls=rng_calls)
    return None
