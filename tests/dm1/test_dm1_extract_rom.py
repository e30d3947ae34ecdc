"""tools/extract_dm1_rom.py: a synthetic ROM built from our own tables round-trips exactly;
bad images are refused with one line and exit code 2."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from emucore import tables
from emucore.hw import gameboy
from emucore.tables.dm1 import load

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("extract_dm1_rom",
                                               REPO / "tools" / "extract_dm1_rom.py")
x = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(x)


def _put16(rom: bytearray, at: int, values) -> None:
    for i, v in enumerate(values):
        rom[at + 2 * i:at + 2 * i + 2] = int(v).to_bytes(2, "little")


def _cpu(offset: int, bank: int) -> int:
    return offset - bank * 0x4000 + 0x4000


def synthetic_rom() -> bytes:
    """A 1 MB image laid out as the cartridge, holding the installed tables."""
    t = tables.load("dm1")
    rom = bytearray(x.ROM_SIZE)
    rom[0x134:0x13A] = b"YUGIOU"
    rom[0x146], rom[0x147], rom[0x148], rom[0x149] = 0x03, 0x03, 0x05, 0x02
    ids = np.arange(1, 366)
    rom[x.TYPES:x.TYPES + 365] = bytes(t.type_id[ids].tolist())
    magic = t.kind[ids] == 1
    for terrain, (a_at, d_at) in enumerate(((x.BASE_ATK, x.BASE_DEF), *x.TERRAIN_TABLES)):
        for which, at in ((0, a_at), (1, d_at)):
            values = gameboy.to_bcd(t.stat[terrain, ids, which]).astype(np.int64)
            values[magic] = 0xFFFF
            _put16(rom, at, values)
    fus = t.raw["fusions.csv"]
    pad = [0xFFFF] * (x.FUSIONS - len(fus))
    _put16(rom, x.FUSION_A, list(fus["material_high"] - 1) + pad)  # stored in either order
    _put16(rom, x.FUSION_B, list(fus["material_low"] - 1) + pad)
    _put16(rom, x.FUSION_RESULT, list(fus["result"] - 1) + pad)
    pool_ids = [int(o["pool_id"]) for o in t.opponents]
    rom[x.POOL_IDS:x.POOL_IDS + 16] = bytes(pool_ids)
    at = x.DECK_POINTERS + 2 * x.POOLS
    for pool in range(x.POOLS):
        opponent = pool_ids.index(pool) if pool in pool_ids else 0
        _put16(rom, x.DECK_POINTERS + 2 * pool, [_cpu(at, x.DECK_BANK)])
        _put16(rom, at, np.cumsum(t.pools[opponent, 1:]))
        at += 2 * 365
    at = 0x26BFC
    for i, card in enumerate(x.EQUIP_CARDS):
        _put16(rom, x.EQUIP_POINTERS + 2 * i, [_cpu(at, x.EQUIP_BANK)])
        monsters = np.flatnonzero(t.equip[card]) - 1
        _put16(rom, at, list(monsters) + [0xFFFF])
        at += 2 * (len(monsters) + 1)
    rom[0x14D] = x.header_checksum(rom)
    rom[0x14E:0x150] = x.global_checksum(rom).to_bytes(2, "big")
    return bytes(rom)


@pytest.fixture(scope="module")
def rom_file(tmp_path_factory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("rom") / "dm1.gb"
    rom = synthetic_rom()
    path.write_bytes(rom)
    return path, hashlib.sha1(rom).hexdigest()


def test_round_trip_reproduces_the_tables(rom_file, tmp_path, capsys):
    path, sha1 = rom_file
    out = tmp_path / "dm1"
    assert x.main([str(path), "--out", str(out), "--accept-sha1", sha1]) == 0
    assert sha1 in capsys.readouterr().out
    ours, got = tables.load("dm1"), load(out)
    for name in ("type_id", "stat", "fusion", "equip", "pools", "kind", "drops", "rewards"):
        assert np.array_equal(getattr(ours, name), getattr(got, name)), name
    assert got.names == ours.names
    assert all(r["pool"] == "exact" for r in got.opponents)
    assert (got.raw["field_stats.csv"]["approximate"] == 0).all()


def test_unknown_image_is_refused_with_its_hashes(rom_file, tmp_path, capsys):
    path, sha1 = rom_file
    assert x.main([str(path), "--out", str(tmp_path / "dm1")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"unknown image sha1 {sha1}" in err
    assert not (tmp_path / "dm1").exists()


@pytest.mark.parametrize("patch,message", [
    (lambda r: r[:0x1000], "a DM1 ROM has 1048576"),
    (lambda r: r[:0x134] + b"POKEMON" + r[0x13B:], "is not YUGIOU"),
    (lambda r: r[:0x147] + b"\x01" + r[0x148:], "cartridge type 0x01"),
    (lambda r: r[:0x24381] + bytes([r[0x24381] ^ 1]) + r[0x24382:], "global checksum"),
])
def test_bad_images_are_refused(rom_file, tmp_path, capsys, patch, message):
    path, sha1 = rom_file
    bad = tmp_path / "bad.gb"
    bad.write_bytes(patch(path.read_bytes()))
    assert x.main([str(bad), "--out", str(tmp_path / "o"), "--accept-sha1", sha1]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_missing_file(tmp_path, capsys):
    assert x.main([str(tmp_path / "none.gb"), "--out", str(tmp_path / "o")]) == 2
    assert "none.gb: no such file" in capsys.readouterr().err


def _resign(rom: bytearray) -> bytes:
    rom[0x14D] = x.header_checksum(rom)
    rom[0x14E:0x150] = x.global_checksum(rom).to_bytes(2, "big")
    return bytes(rom)


def test_an_equip_list_without_its_end_fails_and_keeps_the_old_folder(rom_file, tmp_path,
                                                                       capsys):
    """Issue 17: the equip reader looped without bound, and a failed extraction left the
    user's tables folder half rewritten."""
    path, sha1 = rom_file
    out = tmp_path / "dm1"
    assert x.main([str(path), "--out", str(out), "--accept-sha1", sha1]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    rom = bytearray(path.read_bytes())
    first = x.file_offset(x.EQUIP_BANK, x._u16(rom, x.EQUIP_POINTERS, 1)[0])
    rom[first:x.ROM_SIZE - 2] = b"\x01\x00" * ((x.ROM_SIZE - 2 - first) // 2)  # no 0xFFFF
    bad = tmp_path / "bad.gb"
    image = _resign(rom)
    bad.write_bytes(image)
    capsys.readouterr()
    assert x.main([str(bad), "--out", str(out), "--accept-sha1",
                   hashlib.sha1(image).hexdigest()]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "equip list" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.gb", "dm1"]


def test_out_may_not_be_an_input(rom_file, tmp_path, capsys):
    path, sha1 = rom_file
    root = tmp_path / "root"
    (root / "dm1").mkdir(parents=True)
    for target in (root / "dm1", root, path):
        assert x.main([str(path), "--out", str(target), "--base", str(root),
                       "--accept-sha1", sha1]) == 2
        assert "input" in capsys.readouterr().err
