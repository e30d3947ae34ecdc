"""The ``duel_effects`` overlay's configuration tables: the data that sets how long each duel
animation lives, and so how many ``rand()`` calls it makes (:mod:`emucore.fm.timeline`).

The overlay (``DATA/WA_MRG.MRG`` of the NTSC-U disc, sector 5970, 44 sectors, loaded at
0x80146000) holds its effects' code, which the matching decompilation
krystalgamer/memories-decomp has as C, and their configuration records, which it has only
as data extracted from a disc at build time. Only the fields a ``rand()`` count depends on are
modelled; each record class below names its table (PAL symbol, as the decompiled C spells
it), its record size and the offsets of those fields.

The built-in values (:data:`BUILT_IN`) come from three kinds of source, named per field in
:data:`PROVENANCE`:

* **note** - a value the decompilation's notes quote from the retail data
  (``notes/overlays/duel-effect-*.md``);
* **calibrated** - a value solved from a whole-animation total that speed-runners' tools
  measured in the game (``shared/reference/fm/animation_costs.csv``), with its equation;
* **estimate** - a value no public source pins (the destruction tiles' and the star flash's
  descriptors): emucore's named guess. Every animation charged from an estimated table, and
  every later one, is marked ``exact: false`` (:attr:`OverlayTables.estimated`).

A user's own disc supplies every table (``emucore fm effects --disc IMAGE``,
:mod:`emucore.fm.disc`); :func:`parse` reads them from the overlay's bytes and checks the
fields the notes quote, so an overlay of another release is refused.
"""

from __future__ import annotations

import functools
import hashlib
import struct
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

RGB = tuple[int, int, int]

OVERLAY_BYTES = 0x16000     # 44 sectors


@dataclass(frozen=True)
class DamageConfig:
    """``D_8015AF18`` (effect 2, the damage number), 7 records of 50 bytes: 0-2 battle damage
    by thousands, 3-5 direct damage by thousands, 6 the number 0. ``colour`` (+0) is the
    effect colour; ``negative``/``positive`` the number's colour (+3, interleaved
    red/green/blue pairs, index 0 for a negative value, 1 for a positive one);
    ``particle_count`` at +0x26."""

    colour: RGB
    negative: RGB
    positive: RGB
    particle_count: int


@dataclass(frozen=True)
class FusionConfig:
    """``D_8015B420`` (effect 1, the fusion), 2 records of 24 bytes: the beam colour (+0) and
    the frame thresholds that end the first two stages (+0x14, +0x16)."""

    colour: RGB
    first_end: int
    second_end: int


@dataclass(frozen=True)
class TrapConfig:
    """``D_8015A514`` (effect 8, a sprung trap), 6 records of 38 bytes: colour (+0), the light
    column's width (start +4, step +6, minimum +8) and height (start +0xA, step +0xC, maximum
    +0xE), ray count (+0x12) and particle count (+0x1A)."""

    colour: RGB
    initial_width: int
    width_step: int
    minimum_width: int
    initial_height: int
    height_step: int
    maximum_height: int
    ray_count: int
    particle_count: int


@dataclass(frozen=True)
class FieldConfig:
    """``D_8015AB14`` (effect 10, a field card), 6 records of 14 bytes, one per terrain 1..6:
    the dissolve colour (+0) and the draw mode (+0xA; mode 2 restarts the colour at 64)."""

    colour: RGB
    mode: int


@dataclass(frozen=True)
class TileConfig:
    """``D_8015A648`` (effect 3, the destruction tiles), 2 records of 8 bytes (0 a battle, 1 a
    sprung trap): sparkle size (+0), the countdown each column restarts from when a tile
    lights (+2) and the frames the effect lives (+4)."""

    size: int
    delay: int
    frames: int


@dataclass(frozen=True)
class GatherConfig:
    """``D_8015A5F8`` (effect 14, the guardian-star flash), one 20-byte record: the particles'
    spread (+0) and the frames they take to reach the centre (+4)."""

    spread: int
    frames: int


