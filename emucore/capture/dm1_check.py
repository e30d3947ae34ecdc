"""What a Duel Monsters (Game Boy) capture can verify today: emucore's tables against what the
cartridge computes and shows.

The public DM1 RAM map (reference/dm1/memory_map.csv) names no LP, hand, field, deck or RNG
address, so a duel cannot be replayed step by step yet. Two watched blocks do show results of
the cartridge's own tables, and each change of them is checked:

* the fusion block ``$CECB-$CED0`` (material A, material B, result; ROM indices = number - 1,
  0x016D empty): whenever it holds a result, emucore's fusion table must give the same card;
* the card-info block ``$CD0F-$CD17`` (card id twice, ATK and DEF as 16-bit BCD, type) filled by
  the terrain-aware stat loader (ROM 0x24312): the type must be emucore's and ATK/DEF must be
  emucore's stats of that card on one of the seven terrains (0 none, 1..6).

A block of zero bytes is RAM nothing has written yet (a capture recorded from power-on, as
``capture record`` does): it is not read as card #1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from emucore import tables as T
from emucore.capture.fileformat import Capture
from emucore.capture.fm_check import CaptureMismatch
from emucore.hw.gameboy import from_bcd

EMPTY = 0x016D
CARD_COUNT = 365
MAGIC_TYPE = 0x14  # type byte of magic cards (reference/dm1/README.md)
MAGIC_STAT = 0xFFFF  # ATK/DEF of a magic card in the ROM tables


@dataclass
class Check:
    """One verified event: what the cartridge showed and emucore agreed with."""

    number: int
    line: int
    frame: int
    what: str


@dataclass
class Dm1Verdict:
    system: str
    checks: list[Check] = field(default_factory=list)
    mismatch: CaptureMismatch | None = None

    def to_json(self) -> dict[str, Any]:
        return {"checks": [c.what for c in self.checks]}


def _u16(raw: bytes, at: int) -> int:
    return raw[at] | raw[at + 1] << 8


def _fusion(raw: bytes, tables: Any) -> tuple[str, list[tuple[str, int, int]]] | None:
    a, b, result = _u16(raw, 0), _u16(raw, 2), _u16(raw, 4)
    if EMPTY in (a, b, result) or max(a, b, result) >= CARD_COUNT:
        return None
    ours = tables.fusion_result(a + 1, b + 1) or 0
    what = f"fusion #{a + 1} + #{b + 1} -> #{result + 1} {tables.names[result + 1]}"
    return what, ([] if ours == result + 1 else [("fusion.result", ours, result + 1)])


def _card_info(raw: bytes, tables: Any) -> tuple[str, list[tuple[str, int, int]]] | None:
    card = _u16(raw, 0)
    if card >= CARD_COUNT or _u16(raw, 2) != card:
        return None
    number = card + 1
    atk, dfn, kind = _u16(raw, 4), _u16(raw, 6), raw[8]
    what = f"card #{number} {tables.names[number]}"
    if tables.is_monster(number):
        ours_type = int(tables.type_id[number])
        options = {(int(tables.stat[t, number, 0]), int(tables.stat[t, number, 1]))
                   for t in range(tables.stat.shape[0])}
        shown = (int(from_bcd(atk)), int(from_bcd(dfn)))
    else:
        ours_type, options, shown = MAGIC_TYPE, {(MAGIC_STAT, MAGIC_STAT)}, (atk, dfn)
    diffs = []
    if kind != ours_type:
        diffs.append(("card_info.type", ours_type, kind))
    if shown not in options:
        base = min(options)
        diffs += [("card_info.atk", base[0], shown[0]), ("card_info.def", base[1], shown[1])]
    return f"{what} ATK {shown[0]} DEF {shown[1]}", diffs


CHECKS = (("fusion", _fusion), ("card_info", _card_info))


def verify(capture: Capture) -> Dm1Verdict:
    """Check every change of the fusion and card-info blocks against emucore's tables."""
    tables = T.load("dm1")
    verdict = Dm1Verdict("dm1")
    previous: dict[str, bytes] = {}
    for record in capture.records:
        for name, check in CHECKS:
            raw = record.ranges[name]
            if previous.get(name) == raw:
                continue
            previous[name] = raw
            if not any(raw):
                continue  # power-on RAM: nothing has written the block yet
            outcome = check(raw, tables)
            if outcome is None:
                continue
            what, diffs = outcome
            number = len(verdict.checks) + 1
            if diffs:
                verdict.mismatch = CaptureMismatch(number, record.line, record.frame, -1,
                                            f"{what}: emucore's tables disagree", None, diffs)
                return verdict
            verdict.checks.append(Check(number, record.line, record.frame, what))
    return verdict
