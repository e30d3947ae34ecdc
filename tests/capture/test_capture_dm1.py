"""DM1 captures: the cartridge's fusion and card-info blocks checked against emucore's tables."""

from __future__ import annotations

import json

from emucore import cli
from emucore import tables as T
from emucore.capture import dm1_check, fileformat
from emucore.capture.fileformat import CaptureWriter
from emucore.capture.rammap import DM1
from emucore.hw.gameboy import to_bcd

EMPTY = dm1_check.EMPTY


def _u16(*values: int) -> bytes:
    return b"".join(v.to_bytes(2, "little") for v in values)


def _card_info(number: int, terrain: int = 0, atk_delta: int = 0) -> bytes:
    """The block as the stat loader fills it (a magic card: ATK/DEF 0xFFFF, type 0x14)."""
    t = T.load("dm1")
    if not t.is_monster(number):
        return _u16(number - 1, number - 1, 0xFFFF, 0xFFFF) + bytes([0x14])
    atk, dfn = (int(v) for v in t.stat[terrain, number])
    return _u16(number - 1, number - 1, int(to_bcd(atk + atk_delta)), int(to_bcd(dfn))) + \
        bytes([int(t.type_id[number])])


def _capture(blocks: list[dict[str, bytes]]) -> str:
    writer = CaptureWriter(DM1, emulator="mGBA", script="mgba_capture.lua 1")
    ranges = {r.name: bytes(r.length) for r in DM1.ranges}
    ranges["fusion"] = _u16(EMPTY, EMPTY, EMPTY)
    for frame, change in enumerate(blocks, start=10):
        ranges.update(change)
        writer.add(frame, 0x01, None, ranges)
    return writer.text()


def _fusion() -> tuple[int, int, int]:
    t = T.load("dm1")
    a, b = (int(x) for x in zip(*t.fusion.nonzero(), strict=True).__next__())
    return a, b, int(t.fusion[a, b])


def test_fusions_and_card_stats_the_cartridge_shows_agree():
    a, b, result = _fusion()
    text = _capture([{"card_info": _card_info(1)},
                     {"fusion": _u16(a - 1, EMPTY, EMPTY)},        # being chosen: skipped
                     {"fusion": _u16(a - 1, b - 1, result - 1)},
                     {"card_info": _card_info(2, terrain=3)},
                     {"card_info": _card_info(301)}])               # a magic card
    verdict = dm1_check.verify(fileformat.parse(text))
    assert verdict.mismatch is None
    assert [c.what.split()[0] for c in verdict.checks] == ["card", "fusion", "card", "card"]
    assert f"fusion #{a} + #{b} -> #{result}" in verdict.checks[1].what


def test_wrong_fusion_result_is_named(tmp_path, capsys):
    a, b, result = _fusion()
    other = 1 if result != 1 else 2
    text = _capture([{"card_info": _card_info(1)},
                     {"fusion": _u16(a - 1, b - 1, other - 1)}])
    path = tmp_path / "dm1.cap"
    path.write_text(text)
    assert cli.main(["capture", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"fusion.result: ours {result} vs captured {other}" in out
    assert "FAIL at check 2" in out


def test_wrong_stat_is_named_with_json_and_report(tmp_path, capsys):
    text = _capture([{"card_info": _card_info(1, atk_delta=10)}])
    path, page = tmp_path / "dm1.cap", tmp_path / "dm1.html"
    path.write_text(text)
    assert cli.main(["capture", "verify", str(path), "--json", "--report", str(page)]) == 1
    data = json.loads(capsys.readouterr().out)
    fields = {f["field"]: (f["ours"], f["captured"]) for f in data["mismatch"]["fields"]}
    atk = int(T.load("dm1").stat[0, 1, 0])
    assert fields["card_info.atk"] == (atk, atk + 10)
    assert "FAIL at check 1" in page.read_text()


def test_clean_dm1_capture_exit_0(tmp_path, capsys):
    path = tmp_path / "ok.cap"
    path.write_text(_capture([{"card_info": _card_info(5)}]))
    assert cli.main(["capture", "verify", str(path)]) == 0
    assert "OK: 1 table checks agree" in capsys.readouterr().out