@dataclass(frozen=True)
class BreakupConfig:
    """``D_8015A4E4`` (effect 11, a card removed), one 48-byte record: the pieces' lift (+4)
    and starting chance (+6), the glow colour (+0xC), ray and dust counts (+0x12, +0x16), the
    glow column's width (+0x1C, shrink +0x1E, minimum +0x20) and height (+0x22, growth
    +0x24, maximum +0x26)."""

    lift: int
    chance: int
    colour: RGB
    ray_count: int
    dust_count: int
    width: int
    shrink: int
    min_width: int
    height: int
    growth: int
    max_height: int


@dataclass(frozen=True)
class HealConfig:
    """``D_8015B450`` (effect 5, a heal), 10 records of 36 bytes (5-9 copy 0-4 for Bad
    Reaction): the colour (+0), the rising sprites' climb (+6) and count (+0xA), the burst's
    particle count (+0x20)."""

    colour: RGB
    rise_speed: int
    sprite_count: int
    particle_count: int


@dataclass(frozen=True)
class ReversedHealConfig:
    """``D_8015B650`` (effect 9, Bad Reaction to Simochi), 5 records of 36 bytes: the
    rotation count (+8)."""

    rotations: int


@dataclass(frozen=True)
class GlowConfig:
    """A record whose colour (+0) is all a count reads: ``D_8015AEE4`` (effect 12, Stop
    Defense, 16 bytes) and ``D_8015AEF4`` (effect 16, Raigeki, 36 bytes)."""

    colour: RGB


@dataclass(frozen=True)
class OpeningConfig:
    """``D_8015B078`` (effect 18, the opening of Swords of Revealing Light and of a ritual),
    2 records of 30 bytes: the colour (+0) and the delay before it draws (+0x1C)."""

    colour: RGB
    delay: int


@dataclass(frozen=True)
class BoardConfig:
    """``D_8015A60C`` (effect 17, Dark Hole record 0, Dragon Capture Jar record 1), 2 records
    of 16 bytes: colour (+0), burst colour (+3), radius (+6), mode (+0xE)."""

    colour: RGB
    burst_colour: RGB
    radius: int
    mode: int


@dataclass(frozen=True)
class OverlayTables:
    """Every modelled table. ``estimated`` names the tables whose values are emucore's
    estimates (empty for a disc's); ``source`` says where the values came from."""

    damage: tuple[DamageConfig, ...]
    fusion: tuple[FusionConfig, ...]
    trap: tuple[TrapConfig, ...]
    field: tuple[FieldConfig, ...]
    tiles: tuple[TileConfig, ...]
    gather: GatherConfig
    breakup: BreakupConfig
    heal: tuple[HealConfig, ...]
    reversed_heal: tuple[ReversedHealConfig, ...]
    stop_defense: GlowConfig
    raigeki: GlowConfig
    opening: tuple[OpeningConfig, ...]
    board: tuple[BoardConfig, ...]
    estimated: frozenset[str] = frozenset()
    source: str = "built-in"

    def exact(self, table: str, record: int | None = None) -> bool:
        """Whether the counts that read ``table`` (record ``record``) are the original's:
        neither the table nor that record is an estimate."""
        return table not in self.estimated and f"{table}[{record}]" not in self.estimated

    def values(self) -> dict[str, Any]:
        """The tables as plain data (records as dicts), for ``fm effects`` and JSON."""
        out: dict[str, Any] = {}
        for name in TABLE_NAMES:
            value = getattr(self, name)
            records = value if isinstance(value, tuple) else (value,)
            out[name] = [{f.name: _plain(getattr(r, f.name)) for f in fields(r)}
                         for r in records]
        return out

    def digest(self) -> str:
        """A short hash of the values (a replay names the tables it was played with)."""
        return _digest(self)


