"""Fuzzing ``emucore capture record``'s file arguments: the pad log (a recording as
``emucore play --record`` writes it, mutated line by line), the core (missing, odd and
non-core paths, names), the content and the output (onto an input, a folder, a link).

Every example asserts the house rules (tests/core/fuzz_harness.py: exit 0 or 2, one line on
stderr, no changed input, no partial output). The content is the generated test ROM
(tests/capture/gb_test_rom.py), which the real DM1 declaration refuses by its hash, so no
example runs an emulator for long: a pad log that parses reaches the content check and stops
there in one line.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from fuzz_harness import REPO, fresh, mutated_lines, run_cli
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(REPO / "tests" / "capture"))
import gb_test_rom  # noqa: E402

pytestmark = pytest.mark.fuzz

PAD_LOG = ("# emucore recording: system dm1 save none\n"
           "0 0x0000 0x0000\n30 0x0001 0x0000\n34 0x0000 0x0000\n60 end\n")
ROM = gb_test_rom.assemble(bytes(9), bytes(9), bytes(6)).rom


def _inputs(folder: Path, pad: str = PAD_LOG) -> tuple[Path, Path]:
    rom, log = folder / "game.gb", folder / "duel.pad"
    rom.write_bytes(ROM)
    log.write_text(pad, encoding="utf-8", errors="surrogateescape")
    return rom, log


def _argv(core: str, rom: Path, log: Path, out: Path) -> list[str]:
    return ["capture", "record", "dm1", "--core", core, "--content", str(rom), "--pad",
            str(log), "--out", str(out)]


@given(pad=mutated_lines(PAD_LOG))
def test_mutated_pad_logs(work, pad):
    folder = fresh(work)
    rom, log = _inputs(folder, pad)
    assert run_cli("capture record pad", _argv("pyboy", rom, log, folder / "out.cap"),
                   folder) == 2


ODD_CORES = ["", "/", ".", "..", "/dev/zero", "/dev/null", "/proc/self/status", "/etc/passwd",
             "missing_libretro.so", "./missing.so", "gambatte ", "GAMBATTE", "pyboy2",
             "beetle-psx", "mednafen_psx", "-", "a\nb", "a\x00b.so", "é.so", "x" * 300 + ".so"]


@given(core=st.one_of(st.sampled_from(ODD_CORES), st.text(max_size=20)),
       where=st.sampled_from(["", "pad", "rom", "folder"]))
def test_missing_and_odd_cores(work, core, where):
    """Any ``--core``: a path that does not exist or is no core, an input file, a folder, a
    name that is not known, a PlayStation core for the Game Boy."""
    folder = fresh(work)
    rom, log = _inputs(folder)
    (folder / "cores").mkdir()
    chosen = {"": core, "pad": str(log), "rom": str(rom), "folder": str(folder / "cores")}
    assert run_cli("capture record core", _argv(chosen[where], rom, log, folder / "out.cap"),
                   folder) == 2


@given(target=st.sampled_from(["pad", "rom", "folder", "link", "dangling"]),
       force=st.booleans())
def test_outputs_onto_inputs_and_odd_places(work, target, force):
    folder = fresh(work)
    rom, log = _inputs(folder)
    (folder / "sub").mkdir()
    os.symlink(log, folder / "link.cap")
    os.symlink(folder / "nowhere", folder / "dangling.cap")
    out = {"pad": log, "rom": rom, "folder": folder / "sub", "link": folder / "link.cap",
           "dangling": folder / "dangling.cap"}[target]
    argv = _argv("pyboy", rom, log, out) + (["--force"] if force else [])
    assert run_cli("capture record out", argv, folder) == 2
