"""The exporter: ``func_80028220``/``func_80027DF8`` into the duel's own state (fm-ai.md §2).

The engine owns it. A duel knows which sides the computer plays (``FmDuel.computer_sides``);
before it applies an action of such a side, :meth:`FmDuel.step` runs :func:`export_acting`,
exactly what the original does before each ``AiScript_Init``. The persistent arrays live in
the state buffer (``emucore.fm.state`` regions ``ai_snapshot_player`` / ``ai_snapshot_cpu``),
so ``snapshot()``/``restore()``/``digest()`` cover the AI's stale data, and a replay of the
actions alone reproduces them. The chooser (:mod:`emucore.fm.ai`) decides on
:func:`decision_input`, a copy of the acting side's array with the same export applied.
"""

from __future__ import annotations

import functools
import struct
from typing import NamedTuple, Protocol

import numpy as np

from emucore.fm import machine as M
from emucore.fm import state as S
from emucore.fm.cards import CardFacts
from emucore.fm.snapshot import ExportSide, ExportView, FieldCard, Snapshot
from emucore.hw.fm_stats import card_stat_one


class SideRead(NamedTuple):
    """One side as the exporter read it, with the state's values it was read from (a later
    export keeps it while those are equal, and keeps its parts while theirs are)."""

    monster_bytes: bytes           # the side's five monster zone records
    magic_bytes: bytes             # its five magic/trap zone records
    record: tuple[int, ...]        # LP, draw cursor, swords, the five hand entries
    deck_ids: tuple[bytes, bytes]  # its deck-card records' card ids: low bytes, high bytes
    side: ExportSide


class Exported(NamedTuple):
    """The export of one state: what ``func_80027DF8`` read and the acting side's array
    after ``func_80028220``."""

    state: bytes          # the whole state buffer it was computed from (the memo's key)
    side: int             # the acting side, whose array it is
    view: ExportView      # persona 0; the chooser replaces opponent_id
    array: bytes          # the acting side's array bytes after the export
    snap: Snapshot        # the same array unpacked (handed out only as copies)
    reads: tuple[SideRead, SideRead]   # each side as read, by side (not by acting/other)


class Exporting(Protocol):
    """What the exporter reads of a duel (an :class:`~emucore.fm.engine.FmDuel`), named
    here so that the engine imports the exporter and not the other way round."""

    st: S.DuelState
    facts: CardFacts
    export_memo: list[Exported | None]   # the last export of each side, by side


def exported(duel: Exporting) -> Exported:
    """The export of the duel's current state, computed once per state: the chooser asks
    for it before deciding and :meth:`FmDuel.step` writes it when the action is applied, so
    one export serves both. Everything it reads is in the state buffer (the RNG is not
    read), so the buffer's bytes are the key."""
    key = duel.st.ram.tobytes()
    side = key[_ACTING_AT]
    memos = duel.export_memo
    memo = memos[side]
    if memo is not None and memo.state == key:
        return memo
    other = memos[1 - side]
    reads = (_read(key, 0, memo and memo.reads[0], other and other.reads[0]),
             _read(key, 1, memo and memo.reads[1], other and other.reads[1]))
    view = _new(ExportView, (reads[side].side, reads[1 - side].side, key[_TERRAIN_AT], 0,
                             side))
    c = duel.facts
    before = key[_ARRAYS[side]]
    if memo is not None and memo.array == before:
        # the side's array is the one its last export left (the memo is kept per side, so
        # the other side's turn in between does not lose it): that snapshot, never handed
        # out, is exported again in place: only the slots whose input changed are written,
        # into its lists and into a copy of the array's bytes
        snap, buffer = memo.snap, bytearray(before)
        snap.export(view, c.type, c.star1, c.star2, c.atk, c.dfn, memo.view, buffer)
    else:
        snap, buffer = Snapshot(before), bytearray(before)
        snap.export(view, c.type, c.star1, c.star2, c.atk, c.dfn, packed=buffer)
    memos[side] = memo = _new(Exported, (key, side, view, bytes(buffer), snap, reads))
    return memo


def export_acting(duel: Exporting) -> None:
    """``func_80028220`` for the side to act: export both sides into its array, in the state."""
    memo = exported(duel)
    at = _ARRAY_AT[memo.side]
    duel.st.raw[at:at + len(memo.array)] = memo.array


def decision_input(duel: Exporting, persona: int) -> tuple[Snapshot, ExportView]:
    """What the chooser decides on, from one look-up of the state's export: the acting
    side's array as :func:`export_acting` would leave it (a :meth:`Snapshot.scratch` copy,
    as the AI writes only flags, and nothing exports again while it decides; the state
    itself is exported when the chosen action is stepped), and the view with the persona
    the chooser plays."""
    memo = exported(duel)
    v = memo.view
    return memo.snap.scratch(), _new(ExportView, (v.acting, v.other, v.terrain, persona,
                                                  v.acting_side))


def sides_view(duel: Exporting, persona: int = 0) -> ExportView:
    """What ``func_80027DF8`` reads from the engine's records, for both sides."""
    key = duel.st.ram.tobytes()
    side = key[_ACTING_AT]
    return _new(ExportView, (_read(key, side, None, None).side,
                             _read(key, 1 - side, None, None).side, key[_TERRAIN_AT],
                             persona, side))


