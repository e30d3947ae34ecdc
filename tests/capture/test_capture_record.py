"""``emucore capture record`` on real emulators: a tiny Game Boy program assembled by the test
(gb_test_rom.py) runs through PyBoy and through the Gambatte and mGBA libretro cores, and the
capture is checked field by field against what the program writes (its code, not the recorder, says
what each byte must be); ``capture verify`` passes it and finds one changed byte at its frame
and field. Bad input (a missing or unknown core, the wrong content, no BIOS for Beetle PSX, no
binding, no system RAM) is one line, exit 2, nothing written.

Sources: the program's semantics (gb_test_rom.py, after Pan Docs and pokered's ReadJoypad);
the release hashes in rammap.py are the No-Intro / Redump entries of libretro-database's
metadat (Nintendo - Game Boy.dat, Sony - PlayStation.dat); the Lua address tables are the
scripts' own (tools/capture/*_addresses.lua)."""

from __future__ import annotations

import dataclasses
import os
import signal
from pathlib import Path

import gb_test_rom as G
import pytest
from lupa import lua54

from emucore import cli
from emucore import tables as T
from emucore.capture import cores, dm1_check, fileformat, rammap, record, verify

ROOT = Path(__file__).resolve().parents[2]
PAD_LOG = "# emucore recording: system dm1 save none\n" \
          "0 -\n100 0x0001\n104 0x0000\n112 0x0042\n118 0x0000\n150 end\n"


def _block(tables, number: int) -> bytes:
    return G.card_block(number, int(tables.stat[0, number, 0]), int(tables.stat[0, number, 1]),
                        int(tables.type_id[number]))


@pytest.fixture(scope="module")
def program() -> G.Program:
    """Blue-Eyes White Dragon (#1) and #4 in the card-info block, fusion #4 + #16 -> its
    result in emucore's tables (so that verify has something to agree with)."""
    tables = T.load("dm1")
    result = tables.fusion_result(4, 16)
    assert result
    return G.assemble(_block(tables, 1), _block(tables, 4), G.fusion_block(4, 16, result))


def _test_map(program: G.Program) -> rammap.RamMap:
    """DM1's map with the test ROM as its release: how tests pass the content check."""
    release = rammap.Release("emucore test ROM", program.sha1, len(program.rom), "the ROM")
    return dataclasses.replace(rammap.DM1, release=release)


def _files(tmp_path: Path, program: G.Program) -> tuple[Path, Path, Path]:
    rom, pad = tmp_path / "test.gb", tmp_path / "pad.log"
    rom.write_bytes(program.rom)
    pad.write_text(PAD_LOG)
    return rom, pad, tmp_path / "out.cap"


def need_core(name: str) -> None:
    """Skip where the core is not installed and cannot be; CI as root installs it (.ci/run),
    so there a missing core fails."""
    filename = cores.KNOWN_CORES[name][0]
    if any((folder / filename).is_file() for folder in cores.core_folders()):
        return
    if os.environ.get("CI") and os.geteuid() == 0:
        pytest.fail(f"{filename} is not installed: .ci/run installs {cores.KNOWN_CORES[name][2]}")
    pytest.skip(f"{filename} not installed (apt-get install {cores.KNOWN_CORES[name][2]})")


def _check_against_program(capture: fileformat.Capture, program: G.Program) -> int:
    """Every record from the frame after the program started (its fusion block written: the
    frame it starts in may end before its first pass of the loop) holds what the program
    writes for the pad of that frame; returns how many records were checked."""
    started = [r for r in capture.records if r.ranges["fusion"] == program.fusion][1:]
    assert started, "the program never ran"
    previous = None
    for r in started:
        assert r.ranges["message"] == bytes([r.pad]), r.frame
        assert r.ranges["card_info"] == (program.card_b if r.pad else program.card_a), r.frame
        assert r.ranges["win_counts"] == bytes(32) and r.ranges["menu_flags"] == bytes(2)
        if previous is not None:  # one record per frame: the counter changes every frame
            assert r.frame == previous.frame + 1
            assert r.ranges["opponent"][0] == (previous.ranges["opponent"][0] + 1) % 256
        previous = r
    assert {r.pad for r in started} >= {0x00, 0x01, 0x42}  # A, then Up+B, were seen
    return len(started)


