"""The user's own Forbidden Memories disc image: sector reads, the game check, and the duel
package's data (spec/fm-ai.md §0; the AI programs on top of this are :mod:`emucore.fm.ai.disc`).

An image is a plain 2048-byte-sector ISO or a raw 2352-byte-sector BIN (Mode 1 or Mode 2
Form 1); its ISO 9660 root must hold a ``SYSTEM.CNF`` booting ``SLUS_014.11`` (NTSC-U
SLUS-01411) and ``DATA/WA_MRG.MRG`` at LBA 10102, else it is refused in one line
(:class:`DiscError`). Raw .bin offset of a byte = LBA x 2352 + 24 + byte in sector; ISO = LBA x
2048.

The duel package lies seven times in ``WA_MRG.MRG``, one copy per terrain, at sector
``0x16C6 + terrain * 0xEB`` of the file. Its relative sectors 140-183 hold the
``duel_effects`` overlay (0x16000 bytes; WA-relative sectors 5970, 6205, ... 7380), whose
configuration tables set how many ``rand()`` calls each duel animation makes
(:mod:`emucore.fm.overlay`); 184-189 hold the AI programs. All seven copies of what is read
must be identical.

A folder may stand for the disc: ``duel_effects.bin`` (written by ``emucore fm effects
--disc IMAGE --out DIR``) is read with the same checks, as ``hand.bin``/``field.bin`` are for
the AI programs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from emucore.cliutil import add_path
from emucore.duel.files import (
    UserFileError,
    check_output,
    exists,
    is_folder,
    open_image,
    os_problem,
    read_bytes,
    write_atomic,
)
from emucore.fm import overlay
from emucore.fm.overlay import OVERLAY_BYTES, OverlayError, OverlayTables

WA_MRG_LBA = 10102
PACKAGE_FIRST_SECTOR = 0x16C6
PACKAGE_SECTORS = 0xEB
TERRAINS = 7
SECTOR = 2048
RAW_SECTOR = 2352
BOOT_NAME = "SLUS_014.11"
OVERLAY_SECTOR = 140          # the duel_effects overlay, relative to each package copy
OVERLAY_FILE = "duel_effects.bin"
MAX_DIRECTORY_SECTORS = 16    # an ISO directory read at most (the game's root holds a few)
SMALLEST_IMAGE = 17 * SECTOR  # the system area and the primary volume descriptor


class DiscError(UserFileError):
    """A disc image that is not the right game or whose data fail a check."""


def add_disc_args(parser: argparse.ArgumentParser) -> None:
    """``--disc`` and ``--embedded-fallback``: every command that plays duels (``fm duel``,
    ``fm sim``, ``fm replay record``, ``plan route``)."""
    add_path(parser, "--disc", role="input", kind="fm disc image or folder", type=Path,
             metavar="IMAGE",
                        help="play with your own disc image's original AI programs and "
                             "duel_effects tables (or a folder holding hand.bin, field.bin "
                             "and duel_effects.bin)")
    parser.add_argument("--embedded-fallback", action="store_true",
                        help="if the disc's AI programs fail their checks, say so and use the "
                             "embedded AI instead of stopping (the duel_effects tables have no "
                             "fallback)")


class DiscImage:
    """Sector reads from a 2048- or 2352-byte-sector image, opened through the reading edge
    (:func:`emucore.duel.files.open_image`: a regular file of a disc image's size only; a
    FIFO would block, a device never end) and read by sector, never whole. Every OS error
    of a read is a one-line :class:`DiscError`. Use it as a context manager."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.file = open_image(path, SMALLEST_IMAGE)
        except UserFileError as exc:
            problem = str(exc).removeprefix(f"{path}: ")
            raise DiscError(path, f"cannot read the disc image: {problem}") from None
        try:
            self.stride, self.offset = self._layout()
        except DiscError:
            self.file.close()
            raise

    def __enter__(self) -> DiscImage:
        return self

    def __exit__(self, *_: object) -> None:
        self.file.close()

    def _at(self, offset: int, size: int) -> bytes:
        """Up to ``size`` bytes from byte ``offset`` of the image (fewer at its end)."""
        try:
            self.file.seek(offset)
            return self.file.read(size)
        except OSError as exc:
            raise DiscError(self.path, f"cannot read the disc image ({os_problem(exc)})") \
                from None

    def _layout(self) -> tuple[int, int]:
        for stride, offset in ((SECTOR, 0), (RAW_SECTOR, 24), (RAW_SECTOR, 16)):
            if self._at(16 * stride + offset, 6) == b"\x01CD001":
                return stride, offset
        raise DiscError(self.path, "not a CD image (no ISO 9660 volume descriptor)")

    def read(self, lba: int, count: int = 1) -> bytes:
        """``count`` 2048-byte sectors of user data from ``lba`` on."""
        out = bytearray()
        for k in range(count):
            data = self._at((lba + k) * self.stride + self.offset, SECTOR)
            if len(data) != SECTOR:
                raise DiscError(self.path, f"the image ends before sector {lba + k}")
            out += data
        return bytes(out)