@functools.cache
def _digest(tables: OverlayTables) -> str:
    """:meth:`OverlayTables.digest`, made once per set of tables (a run plays thousands of
    duels with one set)."""
    text = repr(sorted((k, repr(v)) for k, v in tables.values().items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


TABLE_NAMES = ("damage", "fusion", "trap", "field", "tiles", "gather", "breakup", "heal",
               "reversed_heal", "stop_defense", "raigeki", "opening", "board")


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# ----------------------------------------------------------------------------- built-in
_FULL = (255, 255, 255)  # a colour whose brightest channel is 255

BUILT_IN = OverlayTables(
    damage=tuple(DamageConfig(_FULL, _FULL, _FULL, count)
                 for count in (32, 64, 64, 32, 64, 64, 64)),
    fusion=(FusionConfig(_FULL, 32, 80),) * 2,
    # the light column's geometry: any values that converge on the 7th frame (see PROVENANCE)
    trap=(TrapConfig(_FULL, 64, 8, 8, 8, 16, 104, 32, 32),) * 6,
    field=(FieldConfig((0, 255, 0), 1), FieldConfig((200, 255, 120), 1),
           FieldConfig((128, 128, 128), 1), FieldConfig((160, 255, 160), 1),
           FieldConfig((0, 96, 255), 1), FieldConfig((192, 192, 192), 2)),
    tiles=(TileConfig(8, 8, 72),) * 2,
    gather=GatherConfig(64, 16),
    breakup=BreakupConfig(16, 8, (128, 96, 32), 32, 32, 64, 8, 12, 16, 16, 128),
    heal=tuple(HealConfig(_FULL, speed, sprites, particles) for speed, sprites, particles in
               ((2, 16, 16), (3, 24, 24), (4, 32, 32), (5, 40, 48), (6, 48, 64))) * 2,
    reversed_heal=tuple(ReversedHealConfig(r) for r in (16, 24, 32, 40, 48)),
    stop_defense=GlowConfig(_FULL),
    raigeki=GlowConfig(_FULL),
    opening=(OpeningConfig(_FULL, 32),) * 2,
    board=(BoardConfig((96, 128, 96), (192, 255, 192), 160, 0),
           BoardConfig((128, 64, 64), (255, 160, 160), 80, 1)),
    estimated=frozenset({"tiles", "gather", "heal", "stop_defense", "raigeki", "opening",
                         "fusion[1]", "trap[1]", "trap[2]", "trap[3]", "trap[4]", "trap[5]"}),
)

PROVENANCE: dict[str, str] = {
    "damage.particle_count": "note: notes/overlays/duel-effect-2.md (32/64/64/32/64/64/64)",
    "damage.colour": "calibrated: DIRECT_LOW 2624 = 6*32 + 6*64 + 2*32*fade(L, 8) and "
                     "DIRECT_HIGH 4864 = 6*64 + 6*64 + 2*64*fade(L, 8) give fade(L, 8) = 32: "
                     "the brightest channel L is 250..255",
    "damage.positive": "calibrated: SWIPE_ATK - DIRECT = 92 = 2 x 46 shake frames = "
                       "2 x (rise(L>>3 -> L, 15) + fade(L, 8) - 1): L = 255",
    "damage.negative": "calibrated: the runners' tools charge a lost attack's SWIPE_ATK row "
                       "for the attacker's negative number, so the same 46 frames: L = 255",
    "fusion.first_end": "note: notes/overlays/duel-effect-1.md (thresholds 32/80)",
    "fusion.second_end": "note: notes/overlays/duel-effect-1.md (thresholds 32/80)",
    "fusion.colour": "calibrated: FUSION 4552 = 6*12 + 6*64 + 2*64*fade(L, 8): "
                     "fade(L, 8) = 32, the brightest channel L is 250..255",
    "trap.ray_count": "note: notes/overlays/duel-effect-8.md (32 rays, 32 particles)",
    "trap.particle_count": "note: notes/overlays/duel-effect-8.md (32 rays, 32 particles)",
    "fusion[1]": "estimate: record 1 (a fusion a non-monster takes part in) is taken to be "
                 "record 0; the notes give the same thresholds for both, no total pins its "
                 "colour",
    "trap.colour": "calibrated (record 0, which every sprung trap shows): TRAP_TRIGGERED "
                   "2752 = 5*32 + 5*32 + 2*32*38: 38 lit frames = converge + fade(L, 8) - 1 "
                   "with L = 255 (fade 32, converge 7)",
    "trap.initial_width": "calibrated with the other geometry fields (record 0): values that "
                          "reach the minimum width and the maximum height on the 7th frame",
    "trap[1..5]": "estimate: taken to be record 0 (Cursebreaker shows records 3 and 5)",
    "field.mode": "note: notes/overlays/duel-effect-ten.md (five records mode 1, the sixth 2)",
    "field.colour": "calibrated: FIELD_USUAL 4928 = 832 + 128*fade(L, 8): fade 32, L 250..255 "
                    "(Forest, Wasteland, Sogen, Umi); FIELD_MOUNT 2880 = 832 + 128*16: L "
                    "122..129 (the grey record); FIELD_YAMI 1856 = 832 + 128*fade(64, 8) "
                    "(mode 2); the other channels follow the notes' colour names",
    "gather.spread": "estimate: not in the decompilation or its notes, no fixed total pins it",
    "gather.frames": "estimate: not in the decompilation or its notes; at most 16 so that "
                     "every particle moves (a slower one would never reach the centre)",
    "breakup": "note: notes/overlays/duel-effect-eleven.md (every field a count reads)",
    "heal.sprite_count": "note: notes/overlays/duel-effect-five.md (16/24/32/40/48)",
    "heal.particle_count": "note: notes/overlays/duel-effect-five.md (16/24/32/48/64)",
    "heal.rise_speed": "estimate: the note gives 'rise speeds 2..6', taken in record order",
    "heal.colour": "estimate: not quoted; the brightest channel is taken to be 255",
    "reversed_heal.rotations": "note: notes/overlays/duel-effect-9.md (16/24/32/40/48)",
    "stop_defense.colour": "estimate: not quoted; the brightest channel is taken to be 255",
    "raigeki.colour": "estimate: not quoted; the brightest channel is taken to be 255",
    "opening": "estimate: neither the colour nor the delay is quoted (brightest channel 255, "
               "delay 32)",
    "board": "note: notes/overlays/duel-effect-seventeen.md (the whole table)",
    "tiles": "estimate: delay 8 (the countdown idiom of effect 11's chance 8) and 72 frames "
             "(every column done, 56 rolls at most, and its sparkles faded, 16 more)",
}


# ----------------------------------------------------------------------------- the disc's
@dataclass(frozen=True)
class TableSpec:
    """Where one table lies in the NTSC-U overlay, and how to read and check it.

    A table is at a fixed ``offset`` from the overlay's start (the addresses the
    decompilation's NTSC-U configuration gives), or at ``near = (table, delta)`` bytes from
    one already found (the PAL bank's layout, kept where the two banks agree), or found by
    its known fields: every place ``anchor`` occurs, ``anchor_at`` bytes into the table,
    whose records pass ``signature``.
    """

    name: str
    symbol: str          # the PAL symbol of the decompiled C
    size: int            # bytes per record
    count: int
    read: Callable[[bytes], Any]
    signature: Callable[[tuple[Any, ...], tuple[bytes, ...]], bool]
    offset: int | None = None
    near: tuple[str, int] | None = None
    anchor: bytes = b""
    anchor_at: int = 0


def _rgb(raw: bytes, at: int) -> RGB:
    return raw[at], raw[at + 1], raw[at + 2]


def _u16(raw: bytes, at: int) -> int:
    return struct.unpack_from("<H", raw, at)[0]


def _halfwords(raws: tuple[bytes, ...], at: int) -> list[int]:
    return [_u16(raw, at) for raw in raws]


def _words(raws: tuple[bytes, ...], at: int) -> list[int]:
    return [struct.unpack_from("<i", raw, at)[0] for raw in raws]


def _same(raws: tuple[bytes, ...], at: int, value: int) -> bool:
    return all(v == value for v in _halfwords(raws, at))


def _any_lit(recs: tuple[Any, ...], raws: tuple[bytes, ...]) -> bool:
    return all(max(r.colour) > 0 for r in recs)


SPECS = (
    # the damage configurations' particle counts (notes/overlays/duel-effect-2.md)
    TableSpec("damage", "D_8015AF18", 50, 7,
              lambda raw: DamageConfig(_rgb(raw, 0), (raw[3], raw[5], raw[7]),
                                       (raw[4], raw[6], raw[8]), _u16(raw, 0x26)),
              lambda recs, raws: [r.particle_count for r in recs] == [32, 64, 64, 32, 64, 64,
                                                                       64],
              offset=0x14FE4),
    # rotation 16, acceleration 16, beam rotation 32, speed 16, thresholds 32/80 (-1.md)
    TableSpec("fusion", "D_8015B420", 24, 2,
              lambda raw: FusionConfig(_rgb(raw, 0), _u16(raw, 0x14), _u16(raw, 0x16)),
              lambda recs, raws: all(_same(raws, at, v) for at, v in
                                     ((4, 16), (6, 16), (8, 32), (0xA, 16), (0x14, 32),
                                      (0x16, 80))),
              offset=0x1548C),
    # 32 rays, range 64, ray width 4, 32 particles; rings only in the last two (-8.md)
    TableSpec("trap", "D_8015A514", 38, 6,
              lambda raw: TrapConfig(_rgb(raw, 0), *(_u16(raw, at) for at in
                                                     (4, 6, 8, 0xA, 0xC, 0xE, 0x12, 0x1A))),
              lambda recs, raws: all(_same(raws, at, v) for at, v in
                                     ((0x12, 32), (0x14, 64), (0x16, 4), (0x1A, 32)))
              and [bool(v) for v in _halfwords(raws, 0x1C)] == [False] * 4 + [True] * 2,
              anchor=struct.pack("<3H", 32, 64, 4), anchor_at=0x12),
    # step 4, maximum height 128, speed 4, last field 90, modes 1 x 5 then 2 (-ten.md)
    TableSpec("field", "D_8015AB14", 14, 6,
              lambda raw: FieldConfig(_rgb(raw, 0), _u16(raw, 0xA)),
              lambda recs, raws: all(_same(raws, at, v) for at, v in
                                     ((4, 4), (6, 128), (8, 4), (0xC, 90)))
              and [r.mode for r in recs] == [1] * 5 + [2],
              anchor=struct.pack("<3H", 4, 128, 4), anchor_at=4),
    TableSpec("tiles", "D_8015A648", 8, 2,
              lambda raw: TileConfig(_u16(raw, 0), _u16(raw, 2), _u16(raw, 4)),
              lambda recs, raws: all(r.delay > 0 and r.size > 1 for r in recs),
              offset=0x14714),
    TableSpec("gather", "D_8015A5F8", 20, 1,
              lambda raw: GatherConfig(_u16(raw, 0), _u16(raw, 4)),
              lambda recs, raws: all(r.frames > 0 for r in recs),
              offset=0x146E4),
    # every field but four (notes/overlays/duel-effect-eleven.md)
    TableSpec("breakup", "D_8015A4E4", 48, 1,
              lambda raw: BreakupConfig(_u16(raw, 4), _u16(raw, 6), _rgb(raw, 0xC),
                                        *(_u16(raw, at) for at in
                                          (0x12, 0x16, 0x1C, 0x1E, 0x20, 0x22, 0x24, 0x26))),
              lambda recs, raws: recs[0] == BUILT_IN.breakup and _same(raws, 0, 8)
              and _same(raws, 2, 4) and _same(raws, 8, 16),
              anchor=struct.pack("<5H", 8, 4, 16, 8, 16)),
    # speeds 16, sprite counts 16..48, numbers 200..5000, particle counts 16..64 (-five.md)
    TableSpec("heal", "D_8015B450", 36, 10,
              lambda raw: HealConfig(_rgb(raw, 0), _u16(raw, 6), _u16(raw, 0xA),
                                     _u16(raw, 0x20)),
              lambda recs, raws: _same(raws, 8, 16) and _same(raws, 0x1A, 16)
              and [r.sprite_count for r in recs] == [16, 24, 32, 40, 48] * 2
              and [r.particle_count for r in recs] == [16, 24, 32, 48, 64] * 2
              and _words(raws, 0x1C) == [200, 500, 1000, 2000, 5000] * 2
              and all(r.rise_speed > 0 for r in recs),
              anchor=struct.pack("<2H", 16, 16), anchor_at=8),
    # rotations 16..48, values 200..5000, bounce 16 (notes/overlays/duel-effect-9.md)
    TableSpec("reversed_heal", "D_8015B650", 36, 5,
              lambda raw: ReversedHealConfig(_u16(raw, 8)),
              lambda recs, raws: [r.rotations for r in recs] == [16, 24, 32, 40, 48]
              and _words(raws, 0x1C) == [200, 500, 1000, 2000, 5000] and _same(raws, 0x18, 16),
              anchor=struct.pack("<i", 200), anchor_at=0x1C),
    # the two records just before D_8015AF18, as the PAL bank lays them out
    TableSpec("stop_defense", "D_8015AEE4", 16, 1, lambda raw: GlowConfig(_rgb(raw, 0)),
              _any_lit, near=("damage", -0x34)),
    TableSpec("raigeki", "D_8015AEF4", 36, 1, lambda raw: GlowConfig(_rgb(raw, 0)),
              _any_lit, near=("damage", -0x24)),
    TableSpec("opening", "D_8015B078", 30, 2,
              lambda raw: OpeningConfig(_rgb(raw, 0), _u16(raw, 0x1C)),
              lambda recs, raws: _any_lit(recs, raws) and all(r.delay > 0 for r in recs),
              near=("damage", 0x160)),
    # the whole table (notes/overlays/duel-effect-seventeen.md)
    TableSpec("board", "D_8015A60C", 16, 2,
              lambda raw: BoardConfig(_rgb(raw, 0), _rgb(raw, 3), _u16(raw, 6), _u16(raw, 0xE)),
              lambda recs, raws: recs == BUILT_IN.board,
              anchor=bytes((96, 128, 96, 192, 255, 192))),
)


class OverlayError(ValueError):
    """The bytes are not the NTSC-U ``duel_effects`` overlay (one line says which check)."""


def _records(image: bytes, spec: TableSpec, at: int) -> tuple[tuple[Any, ...], tuple[bytes, ...]]:
    raws = tuple(image[at + k * spec.size: at + (k + 1) * spec.size] for k in range(spec.count))
    return tuple(spec.read(raw) for raw in raws), raws


def locate(image: bytes, spec: TableSpec, found: dict[str, int]) -> int:
    """The offset of ``spec``'s table (``found``: the offsets of the tables located so far)."""
    if spec.offset is not None:
        return spec.offset
    if spec.near is not None:
        return found[spec.near[0]] + spec.near[1]
    span = spec.size * spec.count
    hits, at = [], image.find(spec.anchor)
    while at >= 0:
        start = at - spec.anchor_at
        if 0 <= start <= len(image) - span and start % 2 == 0 and \
                spec.signature(*_records(image, spec, start)):
            hits.append(start)
        at = image.find(spec.anchor, at + 1)
    if len(hits) != 1:
        raise OverlayError(f"{spec.symbol} ({spec.name}) is not found once by its known fields "
                           f"({len(hits)} places)")
    return hits[0]


def parse(image: bytes, source: str) -> OverlayTables:
    """Every table from the overlay's bytes, checked against the fields the notes quote."""
    if len(image) != OVERLAY_BYTES:
        raise OverlayError(f"the duel_effects overlay is {OVERLAY_BYTES} bytes, not "
                           f"{len(image)}")
    tables: dict[str, Any] = {}
    offsets: dict[str, int] = {}
    for spec in SPECS:
        offsets[spec.name] = at = locate(image, spec, offsets)
        records, raws = _records(image, spec, at)
        if not spec.signature(records, raws):
            raise OverlayError(f"{spec.symbol} ({spec.name}) does not hold the values of the "
                               "NTSC-U release")
        tables[spec.name] = records[0] if spec.count == 1 else records
    return OverlayTables(**tables, estimated=frozenset(), source=source)


def layout(tables: OverlayTables) -> bytes:
    """An overlay image holding ``tables`` at their NTSC-U places (zeros elsewhere), the
    inverse of :func:`parse` for the modelled fields plus the fields the checks read (tests
    build synthetic discs from it)."""
    image = bytearray(OVERLAY_BYTES)
    offsets: dict[str, int] = {}
    places = {"trap": 0x14600, "field": 0x14C00, "breakup": 0x14400, "heal": 0x15600,
              "reversed_heal": 0x15800, "board": 0x14A00}
    for spec in SPECS:
        at = spec.offset if spec.offset is not None else (
            offsets[spec.near[0]] + spec.near[1] if spec.near else places[spec.name])
        offsets[spec.name] = at
        value = getattr(tables, spec.name)
        for k, record in enumerate(value if isinstance(value, tuple) else (value,)):
            image[at + k * spec.size: at + (k + 1) * spec.size] = _pack(spec.name, record, k)
    return bytes(image)


def _pack(name: str, r: Any, k: int) -> bytes:
    """One record's bytes: the modelled fields and the retail values the checks read."""
    raw = bytearray(dict((s.name, s.size) for s in SPECS)[name])

    def half(at: int, value: int) -> None:
        struct.pack_into("<H", raw, at, value)

    def colour(at: int, rgb: RGB) -> None:
        raw[at:at + 3] = bytes(rgb)

    if name == "damage":
        colour(0, r.colour)
        raw[3:9] = bytes((r.negative[0], r.positive[0], r.negative[1], r.positive[1],
                          r.negative[2], r.positive[2]))
        half(0x26, r.particle_count)
    elif name == "fusion":
        colour(0, r.colour)
        for at, v in ((4, 16), (6, 16), (8, 32), (0xA, 16), (0x14, r.first_end),
                      (0x16, r.second_end)):
            half(at, v)
    elif name == "trap":
        colour(0, r.colour)
        for at, v in zip((4, 6, 8, 0xA, 0xC, 0xE, 0x12, 0x1A),
                         (r.initial_width, r.width_step, r.minimum_width, r.initial_height,
                          r.height_step, r.maximum_height, r.ray_count, r.particle_count),
                         strict=True):
            half(at, v)
        half(0x14, 64)
        half(0x16, 4)
        half(0x1C, int(k >= 4))
    elif name == "field":
        colour(0, r.colour)
        for at, v in ((4, 4), (6, 128), (8, 4), (0xA, r.mode), (0xC, 90)):
            half(at, v)
    elif name == "tiles":
        for at, v in ((0, r.size), (2, r.delay), (4, r.frames)):
            half(at, v)
    elif name == "gather":
        half(0, r.spread)
        half(4, r.frames)
    elif name == "breakup":
        for at, v in ((0, 8), (2, 4), (4, r.lift), (6, r.chance), (8, 16), (0x12, r.ray_count),
                      (0x16, r.dust_count), (0x1C, r.width), (0x1E, r.shrink),
                      (0x20, r.min_width), (0x22, r.height), (0x24, r.growth),
                      (0x26, r.max_height)):
            half(at, v)
        colour(0xC, r.colour)
    elif name == "heal":
        colour(0, r.colour)
        for at, v in ((6, r.rise_speed), (8, 16), (0xA, r.sprite_count), (0x1A, 16),
                      (0x20, r.particle_count)):
            half(at, v)
        struct.pack_into("<i", raw, 0x1C, (200, 500, 1000, 2000, 5000)[k % 5])
    elif name == "reversed_heal":
        half(8, r.rotations)
        half(0x18, 16)
        struct.pack_into("<i", raw, 0x1C, (200, 500, 1000, 2000, 5000)[k])
    elif name in ("stop_defense", "raigeki"):
        colour(0, r.colour)
    elif name == "opening":
        colour(0, r.colour)
        half(0x1C, r.delay)
    elif name == "board":
        colour(0, r.colour)
        colour(3, r.burst_colour)
        half(6, r.radius)
        half(0xE, r.mode)
    return bytes(raw)


def differences(ours: OverlayTables, theirs: OverlayTables) -> list[tuple[str, Any, Any]]:
    """(table[record].field, ours, theirs) for every modelled field that differs."""
    out = []
    mine, other = ours.values(), theirs.values()
    for name in TABLE_NAMES:
        for k, (a, b) in enumerate(zip(mine[name], other[name], strict=True)):
            for key in a:
                if a[key] != b[key]:
                    out.append((f"{name}[{k}].{key}", a[key], b[key]))
    return out


def with_tables(base: OverlayTables, **tables: Any) -> OverlayTables:
    """``base`` with some tables replaced (tests; a table given here is taken as exact)."""
    estimated = base.estimated - set(tables)
    return replace(base, **tables, estimated=frozenset(estimated))
