"""The original AI programs from the user's own disc image (spec/fm-ai.md §0), read through
the disc reader :mod:`emucore.fm.disc` (image formats, the game check, the duel package).

The two programs are game data in ``DATA/WA_MRG.MRG`` (LBA 10102): in each of the seven
terrain copies of the duel package (sector ``0x16C6 + terrain * 0xEB`` of the file), relative
sectors 184-186 hold the hand program and 187-189 the field program, 0x1800 bytes each. The
image must be NTSC-U SLUS-01411 (its SYSTEM.CNF boots ``SLUS_014.11``); the chunks must pass
the integrity checks the disassembly project publishes: SHA-256 prefixes, instruction counts
and last-instruction offsets, and all seven copies identical. Anything else is a
:class:`DiscError` with one line naming what failed.

Images may be plain 2048-byte-sector ISOs or raw 2352-byte-sector BIN files (Mode 1 or
Mode 2 Form 1; :class:`emucore.fm.disc.DiscImage`). A folder written by
``tools/extract_fm_ai.py`` (``hand.bin``, ``field.bin``) is accepted too, with the same
checks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from emucore.duel.files import check_output, is_folder, read_bytes, write_atomic
from emucore.fm.ai.asm import disassemble
from emucore.fm.disc import (  # noqa: F401  (the names this module has always offered)
    BOOT_NAME,
    PACKAGE_FIRST_SECTOR,
    PACKAGE_SECTORS,
    SECTOR,
    TERRAINS,
    WA_MRG_LBA,
    DiscError,
    open_game,
    package_copies,
)

HAND_SECTOR, FIELD_SECTOR = 184, 187
PROGRAM_BYTES = 0x1800
PROGRAM_FILES = ("hand.bin", "field.bin")


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


def read_programs(path: Path | str, specs: Sequence[ProgramSpec] | None = None) -> Programs:
    """The two verified programs from a disc image or an extracted folder (checked against
    ``specs``, by default :data:`RETAIL`)."""
    path = Path(path)
    specs = RETAIL if specs is None else specs
    if is_folder(path):
        return _from_folder(path, specs)
    chunks = []
    with open_game(path) as img:
        for spec, rel in zip(specs, (HAND_SECTOR, FIELD_SECTOR), strict=True):
            copies = set(package_copies(img, rel, PROGRAM_BYTES))
            if len(copies) != 1:
                raise DiscError(path, f"the seven terrain copies of the {spec.name} AI "
                                "program differ")
            chunk = copies.pop()
            verify(chunk, spec, path)
            chunks.append(chunk)
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
        check_output(out / name, [programs.source, Path(programs.source) / name], force,
                     makes_folder=True)
    written = []
    for name, chunk in zip(PROGRAM_FILES, (programs.hand, programs.field), strict=True):
        write_atomic(out / name, chunk, replace=force)
        written.append(out / name)
    return written
