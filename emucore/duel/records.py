"""Declared records: a duel's state bytes described once, everything else generated.

A system declares its state image as a tuple of :class:`Region` s (a name, the machine's
address where known, a numpy record dtype and a record count) and makes one
:class:`Layout` of them. From that one declaration come:

* the image layout: ``offset``, ``length``, ``size`` of each region, in declaration order;
* the field names of ``state_fields()`` with their byte spans (:attr:`Layout.spans`,
  :meth:`Layout.fields_of`), which replay diffs and the capture verifier use;
* the named views the rules read and write (:meth:`Layout.views`): ``cards.flags[r]``,
  ``sides.lp[s]``, ``globals.phase[0]`` - typed memoryviews over the one buffer, one per
  field, so no rule spells an offset or a stride, and a value written outside its field's
  width raises;
* writers of several consecutive fields at once (:meth:`Layout.record_writer`).

Pokered's ``wram.asm`` is the model: one label per byte, and everyone uses it. FM
(``emucore.fm.machine``) and DM1 (``emucore.dm1.state``) declare their state this way.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

# How a field of an array shape is named in state_fields(): (field, index) -> name.
Namer = Callable[[str, tuple[int, ...]], str]


@dataclass(frozen=True)
class Region:
    """One region of a state image: ``count`` records of ``dtype`` at machine ``address``.

    ``label`` is how ``state_fields()`` names record ``{i}`` (a field name follows after a
    dot); an empty label names the fields of a one-record region by themselves. ``flat``
    views each array field of a one-record region as one flat array (``lp[side]``,
    ``hand[side * HAND_SLOTS + i]``) instead of one view per record; ``namer``, when given,
    names the fields of a one-record region (``side0.lp``) in place of ``field[k]``.
    """

    name: str
    address: int | None
    dtype: np.dtype
    count: int
    label: str
    flat: bool = False
    namer: Namer | None = None

    @property
    def length(self) -> int:
        return self.dtype.itemsize * self.count


@dataclass(frozen=True)
class Span:
    """One named field of a state image: its name as ``state_fields()`` spells it, its
    byte offset and its numpy scalar type."""

    name: str
    offset: int
    dtype: np.dtype

    @property
    def size(self) -> int:
        return self.dtype.itemsize


@dataclass(frozen=True)
class RecordWriter:
    """Writes consecutive fields of one record of a region with one ``struct.pack_into``
    (``pack_into(raw, first + record * stride, *values)``); a value outside its field's
    width raises ``struct.error``, as a view write raises ``ValueError``."""

    pack_into: Any  # struct.Struct.pack_into
    first: int      # the image offset of the first field in record 0
    stride: int     # the record size


class Records:
    """The named views of a region of several records: ``field[record]`` reads and writes
    the value in the field's own width (an out-of-range write raises ``ValueError``); a
    field that is itself an array gives one view per record (``sides.hand[s][j]``), or one
    flat view in a ``flat`` region."""

    def __init__(self, raw: memoryview, region: Region, base: int,
                 fields: dict[str, Any]) -> None:
        self.region, self.raw = region, raw
        self.base, self.size = base, region.dtype.itemsize
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


class Fields:
    """The views of a ``flat`` one-record region, one attribute per field and nothing else:
    each layout makes a subclass with the region's field names as ``__slots__`` (a slot
    reads faster than an instance dictionary on the per-step paths)."""

    __slots__ = ()


def _fields_class(region: Region) -> type[Fields]:
    return type(f"{region.name.title()}Fields", (Fields,), {"__slots__": region.dtype.names})


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


def _spans(region: Region, base: int) -> list[Span]:
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
                for k, index in enumerate(np.ndindex(*shape)):
                    spelt = (region.namer(name, index) if region.namer
                             else f"{full}[{k}]")
                    out.append(Span(spelt, at + offset + k * item.itemsize, item))
            else:
                out.append(Span(full, at + offset, sub))
    return out


def _slices(plan: _Plan) -> tuple[str, slice]:
    fmt, start, stop, step = plan
    return fmt, slice(start, stop, step)


def _region_slices(region: Region, base: int) -> Any:
    """What binding a region takes, one slice per view: (scalar fields as (name, format,
    slice), array fields as (name, ((format, slice) per record))) for a record region (a
    flat array field as a scalar one), the (format, slice) of its values for a plain one."""
    dtype = region.dtype
    if dtype.names is None:
        return _slices(_plan(base, dtype, dtype.itemsize, region.count))
    size, scalars, arrays = dtype.itemsize, [], []
    for name in dtype.names:
        sub, offset = dtype.fields[name][:2]
        if not sub.subdtype:
            scalars.append((name, *_slices(_plan(base + offset, sub, size, region.count))))
            continue
        item, shape = sub.subdtype
        n = int(np.prod(shape))
        if region.flat:
            if region.count != 1:
                raise ValueError(f"region {region.name}: flat views need one record")
            scalars.append((name, *_slices(_plan(base + offset, item, item.itemsize, n))))
        else:
            arrays.append((name, tuple(_slices(_plan(base + i * size + offset, item,
                                                     item.itemsize, n))
                                       for i in range(region.count))))
    return tuple(scalars), tuple(arrays)


class Layout:
    """A state image declared as regions, in image order (see the module's docstring).

    ``what`` names the image in the one-line error for an image of the wrong size."""

    def __init__(self, regions: tuple[Region, ...], what: str) -> None:
        self.regions, self.what = regions, what
        self.by_name = {region.name: region for region in regions}
        self.offset: dict[str, int] = {}
        at = 0
        for region in regions:
            self.offset[region.name] = at
            at += region.length
        self.size = at
        self.length = {r.name: r.length for r in regions}
        self.spans: tuple[Span, ...] = tuple(
            span for r in regions for span in _spans(r, self.offset[r.name]))
        self._slices = {r.name: _region_slices(r, self.offset[r.name]) for r in regions}
        self.fields_class = {r.name: _fields_class(r) for r in regions if r.flat}

    def field_offset(self, region: str, field: str, record: int = 0) -> int:
        """The image offset of ``field`` of record ``record`` of ``region``."""
        r = self.by_name[region]
        return self.offset[region] + record * r.dtype.itemsize + r.dtype.fields[field][1]

    def fields_of(self, image: bytes) -> dict[str, int]:
        """Every named field of an image, by its ``state_fields()`` name."""
        if len(image) != self.size:
            raise ValueError(f"{self.what} state image is {len(image)} bytes, "
                             f"not {self.size}")
        return {s.name: int.from_bytes(image[s.offset:s.offset + s.size], "little",
                                       signed=s.dtype.kind == "i") for s in self.spans}

    def record_writer(self, region: str, fields: tuple[str, ...]) -> RecordWriter:
        """A :class:`RecordWriter` for ``fields`` of ``region``, which must follow each
        other in the record with no byte between them."""
        dtype = self.by_name[region].dtype
        first = at = dtype.fields[fields[0]][1]
        fmt = "<"
        for name in fields:
            sub, offset = dtype.fields[name][:2]
            if offset != at or sub.subdtype:
                raise ValueError(f"{region}.{name} does not follow the previous field")
            fmt += _FORMAT[f"{sub.kind}{sub.itemsize}"]
            at += sub.itemsize
        return RecordWriter(struct.Struct(fmt).pack_into, self.offset[region] + first,
                            dtype.itemsize)

    def views(self, raw: memoryview, regions: tuple[str, ...]) -> dict[str, Any]:
        """The named views of ``regions`` over ``raw`` (the state buffer, little-endian):
        :class:`Records` for record regions (a one-record region too: ``globals.phase[0]``),
        the :class:`Fields` of a ``flat`` region, and a typed memoryview for a region of
        plain values."""
        if sys.byteorder != "little":
            raise RuntimeError("the state views assume a little-endian host")
        raw = raw.cast("B")
        end = len(raw)   # each cast covers the whole values of its width from byte 0 on
        casts = {fmt: raw[:end - end % struct.calcsize(fmt)].cast(fmt) for fmt in _FORMATS}
        out: dict[str, Any] = {}
        for name in regions:
            region = self.by_name[name]
            if region.dtype.names is None:
                fmt, where = self._slices[name]
                out[name] = casts[fmt][where]
                continue
            scalars, arrays = self._slices[name]
            fields = {field: casts[fmt][where] for field, fmt, where in scalars}
            if region.flat:
                out[name] = bound = self.fields_class[name]()
                for field, view in fields.items():
                    setattr(bound, field, view)
                continue
            for field, per_record in arrays:
                fields[field] = tuple([casts[fmt][where] for fmt, where in per_record])
            out[name] = Records(raw, region, self.offset[name], fields)
        return out