def _record(tmp_path: Path, program: G.Program, core: str) -> fileformat.Capture:
    rom, pad, out = _files(tmp_path, program)
    outcome = record.record(_test_map(program), core, rom, pad, out, show_progress=False)
    assert not outcome.partial and outcome.frames == 150
    return fileformat.read(out)


def test_pyboy_records_what_the_program_wrote(tmp_path, program):
    capture = _record(tmp_path, program, "pyboy")
    assert capture.header["emulator"].startswith("PyBoy")
    assert capture.header["media"] == f"sha1:{program.sha1}"
    assert _check_against_program(capture, program) > 50  # PyBoy's boot ROM takes ~65 frames


@pytest.mark.parametrize("core", ["gambatte", "mgba"])
def test_libretro_cores_record_what_the_program_wrote(tmp_path, program, core):
    """Gambatte exposes the system RAM directly, mGBA through its memory map; neither runs a
    boot ROM, so the program starts in frame 1."""
    need_core(core)
    capture = _record(tmp_path, program, core)
    name = {"gambatte": "Gambatte", "mgba": "mGBA"}[core]
    assert capture.header["emulator"].startswith(f"libretro {name}")
    assert _check_against_program(capture, program) >= 147


@pytest.mark.parametrize("core", ["pyboy", "gambatte", "mgba"])
def test_the_capture_verifies_and_a_changed_byte_is_found(tmp_path, program, core):
    """0 mismatches; then #4's ATK byte changed in the first record that shows #4: verify
    names that record's frame and the field card_info.atk."""
    if core != "pyboy":
        need_core(core)
    capture = _record(tmp_path, program, core)
    path = tmp_path / "out.cap"
    _, verdict = verify.verify_file(path)
    assert verdict.mismatch is None and len(verdict.checks) >= 3
    target = next(r for r in capture.records if "card_info" in r.changed
                  and r.ranges["card_info"] == program.card_b)
    lines = path.read_text().split("\n")
    body = lines[target.line - 1].rpartition(" *")[0]
    wrong = program.card_b[:4] + bytes([program.card_b[4] ^ 0x10]) + program.card_b[5:]
    body = body.replace(f"card_info={program.card_b.hex().upper()}",
                        f"card_info={wrong.hex().upper()}")
    lines[target.line - 1] = f"{body} *{fileformat.checksum(body)}"
    path.write_text("\n".join(lines))
    _, verdict = verify.verify_file(path)
    assert verdict.mismatch is not None
    assert (verdict.mismatch.frame, verdict.mismatch.line) == (target.frame, target.line)
    assert [f[0] for f in verdict.mismatch.fields] == ["card_info.atk", "card_info.def"]


def _cli(argv: list[str], capsys) -> tuple[int, str, str]:
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _refused(argv: list[str], out: Path, capsys, *words: str) -> str:
    code, _, err = _cli(argv, capsys)
    assert code == 2 and not out.exists()
    assert err.count("\n") == 1 and err.startswith("emucore: error:") and "Traceback" not in err
    for word in words:
        assert word in err
    return err


def test_the_test_rom_is_not_the_release(tmp_path, program, capsys):
    """The real DM1 declaration refuses the test ROM by its hash, naming the release."""
    rom, pad, out = _files(tmp_path, program)
    _refused(["capture", "record", "dm1", "--core", "pyboy", "--content", str(rom),
              "--pad", str(pad), "--out", str(out)], out, capsys,
             f"sha1 {program.sha1} is not Yu-Gi-Oh! Duel Monsters (Japan)",
             rammap.DM1.release.sha1)


