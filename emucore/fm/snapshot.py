"""The board snapshot the AI reads: ``gDuel_aActiveCards``, 12-byte records (spec/fm-ai.md §2).

``func_80028220`` calls the exporter ``func_80027DF8`` twice before every ``AiScript_Init``:
the acting side into slot 1 onward, the other side into slot 56 onward. The exporter writes
only some fields, and nothing clears the array between exports (§2.5): an empty field slot
gets ``card_id = 0`` and keeps its old ATK/DEF/flags, and slots past the single terminator keep
whatever an earlier, longer export left there. :class:`Snapshot` is that persistent array,
kept for the whole duel and written exactly as the exporter writes it; the duel holds its
bytes (``emucore.fm.state`` regions ``ai_snapshot_cpu``/``ai_snapshot_player``) and
:mod:`emucore.fm.export` writes them there. It belongs to the engine: the original engine
exports before each decision of a computer-played side, whatever the program then decides.

The fields live in Python lists (the helpers read single fields thousands of times per
decision); :attr:`Snapshot.records` and :meth:`Snapshot.to_bytes` give the 12-byte numpy
records and the bytes that compare 1:1 with the RAM at ``0x801AB000``.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence
from itertools import compress
from operator import ne
from typing import NamedTuple

import numpy as np

from emucore.fm import choices
from emucore.fm import machine as M

RECORD = M.AI_RECORD_DTYPE   # 12 bytes: id, ATK, DEF, flags, type, star, star 2, deck index
SLOTS = M.AI_SLOTS   # slots 0..110: the player's side starts at 56 and runs on with its deck
SIDE_STRIDE = 55   # 0x294 bytes
MONSTERS, MAGIC, HAND = 1, 6, 11   # offsets of a side's zones from its base (0 or 55)
AI_MONSTERS, AI_MAGIC, AI_HAND = 1, 6, 11
PL_MONSTERS, PL_MAGIC, PL_HAND = 56, 61, 66

# Card-record flags (spec/fm-engine.md §4.2)
STAR_2 = 0x0200
DEFENCE = 0x0800
FACE_DOWN = 0x1000
USED = 0x4000


@functools.cache
def _records(count: int) -> struct.Struct:
    """The packer of ``count`` consecutive records."""
    return struct.Struct("<" + "hhhHbBBB" * count)


_ONE = _records(1)
_SIZE = RECORD.itemsize
_NO_ID = bytes(2)   # an emptied slot's record in the array's bytes: its id field alone
_EMPTY_ROW = [0] * M.ROW_WIDTH   # the ids of an emptied zone row


@functools.lru_cache(maxsize=8)
def _unpacked(data: bytes) -> tuple[tuple[int, ...], ...]:
    """The eight columns of an array's bytes (the few arrays unpacked again and again, such
    as every duel's filled starting array, are unpacked once)."""
    flat = _records(SLOTS).unpack(data)
    return tuple(flat[k::8] for k in range(8))


class FieldCard(NamedTuple):
    """An occupied field slot as the exporter reads it from the card record.

    ``attack``/``defense`` are ``Duel_CalcCardStats`` values (base + modifiers + terrain,
    clamped 0..9999); ``flags`` is the card record's flag word.
    """

    card_id: int
    attack: int
    defense: int
    flags: int


class ExportSide(NamedTuple):
    """One side as the exporter sees it (read from the engine's RAM-mirroring records)."""

    monsters: Sequence[FieldCard | None]   # 5 zones
    magic: Sequence[FieldCard | None]      # 5 zones
    hand: Sequence[int]                    # card ids of hand entries with index >= 0, in order
    deck: Sequence[int]                    # card ids from the draw cursor to position 39
    lp: int
    swords: int                            # side record +0x19
    deck_first: int = 0                    # deck-card record index (0..79) of deck[0]


class ExportView(NamedTuple):
    """Everything the AI reads at one export: both sides plus the duel globals."""

    acting: ExportSide
    other: ExportSide
    terrain: int
    opponent_id: int       # gDuel_bOpponentID: the duelist whose row and program branches apply
    acting_side: int = 1   # 0 player, 1 CPU (TestPinned and LoadLifePoint are relative to it)


