"""The approved known divergences: each is a strict expected failure.

For every entry a capture is synthesised whose bytes differ from emucore's in a field of
that entry, the way the original stores it. Verified with the entry switched off, the capture
must fail on exactly that entry's fields (``KnownDivergence``; ``xfail(strict=True)``, so an
entry that stopped matching anything turns the run red). With the list on, it verifies clean
and the entry is reported as seen.
"""

from __future__ import annotations

import pytest
from capture_synth import synth_fm

from emucore.capture import approved, fileformat, fm_check

ENTRIES = approved.load("fm")


class KnownDivergence(Exception):
    """The capture failed on exactly the fields of the divergence under test."""


def _capture_showing(entry: approved.Divergence) -> str:
    spans = [(n, at, size) for n, at, size in fm_check.field_spans() if entry.matches(n)]
    # a field of a record in use by the duel: the last matching span of side 0 / record 0
    name, at, size = spans[0]

    def tamper(_n, _duel, image):
        image[at] = (image[at] + 0x5A) & 0xFF

    return synth_fm(steps=6, tamper=tamper).text


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
@pytest.mark.xfail(strict=True, raises=KnownDivergence)
def test_known_divergence_is_real(entry):
    capture = fileformat.parse(_capture_showing(entry))
    others = tuple(e for e in ENTRIES if e.id != entry.id)
    verdict = fm_check.verify(capture, others, "known.cap")
    if verdict.mismatch is not None:
        names = [f[0] for f in verdict.mismatch.fields]
        assert names and all(entry.matches(n) for n in names), names
        raise KnownDivergence(f"{entry.id}: {entry.reason}")


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_approved_divergence_verifies_and_is_reported(entry):
    capture = fileformat.parse(_capture_showing(entry))
    verdict = fm_check.verify(capture, ENTRIES, "known.cap")
    assert verdict.mismatch is None
    assert verdict.known[entry.id] > 0
    assert all(v == 0 for k, v in verdict.known.items() if k != entry.id)


def test_every_entry_has_a_reason_and_patterns_that_name_fields():
    names = [n for n, _, _ in fm_check.field_spans()]
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids))
    for entry in ENTRIES:
        assert len(entry.reason) > 20
        for pattern in entry.fields:
            assert any(approved.Divergence("x", "fm", (pattern,), "").matches(n)
                       for n in names), pattern
