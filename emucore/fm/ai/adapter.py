"""The AI on the engine: export the board from an ``FmDuel``, run a program, return an action.

The duel owns the one RNG stream; the engine's actions carry ``rng_calls`` and ``step()``
advances the stream by that many calls before it acts (emucore.fm.actions). So the programs
run on a copy of the stream, and the number of ``rand()`` calls they made - in the
original's order, all before the action itself - travels with the action; a replay of the
actions alone then reproduces the stream exactly.

Per duel the adapter keeps what the original keeps in RAM outside the engine's records: the
persistent snapshot array (stale data included, §2.5), one per AI-driven side (retail runs
the AI for the CPU only; a shared array would leak one side's stale deck entries into the
other's window), and the field program's "done" marks of the current turn
(``PlayFieldCard slot,0,0,0`` sets the real used flag; the engine has no action for that, so
the mark is kept here and exported as the used flag).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from emucore.duel.protocol import IllegalAction
from emucore.fm import state as S
from emucore.fm.actions import (
    AUTO,
    DECK_PICK,
    DIRECT,
    Activate,
    Attack,
    ChangePosition,
    EndTurn,
    FmAction,
    Play,
)
from emucore.fm.ai import choices, embedded, executors
from emucore.fm.ai import data as ai_data
from emucore.fm.ai.data import STAT_MAX
from emucore.fm.ai.helpers import Board
from emucore.fm.ai.snapshot import AI_HAND, USED, BoardView, FieldCard, SideView, Snapshot
from emucore.fm.ai.vm import FIELD_DONE, Machine
from emucore.hw.psyq_rand import Rand

if TYPE_CHECKING:
    from emucore.fm.ai.disc import Programs
    from emucore.fm.engine import FmDuel

MAX_FIELD_RUNS = 64   # a field phase never needs more runs than this (5 monsters, 5 cards)


@dataclass
class AiMemory:
    """What the AI keeps for one duel (RAM outside the engine's records)."""

    snapshots: tuple[Snapshot, Snapshot] = field(default_factory=lambda: (Snapshot(),
                                                                         Snapshot()))
    done: set[int] = field(default_factory=set)     # card records marked used by "done"
    turn: tuple[int, int] = (-1, -1)                # (side, turns) the marks belong to
    fallbacks: int = 0                              # plays the engine refused (should stay 0)


_MEMORY: weakref.WeakKeyDictionary[Any, AiMemory] = weakref.WeakKeyDictionary()


def memory(duel: FmDuel) -> AiMemory:
    """The duel's AI memory, created at its first use."""
    mem = _MEMORY.get(duel)
    if mem is None:
        mem = _MEMORY[duel] = AiMemory()
    return mem


def persona_of(duel: FmDuel, side: int, persona: int | None = None) -> int:
    """The duelist whose row and branches drive ``side``: ``persona`` if given; the CPU is
    the opponent; an AI-driven player side per choices.PLAYER_SIDE_PERSONA."""
    if persona:
        return persona
    opponent = int(duel.st.g["opponent"][0])
    if opponent <= 0:
        return choices.TWO_PLAYER_PERSONA
    if side == 0 and choices.PLAYER_SIDE_PERSONA:
        return choices.PLAYER_SIDE_PERSONA
    return opponent


def choose_action(duel: FmDuel, programs: Programs | None = None,
                  persona: int | None = None) -> FmAction:
    """The acting side's next action (see :func:`emucore.fm.ai.choose_action`)."""
    if duel.over:
        raise IllegalAction("duel-over", "the duel is over")
    side = duel.acting_side
    mem = memory(duel)
    turn = (side, int(duel.st.side["turns"][side]))
    if mem.turn != turn:
        mem.turn, mem.done = turn, set()
    who = persona_of(duel, side, persona)
    rng = Rand(duel.rng.state)
    if duel.phase == S.PHASE_HAND:
        return _hand(duel, mem, who, rng, programs)
    return _field(duel, mem, who, rng, programs)


def _machine(duel: FmDuel, mem: AiMemory, who: int, rng: Rand) -> Machine:
    data = ai_data.load()
    view = export_view(duel, mem, who)
    snapshot = mem.snapshots[view.acting_side]
    snapshot.export(view, data.card_type, data.star_1, data.star_2, data.raw_atk, data.raw_def)
    return Machine(Board(snapshot, view, data, data.duelists[who].row[0]), rng.rand)


def _hand(duel: FmDuel, mem: AiMemory, who: int, rng: Rand, programs: Programs | None) -> Play:
    """One hand decision. Plays the embedded program makes only in rare cases (a stale slot
    past the exported deck, a placement without a valid destination byte) and every play of
    a disc program are tried on the engine first; one it refuses is replaced by its first
    legal play and counted."""
    m = _machine(duel, mem, who, rng)
    if programs is None:
        embedded.hand_program(m)
    else:
        m.init(programs.hand)
        m.run()
    decoded = executors.decode_hand(m.state.selection, m.board.ids, m.board.data.card_type)
    action = hand_play(duel, m.board, decoded, rng.calls)
    acting = m.board.view.acting
    exported = AI_HAND + len(acting.hand) + len(acting.deck)   # past it: stale slots
    unusual = (decoded.column < 0 and not decoded.activate) or any(
        slot >= exported for slot in decoded.slots)
    if not (programs or unusual) or _accepted(duel, action):
        return action
    mem.fallbacks += 1
    return replace(duel.legal_actions()[0], rng_calls=rng.calls)


def hand_play(duel: FmDuel, b: Board, decoded: executors.HandPlay, rng_calls: int = 0) -> Play:
    """The hand executor's play as an engine :class:`Play` (deep cards as DECK_PICK)."""
    side = duel.acting_side
    held = sum(1 for j in range(5) if duel.st.s_hand[side, j] >= 0)
    cards = []
    for slot in decoded.slots:
        if slot < AI_HAND + held:
            cards.append(slot - AI_HAND)
        else:   # a window card still in the deck: its record index is its draw position
            cards.append(DECK_PICK + b.deck_index[slot] - side * S.DECK_SIZE)
    if decoded.activate:
        return Play(tuple(cards), AUTO, False, decoded.star, rng_calls=rng_calls)
    return Play(tuple(cards), decoded.column, decoded.face_down, decoded.star,
                rng_calls=rng_calls)


def _accepted(duel: FmDuel, action: FmAction) -> bool:
    """Whether the engine takes the action (tried on the duel, then undone)."""
    saved = duel.snapshot()
    try:
        duel.step(action)
    except IllegalAction:
        return False
    finally:
        duel.restore(saved)
    return True


def _field(duel: FmDuel, mem: AiMemory, who: int, rng: Rand,
           programs: Programs | None) -> FmAction:
    side = duel.acting_side
    for _ in range(MAX_FIELD_RUNS):
        m = _machine(duel, mem, who, rng)
        if programs is None:
            code = embedded.field_program(m)
        else:
            m.init(programs.field)
            code = m.run()
        if code == FIELD_DONE:
            break
        if not 1 <= m.state.selection[9] <= 10:
            break   # choices: an acting slot outside the AI's zones ends the turn
        others = sum(1 for c in m.board.view.other.monsters if c is not None)
        act = executors.decode_field(m.state.selection, others, m.board.flags)
        action = field_action(act, rng.calls)
        if action is None or (programs is not None and
                              replace(action, rng_calls=0) not in duel.legal_actions()):
            row = S.MONSTERS if m.state.selection[9] <= 5 else S.MAGIC
            mem.done.add(duel.rec(side, row, act.zone))
            continue
        return action
    return EndTurn(rng_calls=rng.calls)


def field_action(act: executors.FieldAction, rng_calls: int = 0) -> FmAction | None:
    """The engine action of a decoded PlayFieldCard (None for "done": no engine action)."""
    if act.kind == "defend":
        return ChangePosition(act.zone, rng_calls=rng_calls)
    if act.kind == "attack":
        return Attack(act.zone, act.target, rng_calls=rng_calls)
    if act.kind == "direct":
        return Attack(act.zone, DIRECT, rng_calls=rng_calls)
    if act.kind == "activate":
        return Activate(act.zone, act.target if act.target >= 0 else AUTO, rng_calls=rng_calls)
    return None


def export_view(duel: FmDuel, mem: AiMemory, persona: int) -> BoardView:
    """What ``func_80027DF8`` reads from the engine's records, for both sides."""
    st = duel.st
    records = _CardRecords(st.c_id.tolist(), st.c_atk.tolist(), st.c_def.tolist(),
                           (st.c_mod + st.c_terrain).tolist(), st.c_flags.tolist(), mem.done)
    sides = _SideRecords(st.d_id.tolist(), st.s_cursor.tolist(), st.s_hand.tolist(),
                         st.s_lp.tolist(), st.s_swords.tolist())
    side = duel.acting_side
    return BoardView(acting=_side_view(side, records, sides),
                     other=_side_view(1 - side, records, sides),
                     terrain=int(st.g["terrain"][0]), opponent_id=persona, acting_side=side)


class _SideRecords(NamedTuple):
    """The deck-card ids and the side-record fields the exporter reads, as lists."""

    deck_ids: list[int]
    cursor: list[int]
    hand: list[list[int]]
    lp: list[int]
    swords: list[int]


class _CardRecords(NamedTuple):
    """The 30 card records' fields as lists (one numpy read per field)."""

    ids: list[int]
    atk: list[int]
    dfn: list[int]
    extra: list[int]          # stat_modifier + terrain_modifier
    flags: list[int]
    done: set[int]

    def row(self, first: int) -> list[FieldCard | None]:
        """``Duel_CalcCardStats`` of each occupied record of a row, with its flags."""
        out: list[FieldCard | None] = []
        for r in range(first, first + 5):
            flags = self.flags[r]
            if not flags & S.F_OCCUPIED:
                out.append(None)
                continue
            extra = self.extra[r]
            out.append(FieldCard(self.ids[r], min(max(self.atk[r] + extra, 0), STAT_MAX),
                                 min(max(self.dfn[r] + extra, 0), STAT_MAX),
                                 flags | (USED if r in self.done else 0)))
        return out


def _side_view(side: int, records: _CardRecords, sides: _SideRecords) -> SideView:
    first = side * S.RECORDS_PER_SIDE
    ids = sides.deck_ids
    start, end = side * S.DECK_SIZE + sides.cursor[side], (side + 1) * S.DECK_SIZE
    return SideView(monsters=records.row(first + S.MONSTERS), magic=records.row(first + S.MAGIC),
                    hand=[ids[k] for k in sides.hand[side] if k >= 0],
                    deck=ids[start:end], lp=sides.lp[side], swords=sides.swords[side],
                    deck_first=start)