class Snapshot:
    """The persistent ``gDuel_aActiveCards`` array, unpacked for the helpers.

    Held as eight Python lists, one per record field (``ids``, ``atk``, ``dfn``, ``flags``,
    ``ctype``, ``star``, ``star2``, ``deck_index``), because the helpers read single fields
    thousands of times per decision; :attr:`records` and :meth:`to_bytes` give the same data
    as the 12-byte numpy records and the RAM bytes.
    """

    __slots__ = ("ids", "atk", "dfn", "flags", "ctype", "star", "star2", "deck_index")

    def __init__(self, data: bytes | None = None) -> None:
        if data is None:
            data = bytes([choices.SNAPSHOT_FILL_BYTE]) * (SLOTS * RECORD.itemsize)
        if len(data) != SLOTS * RECORD.itemsize:
            raise ValueError(f"snapshot must be {SLOTS * RECORD.itemsize} bytes")
        (self.ids, self.atk, self.dfn, self.flags, self.ctype, self.star, self.star2,
         self.deck_index) = (list(column) for column in _unpacked(bytes(data)))

    def scratch(self) -> Snapshot:
        """A copy for a reader that writes only flags (the AI's ``MoveCard`` marks): its own
        ``flags`` list, this snapshot's other seven lists (which it must not write)."""
        out = Snapshot.__new__(Snapshot)
        (out.ids, out.atk, out.dfn, out.flags, out.ctype, out.star, out.star2,
         out.deck_index) = (self.ids, self.atk, self.dfn, list(self.flags), self.ctype,
                            self.star, self.star2, self.deck_index)
        return out

    @property
    def columns(self) -> tuple[list[int], ...]:
        return (self.ids, self.atk, self.dfn, self.flags, self.ctype, self.star, self.star2,
                self.deck_index)

    @property
    def records(self) -> np.ndarray:
        """A copy as numpy records of :data:`RECORD` (the RAM layout)."""
        return np.frombuffer(self.to_bytes(), dtype=RECORD).copy()

    def to_bytes(self) -> bytes:
        """The RAM bytes at ``0x801AB000`` (111 records, one struct call)."""
        flat = [0] * (8 * SLOTS)
        for k, column in enumerate(self.columns):
            flat[k::8] = column
        return _records(SLOTS).pack(*flat)

    def write(self, slot: int, record: Sequence[int]) -> None:
        """Set all eight fields of a slot (tests and loaders)."""
        for column, value in zip(self.columns, record, strict=True):
            column[slot] = value

    def export(self, view: ExportView, card_type: Sequence[int], star_1: Sequence[int],
               star_2: Sequence[int], raw_atk: Sequence[int], raw_def: Sequence[int],
               previous: ExportView | None = None, packed: bytearray | None = None) -> None:
        """``func_80028220``: the acting side at slot 1, the other side at slot 56.

        ``previous`` is the view this array was last exported from, given when nothing else
        has written to the array since. Every write is a function of its zone's card or of
        the side's hand and deck alone, so the slots whose input equals ``previous``'s would
        be written with what they hold and are skipped; and a deck that is the tail of the
        deck exported before is already in the array, record for record, a few slots
        further on: it is moved. ``packed``, the array's bytes as the lists hold them, gets
        every write too, from each card's entry bytes made once per card table (moves as
        byte moves, a whole hand and deck as one join)."""
        cards = _entries((card_type, star_1, star_2, raw_atk, raw_def))
        acting, other = view.acting, view.other
        if previous is None:
            end = self._export_side(0, acting, cards, None, packed)
        elif acting is not previous.acting:
            end = self._export_side(0, acting, cards, previous.acting, packed)
        else:
            end = HAND + len(acting.hand) + len(acting.deck)
        if end >= SIDE_STRIDE + MONSTERS:
            previous = None   # the acting side's terminator reached the other side's zones
        if previous is None or other is not previous.other:
            self._export_side(SIDE_STRIDE, other, cards, previous and previous.other, packed)

    def _export_side(self, base: int, side: ExportSide, cards: _Entries,
                     previous: ExportSide | None, packed: bytearray | None) -> int:
        """``func_80027DF8`` for one side (``previous`` not the same side); writes only what
        the original writes. Returns the terminator's slot."""
        card_type, star_1, star_2 = cards.columns[:3]
        ids = self.ids
        zones = ((base + MONSTERS, side.monsters, previous.monsters if previous else ()),
                 (base + MAGIC, side.magic, previous.magic if previous else ()))
        for first, zone, old in zones:
            if zone == old:
                continue     # (the same zones object when read from unchanged records)
            if not old and not any(zone):
                # an empty row written whole (a first export): the id fields alone
                ids[first:first + len(zone)] = _EMPTY_ROW
                if packed is not None:
                    packed[first * _SIZE:(first + len(zone)) * _SIZE:_SIZE] = bytes(len(zone))
                    packed[first * _SIZE + 1:(first + len(zone)) * _SIZE:_SIZE] = bytes(
                        len(zone))
                continue
            for slot, card in enumerate(zone, first):
                if old and card == old[slot - first]:
                    continue
                if card is None:
                    ids[slot] = 0    # stale ATK/DEF/flags/type/star stay
                    if packed is not None:
                        packed[slot * _SIZE:slot * _SIZE + 2] = _NO_ID
                    continue
                cid, atk, dfn, flags = card
                flags &= 0xFFFF
                kind, star = card_type[cid], star_2[cid] if flags & STAR_2 else star_1[cid]
                ids[slot], self.atk[slot], self.dfn[slot], self.flags[slot] = cid, atk, dfn, flags
                self.ctype[slot], self.star[slot] = kind, star
                if packed is not None:
                    _ONE.pack_into(packed, slot * _SIZE, cid, atk, dfn, flags, kind, star,
                                   self.star2[slot], self.deck_index[slot])
        # hand entries (index byte left alone), then the deck (index byte = its record's)
        hand, deck, first_index = side.hand, side.deck, side.deck_first
        lo = base + HAND
        at = lo + len(hand)          # the deck's first slot
        hi = at + len(deck)
        if previous and hand == previous.hand and deck == previous.deck and (
                first_index == previous.deck_first):
            return hi
        shift = first_index - previous.deck_first if previous else -1
        if deck and shift >= 0 and len(previous.deck) - shift == len(deck):
            # the deck is the last one's tail but for the cards a deep play swapped into it
            # (the index byte goes with the position): the tail is moved as a block, then
            # the positions whose card differs are written
            self._move(lo + len(previous.hand) + shift, at, len(deck), packed)
            tail = previous.deck[shift:]
            if tail != deck:
                self._write_entries(at, deck, cards, packed, tail)
            self._write_entries(lo, hand, cards, packed)
        else:
            indices = list(range(first_index, first_index + len(deck)))
            entries = [*hand, *deck]
            already = (ids[lo:hi] == entries and self.deck_index[at:hi] == indices
                       and not any(self.flags[lo:hi]))  # every other field: a function of the id
            if entries and not already:
                (ids[lo:hi], self.atk[lo:hi], self.dfn[lo:hi], self.flags[lo:hi],
                 self.ctype[lo:hi], self.star[lo:hi], self.star2[lo:hi]) = zip(
                    *map(cards.rows.__getitem__, entries), strict=True)
                self.deck_index[at:hi] = indices
                if packed is not None:
                    # each entry's record with a 0 index byte, then the index bytes: the
                    # hand entries' old ones and the deck entries' record indices
                    held = packed[lo * _SIZE + _ENTRY:at * _SIZE:_SIZE]
                    packed[lo * _SIZE:hi * _SIZE] = b"".join(map(cards.records.__getitem__,
                                                                 entries))
                    packed[lo * _SIZE + _ENTRY:at * _SIZE:_SIZE] = held
                    packed[at * _SIZE + _ENTRY:hi * _SIZE:_SIZE] = bytes(indices)
        if ids[hi]:          # (the packed bytes already hold a 0 the lists hold)
            ids[hi] = 0      # the one terminator; nothing beyond is cleared
            if packed is not None:
                packed[hi * _SIZE:hi * _SIZE + 2] = _NO_ID
        return hi

    def _move(self, src: int, dst: int, count: int, packed: bytearray | None) -> None:
        """Move ``count`` records from slot ``src`` to slot ``dst`` (all eight fields)."""
        if src == dst:
            return
        for column in self.columns:
            column[dst:dst + count] = column[src:src + count]
        if packed is not None:
            size = RECORD.itemsize
            packed[dst * size:(dst + count) * size] = packed[src * size:(src + count) * size]

    def _write_entries(self, lo: int, entries: Sequence[int], cards: _Entries,
                       packed: bytearray | None, held: Sequence[int] | None = None) -> None:
        """Entries from slot ``lo``: fields 0..6 of each card (index byte left alone), but
        for a card equal to ``held``'s at its position (the card its slot holds, with all
        seven fields: the slots' own ids, or the cards moved there with a deck), found in
        one pass of C iterators."""
        ids, flags = self.ids, self.flags
        hi = lo + len(entries)
        if held is None:
            held = ids[lo:hi] if not any(flags[lo:hi]) else [-1] * len(entries)
        rows, packs = cards.rows, cards.packs
        for slot in compress(range(lo, hi), map(ne, entries, held)):
            c = entries[slot - lo]
            (ids[slot], self.atk[slot], self.dfn[slot], flags[slot], self.ctype[slot],
             self.star[slot], self.star2[slot]) = rows[c]
            if packed is not None:
                packed[slot * _SIZE:slot * _SIZE + _ENTRY] = packs[c]


