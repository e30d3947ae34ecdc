"""The capture file format: writer and reader agree; deltas resolve; strict validation."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from emucore.capture import fileformat
from emucore.capture.fileformat import CaptureWriter, checksum
from emucore.capture.rammap import DM1, FM, ram_map
from emucore.duel.files import UserFileError


def test_round_trip_with_deltas():
    gen = np.random.default_rng(5)
    writer = CaptureWriter(DM1, emulator="mGBA", script="mgba_capture.lua 1")
    states = []
    ranges = {r.name: bytes(r.length) for r in DM1.ranges}
    for frame in range(40):
        name = DM1.ranges[int(gen.integers(len(DM1.ranges)))].name
        data = bytearray(ranges[name])
        data[int(gen.integers(len(data)))] = int(gen.integers(256))
        ranges = {**ranges, name: bytes(data)}
        if writer.add(frame, int(gen.integers(256)), None, ranges):
            states.append((frame, dict(ranges)))
    capture = fileformat.parse(writer.text())
    assert capture.system == "dm1" and capture.header["emulator"] == "mGBA"
    assert [(r.frame, r.ranges) for r in capture.records] == states
    # only the first record carries every range
    assert set(capture.records[0].changed) == {r.name for r in DM1.ranges}
    assert all(len(r.changed) <= 1 for r in capture.records[1:])


def test_nothing_changed_writes_nothing():
    writer = CaptureWriter(DM1)
    ranges = {r.name: bytes(r.length) for r in DM1.ranges}
    assert writer.add(1, 0, None, ranges)
    assert not writer.add(2, 0, None, ranges)
    assert writer.add(3, 0, None, ranges, force=True)
    assert writer.text().endswith("end 2\n")


def test_checksum_is_zlib_adler32():
    text = "r 12 FFFF 55555555 terrain=03"
    assert checksum(text) == f"{zlib.adler32(text.encode()):08x}"


def test_maps_are_named_and_unknown_system_is_a_clear_error():
    assert ram_map("fm") is FM and ram_map("dm1") is DM1
    with pytest.raises(KeyError, match="no capture map for system 'gba'"):
        ram_map("gba")


def _one_record() -> list[str]:
    writer = CaptureWriter(DM1)
    writer.add(5, 0, None, {r.name: bytes(r.length) for r in DM1.ranges})
    return writer.text().splitlines()


@pytest.mark.parametrize("edit, message", [
    (lambda ls: ls[:1] + ["colour blue"] + ls[1:], "line 2: unknown header key 'colour'"),
    (lambda ls: [x for x in ls if not x.startswith("emulator")], "header lacks emulator"),
    (lambda ls: ls[:-1] + [_resign("r 4 00 - fusion=000000000000"), "end 2"],
     "frame 4 goes back (previous 5)"),
    (lambda ls: ls[:-1] + [_resign("r 6 00 - nosuch=00"), "end 2"],
     "unknown watched range 'nosuch'"),
    (lambda ls: ls[:-1] + [_resign("r 6 00 - opponent=0G"), "end 2"],
     "range opponent: malformed hex"),
    (lambda ls: ls[:-1] + [_resign("r x 00 -"), "end 2"], "frame, pad or RNG is not a number"),
    (lambda ls: ls + ["r 9 00 -"], "text after the end line"),
    (lambda ls: ls[:-1], "truncated capture: no 'end' line"),
    (lambda ls: ls[:8] + ["end 0"], "capture holds no records"),
])
def test_validation(edit, message):
    with pytest.raises(UserFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        fileformat.parse("\n".join(edit(_one_record())) + "\n", "x.cap")


def _resign(body: str) -> str:
    return f"{body} *{checksum(body)}"


def test_non_ascii_file(tmp_path):
    path = tmp_path / "bin.cap"
    path.write_bytes(b"emucore-capture 1\n\xff\xfe")
    with pytest.raises(UserFileError, match="non-ASCII byte at offset 18"):
        fileformat.read(path)
