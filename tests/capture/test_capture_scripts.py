"""The emulator scripts: address tables generated from the RAM map, Lua syntax, and the
BizHawk script run under Lua 5.4 (``lupa`` from PyPI, see lua_runner.py) with a stand-in API
writing a capture that emucore reads and verifies."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import lua_runner
import pytest
from capture_synth import synth_fm

from emucore.capture import approved, dm1_check, fileformat, fm_check
from emucore.capture.rammap import DM1, FM

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "capture"
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))
import gen_tables  # noqa: E402


def test_committed_lua_tables_equal_a_regeneration():
    for path, text in gen_tables.targets().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is stale"
    assert gen_tables.main(["--check"]) == 0


def test_tables_name_every_range_of_the_map():
    text = (TOOLS / "fm_addresses.lua").read_text()
    for r in FM.ranges:
        offset = r.address - 0x80000000
        assert f'name = "{r.name}", offset = 0x{offset:X}, length = {r.length}' in text
    assert "rng_offset = 0xFE6F8" in (TOOLS / "fm_addresses.lua").read_text()
    assert "rng_offset = nil" in (TOOLS / "dm1_addresses.lua").read_text()


def test_dm1_ranges_are_rows_of_the_reference_memory_map(reference_dir):
    path = reference_dir / "dm1" / "memory_map.csv"
    if not path.is_file():
        pytest.skip(f"reference memory map not present at {path}")
    with path.open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["game"] == "DM1" and r["space"] == "WRAM"]
    starts = {int(r["address"].split("-")[0].split("/")[0].strip().lstrip("$"), 16): r
              for r in rows}
    for r in DM1.ranges:
        assert r.address in starts, f"{r.name} ${r.address:04X} is not in memory_map.csv"


@pytest.mark.parametrize("script", sorted(p.name for p in TOOLS.glob("*.lua")) + ["fake"])
def test_lua_syntax(script):
    path = HERE / "fake_bizhawk.lua" if script == "fake" else TOOLS / script
    assert lua_runner.syntax_error(path) is None


def test_a_lua_syntax_error_is_found(tmp_path):
    """The check can fail: a script with an unclosed function is reported."""
    bad = tmp_path / "bad.lua"
    bad.write_text("local function f()\n  return 1\n")
    assert "expected" in lua_runner.syntax_error(bad)


def _lua_frames(capture: fileformat.Capture, system: str, kernel: str, romname: str,
                rom: str) -> str:
    ram = capture.ram
    ranges = ram.by_name()
    out = ["return {", f"system = {system!r},", f"romname = {romname!r},",
           'romhash = "ABCD1234",', f"kernel = {kernel!r},", f"rom = {rom!r},", "frames = {"]
    for record in capture.records:
        for repeat in range(2):  # every frame shown twice: the script writes it once
            down = [not record.pad >> bit & 1 if ram.pad_active_low else record.pad >> bit & 1
                    for bit in range(len(ram.pad_bits))]
            pressed = ", ".join(f'"P1 {name}"' for name, d in zip(ram.pad_bits, down,
                                                                  strict=True) if d)
            data = ", ".join(f'[{ranges[n].address - ram.domain_base}] = "{raw.hex()}"'
                             for n, raw in record.ranges.items())
            rng = "nil" if record.rng is None else record.rng
            out.append(f"{{frame = {record.frame + repeat}, rng = {rng}, "
                       f"pressed = {{{pressed}}}, ranges = {{{data}}}}},")
    out += ["}", "}"]
    return "\n".join(out)


def _run_script(tmp_path: Path, text: str, system: str = "PSX", kernel: str = "",
                romname: str = "x", rom: str = ""):
    frames, out = tmp_path / "frames.lua", tmp_path / "out.cap"
    frames.write_text(_lua_frames(fileformat.parse(text), system, kernel, romname, rom))
    result = lua_runner.run(HERE / "fake_bizhawk.lua", str(frames),
                            str(TOOLS / "bizhawk_capture.lua"), str(out))
    return result, out


def _same_records(a: fileformat.Capture, b: fileformat.Capture) -> bool:
    return ([(r.frame, r.pad, r.rng, r.ranges) for r in a.records]
            == [(r.frame, r.pad, r.rng, r.ranges) for r in b.records])


def test_bizhawk_script_writes_a_capture_emucore_verifies(tmp_path):
    synth = synth_fm(steps=6)
    result, out = _run_script(tmp_path, synth.text, kernel="\0" * 100 + "cdrom:\\SLUS_014.11;1")
    assert result.returncode == 0, result.stderr
    ours, theirs = fileformat.parse(synth.text), fileformat.read(out)
    assert theirs.header["emulator"] == "BizHawk 2.9.1"
    assert theirs.header["script"] == "bizhawk_capture.lua 1"
    assert theirs.header["media"] == "ABCD1234"
    assert _same_records(ours, theirs)
    verdict = fm_check.verify(theirs, approved.load("fm"), str(out))
    assert verdict.mismatch is None and len(verdict.steps) == 6


def test_bizhawk_script_refuses_another_game(tmp_path):
    synth = synth_fm(steps=1)
    result, out = _run_script(tmp_path, synth.text, kernel="\0" * 64,
                              romname="Some Other Game (Europe)")
    assert "not started: boot string SLUS_014.11 not found" in result.stderr
    assert not out.exists()


def test_bizhawk_script_on_the_game_boy_writes_a_dm1_capture(tmp_path):
    from test_capture_dm1 import _capture, _card_info

    text = _capture([{"card_info": _card_info(1)}, {"card_info": _card_info(7)}])
    rom = "\0" * 0x134 + "YUGIOU" + "\0" * 10
    result, out = _run_script(tmp_path, text, system="GB", rom=rom)
    assert result.returncode == 0, result.stderr
    ours, theirs = fileformat.parse(text), fileformat.read(out)
    assert theirs.system == "dm1" and _same_records(ours, theirs)
    assert dm1_check.verify(theirs).mismatch is None
    out.unlink()
    bad, out = _run_script(tmp_path, text, system="GB", rom="\0" * 0x134 + "POKEMON RED")
    assert "not started: ROM title 'POKEMON RED' is not YUGIOU" in bad.stderr
    assert not out.exists()
