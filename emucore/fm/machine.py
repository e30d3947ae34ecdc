"""The Forbidden Memories machine, declared once: the RAM records the duel state mirrors.

Every region of the state image is declared here with its RAM address (``None`` for emucore's
own), its record layout (a numpy dtype) and its record count (spec/fm-engine.md §11.2,
spec/fm-ai.md §2). Everything else is generated from this declaration:

* the image layout: :data:`OFFSET`, :data:`LENGTH`, :data:`SIZE`, :data:`REGIONS`
  (name, address, length) in ``ram_image()`` order;
* the field names of ``state_fields()`` and their byte spans (:data:`SPANS`, :func:`fields_of`)
  that replay diffs and the capture verifier use;
* the named strided views the rules read and write (:func:`views`): ``cards.flags[r]``,
  ``sides.lp[s]``, ``deck_cards.card_id[k]``, ``globals.phase[0]`` - memoryviews over the one
  buffer, one per field, so no rule spells an offset or a stride.

Pokered's ``wram.asm`` is the model: one label per byte, and everyone uses it.
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

SIDE_DTYPE = np.dtype({
    "names": ["end_adjust", "turns", "effective_attacks", "defensive_wins", "face_down_plays",
              "pure_magic", "traps_triggered", "multi_plays", "fusions", "equips", "field_cards",
              "attack_destroys", "defenders_lost", "avg_atk", "avg_def", "lp_display", "lp",
              "max_lp", "draw_cursor", "swords", "hand", "view_mode"],
    "formats": ["i1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1",
                "<i2", "<i2", "<i2", "<u2", "<i2", "i1", "i1", ("i1", (5,)), "i1"],
    "offsets": [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
                0x0E, 0x10, 0x12, 0x14, 0x16, 0x18, 0x19, 0x1A, 0x1F],
    "itemsize": 0x20,
})

CARD_DTYPE = np.dtype({
    "names": ["display", "deck_ptr", "unknown_08", "card_id", "attack", "defense",
              "stat_modifier", "terrain_modifier", "flags", "table_index"],
    "formats": ["<u4", "<u4", "<u4", "<i2", "<i2", "<i2", "<i2", "<i2", "<u2", "u1"],
    "offsets": [0x00, 0x04, 0x08, 0x0C, 0x0E, 0x10, 0x12, 0x14, 0x16, 0x18],
    "itemsize": 0x1C,
})

DECK_DTYPE = np.dtype({
    "names": ["card_id", "index", "record", "flags"],
    "formats": ["<i2", "u1", "u1", "<u2"],
    "offsets": [0, 2, 3, 4],
    "itemsize": 6,
})

# emucore's record of duel globals; each field names the original's variable where known.
GLOBALS_DTYPE = np.dtype([
    ("rng_state", "<u4"),      # gRand_dwSeed 0x800FE6F8
    ("rng_calls", "<u4"),      # emucore: rand() calls since the duel's setup began
    ("acting_side", "u1"),     # 0x8009B1D5
    ("winner", "i1"),          # gDuel_bWinnerSide 0x8009B165 (-1 while the duel runs)
    ("opponent", "i1"),        # gDuel_bOpponentID 0x8009B361 (negative = two players)
    ("terrain", "u1"),         # gDuel_bTerrain 0x8009B364
    ("phase", "u1"),           # emucore: 0 hand phase, 1 field phase, 2 over
    ("end_reason", "u1"),      # emucore: 0 none, 1 LP, 2 deck-out, 3 Exodia
    ("equip_bonus", "<i2"),    # D_8009B154: equip bonus of the last placement (Reverse Trap)
    ("score", "<i2", (2,)),    # Duel_CalcRankScore per side, once over
    ("drop", "<i2"),           # Duel_SelectCardDrop result (0 none)
    ("starchips", "u1"),       # prize of the result screen
    ("rank_tier", "i1"),       # 0 D .. 4 S, -1 none
    ("rank_tec", "u1"),
    ("attack_lock", "u1"),     # D_8009B16C & 0x1000: no monster attack before the first end
                               #   of turn (set by func_800179F4)
    ("estimated", "u1"),       # emucore: 1 once an animation was charged from an estimated
                               #   overlay table (every later count is then not exact)
    ("pad", "u1"),
])

# One gDuel_aActiveCards record (spec/fm-ai.md §2); the AI's exporter writes only some fields.
AI_RECORD_DTYPE = np.dtype([
    ("card_id", "<i2"),         # +0 s16, 0 = empty
    ("attack", "<i2"),          # +2 s16
    ("defense", "<i2"),         # +4 s16
    ("flags", "<u2"),           # +6 u16 (field cards only)
    ("card_type", "i1"),        # +8 s8
    ("guardian_star", "u1"),    # +9 active star (field) / star 1 (hand, deck)
    ("guardian_star_2", "u1"),  # +A hand and deck only
    ("deck_index", "u1"),       # +B deck entries only: the deck-card record's own index
])
AI_SLOTS = 111  # slots 0..110: the other side starts at 56 and runs on with its deck

DECK_SIZE = 40
ROW_WIDTH = 5        # card records per row: the hand, the monster zones, the magic/trap zones
CARD_RECORDS = 30    # 15 per side: 0-4 hand, 5-9 monsters, 10-14 magic/trap
DECK_RECORD_BASE = 0x801A7E20


@dataclass(frozen=True)
class Region:
    """One region of the state image: ``count`` records of ``dtype`` at RAM ``address``.

    ``label`` is how ``state_fields()`` names record ``{i}`` (a field name follows after a
    dot); an empty label names the fields of a one-record region by themselves.
    """

    name: str
    address: int | None
    dtype: np.dtype
    count: int
    label: str

    @property
    def length(self) -> int:
        return self.dtype.itemsize * self.count


_SHUFFLED = np.dtype("<u2")
_PERM = np.dtype("u1")

# The state image, in ram_image() order.
MACHINE = (
    Region("side", 0x800E9FF0, SIDE_DTYPE, 2, "side{i}"),
    Region("card", 0x801A7AD8, CARD_DTYPE, CARD_RECORDS, "card[{i}]"),
    Region("deck_card", DECK_RECORD_BASE, DECK_DTYPE, 2 * DECK_SIZE, "deck_card[{i}]"),
    Region("shuffled_player", 0x80177FE8, _SHUFFLED, DECK_SIZE, "shuffled_player[{i}]"),
    Region("shuffled_cpu", 0x80178038, _SHUFFLED, DECK_SIZE, "shuffled_cpu[{i}]"),
    Region("perm_player", 0x80177F94, _PERM, DECK_SIZE, "perm_player[{i}]"),
    Region("perm_cpu", 0x80177FBC, _PERM, DECK_SIZE, "perm_cpu[{i}]"),
    Region("globals", None, GLOBALS_DTYPE, 1, ""),
    # emucore's own: the array a computer-played player side keeps (retail has none)
    Region("ai_snapshot_player", None, AI_RECORD_DTYPE, AI_SLOTS, "ai_snapshot_player[{i}]"),
    Region("ai_snapshot_cpu", 0x801AB000, AI_RECORD_DTYPE, AI_SLOTS,   # gDuel_aActiveCards
           "ai_snapshot_cpu[{i}]"),
)
BY_NAME = {region.name: region for region in MACHINE}
REGIONS = tuple((r.name, r.address, r.length) for r in MACHINE)
SIZE = sum(r.length for r in MACHINE)
LENGTH = {r.name: r.length for r in MACHINE}


def _offsets() -> dict[str, int]:
    out, at = {}, 0
    for region in MACHINE:
        out[region.name] = at
        at += region.length
    return out


OFFSET = _offsets()


def field_offset(region: str, field: str, record: int = 0) -> int:
    """The image offset of ``field`` of record ``record`` of ``region``."""
    r = BY_NAME[region]
    return OFFSET[region] + record * r.dtype.itemsize + r.dtype.fields[field][1]


# ----------------------------------------------------------------------------- field names
@dataclass(frozen=True)
class Span:
    """One named field of the state image: its name as ``state_fields()`` spells it, its
    byte offset and its numpy scalar type."""

    name: str
    offset: int
    dtype: np.dtype

    @property
    def size(self) -> int:
        return self.dtype.itemsize


def _field_spans(region: Region, base: int) -> list[Span]:
    dtype, out = region.dtype, []
    for i in range(region.count):
        head = region.label.format(i=i)
        at = base + i * dtype.itemsize
        if dtype.names is None:
            out.append(Span(head, at, dtype))
            continue
        for name in dtype.names:
            if name.startswith("pad"):
                continue
            sub, offset = dtype.fields[name][:2]
            full = f"{head}.{name}" if head else name
            if sub.subdtype:
                item, shape = sub.subdtype
                out += [Span(f"{full}[{k}]", at + offset + k * item.itemsize, item)
                        for k in range(int(np.prod(shape)))]
            else:
                out.append(Span(full, at + offset, sub))
    return out


SPANS: tuple[Span, ...] = tuple(span for region in MACHINE
                                for span in _field_spans(region, OFFSET[region.name]))


def fields_of(image: bytes) -> dict[str, int]:
    """Every named field of a state image: ``side0.lp``, ``card[7].stat_modifier``,
    ``deck_card[41].card_id``, ``shuffled_cpu[3]``, ``rng_state``,
    ``ai_snapshot_cpu[12].attack`` ..."""
    if len(image) != SIZE:
        raise ValueError(f"an FM state image is {SIZE} bytes, not {len(image)}")
    return {s.name: int.from_bytes(image[s.offset:s.offset + s.size], "little",
                                   signed=s.dtype.kind == "i") for s in SPANS}


# ----------------------------------------------------------------------------- named views
_FORMAT = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I"}
_FORMATS = tuple(_FORMAT.values())


# A view is planned once per field as (format, start, stop, step) in units of its format.
_Plan = tuple[str, int, int, int]


def _plan(at: int, dtype: np.dtype, stride: int, count: int) -> _Plan:
    """The slice of the buffer cast to ``dtype``'s format that holds ``count`` values of
    ``dtype``, the first at byte ``at``, one every ``stride`` bytes."""
    size = dtype.itemsize
    if at % size or stride % size:
        raise ValueError(f"field at byte {at} with stride {stride} is not {size}-aligned")
    step = stride // size
    return _FORMAT[f"{dtype.kind}{size}"], at // size, at // size + step * count, step


def _field_plans(region: Region, base: int) -> dict[str, _Plan | tuple[_Plan, ...]]:
    """Each field's plan; an array field has one plan per record."""
    size, out = region.dtype.itemsize, {}
    for name in region.dtype.names:
        sub, offset = region.dtype.fields[name][:2]
        if sub.subdtype:
            item, shape = sub.subdtype
            n = int(np.prod(shape))
            out[name] = tuple(_plan(base + i * size + offset, item, item.itemsize, n)
                              for i in range(region.count))
        else:
            out[name] = _plan(base + offset, sub, size, region.count)
    return out


