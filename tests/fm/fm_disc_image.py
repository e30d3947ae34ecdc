"""A sparse stand-in for the user's disc image, for the tests that read the campaign's duel
commands from its executable (emucore.fm.story.campaign_terrains)."""

from __future__ import annotations

from pathlib import Path


def _dir_record(name: bytes, extent: int, size: int, is_dir: bool) -> bytes:
    length = 33 + len(name) + (len(name) + 1) % 2
    rec = bytearray(length)
    rec[0], rec[2:6], rec[10:14] = length, extent.to_bytes(4, "little"), size.to_bytes(4, "little")
    rec[25], rec[32] = 2 if is_dir else 0, len(name)
    rec[33:33 + len(name)] = name
    return bytes(rec)


def write_disc(path: Path, slus: bytes) -> Path:
    """A sparse ISO with SYSTEM.CNF, DATA/WA_MRG.MRG at LBA 10102 and SLUS_014.11."""
    pvd = bytearray(2048)
    pvd[0:6] = b"\x01CD001"
    pvd[156:190] = _dir_record(b"\x00", 18, 2048, True)
    sectors = {16: bytes(pvd),
               18: (_dir_record(b"SYSTEM.CNF;1", 20, 64, False) + _dir_record(b"DATA", 19,
                    2048, True) + _dir_record(b"SLUS_014.11;1", 21, len(slus), False)),
               19: _dir_record(b"WA_MRG.MRG;1", 10102, 2048, False),
               20: b"BOOT = cdrom:\\SLUS_014.11;1\r\n"}
    for k in range(0, len(slus), 2048):
        sectors[21 + k // 2048] = slus[k:k + 2048]
    with path.open("wb") as f:
        for lba, data in sorted(sectors.items()):
            f.seek(lba * 2048)
            f.write(data.ljust(2048, b"\x00"))
    return path
