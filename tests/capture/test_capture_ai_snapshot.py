"""The CPU's snapshot array gDuel_aActiveCards (0x801AB000) in FM captures: compared like
every mirrored range, its contents at the duel's start taken from the start record."""

from __future__ import annotations

from capture_synth import synth_fm

from emucore.capture import approved, fileformat, fm_check
from emucore.fm import machine as M

SLOT_0 = M.OFFSET["ai_snapshot_cpu"]                      # never written by the exporter
SLOT_1_ATK = M.field_offset("ai_snapshot_cpu", "attack", 1)


def _verify(tamper) -> fm_check.Verdict:
    capture = fileformat.parse(synth_fm(steps=12, cpu_ai=True, tamper=tamper).text)
    return fm_check.verify(capture, approved.load("fm"), "ai.cap", ai=True)


def test_leftovers_of_an_earlier_duel_at_the_start_are_the_verifiers_input():
    def leftovers(_n, _duel, image):
        image[SLOT_0:SLOT_0 + 4] = b"\x2a\x00\xd0\x07"      # card 42, ATK 2000 from before

    verdict = _verify(leftovers)
    assert verdict.mismatch is None and len(verdict.steps) == 12


def test_a_differing_exported_byte_is_caught_and_named():
    def stale_atk(n, duel, image):
        if n >= 3:
            image[SLOT_1_ATK] ^= 0x01

    verdict = _verify(stale_atk)
    assert verdict.mismatch is not None
    assert [f[0] for f in verdict.mismatch.fields] == ["ai_snapshot_cpu[1].attack"]
