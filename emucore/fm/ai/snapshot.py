"""The board snapshot the AI reads: ``gDuel_aActiveCards``, 12-byte records (spec/fm-ai.md §2).

``func_80028220`` calls the exporter ``func_80027DF8`` twice before every ``AiScript_Init``:
the acting side into slot 1 onward, the other side into slot 56 onward. The exporter writes
only some fields, and nothing clears the array between exports (§2.5): an empty field slot
gets ``card_id = 0`` and keeps its old ATK/DEF/flags, and slots past the single terminator keep
whatever an earlier, longer export left there. :class:`Snapshot` is that persistent array,
kept for the whole duel and written exactly as the exporter writes it.

Storage is a ``bytearray`` with a live numpy structured view (:attr:`Snapshot.records`), so the
bytes compare 1:1 with the RAM at ``0x801AB000`` and writes stay cheap.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

RECORD = np.dtype([
    ("card_id", "<i2"),       # +0 s16, 0 = empty
    ("attack", "<i2"),        # +2 s16
    ("defense", "<i2"),       # +4 s16
    ("flags", "<u2"),         # +6 u16 (field cards only)
    ("card_type", "i1"),      # +8 s8
    ("guardian_star", "u1"),  # +9 active star (field) / star 1 (hand, deck)
    ("guardian_star_2", "u1"),  # +A hand and deck only
    ("deck_index", "u1"),     # +B deck entries only: the deck-card record's own index
])
assert RECORD.itemsize == 12

SLOTS = 111        # slots 0..110: the player's side starts at 56 and runs on with its deck
SIDE_STRIDE = 55   # 0x294 bytes
MONSTERS, MAGIC, HAND = 1, 6, 11   # offsets of a side's zones from its base (0 or 55)
AI_MONSTERS, AI_MAGIC, AI_HAND = 1, 6, 11
PL_MONSTERS, PL_MAGIC, PL_HAND = 56, 61, 66

# Card-record flags (spec/fm-engine.md §4.2)
STAR_2 = 0x0200
DEFENCE = 0x0800
FACE_DOWN = 0x1000
USED = 0x4000

_FIELD = struct.Struct("<hhhHbB")     # bytes 0..9: id, ATK, DEF, flags, type, active star
_HAND = struct.Struct("<hhhHbBB")     # bytes 0..10: + star 2 (flags written as 0)
_ID = struct.Struct("<h")
_FLAGS = struct.Struct("<H")
_ALL = struct.Struct("<" + "hhhHbBBB" * SLOTS)


class FieldCard(NamedTuple):
    """An occupied field slot as the exporter reads it from the card record.

    ``attack``/``defense`` are ``Duel_CalcCardStats`` values (base + modifiers + terrain,
    clamped 0..9999); ``flags`` is the card record's flag word.
    """

    card_id: int
    attack: int
    defense: int
    flags: int


@dataclass(frozen=True)
class SideView:
    """One side as the exporter sees it (read from the engine's RAM-mirroring records)."""

    monsters: Sequence[FieldCard | None]   # 5 zones
    magic: Sequence[FieldCard | None]      # 5 zones
    hand: Sequence[int]                    # card ids of hand entries with index >= 0, in order
    deck: Sequence[tuple[int, int]]        # (card id, deck-card record index), cursor..39
    lp: int
    swords: int                            # side record +0x19


@dataclass(frozen=True)
class BoardView:
    """Everything the AI reads at one export: both sides plus the duel globals."""

    acting: SideView
    other: SideView
    terrain: int
    opponent_id: int       # gDuel_bOpponentID: the duelist whose row and program branches apply
    acting_side: int = 1   # 0 player, 1 CPU (TestPinned and LoadLifePoint are relative to it)
    extra: dict = field(default_factory=dict)


class Snapshot:
    """The persistent ``gDuel_aActiveCards`` array (one per duel, like the RAM it mirrors)."""

    def __init__(self, data: bytes | None = None) -> None:
        # choices: the array reads as zeros at duel start (spec §10 item 3).
        self.buf = bytearray(data) if data is not None else bytearray(SLOTS * RECORD.itemsize)
        if len(self.buf) != SLOTS * RECORD.itemsize:
            raise ValueError(f"snapshot must be {SLOTS * RECORD.itemsize} bytes")
        self.records = np.frombuffer(self.buf, dtype=RECORD)
        self._entry: list[bytes] = []
        self._stars: tuple[Sequence[int], Sequence[int]] = ((), ())
        self._card_type: Sequence[int] = ()

    def export(self, view: BoardView, card_type: Sequence[int], star_1: Sequence[int],
               star_2: Sequence[int], raw_atk: Sequence[int], raw_def: Sequence[int]) -> None:
        """``func_80028220``: the acting side at slot 1, the other side at slot 56."""
        self._card_type, self._stars = card_type, (star_1, star_2)
        self._entry = _entries(card_type, star_1, star_2, raw_atk, raw_def)
        self._export_side(0, view.acting)
        self._export_side(SIDE_STRIDE, view.other)

    def _export_side(self, base: int, side: SideView) -> None:
        """``func_80027DF8`` for one side; writes only what the original writes."""
        buf, entry = self.buf, self._entry
        star_1, star_2 = self._stars
        for first, zone in ((base + MONSTERS, side.monsters), (base + MAGIC, side.magic)):
            for i, card in enumerate(zone):
                off = (first + i) * 12
                if card is None:
                    _ID.pack_into(buf, off, 0)   # stale ATK/DEF/flags/type/star stay
                    continue
                cid = card.card_id
                star = star_2[cid] if card.flags & STAR_2 else star_1[cid]
                _FIELD.pack_into(buf, off, cid, card.attack, card.defense, card.flags,
                                 self._card_type[cid], star)
        off = (base + HAND) * 12
        for cid in side.hand:                    # bytes 0..10; the index byte is left alone
            buf[off:off + 11] = entry[cid]
            off += 12
        if side.deck:                            # all 12 bytes, the index byte its record's
            block = bytearray(b"\0".join([entry[cid] for cid, _ in side.deck]) + b"\0")
            block[11::12] = bytes([index & 0xFF for _, index in side.deck])
            buf[off:off + len(block)] = block
            off += len(block)
        buf[off:off + 2] = b"\0\0"               # the one terminator; nothing beyond is cleared

    def set_flags(self, slot: int, flags: int) -> None:
        """Write a record's flag word (``MoveCard`` marks a slot in the snapshot itself)."""
        _FLAGS.pack_into(self.buf, slot * 12 + 6, flags & 0xFFFF)

    def columns(self) -> tuple[list[int], ...]:
        """The eight fields as Python lists (ids, atk, def, flags, type, star, star2, index)."""
        flat = _ALL.unpack_from(self.buf)
        return tuple(list(flat[k::8]) for k in range(8))  # type: ignore[return-value]

    def to_bytes(self) -> bytes:
        return bytes(self.buf)


_ENTRY_CACHE: dict[tuple[int, ...], list[bytes]] = {}


def _entries(card_type: Sequence[int], star_1: Sequence[int], star_2: Sequence[int],
             raw_atk: Sequence[int], raw_def: Sequence[int]) -> list[bytes]:
    """Bytes 0..10 of a hand/deck entry per card id (cached per card table)."""
    key = (id(card_type), id(star_1), id(star_2), id(raw_atk), id(raw_def))
    entries = _ENTRY_CACHE.get(key)
    if entries is None:
        entries = _ENTRY_CACHE[key] = [
            _HAND.pack(c, raw_atk[c], raw_def[c], 0, card_type[c], star_1[c], star_2[c])
            for c in range(len(card_type))]
    return entries