@pytest.mark.parametrize("core, words", [
    ("/nonexistent/core_libretro.so", ["no such libretro core file"]),
    ("snes9x", ["not a path to a libretro core nor one of gambatte"]),
    ("beetle-psx", ["beetle-psx plays PlayStation games; dm1 needs a Game Boy core"]),
    ("x" * 300 + ".so", ["no such libretro core file"]),  # a name too long for the system
])
def test_bad_cores_are_one_line(tmp_path, program, capsys, core, words):
    """Source: issue 30 ("a clear one-line error for a missing core"); the 300-letter name
    was a traceback (ENAMETOOLONG from a plain ``is_file``) found by the fuzz profile."""
    rom, pad, out = _files(tmp_path, program)
    _refused(["capture", "record", "dm1", "--core", core, "--content", str(rom), "--pad",
              str(pad), "--out", str(out)], out, capsys, *words)


def test_a_known_core_not_installed_says_what_to_install(tmp_path, program, capsys,
                                                         monkeypatch):
    monkeypatch.setattr(cores, "core_folders", lambda: [tmp_path / "cores"])
    rom, pad, out = _files(tmp_path, program)
    _refused(["capture", "record", "dm1", "--core", "mgba", "--content", str(rom), "--pad",
              str(pad), "--out", str(out)], out, capsys, "mgba_libretro.so is not in",
             "apt-get install libretro-mgba")


def test_a_file_that_is_no_core_is_one_line(tmp_path, program, capsys):
    rom, pad, out = _files(tmp_path, program)
    fake = tmp_path / "fake_libretro.so"
    fake.write_bytes(b"not an ELF file")
    _refused(["capture", "record", "dm1", "--core", str(fake), "--content", str(rom),
              "--pad", str(pad), "--out", str(out)], out, capsys, "not a libretro core")


def test_without_the_binding_it_says_what_to_install(tmp_path, program, capsys, monkeypatch):
    need_core("gambatte")
    monkeypatch.setitem(__import__("sys").modules, "libretro", None)  # import fails
    rom, pad, out = _files(tmp_path, program)
    _refused(["capture", "record", "dm1", "--core", "gambatte", "--content", str(rom),
              "--pad", str(pad), "--out", str(out)], out, capsys,
             "libretro.py binding is not installed", "pip install")


def test_a_core_without_system_ram_is_refused(tmp_path, program, monkeypatch):
    need_core("gambatte")
    import libretro

    monkeypatch.setattr(libretro.Core, "get_memory", lambda self, kind: None)
    monkeypatch.setattr(libretro.Session, "memory_maps", property(lambda self: None))
    rom, pad, out = _files(tmp_path, program)
    with pytest.raises(cores.UsageError, match="does not expose the system RAM"):
        record.record(_test_map(program), "gambatte", rom, pad, out, show_progress=False)
    assert not out.exists()


def test_beetle_psx_loads_and_refuses_without_a_bios(tmp_path, capsys):
    """As far as the PlayStation path goes without a BIOS: the core loads (it is named in
    the message, found by its known name) and the run stops in one line asking for it."""
    need_core("beetle-psx")
    cue, pad, out = tmp_path / "fm.cue", tmp_path / "pad.log", tmp_path / "fm.cap"
    cue.write_text('FILE "fm.bin" BINARY\n  TRACK 01 MODE2/2352\n    INDEX 01 00:00:00\n')
    pad.write_text("0 -\n10 cross\n20 end\n")
    choice = cores.choose("beetle-psx", rammap.FM)
    assert cores.load_core(choice).emucore_label.startswith("Mednafen PSX")  # Debian 12's name
    _refused(["capture", "record", "fm", "--core", "beetle-psx", "--content", str(cue),
              "--pad", str(pad), "--out", str(out)], out, capsys,
             "the PlayStation needs its BIOS", "scph5501.bin")


