"""Builders shared by the FM AI tests: boards from explicit records, a synthetic card table
(spec/fm-ai.md §11 G4/G5), a synthetic disc image holding programs of our own and a
``duel_effects`` overlay built from tables (emucore.fm.overlay.layout)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from emucore.fm.ai import data as ai_data
from emucore.fm.ai.disc import (
    FIELD_SECTOR,
    HAND_SECTOR,
    PACKAGE_FIRST_SECTOR,
    PACKAGE_SECTORS,
    PROGRAM_BYTES,
    TERRAINS,
    WA_MRG_LBA,
)
from emucore.fm.ai.helpers import Board
from emucore.fm.ai.vm import Machine
from emucore.fm.disc import OVERLAY_SECTOR
from emucore.fm.overlay import BUILT_IN, OVERLAY_BYTES, layout
from emucore.fm.snapshot import ExportSide, ExportView, Snapshot
from emucore.hw.psyq_rand import Rand

EMPTY_SIDE = ExportSide([None] * 5, [None] * 5, [], [], 8000, 0)

# G4/G5: base stats of the synthetic cards and their fusions.
SYNTH_STATS = {900: (1000, 800), 901: (1200, 1000), 902: (2000, 1500), 903: (1500, 1800),
               904: (2600, 2000), 905: (1300, 1100), 906: (1900, 1700), 907: (500, 500),
               908: (400, 400), 909: (2600, 0), 910: (3000, 2500)}
SYNTH_FUSIONS = [(900, 901, 902), (902, 903, 904), (905, 901, 906), (903, 907, 909),
                 (906, 903, 910)]


def synthetic_data() -> ai_data.AiData:
    n = 911
    atk = [0] * n
    dfn = [0] * n
    for card, (a, d) in SYNTH_STATS.items():
        atk[card], dfn[card] = a, d
    return ai_data.build([0] * n, atk, dfn, [1] * n, [2] * n, [[0] * 6 for _ in range(20)],
                         SYNTH_FUSIONS, [], {}, {})


def board(records: dict[int, tuple], data: ai_data.AiData | None = None, window: int = 5,
          view: ExportView | None = None, snapshot: Snapshot | None = None) -> Board:
    """A board whose snapshot slots hold ``records`` = {slot: (id, atk, def, flags, type,
    star, star2, deck_index)} (short tuples are padded with zeros)."""
    snap = snapshot or Snapshot()
    for slot, rec in records.items():
        snap.write(slot, tuple(rec) + (0,) * (8 - len(rec)))
    return Board(snap, view or ExportView(EMPTY_SIDE, EMPTY_SIDE, 0, 1),
                 data or synthetic_data(), window)


def machine(b: Board, state: int = 0x55555555) -> tuple[Machine, Rand]:
    rng = Rand(state)
    return Machine(b, rng.rand), rng


def _dir_record(name: bytes, extent: int, size: int, is_dir: bool) -> bytes:
    length = 33 + len(name) + (len(name) + 1) % 2
    rec = bytearray(length)
    rec[0] = length
    rec[2:6] = extent.to_bytes(4, "little")
    rec[10:14] = size.to_bytes(4, "little")
    rec[25] = 2 if is_dir else 0
    rec[32] = len(name)
    rec[33:33 + len(name)] = name
    return bytes(rec)


_BUILT_IN_OVERLAY: list[bytes] = []


def built_in_overlay() -> bytes:
    """``layout(BUILT_IN)``: an overlay image holding the built-in tables (made once)."""
    if not _BUILT_IN_OVERLAY:
        _BUILT_IN_OVERLAY.append(layout(BUILT_IN))
    return _BUILT_IN_OVERLAY[0]


def write_disc(path: Path, hand: bytes, field: bytes, boot: str = "SLUS_014.11",
               raw: bool = False, wa_mrg_lba: int = WA_MRG_LBA,
               overlay: bytes | Sequence[bytes] | None = None) -> Path:
    """A sparse CD image with SYSTEM.CNF, DATA/WA_MRG.MRG, the two programs and the
    ``duel_effects`` overlay in all seven terrain copies; 2352-byte Mode 2 sectors when
    ``raw``. ``overlay`` is one overlay image for every copy, or seven (one per copy); by
    default the built-in tables laid out (:func:`built_in_overlay`)."""
    images = [overlay] * TERRAINS if isinstance(overlay, bytes) else \
        list(overlay) if overlay is not None else [built_in_overlay()] * TERRAINS
    assert len(images) == TERRAINS and all(len(i) == OVERLAY_BYTES for i in images)
    stride, offset = (2352, 24) if raw else (2048, 0)
    sectors: dict[int, bytes] = {}
    pvd = bytearray(2048)
    pvd[0:6] = b"\x01CD001"
    pvd[156:190] = _dir_record(b"\x00", 18, 2048, True)
    sectors[16] = bytes(pvd)
    sectors[18] = (_dir_record(b"SYSTEM.CNF;1", 20, 64, False)
                   + _dir_record(b"DATA", 19, 2048, True)).ljust(2048, b"\x00")
    sectors[19] = _dir_record(b"WA_MRG.MRG;1", wa_mrg_lba, 0x2000000, False).ljust(2048, b"\0")
    sectors[20] = f"BOOT = cdrom:\\{boot};1\r\nTCB = 4\r\n".encode().ljust(2048, b"\x00")
    for t in range(TERRAINS):
        base = WA_MRG_LBA + PACKAGE_FIRST_SECTOR + t * PACKAGE_SECTORS
        for rel, program in ((HAND_SECTOR, hand), (FIELD_SECTOR, field)):
            body = program.ljust(PROGRAM_BYTES, b"\x00")
            for k in range(3):
                sectors[base + rel + k] = body[k * 2048:(k + 1) * 2048]
        for k in range(OVERLAY_BYTES // 2048):
            sectors[base + OVERLAY_SECTOR + k] = images[t][k * 2048:(k + 1) * 2048]
    with path.open("wb") as f:
        for lba, data in sorted(sectors.items()):
            f.seek(lba * stride + offset)
            f.write(data)
        f.seek((max(sectors) + 1) * stride - 1)
        f.write(b"\x00")
    return path