class _Entries(NamedTuple):
    """A card table's columns and, per card id, fields 0..6 of its hand/deck entry as
    values and as the record's first bytes."""

    columns: tuple[Sequence[int], ...]   # type, star 1, star 2, ATK, DEF
    rows: list[tuple[int, ...]]
    packs: list[bytes]     # fields 0..6
    records: list[bytes]   # the whole record with a 0 index byte


_ENTRY = 11   # a hand/deck entry's bytes before the deck-index byte
_ENTRY_CACHE: dict[int, _Entries] = {}


def _entries(cards: tuple[Sequence[int], ...]) -> _Entries:
    """The entries of a card table, cached by the id of its type column (the cache holds
    the columns themselves, so that id cannot be reused while cached; a table with other
    columns replaces the entry)."""
    cached = _ENTRY_CACHE.get(id(cards[0]))
    if cached is None or cached.columns != cards:   # (equal by identity: column for column)
        card_type, star_1, star_2, raw_atk, raw_def = cards
        rows = [(c, raw_atk[c], raw_def[c], 0, card_type[c], star_1[c], star_2[c])
                for c in range(len(card_type))]
        records = [_ONE.pack(*row, 0) for row in rows]
        cached = _ENTRY_CACHE[id(card_type)] = _Entries(
            cards, rows, [record[:_ENTRY] for record in records], records)
    return cached