def test_ctrl_c_keeps_a_partial_capture_verify_names(tmp_path, program, monkeypatch, capsys):
    """A real SIGINT during frame 121: that frame finishes, the 121 frames run are kept, the
    header says partial, the file reads and verifies, and verify says it is partial."""
    real_step = cores.PyBoyMachine.step
    calls = {"n": 0}

    def step(self, word):
        calls["n"] += 1
        if calls["n"] == 121:
            os.kill(os.getpid(), signal.SIGINT)
        real_step(self, word)

    monkeypatch.setattr(cores.PyBoyMachine, "step", step)
    rom, pad, out = _files(tmp_path, program)
    outcome = record.record(_test_map(program), "pyboy", rom, pad, out, show_progress=False)
    assert outcome.partial and outcome.frames == 121 and calls["n"] == 121
    capture = fileformat.read(out)
    assert capture.partial == "interrupted after frame 121 of 150"
    assert capture.records[-1].frame == 121
    _check_against_program(capture, program)
    code, text, _ = _cli(["capture", "verify", str(out)], capsys)
    assert code == 0
    assert "partial capture: interrupted after frame 121 of 150" in text
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handler restored


def test_an_existing_output_is_refused_before_any_work(tmp_path, program, capsys):
    rom, pad, out = _files(tmp_path, program)
    out.write_text("keep me")
    code, _, err = _cli(["capture", "record", "dm1", "--core", "/nonexistent.so", "--content",
                      str(rom), "--pad", str(pad), "--out", str(out)], capsys)
    assert code == 2 and "exists" in err and out.read_text() == "keep me"


def test_a_pad_log_of_another_system_is_refused(tmp_path, program):
    rom, pad, out = _files(tmp_path, program)
    pad.write_text("# emucore recording: system fm save none\n0 -\n10 end\n")
    with pytest.raises(fileformat.UserFileError, match="recorded for fm, not dm1"):
        record.record(_test_map(program), "pyboy", rom, pad, out, show_progress=False)


def _lua_table(path: Path) -> dict[str, int]:
    lua = lua54.LuaRuntime()
    table = lua.execute(path.read_text(encoding="utf-8"))
    return {r["name"]: int(r["offset"]) for r in table["ranges"].values()}


@pytest.mark.parametrize("ram", [rammap.DM1, rammap.FM], ids=["dm1", "fm"])
def test_lua_scripts_and_the_recorder_read_the_same_addresses(ram):
    """The scripts' generated table and the recorder's reads agree range by range: the Lua
    offset is in the script's memory domain, the recorder's in the core's system RAM; both
    name the map's CPU address."""
    lua = _lua_table(ROOT / "tools" / "capture" / f"{ram.system}_addresses.lua")
    assert list(lua) == [r.name for r in ram.ranges]
    for r in ram.ranges:
        assert ram.domain_base + lua[r.name] == r.address & (ram.domain_base | ram.domain_mask)
        assert ram.system_ram[0] + ram.ram_offset(r) == r.address


def test_power_on_zeros_are_not_card_one(program):
    """A capture recorded from power-on (PyBoy clears WRAM; its boot ROM runs ~65 frames
    before the cartridge) starts with zeroed blocks: they are no fusion #1 + #1 -> #1 and no
    card #1 with ATK 0, so verify checks only what the program wrote. Found by the PyBoy run
    above (before the fix: check 1 fusion.result, ours 0 vs captured 1)."""
    writer = fileformat.CaptureWriter(rammap.DM1)
    zeros = {r.name: bytes(r.length) for r in rammap.DM1.ranges}
    writer.add(1, 0, None, zeros)
    writer.add(2, 0, None, zeros | {"fusion": program.fusion, "card_info": program.card_a})
    verdict = dm1_check.verify(fileformat.parse(writer.text()))
    assert verdict.mismatch is None and len(verdict.checks) == 2


