"""The original AI programs from the user's own disc image (spec/fm-ai.md §0).

The two programs are game data in ``DATA/WA_MRG.MRG`` (LBA 10102): in each of the seven
terrain copies of the duel package (sector ``0x16C6 + terrain * 0xEB`` of the file), relative
sectors 184-186 hold the hand program and 187-189 the field program, 0x1800 bytes each. The
image must be NTSC-U SLUS-01411 (its SYSTEM.CNF boots ``SLUS_014.11``); the chunks must pass
the integrity checks the disassembly project publishes: SHA-256 prefixes, instruction counts
and last-instruction offsets, and all seven copies identical. Anything else is a
:class:`DiscError` with one line naming what failed.

Images may be plain 2048-byte-sector ISOs or raw 2352-byte-sector BIN files (Mode 1 or
Mode 2 Form 1). A folder written by ``tools/extract_fm_ai.py`` (``hand.bin``, ``field.bin``)
is accepted too, with the same checks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from emucore.duel.files import UserFileError, check_output, read_bytes, write_atomic
from emucore.fm.ai.asm import disassemble

WA_MRG_LBA = 10102
PACKAGE_FIRST_SECTOR = 0x16C6
PACKAGE_SECTORS = 0xEB
HAND_SECTOR, FIELD_SECTOR = 184, 187
PROGRAM_BYTES = 0x1800
TERRAINS = 7
SECTOR = 2048
BOOT_NAME = "SLUS_014.11"
PROGRAM_FILES = ("hand.bin", "field.bin")


class DiscError(UserFileError):
    """A disc image that is not the right game or whose AI chunks fail a check."""


@dataclass(frozen=True)
class ProgramSpec:
    """What a genuine program looks like: hash prefix, linear-sweep shape."""

    name: str
    sha256_prefix: str
    instructions: int
    last_offset: int
    last_op: str


RETAIL = (ProgramSpec("hand", "0cda7f9ce737e35c", 1314, 0x1498, "EndHand"),
          ProgramSpec("field", "d8bf4e5b8d135721", 795, 0x0D07, "EndField"))


@dataclass(frozen=True)
class Programs:
    """The two programs the machine runs (hand script, field script)."""

    hand: bytes
    field: bytes
    source: str = "disc"

    def listing(self, which: str) -> list[tuple[int, str]]:
        """The linear-sweep disassembly of one program."""
        return disassemble(self.hand if which == "hand" else self.field)


def shape(program: bytes) -> tuple[int, int, str]:
    """(instruction count, offset of the last one, its name) of a linear sweep up to the
    first null opcode (the padding after the program)."""
    listing = disassemble(program, stop=("Null",))
    code = [(at, text) for at, text in listing if not text.startswith("Null")]
    if not code:
        return 0, -1, ""
    at, text = code[-1]
    return len(code), at, text.split(" ", 1)[0]


def verify(program: bytes, spec: ProgramSpec, where: Path) -> None:
    """Raise :class:`DiscError` unless ``program`` matches ``spec``."""
    digest = hashlib.sha256(program).hexdigest()
    if not digest.startswith(spec.sha256_prefix):
        raise DiscError(where, f"{spec.name} AI program fails the integrity check (SHA-256 "
                        f"{digest[:16]}, expected {spec.sha256_prefix})")
    count, last, name = shape(program)
    if (count, last, name) != (spec.instructions, spec.last_offset, spec.last_op):
        raise DiscError(where, f"{spec.name} AI program has {count} instructions ending with "
                        f"{name or 'nothing'} at 0x{last:04X}, expected {spec.instructions} "
                        f"ending with {spec.last_op} at 0x{spec.last_offset:04X}")


class _Image:
    """Sector reads from a 2048- or 2352-byte-sector image."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if path.exists() and not path.is_file():  # a FIFO would block, a device never end
            raise DiscError(path, "not a regular file")
        try:
            self.file = path.open("rb")
        except OSError as exc:
            raise DiscError(path, f"cannot read the disc image: {exc.strerror}") from None
        try:
            self.stride, self.offset = self._layout()
        except DiscError:
            self.file.close()
            raise

    def _layout(self) -> tuple[int, int]:
        for stride, offset in ((SECTOR, 0), (2352, 24), (2352, 16)):
            self.file.seek(16 * stride + offset)
            if self.file.read(6) == b"\x01CD001":
                return stride, offset
        raise DiscError(self.path, "not a CD image (no ISO 9660 volume descriptor)")

    def read(self, lba: int, count: int = 1) -> bytes:
        out = bytearray()
        for k in range(count):
            self.file.seek((lba + k) * self.stride + self.offset)
            data = self.file.read(SECTOR)
            if len(data) != SECTOR:
                raise DiscError(self.path, f"the image ends before sector {lba + k}")
            out += data
        return bytes(out)

    def close(self) -> None:
        self.file.close()