_PLANS = {r.name: _field_plans(r, OFFSET[r.name]) for r in MACHINE if r.dtype.names}


@dataclass(frozen=True)
class RecordWriter:
    """Writes consecutive fields of one record of a region with one ``struct.pack_into``
    (``pack_into(raw, first + record * stride, *values)``); a value outside its field's
    width raises ``struct.error``, as a view write raises ``ValueError``."""

    pack_into: Any  # struct.Struct.pack_into
    first: int      # the image offset of the first field in record 0
    stride: int     # the record size


def record_writer(region: str, fields: tuple[str, ...]) -> RecordWriter:
    """A :class:`RecordWriter` for ``fields`` of ``region``, which must follow each other in
    the record with no byte between them."""
    dtype = BY_NAME[region].dtype
    at, fmt = dtype.fields[fields[0]][1], "<"
    for name in fields:
        sub, offset = dtype.fields[name][:2]
        if offset != at or sub.subdtype:
            raise ValueError(f"{region}.{name} does not follow the previous field")
        fmt += _FORMAT[f"{sub.kind}{sub.itemsize}"]
        at += sub.itemsize
    return RecordWriter(struct.Struct(fmt).pack_into, OFFSET[region] + dtype.fields[fields[0]][1],
                        dtype.itemsize)


