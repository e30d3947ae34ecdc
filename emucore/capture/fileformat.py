"""The capture file: what an emulator script writes while the original game runs a duel.

Text, ASCII, one line each::

    emucore-capture 1
    game fm
    region NTSC-U
    ident SLUS_014.11
    emulator BizHawk 2.9.1
    script bizhawk_capture.lua 1
    media <disc/ROM hash as the emulator reports it, or ->
    partial <why the capture stopped early> (optional: only in an interrupted capture)
    watch acting_side:8009B1D5:1 winner:8009B165:1 ... (the system's RamMap, in order)
    r <frame> <pad hex> <rng hex8 | -> <range>=<hex> ... *<adler32 hex8>
    ...
    end <record count>

A record is written whenever the RNG state or any watched range changed since the previous
record; it carries only the ranges that changed (the first record carries every range). The
checksum is zlib's Adler-32 of the line up to the space before ``*`` (the scripts compute it
with plain arithmetic, so any Lua works). The ``end`` line proves the file is complete.
Reading validates everything and raises :class:`~emucore.duel.files.UserFileError` with one
line naming the file, the line and what is wrong.

A ``partial`` header line marks a capture that was stopped before its pad log ended (Ctrl-C
in ``emucore capture record``): its records are whole and its ``end`` line counts them, so it
reads and verifies like any other, and ``capture verify`` says it is partial. Files without
the line (every script's) are complete, as before.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from emucore.capture.rammap import MAPS, RamMap
from emucore.duel.files import UserFileError, decimal, read_bytes, write_atomic

MAGIC = "emucore-capture"
FORMAT_VERSION = 1
REQUIRED = ("game", "region", "emulator", "script", "watch")
OPTIONAL = ("ident", "media", "partial")


@dataclass
class Record:
    """One captured moment: every watched range's bytes as they stood (deltas resolved)."""

    line: int
    frame: int
    pad: int
    rng: int | None
    ranges: dict[str, bytes]
    changed: tuple[str, ...]


@dataclass
class Capture:
    header: dict[str, str]
    ram: RamMap
    records: list[Record] = field(default_factory=list)

    @property
    def system(self) -> str:
        return self.ram.system

    @property
    def partial(self) -> str | None:
        """Why the capture stopped early, or None for a complete one."""
        return self.header.get("partial")


def watch_line(ram: RamMap) -> str:
    """The ``watch`` header value of a map: ``name:ADDRESS:length`` per range."""
    return " ".join(f"{r.name}:{r.address:08X}:{r.length}" for r in ram.ranges)


def checksum(text: str) -> str:
    return f"{zlib.adler32(text.encode('ascii')):08x}"


class CaptureWriter:
    """Builds capture text exactly as the emulator scripts write it (tests, synthesis)."""

    def __init__(self, ram: RamMap, emulator: str = "emucore synthesis",
                 script: str = "emucore.capture 1", media: str = "-",
                 region: str | None = None, game: str | None = None) -> None:
        self.ram = ram
        self.lines = [f"{MAGIC} {FORMAT_VERSION}", f"game {game or ram.system}",
                      f"region {region or ram.region}", f"ident {ram.ident}",
                      f"emulator {emulator}", f"script {script}", f"media {media}",
                      f"watch {watch_line(ram)}"]
        self.count = 0
        self._watch_at = len(self.lines) - 1
        self._last: dict[str, bytes] = {}
        self._last_rng: int | None = None

    def add(self, frame: int, pad: int, rng: int | None, ranges: dict[str, bytes],
            force: bool = False) -> bool:
        """Append a record if anything changed (or ``force``); True when one was written."""
        changed = [r.name for r in self.ram.ranges if self._last.get(r.name) != ranges[r.name]]
        if not changed and rng == self._last_rng and not force and self.count:
            return False
        pad_width = 4 if len(self.ram.pad_bits) > 8 else 2
        body = " ".join([f"r {frame} {pad:0{pad_width}X}",
                         "-" if rng is None else f"{rng:08X}",
                         *(f"{name}={ranges[name].hex().upper()}" for name in changed)])
        self.lines.append(f"{body} *{checksum(body)}")
        self._last, self._last_rng = dict(ranges), rng
        self.count += 1
        return True

    def mark(self) -> tuple:
        """Where :meth:`rewind` goes back to (a recorder that rewinds its emulator)."""
        return len(self.lines), self.count, dict(self._last), self._last_rng

    def rewind(self, mark: tuple) -> None:
        """Drop every record added since ``mark``."""
        lines, self.count, self._last, self._last_rng = mark
        del self.lines[lines:]

    def mark_partial(self, why: str) -> None:
        """Say in the header that the capture stopped early (before the ``watch`` line)."""
        self.lines.insert(self._watch_at, f"partial {why}")

    def text(self) -> str:
        return "\n".join([*self.lines, f"end {self.count}"]) + "\n"

    def save(self, path: Path | str) -> None:
        write_atomic(path, self.text())


def read(path: Path | str) -> Capture:
    """Read and validate a capture file (one-line :class:`UserFileError` on any problem)."""
    try:
        text = read_bytes(path).decode("ascii")
    except UnicodeDecodeError as exc:
        raise UserFileError(path, f"corrupt capture: non-ASCII byte at offset "
                                  f"{exc.start}") from None
    return parse(text, path)