@pytest.mark.parametrize("cue_text, name, words", [
    ('FILE "fm.bin" BINARY\n  TRACK 01 MODE2/2352\n', "fm.cue",
     ["is not Yu-Gi-Oh! Forbidden Memories (USA)", rammap.FM.release.sha1]),
    ("FILE fm.bin BINARY\n", "fm.cue", ["is not Yu-Gi-Oh! Forbidden Memories (USA)"]),
    ('FILE "other.bin" BINARY\n', "fm.cue", ["other.bin: no such file"]),
    ("TRACK 01 MODE2/2352\n", "fm.cue", ["names no FILE ... BINARY track"]),
    ('FILE "fm.bin" BINARY\n', "fm.iso", ["give the disc's .cue sheet"]),
])
def test_a_disc_is_identified_by_its_track_before_anything_runs(tmp_path, capsys, cue_text,
                                                                name, words):
    """Past the BIOS check (a file named as Beetle PSX wants it), the disc: the .cue's first
    BINARY track is hashed against Redump's SLUS-01411 entry; one line for each problem."""
    need_core("beetle-psx")
    (tmp_path / "fm.bin").write_bytes(bytes(2352 * 20))
    cue, pad, out = tmp_path / name, tmp_path / "pad.log", tmp_path / "fm.cap"
    cue.write_text(cue_text)
    pad.write_text("0 -\n10 cross\n20 end\n")
    bios = tmp_path / "bios" / "scph5501.bin"
    bios.parent.mkdir()
    bios.write_bytes(bytes(512 << 10))
    _refused(["capture", "record", "fm", "--core", "beetle-psx", "--bios", str(bios),
              "--content", str(cue), "--pad", str(pad), "--out", str(out)], out, capsys,
             *words)


def test_a_bios_not_named_as_the_core_wants_is_refused(tmp_path, capsys):
    need_core("beetle-psx")
    cue, pad, out = tmp_path / "fm.cue", tmp_path / "pad.log", tmp_path / "fm.cap"
    cue.write_text('FILE "fm.bin" BINARY\n')
    pad.write_text("0 -\n20 end\n")
    bios = tmp_path / "my_bios.bin"
    bios.write_bytes(bytes(16))
    _refused(["capture", "record", "fm", "--core", "beetle-psx", "--bios", str(bios),
              "--content", str(cue), "--pad", str(pad), "--out", str(out)], out, capsys,
             "looks for the NTSC-U BIOS by the name scph5501.bin")


def test_pad_words_become_retropad_buttons():
    """Buttons by position: PSX bit 4 Up and bit 14 Cross (DuckStation's order, active low;
    emucore/frontend/pad.py) are the RetroPad's up and B (libretro's PlayStation layout: B
    Cross, A Circle, Y Square, X Triangle); the Game Boy's bit 0 A and bit 7 Down, active high,
    are a and down."""
    assert cores.retropad(rammap.FM, 0xFFFF & ~(1 << 4) & ~(1 << 14)) == {"up", "b"}
    assert cores.retropad(rammap.FM, 0xFFFF & ~(1 << 13) & ~(1 << 10)) == {"a", "l"}
    assert cores.retropad(rammap.FM, 0xFFFF) == set()
    assert cores.retropad(rammap.DM1, 0x81) == {"a", "down"}


@pytest.mark.parametrize("core", ["pyboy", "gambatte", "mgba"])
def test_a_machine_rewinds_to_a_state_it_saved(tmp_path, program, core):
    """What ``--from-replay`` lands a deal with: a saved state taken back restores the run,
    frame for frame. The program counts one a frame at the opponent byte (gb_test_rom.py),
    so after restoring at frame 200 (the program long started) the next frame shows frame
    201's count again."""
    if core != "pyboy":
        need_core(core)
    rom, _, _ = _files(tmp_path, program)
    ram = _test_map(program)
    counter = ram.by_name()["opponent"]
    machine, _ = record.open_machine(ram, core, rom, None)
    with machine as running:
        for _ in range(200):
            running.step(0)
        state = running.save()
        running.step(0)
        after = running.read(counter)
        for _ in range(30):
            running.step(0)
        assert running.read(counter) != after
        running.restore(state)
        running.step(0)
        assert running.read(counter) == after