class Records:
    """The named views of a region of several records: ``field[record]`` reads and writes
    the value in the field's own width (an out-of-range write raises ``ValueError``); a
    field that is itself an array gives one view per record (``sides.hand[s][j]``)."""

    def __init__(self, raw: memoryview, region: Region, fields: dict[str, Any]) -> None:
        self.region, self.raw = region, raw
        self.base, self.size = OFFSET[region.name], region.dtype.itemsize
        self._zeros = bytes(self.size)
        self.__dict__.update(fields)

    def byte_view(self, field: str, byte: int) -> memoryview:
        """Byte ``byte`` of ``field`` in every record (u8, little-endian order), for scans
        that test a flag byte of many records at once."""
        at = self.base + self.region.dtype.fields[field][1] + byte
        return self.raw[at:at + self.size * self.region.count:self.size]

    def span(self, record: int) -> slice:
        """The bytes of one record in the image."""
        at = self.base + record * self.size
        return slice(at, at + self.size)

    def copy(self, src: int, dst: int) -> None:
        """Copy record ``src`` over record ``dst`` byte for byte."""
        size, base = self.size, self.base
        at, frm = base + dst * size, base + src * size
        self.raw[at:at + size] = self.raw[frm:frm + size]

    def clear(self, record: int) -> None:
        """Zero one record."""
        at = self.base + record * self.size
        self.raw[at:at + self.size] = self._zeros