def directory(img: DiscImage, lba: int, size: int) -> dict[str, tuple[int, int]]:
    """ISO 9660 directory records: name (without ``;1``) -> (extent LBA, size)."""
    sectors = min(max(1, (size + SECTOR - 1) // SECTOR), MAX_DIRECTORY_SECTORS)
    data = img.read(lba, sectors)
    out, at = {}, 0
    while at < len(data):
        length = data[at]
        if length == 0:
            at = (at // SECTOR + 1) * SECTOR
            continue
        extent = int.from_bytes(data[at + 2: at + 6], "little")
        extent_size = int.from_bytes(data[at + 10: at + 14], "little")
        name_len = data[at + 32] if at + 32 < len(data) else 0
        name = data[at + 33: at + 33 + name_len].decode("ascii", "replace").split(";")[0]
        out[name.upper()] = (extent, extent_size)
        at += length
    return out


def check_game(img: DiscImage) -> None:
    """Refuse (:class:`DiscError`, one line) an image that is not NTSC-U SLUS-01411."""
    pvd = img.read(16)
    root = directory(img, int.from_bytes(pvd[158:162], "little"),
                     int.from_bytes(pvd[166:170], "little"))
    if "SYSTEM.CNF" not in root:
        raise DiscError(img.path, "not a PlayStation disc (no SYSTEM.CNF)")
    lba, size = root["SYSTEM.CNF"]
    if BOOT_NAME.encode() not in img.read(lba)[:size]:
        raise DiscError(img.path, f"not Yu-Gi-Oh! Forbidden Memories NTSC-U ({BOOT_NAME})")
    data_dir = root.get("DATA")
    files = directory(img, *data_dir) if data_dir else {}
    if files.get("WA_MRG.MRG", (None,))[0] != WA_MRG_LBA:
        raise DiscError(img.path, f"DATA/WA_MRG.MRG is not at LBA {WA_MRG_LBA} "
                        "(not the NTSC-U SLUS-01411 release)")


def open_game(path: Path | str) -> DiscImage:
    """The image at ``path``, opened and checked to be NTSC-U Forbidden Memories."""
    img = DiscImage(Path(path))
    try:
        check_game(img)
    except DiscError:
        img.file.close()
        raise
    return img


def package_sector(terrain: int, relative: int) -> int:
    """The disc LBA of sector ``relative`` of the duel package's copy ``terrain``."""
    return WA_MRG_LBA + PACKAGE_FIRST_SECTOR + terrain * PACKAGE_SECTORS + relative


def package_copies(img: DiscImage, relative: int, size: int) -> list[bytes]:
    """The ``size`` bytes from sector ``relative`` of each of the seven package copies."""
    return [img.read(package_sector(t, relative), size // SECTOR) for t in range(TERRAINS)]


# ------------------------------------------------------------------- the overlay tables
def read_overlay(path: Path | str) -> bytes:
    """The 0x16000-byte ``duel_effects`` overlay of a disc image (its seven copies must be
    identical) or of a folder's ``duel_effects.bin``."""
    path = Path(path)
    if is_folder(path):
        file = path / OVERLAY_FILE
        image = read_bytes(file, OVERLAY_BYTES + 1)
        if len(image) != OVERLAY_BYTES:
            raise DiscError(file, f"the duel_effects overlay is {OVERLAY_BYTES} bytes "
                            f"(0x{OVERLAY_BYTES:X}), not {len(image)}")
        return image
    with open_game(path) as img:
        copies = package_copies(img, OVERLAY_SECTOR, OVERLAY_BYTES)
    for terrain, copy in enumerate(copies[1:], 1):
        if copy != copies[0]:
            raise DiscError(path, "the seven terrain copies of the duel_effects overlay differ "
                            f"(copy {terrain}, sector {package_sector(terrain, OVERLAY_SECTOR)}"
                            f", is not copy 0)")
    return copies[0]


def tables_of(image: bytes, path: Path | str) -> OverlayTables:
    """The overlay tables in ``image``, read from ``path`` (an :class:`OverlayError` becomes
    a :class:`DiscError` naming the file)."""
    path = Path(path)
    where = path / OVERLAY_FILE if is_folder(path) else path
    try:
        return overlay.parse(image, source=str(path))
    except OverlayError as exc:
        raise DiscError(where, f"duel_effects overlay: {exc}") from None


def read_effects(path: Path | str) -> OverlayTables:
    """The ``duel_effects`` tables of a disc image or a folder (:class:`DiscError`)."""
    return tables_of(read_overlay(path), path)


def overlay_output(out: Path | str, source: Path | str | None, force: bool) -> Path:
    """``out/duel_effects.bin``, checked before any work: never the input, never an
    existing file without ``force`` (:func:`emucore.duel.files.check_output`)."""
    if str(out) == "":
        raise UserFileError("''", "empty output folder name")
    folder = Path(out)
    if exists(folder) and not is_folder(folder):
        raise UserFileError(folder, "is a file, not a folder")
    inputs = [source, Path(source) / OVERLAY_FILE] if source is not None else []
    return check_output(folder / OVERLAY_FILE, inputs, force, makes_folder=True)


def write_overlay(image: bytes, out: Path | str, source: Path | str | None,
                  force: bool = False) -> Path:
    """Write ``image`` as ``out/duel_effects.bin`` (atomically, :func:`overlay_output`)."""
    target = overlay_output(out, source, force)
    write_atomic(target, image, replace=force)
    return target
