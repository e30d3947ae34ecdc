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
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from emucore.fm import machine as M
from emucore.fm import state as S
from emucore.fm.snapshot import ExportSide, ExportView, FieldCard, Snapshot
from emucore.hw.fm_stats import card_stat_one

if TYPE_CHECKING:
    from emucore.fm.engine import FmDuel

class Zones(NamedTuple):
    """One side's monster and magic/trap zones as the exporter reads them, with the card
    records' fields they were read from (a later export reuses them while those are equal)."""

    fields: tuple[int, ...]
    monsters: list[FieldCard | None]
    magic: list[FieldCard | None]


class Exported(NamedTuple):
    """The export of one state: what ``func_80027DF8`` read and the acting side's array
    after ``func_80028220``."""

    state: bytes          # the whole state buffer it was computed from (the memo's key)
    side: int             # the acting side, whose array it is
    view: ExportView      # persona 0; the chooser replaces opponent_id
    array: bytes          # the acting side's array bytes after the export
    snap: Snapshot        # the same array unpacked (handed out only as copies)
    zones: tuple[Zones, Zones]   # each side's zones, by side (not by acting/other)


def exported(duel: FmDuel) -> Exported:
    """The export of the duel's current state, computed once per state: the chooser asks
    for it before deciding and :meth:`FmDuel.step` writes it when the action is applied, so
    one export serves both. Everything it reads is in the state buffer (the RNG is not
    read), so the buffer's bytes are the key."""
    key = duel.st.ram.tobytes()
    side = duel.st.globals.acting_side[0]
    memo = duel.export_memo[side]
    if memo is not None and memo.state == key:
        return memo
    c = duel.facts
    zones = _zones(duel, memo.zones if memo is not None else (None, None))
    view = _view(duel, zones, memo.view if memo is not None else None)
    before = key[_ARRAYS[side]]
    if memo is not None and memo.array == before:
        # the side's array is the one its last export left (the memo is kept per side, so
        # the other side's turn in between does not lose it): that snapshot, never handed
        # out, is exported again in place: only the slots whose input changed are written,
        # into its lists and into a copy of the array's bytes
        snap, buffer = memo.snap, bytearray(before)
        snap.export(view, c.type, c.star1, c.star2, c.atk, c.dfn, memo.view, buffer)
        array = bytes(buffer)
    else:
        snap, buffer = Snapshot(before), bytearray(before)
        snap.export(view, c.type, c.star1, c.star2, c.atk, c.dfn, packed=buffer)
        array = bytes(buffer)
    duel.export_memo[side] = memo = _new(Exported, (key, side, view, array, snap, zones))
    return memo


def export_acting(duel: FmDuel) -> None:
    """``func_80028220`` for the side to act: export both sides into its array, in the state."""
    memo = exported(duel)
    at = _ARRAY_AT[memo.side]
    duel.st.raw[at:at + len(memo.array)] = memo.array


def decision_input(duel: FmDuel, persona: int) -> tuple[Snapshot, ExportView]:
    """What the chooser decides on, from one look-up of the state's export: the acting
    side's array as :func:`export_acting` would leave it (a :meth:`Snapshot.scratch` copy,
    as the AI writes only flags, and nothing exports again while it decides; the state
    itself is exported when the chosen action is stepped), and the view with the persona
    the chooser plays."""
    memo = exported(duel)
    v = memo.view
    return memo.snap.scratch(), _new(ExportView, (v.acting, v.other, v.terrain, persona,
                                                  v.acting_side))


def sides_view(duel: FmDuel, persona: int = 0) -> ExportView:
    """What ``func_80027DF8`` reads from the engine's records, for both sides."""
    return _view(duel, _zones(duel, (None, None)), None, persona)


def _view(duel: FmDuel, zones: tuple[Zones, Zones], previous: ExportView | None,
          persona: int = 0) -> ExportView:
    """The view of both sides; a side equal to ``previous``'s (an earlier view of the same
    acting side) is that same object (the export then skips it: during one side's field
    phase the other side rarely changes)."""
    st = duel.st
    side = st.globals.acting_side[0]
    records = _SIDE_RECORDS.unpack_from(st.raw, _SIDE_AT)
    ids = st.deck_cards.card_id
    olds = (previous.acting, previous.other) if previous is not None else (None, None)
    out = []
    for k, old in zip((side, 1 - side), olds, strict=True):
        lp, cursor, swords, *entries = records[k * _SIDE_VALUES:(k + 1) * _SIDE_VALUES]
        start = k * S.DECK_SIZE + cursor
        hand = [ids[e] for e in entries if e >= 0]
        deck = ids[start:(k + 1) * S.DECK_SIZE].tolist()
        if (old is not None and old.monsters is zones[k].monsters and old.magic is
                zones[k].magic and (lp, swords, start) == (old.lp, old.swords, old.deck_first)
                and hand == old.hand and deck == old.deck):
            out.append(old)
        else:
            out.append(_new(ExportSide, (zones[k].monsters, zones[k].magic, hand, deck, lp,
                                         swords, start)))
    return _new(ExportView, (out[0], out[1], st.globals.terrain[0], persona, side))


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


_SIDE_FIELDS_READ = ("lp", "draw_cursor", "swords", "hand")   # hand: 5 deck-card indices
_SIDE_RECORDS = _record_struct(M.SIDE_DTYPE, _SIDE_FIELDS_READ, 2)
_SIDE_AT = M.OFFSET["side"]
_SIDE_VALUES = len(_SIDE_RECORDS.unpack(bytes(_SIDE_RECORDS.size))) // 2   # per side
_ZONE_FIELDS = ("card_id", "attack", "defense", "stat_modifier", "terrain_modifier", "flags")
_ZONE_RECORDS = _record_struct(M.CARD_DTYPE, _ZONE_FIELDS, S.RECORDS_PER_SIDE - S.MONSTERS)


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
_ZONES_AT = tuple(M.OFFSET["card"] + (k * S.RECORDS_PER_SIDE + S.MONSTERS)
                  * M.CARD_DTYPE.itemsize for k in (0, 1))   # each side's first zone record


def _zones(duel: FmDuel, cached: tuple[Zones | None, Zones | None]) -> tuple[Zones, Zones]:
    """Each side's zones: each of its 10 zone records is ``Duel_CalcCardStats`` with its
    flags (the used flag included, as the field executor's "done" sets it through
    ``Done``), None when empty. One struct call reads a side's records; a side whose
    fields equal ``cached``'s keeps those."""
    out = []
    raw = duel.st.raw
    for k in (0, 1):
        fields = _ZONE_RECORDS.unpack_from(raw, _ZONES_AT[k])
        old = cached[k]
        if old is not None and old.fields == fields:
            out.append(old)
            continue
        cards = list(map(_zone_card,
                         zip(*[iter(fields)] * len(_ZONE_FIELDS), strict=True)))
        out.append(_new(Zones, (fields, cards[:5], cards[5:])))
    return out[0], out[1]