def _slices(plan: _Plan) -> tuple[str, slice]:
    fmt, start, stop, step = plan
    return fmt, slice(start, stop, step)


def _region_slices(region: Region) -> Any:
    """What binding a region takes, one slice per view: (scalar fields as (name, format,
    slice), array fields as (name, ((format, slice) per record))) for a record region, the
    (format, slice) of its values for a plain one."""
    if region.dtype.names is None:
        return _slices(_plan(OFFSET[region.name], region.dtype, region.dtype.itemsize,
                             region.count))
    plans = _PLANS[region.name].items()
    return (tuple((name, *_slices(p)) for name, p in plans if not isinstance(p[0], tuple)),
            tuple((name, tuple(_slices(q) for q in p)) for name, p in plans
                  if isinstance(p[0], tuple)))


_SLICES = {r.name: _region_slices(r) for r in MACHINE}


def views(raw: memoryview, regions: tuple[str, ...]) -> dict[str, Any]:
    """The named views of ``regions`` over ``raw`` (the state buffer, little-endian):
    :class:`Records` for record regions (a one-record region too: ``globals.phase[0]``),
    and a typed memoryview for a region of plain values."""
    if sys.byteorder != "little":
        raise RuntimeError("the FM state views assume a little-endian host")
    casts = {fmt: raw.cast(fmt) for fmt in _FORMATS}
    out: dict[str, Any] = {}
    for name in regions:
        region = BY_NAME[name]
        if region.dtype.names is None:
            fmt, where = _SLICES[name]
            out[name] = casts[fmt][where]
            continue
        scalars, arrays = _SLICES[name]
        fields = {field: casts[fmt][where] for field, fmt, where in scalars}
        for field, per_record in arrays:
            fields[field] = tuple([casts[fmt][where] for fmt, where in per_record])
        out[name] = Records(raw, region, fields)
    return out