def _read(key: bytes, k: int, old: SideRead | None, other: SideRead | None) -> SideRead:
    """Side ``k`` of the state ``key``: an earlier read of it whose values are equal
    (``old``, the acting side's last, or ``other``, the other side's last: during one
    side's field phase the other side rarely changes), else read anew, keeping ``old``'s
    hand and deck while their inputs are equal (equal zone rows are one object: the export
    compares them by identity)."""
    at = _ZONES_AT[k]
    monster_bytes = key[at:at + _ROW_SIZE]
    magic_bytes = key[at + _ROW_SIZE:at + 2 * _ROW_SIZE]
    record = _SIDE_RECORD.unpack_from(key, _RECORD_AT[k])
    deck_ids = (key[_DECK_IDS_LOW[k]], key[_DECK_IDS_HIGH[k]])
    for known in (old, other):
        if known is not None and monster_bytes == known.monster_bytes and (
                record == known.record and deck_ids == known.deck_ids
                and magic_bytes == known.magic_bytes):
            return known
    lp, cursor, swords, *entries = record
    o = old.side if old is not None else None
    monsters = o.monsters if o is not None and monster_bytes == old.monster_bytes else (
        _zone_row(monster_bytes))
    magic = o.magic if o is not None and magic_bytes == old.magic_bytes else _zone_row(
        magic_bytes)
    if o is not None and deck_ids == old.deck_ids and record[1:] == old.record[1:]:
        hand, deck = o.hand, o.deck
    else:
        # a hand entry is the index of one of the side's own deck-card records (the draw
        # sets it to the side's first record + the draw cursor; a record moved to the field
        # and back keeps it), so the side's ids are all the hand and deck read
        ids = _DECK_IDS.unpack_from(key, _DECK_AT[k])
        first = k * S.DECK_SIZE
        hand = [ids[e - first] for e in entries if e >= 0]
        deck = list(ids[cursor:])
    side = _new(ExportSide, (monsters, magic, hand, deck, lp, swords, k * S.DECK_SIZE + cursor))
    return _new(SideRead, (monster_bytes, magic_bytes, record, deck_ids, side))


@functools.lru_cache(maxsize=1 << 12)   # bounded: route searches play millions of duels
def _zone_row(records: bytes) -> tuple[FieldCard | None, ...]:
    """The zone cards of one row's five records (a tuple: duels share it; equal rows are one
    object, so the export compares rows by identity)."""
    return tuple(map(_zone_card, zip(*[iter(_ZONE_ROW.unpack(records))] * len(_ZONE_FIELDS),
                                    strict=True)))


def _record_struct(dtype: np.dtype, names: tuple[str, ...], count: int) -> struct.Struct:
    """The unpacker of ``count`` consecutive records of ``dtype`` that reads the fields
    ``names`` (in that order, by increasing offset; an array field gives its elements) and
    skips the other bytes: one struct call reads what the exporter needs of them."""
    layout, at = "", 0
    for name in names:
        kind, offset = dtype.fields[name][0], dtype.fields[name][1]
        elements = kind.shape[0] if kind.shape else 1
        layout += "x" * (offset - at) + f"{elements}{kind.base.char}"
        at = offset + kind.itemsize
    layout += "x" * (dtype.itemsize - at)
    return struct.Struct("<" + layout * count)


_SIDE_RECORD = _record_struct(M.SIDE_DTYPE, ("lp", "draw_cursor", "swords", "hand"), 1)
_RECORD_AT = tuple(M.OFFSET["side"] + k * M.SIDE_DTYPE.itemsize for k in (0, 1))
_DECK_IDS = _record_struct(M.DECK_DTYPE, ("card_id",), S.DECK_SIZE)   # one side's
_DECK_AT = tuple(M.OFFSET["deck_card"] + k * _DECK_IDS.size for k in (0, 1))
_DECK_IDS_LOW, _DECK_IDS_HIGH = (tuple(slice(at + byte, at + _DECK_IDS.size, _DECK_IDS.size
                                             // S.DECK_SIZE) for at in _DECK_AT)
                                 for byte in (0, 1))
_ZONE_FIELDS = ("card_id", "attack", "defense", "stat_modifier", "terrain_modifier", "flags")
_ZONE_ROW = _record_struct(M.CARD_DTYPE, _ZONE_FIELDS, S.MAGIC - S.MONSTERS)
_ROW_SIZE = _ZONE_ROW.size
_ZONES_AT = tuple(M.OFFSET["card"] + (k * S.RECORDS_PER_SIDE + S.MONSTERS)
                  * M.CARD_DTYPE.itemsize for k in (0, 1))   # each side's first zone record
_ACTING_AT = M.OFFSET["globals"] + M.GLOBALS_DTYPE.fields["acting_side"][1]
_TERRAIN_AT = M.OFFSET["globals"] + M.GLOBALS_DTYPE.fields["terrain"][1]


@functools.lru_cache(maxsize=1 << 16)   # bounded: route searches play millions of duels
def _zone_card(key: tuple[int, ...]) -> FieldCard | None:
    """The zone card of one record's :data:`_ZONE_FIELDS` values, made once per distinct
    values (a function of them alone; a duel meets few, so most look-ups are a cache hit):
    ``Duel_CalcCardStats`` and the flags, None when the zone is empty."""
    i, a, d, m, t, f = key
    return FieldCard(i, card_stat_one(a, m, t), card_stat_one(d, m, t), f) if (
        f & S.F_OCCUPIED) else None


_new = tuple.__new__   # a named tuple made with every field given, without its Python-level
                       # constructor (the exporter makes a few per export)
_ARRAY_AT = tuple(M.OFFSET[name] for name in S.AI_SNAPSHOT)   # each side's array
_ARRAYS = tuple(slice(M.OFFSET[name], M.OFFSET[name] + M.LENGTH[name]) for name in S.AI_SNAPSHOT)
