"""The mGBA capture script: under Lua 5.4 (lupa) with a stand-in for mGBA's API, and, where an
mGBA that loads scripts from its command line is installed (0.11+: ``--script``), inside the real
emulator under Xvfb on a tiny Game Boy ROM this test builds. Debian 12's mgba-qt 0.10.1 loads
scripts only from its Scripting window (docs/capture.md, "mGBA without its window")."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import lua_runner
import pytest
from gb_test_rom import checksummed

from emucore.capture import fileformat

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "capture"
HERE = Path(__file__).resolve().parent


def tiny_rom() -> bytes:
    """A 32 KB Game Boy ROM titled YUGIOU (what the script checks) whose program adds one to
    $CEEF (DM1's opponent byte, a watched range) once per frame, waiting on LY = 144."""
    rom = bytearray(0x8000)
    rom[0x100:0x104] = bytes([0x00, 0xC3, 0x50, 0x01])  # nop; jp $0150
    rom[0x104:0x108] = bytes([0xCE, 0xED, 0x66, 0x66])  # what mGBA reads to call it a GB ROM
    rom[0x134:0x13A] = b"YUGIOU"  # cartridge type 0 (ROM only), 32 KB, Japan: all zero
    rom[0x150:0x162] = bytes([0x21, 0xEF, 0xCE,        # ld hl, $CEEF
                              0x34,                    # inc (hl)
                              0xF0, 0x44, 0xFE, 0x90, 0x20, 0xFA,  # wait until LY == 144
                              0xF0, 0x44, 0xFE, 0x90, 0x28, 0xFA,  # wait until LY != 144
                              0x18, 0xEE])             # jr $0150
    return checksummed(rom)


def _check_capture(path: Path, frames: int) -> None:
    capture = fileformat.read(path)
    assert capture.system == "dm1" and capture.header["emulator"] == "mGBA"
    assert capture.header["script"] == "mgba_capture.lua 1"
    opponents = [r.ranges.get("opponent") for r in capture.records]
    assert len(capture.records) >= frames - 2  # the byte changes every frame: one record each
    counts = [o[0] for o in opponents[1:] if o is not None]
    assert all((b - a) % 256 == 1 for a, b in zip(counts, counts[1:], strict=False))


def test_mgba_script_under_a_stand_in_api_writes_a_capture(tmp_path):
    out = tmp_path / "out.cap"
    result = lua_runner.run(HERE / "fake_mgba.lua", "YUGIOU", "30",
                            str(TOOLS / "mgba_capture.lua"), str(out))
    assert result.returncode == 0, result.stderr
    assert "emucore capture: writing" in result.stderr
    _check_capture(out, 30)
    pads = [r.pad for r in fileformat.read(out).records]
    assert 1 in pads and 0 in pads  # A (bit 0) held on some frames, not on others


def test_mgba_script_refuses_another_game(tmp_path):
    out = tmp_path / "out.cap"
    result = lua_runner.run(HERE / "fake_mgba.lua", "POKEMON RED", "3",
                            str(TOOLS / "mgba_capture.lua"), str(out))
    assert "not started: ROM title 'POKEMON RED' is not YUGIOU" in result.stderr
    assert not out.exists()


FRAMES = 120


@pytest.mark.mgba
def test_mgba_runs_the_capture_script_on_a_tiny_rom(tmp_path):
    """The real emulator: mgba-qt --script under Xvfb, stopped once the capture is finished."""
    rom = tmp_path / "tiny.gb"
    rom.write_bytes(tiny_rom())
    out = tmp_path / "out.cap"
    wrapper = tmp_path / "run.lua"
    wrapper.write_text(f'EMUCORE_CAPTURE = "{out}"\nEMUCORE_CAPTURE_FRAMES = {FRAMES}\n'
                       f'dofile("{TOOLS / "mgba_capture.lua"}")\n')
    env = dict(os.environ, QT_QPA_PLATFORM="xcb")
    proc = subprocess.Popen([shutil.which("xvfb-run"), "-a", mgba_qt(), "--script",
                             str(wrapper), str(rom)], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
                out.exists() and out.read_text().rstrip().split("\n")[-1].startswith("end ")):
            time.sleep(0.5)
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
    _check_capture(out, FRAMES)


def mgba_qt() -> str | None:
    """mgba-qt if it is installed (Debian puts it in /usr/games)."""
    return shutil.which("mgba-qt") or shutil.which("mgba-qt", path="/usr/games")


def mgba_loads_scripts() -> bool:
    """Whether an installed mgba-qt takes ``--script`` (0.11+) and Xvfb is there to host it."""
    binary = mgba_qt()
    if binary is None or shutil.which("xvfb-run") is None:
        return False
    shown = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30)
    return "--script" in shown.stdout + shown.stderr


def test_mgba_script_finishes_after_the_frames_asked_for(tmp_path):
    """EMUCORE_CAPTURE_FRAMES closes the file itself (mGBA has no quit call for scripts)."""
    out = tmp_path / "out.cap"
    result = lua_runner.run(HERE / "fake_mgba.lua", "YUGIOU", "30",
                            str(TOOLS / "mgba_capture.lua"), str(out), "10")
    assert result.returncode == 0 and "emucore capture: finished" in result.stderr
    assert len(fileformat.read(out).records) == 10
