"""Bad captures: one clear line naming what is wrong or missing, exit code 2."""

from __future__ import annotations

import pytest
from capture_synth import ranges_of, synth_fm

from emucore import cli
from emucore.capture.fileformat import CaptureWriter, checksum
from emucore.capture.rammap import DM1, FM
from emucore.fm.setup import FmSetup, new_duel


@pytest.fixture(scope="module")
def good() -> str:
    return synth_fm(steps=3).text


def _error(tmp_path, capsys, text: str, command: str = "verify") -> str:
    path = tmp_path / "bad.cap"
    path.write_text(text)
    args = ["capture", command, str(path)] + (["--out", str(tmp_path / "r.json")]
                                              if command == "import" else [])
    assert cli.main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emucore: error: ")
    assert captured.out == ""
    return lines[0]


def _edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _resign(line: str) -> str:
    body = line.rpartition(" *")[0]
    return f"{body} *{checksum(body)}"


@pytest.mark.parametrize("command", ["verify", "import"])
def test_another_game(tmp_path, capsys, good, command):
    line = _error(tmp_path, capsys, _edit(good, "game fm", "game sotn"), command)
    assert "capture of game 'sotn': emucore verifies dm1, fm only" in line


def test_another_region(tmp_path, capsys, good):
    line = _error(tmp_path, capsys, _edit(good, "region NTSC-U", "region PAL"))
    assert "region 'PAL'" in line and "region NTSC-U only" in line


def test_another_disc(tmp_path, capsys, good):
    line = _error(tmp_path, capsys, _edit(good, "ident SLUS_014.11", "ident SLES_039.47"))
    assert "capture of 'SLES_039.47', not SLUS_014.11" in line


def test_not_a_capture(tmp_path, capsys):
    assert "not an emucore capture" in _error(tmp_path, capsys, "hello\n")


def test_newer_format(tmp_path, capsys, good):
    line = _error(tmp_path, capsys, _edit(good, "emucore-capture 1", "emucore-capture 9"))
    assert "capture format version 9 is not supported" in line


def test_missing_file(tmp_path, capsys):
    assert cli.main(["capture", "verify", str(tmp_path / "none.cap")]) == 2
    assert "none.cap: no such file" in capsys.readouterr().err


def test_truncated_without_end_line(tmp_path, capsys, good):
    text = good.rsplit("end ", 1)[0]
    assert "truncated capture: no 'end' line" in _error(tmp_path, capsys, text)


def test_truncated_inside_a_record(tmp_path, capsys, good):
    text = good[: good.rindex("\nend") - 30] + "\n"
    line = _error(tmp_path, capsys, text)
    assert "truncated capture: the last line" in line and "is cut off" in line


def test_corrupt_byte(tmp_path, capsys, good):
    lines = good.splitlines()
    k = next(i for i, t in enumerate(lines) if t.startswith("r ") and "side=" in t)
    at = lines[k].index("side=") + 9
    lines[k] = lines[k][:at] + ("0" if lines[k][at] != "0" else "1") + lines[k][at + 1:]
    line = _error(tmp_path, capsys, "\n".join(lines) + "\n")
    assert f"line {k + 1}: corrupt record (checksum mismatch)" in line


def test_bad_range_length_even_with_a_valid_checksum(tmp_path, capsys, good):
    lines = good.splitlines()
    k = next(i for i, t in enumerate(lines) if t.startswith("r ") and "terrain=" in t)
    lines[k] = _resign(lines[k].replace("terrain=", "terrain=00", 1))
    line = _error(tmp_path, capsys, "\n".join(lines) + "\n")
    assert f"line {k + 1}: range terrain: 2 bytes, the map says 1" in line


def test_end_count_differs(tmp_path, capsys, good):
    count = good.rsplit("end ", 1)[1].strip()
    line = _error(tmp_path, capsys, _edit(good, f"end {count}", f"end {int(count) + 1}"))
    assert "records, the file holds" in line


def test_stale_watch_list(tmp_path, capsys, good):
    line = _error(tmp_path, capsys, _edit(good, "terrain:8009B364:1", "terrain:8009B365:1"))
    assert "watch list differs from emucore's fm map at range 4" in line
    assert "regenerate the script tables" in line


def test_capture_starting_mid_duel(tmp_path, capsys):
    line = _error(tmp_path, capsys, synth_fm(steps=12, first_step=6).text)
    assert "the capture starts mid-duel" in line and "side0.turns" in line
    assert "the start of the duel is needed" in line


def test_capture_without_a_duel(tmp_path, capsys):
    duel = new_duel(FmSetup(deck=list(range(1, 41))))
    writer = CaptureWriter(FM)
    writer.add(1, 0xFFFF, 5, {n: b"\0" * len(v) for n, v in ranges_of(duel.snapshot(),
                                                                         duel).items()})
    line = _error(tmp_path, capsys, writer.text())
    assert "no record holds a dealt duel" in line and "start recording before" in line


def test_first_record_lacks_a_range(tmp_path, capsys, good):
    lines = good.splitlines()
    k = next(i for i, t in enumerate(lines) if t.startswith("r "))
    parts = lines[k].rpartition(" *")[0].split()
    lines[k] = _resign(" ".join(p for p in parts if not p.startswith("perm_cpu=")) + " *x")
    line = _error(tmp_path, capsys, "\n".join(lines) + "\n")
    assert "the first record lacks perm_cpu" in line


def test_dm1_capture_cannot_become_a_replay(tmp_path, capsys):
    writer = CaptureWriter(DM1)
    writer.add(1, 0, None, {r.name: bytes(r.length) for r in DM1.ranges})
    line = _error(tmp_path, capsys, writer.text(), "import")
    assert "dm1 captures cannot become replays" in line


def test_dm1_record_with_an_rng_field_is_fine_but_fm_needs_one(tmp_path, capsys, good):
    lines = good.splitlines()
    k = next(i for i, t in enumerate(lines) if t.startswith("r "))
    parts = lines[k].split()
    parts[3] = "-"
    lines[k] = _resign(" ".join(parts))
    line = _error(tmp_path, capsys, "\n".join(lines) + "\n")
    assert f"line {k + 1}: record has no RNG state (fm captures need one)" in line


def test_import_of_a_capture_that_does_not_verify(tmp_path, capsys):
    def tamper(n, _duel, image):
        if n == 2:
            image[1] ^= 1  # side0.turns

    line = _error(tmp_path, capsys, synth_fm(steps=3, tamper=tamper).text, "import")
    assert "does not verify (first difference at step 2)" in line
    assert not (tmp_path / "r.json").exists()