def _directory(img: _Image, lba: int, size: int) -> dict[str, tuple[int, int]]:
    """ISO 9660 directory records: name (without ``;1``) -> (extent LBA, size)."""
    data = img.read(lba, max(1, (size + SECTOR - 1) // SECTOR))
    out, at = {}, 0
    while at < len(data):
        length = data[at]
        if length == 0:
            at = (at // SECTOR + 1) * SECTOR
            continue
        extent = int.from_bytes(data[at + 2: at + 6], "little")
        extent_size = int.from_bytes(data[at + 10: at + 14], "little")
        name_len = data[at + 32]
        name = data[at + 33: at + 33 + name_len].decode("ascii", "replace").split(";")[0]
        out[name.upper()] = (extent, extent_size)
        at += length
    return out


def _check_game(img: _Image) -> None:
    pvd = img.read(16)
    root = _directory(img, int.from_bytes(pvd[158:162], "little"),
                      int.from_bytes(pvd[166:170], "little"))
    if "SYSTEM.CNF" not in root:
        raise DiscError(img.path, "not a PlayStation disc (no SYSTEM.CNF)")
    lba, size = root["SYSTEM.CNF"]
    if BOOT_NAME.encode() not in img.read(lba)[:size]:
        raise DiscError(img.path, f"not Yu-Gi-Oh! Forbidden Memories NTSC-U ({BOOT_NAME})")
    data_dir = root.get("DATA")
    files = _directory(img, *data_dir) if data_dir else {}
    if files.get("WA_MRG.MRG", (None,))[0] != WA_MRG_LBA:
        raise DiscError(img.path, f"DATA/WA_MRG.MRG is not at LBA {WA_MRG_LBA} "
                        "(not the NTSC-U SLUS-01411 release)")


def read_programs(path: Path | str, specs: Sequence[ProgramSpec] | None = None) -> Programs:
    """The two verified programs from a disc image or an extracted folder (checked against
    ``specs``, by default :data:`RETAIL`)."""
    path = Path(path)
    specs = RETAIL if specs is None else specs
    if path.is_dir():
        return _from_folder(path, specs)
    img = _Image(path)
    try:
        _check_game(img)
        chunks = []
        for spec, rel in zip(specs, (HAND_SECTOR, FIELD_SECTOR), strict=True):
            copies = {img.read(WA_MRG_LBA + PACKAGE_FIRST_SECTOR + t * PACKAGE_SECTORS + rel,
                               PROGRAM_BYTES // SECTOR) for t in range(TERRAINS)}
            if len(copies) != 1:
                raise DiscError(path, f"the seven terrain copies of the {spec.name} AI "
                                "program differ")
            chunk = copies.pop()
            verify(chunk, spec, path)
            chunks.append(chunk)
    finally:
        img.close()
    return Programs(chunks[0], chunks[1], source=str(path))


def _from_folder(folder: Path, specs: Sequence[ProgramSpec]) -> Programs:
    chunks = []
    for spec, name in zip(specs, PROGRAM_FILES, strict=True):
        file = folder / name
        chunk = read_bytes(file, PROGRAM_BYTES + 1)
        if len(chunk) != PROGRAM_BYTES:
            raise DiscError(file, f"an AI program is {PROGRAM_BYTES} bytes, not {len(chunk)}")
        verify(chunk, spec, file)
        chunks.append(chunk)
    return Programs(chunks[0], chunks[1], source=str(folder))


def write_programs(programs: Programs, out: Path | str, force: bool = False) -> list[Path]:
    """Write ``hand.bin`` and ``field.bin`` into ``out`` (atomically; existing files only
    with ``force``, never the files they were read from)."""
    out = Path(out)
    for name in PROGRAM_FILES:
        check_output(out / name, [programs.source, Path(programs.source) / name], force)
    written = []
    for name, chunk in zip(PROGRAM_FILES, (programs.hand, programs.field), strict=True):
        write_atomic(out / name, chunk)
        written.append(out / name)
    return written