def parse(text: str, path: Path | str = "<capture>") -> Capture:
    """Parse capture text; see :func:`read`."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()

    def fail(number: int, message: str) -> UserFileError:
        return UserFileError(path, f"line {number}: {message}")

    first = lines[0].split() if lines else []
    if len(first) != 2 or first[0] != MAGIC:
        raise UserFileError(path, f"not an emucore capture (the first line must be "
                                  f"'{MAGIC} {FORMAT_VERSION}')")
    if first[1] != str(FORMAT_VERSION):
        raise UserFileError(path, f"capture format version {first[1]} is not supported "
                                  f"(this emucore reads {FORMAT_VERSION})")
    header: dict[str, str] = {}
    number = 1
    while number < len(lines) and not lines[number].startswith(("r ", "end")):
        key, _, value = lines[number].partition(" ")
        if key not in REQUIRED + OPTIONAL:
            raise fail(number + 1, f"unknown header key {key!r}")
        header[key] = value.strip()
        number += 1
    missing = [k for k in REQUIRED if k not in header]
    if missing:
        raise UserFileError(path, f"capture header lacks {', '.join(missing)}")
    ram = _check_identity(header, path)
    capture = Capture(header, ram)
    ranges = ram.by_name()
    current: dict[str, bytes] = {}
    last_frame = -1
    while number < len(lines):
        line = lines[number]
        number += 1
        if line.startswith("end"):
            _check_end(line, number, len(lines), len(capture.records), fail)
            _check_first(capture, ram, path)
            return capture
        try:
            record = _parse_record(line, number, ranges, ram, fail)
        except UserFileError:
            if number == len(lines):
                raise UserFileError(path, f"truncated capture: the last line ({number}) is cut "
                                          f"off and no 'end' line follows") from None
            raise
        if record.frame < last_frame:
            raise fail(number, f"frame {record.frame} goes back (previous {last_frame})")
        last_frame = record.frame
        current.update(record.ranges)
        record.ranges = dict(current)
        capture.records.append(record)
    where = f"after line {number}" if capture.records else "before any record"
    raise UserFileError(path, f"truncated capture: no 'end' line ({where})")


def _check_identity(header: dict[str, str], path: Path | str) -> RamMap:
    game = header["game"]
    if game not in MAPS:
        raise UserFileError(path, f"capture of game {game!r}: emucore verifies "
                                  f"{', '.join(sorted(MAPS))} only")
    ram = MAPS[game]
    if header["region"] != ram.region:
        raise UserFileError(path, f"capture of {game} region {header['region']!r}: emucore's "
                                  f"{game} tables describe region {ram.region} only")
    if "ident" in header and header["ident"] != ram.ident:
        raise UserFileError(path, f"capture of {header['ident']!r}, not {ram.ident} ({game})")
    if header["watch"] != watch_line(ram):
        theirs = header["watch"].split()
        ours = watch_line(ram).split()
        at = next((i for i, (a, b) in enumerate(zip(theirs, ours, strict=False)) if a != b),
                  min(len(theirs), len(ours)))
        got = theirs[at] if at < len(theirs) else "(nothing)"
        want = ours[at] if at < len(ours) else "(nothing)"
        raise UserFileError(path, f"watch list differs from emucore's {game} map at range "
                                  f"{at + 1}: {got} vs {want} (regenerate the script tables)")
    return ram


def _hex(text: str) -> int | None:
    """1..8 ASCII hex digits, else None."""
    return int(text, 16) if re.fullmatch(r"[0-9a-fA-F]{1,8}", text) else None


def _parse_record(line: str, number: int, ranges: dict, ram: RamMap, fail) -> Record:
    body, star, check = line.rpartition(" *")
    if not star or not line.startswith("r "):
        raise fail(number, "corrupt record (expected 'r FRAME PAD RNG ... *CHECKSUM')")
    if checksum(body) != check.strip().lower():
        raise fail(number, "corrupt record (checksum mismatch)")
    parts = body.split()
    if len(parts) < 4:
        raise fail(number, "corrupt record (needs frame, pad and RNG)")
    frame, pad = decimal(parts[1]), _hex(parts[2])
    rng = None if parts[3] == "-" else _hex(parts[3])
    if frame is None or pad is None or (rng is None and parts[3] != "-"):
        raise fail(number, "corrupt record (frame, pad or RNG is not a number)")
    if rng is None and ram.rng_address is not None:
        raise fail(number, f"record has no RNG state ({ram.system} captures need one)")
    if rng is not None and not 0 <= rng <= 0xFFFFFFFF:
        raise fail(number, "RNG state is not a u32")
    values: dict[str, bytes] = {}
    for item in parts[4:]:
        name, eq, data = item.partition("=")
        if not eq or name not in ranges:
            raise fail(number, f"unknown watched range {name!r}")
        try:
            raw = bytes.fromhex(data)
        except ValueError:
            raise fail(number, f"range {name}: malformed hex") from None
        if len(raw) != ranges[name].length:
            raise fail(number, f"range {name}: {len(raw)} bytes, the map says "
                               f"{ranges[name].length}")
        values[name] = raw
    return Record(number, frame, pad, rng, values, tuple(values))


def _check_end(line: str, number: int, total: int, count: int, fail) -> None:
    parts = line.split()
    if len(parts) != 2 or parts[0] != "end" or decimal(parts[1]) is None:
        raise fail(number, "corrupt end line (expected 'end COUNT')")
    if int(parts[1]) != count:
        raise fail(number, f"end line says {parts[1]} records, the file holds {count}")
    if number != total:
        raise fail(number + 1, "text after the end line")


def _check_first(capture: Capture, ram: RamMap, path: Path | str) -> None:
    if not capture.records:
        raise UserFileError(path, "capture holds no records")
    first = capture.records[0]
    missing = [r.name for r in ram.ranges if r.name not in first.ranges]
    if missing:
        raise UserFileError(path, f"line {first.line}: the first record lacks "
                                  f"{', '.join(missing)} (a capture starts with every "
                                  f"watched range)")
