"""Verify a capture file and describe the outcome (text and JSON), and import it as a replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from emucore.capture import approved as approved_list
from emucore.capture import dm1_check, fileformat, fm_check
from emucore.capture.dm1_check import Dm1Verdict
from emucore.capture.fm_check import CaptureMismatch, Verdict
from emucore.cliutil import UsageError
from emucore.duel.files import UserFileError
from emucore.duel.replay import Replay, record_actions
from emucore.fm.replay import ADAPTER as FM_ADAPTER

CALLS_SHOWN = 12


def verify_file(path: Path | str, approved: bool = True, ai: bool = False
                ) -> tuple[fileformat.Capture, Verdict | Dm1Verdict]:
    """Read and verify a capture; ``approved=False`` compares the approved fields too, ``ai``
    also checks the CPU's steps against emucore's computer opponent (fm). A dm1 capture is
    checked against emucore's tables only (:mod:`dm1_check`)."""
    capture = fileformat.read(path)
    if capture.system == "dm1":
        return capture, dm1_check.verify(capture)
    divergences = approved_list.load(capture.system) if approved else ()
    return capture, fm_check.verify(capture, divergences, str(path), ai)


def to_json(capture: fileformat.Capture, verdict: Verdict | Dm1Verdict) -> dict[str, Any]:
    out = {"game": capture.system, "region": capture.header["region"],
           "emulator": capture.header["emulator"], "script": capture.header["script"],
           "records": len(capture.records), "partial": capture.partial,
           "ok": verdict.mismatch is None,
           "mismatch": verdict.mismatch.to_json() if verdict.mismatch else None}
    if isinstance(verdict, Dm1Verdict):
        return out | verdict.to_json()
    return out | {"start_line": verdict.start_line, "deal": verdict.deal,
                  "steps": len(verdict.steps),
                  "actions": [s.action.to_json() for s in verdict.steps],
                  "known_divergences": verdict.known}


def describe(capture: fileformat.Capture, verdict: Verdict | Dm1Verdict) -> str:
    """Human-readable outcome: a summary line, then the first difference if any."""
    h = capture.header
    lines = [f"{capture.system} {h['region']} capture from {h['emulator']} ({h['script']}): "
             f"{len(capture.records)} records"]
    if capture.partial:
        lines.append(f"partial capture: {capture.partial} (the records it holds are checked)")
    if isinstance(verdict, Dm1Verdict):
        lines.append("dm1: tables only (fusion block, card-info block); the duel itself "
                     "needs DM1 RAM addresses that are not public")
        summary, label = f"OK: {len(verdict.checks)} table checks agree", "check"
    else:
        lines[0] += f", duel starts at line {verdict.start_line}"
        lines.append(verdict.deal)
        shown = {k: v for k, v in verdict.known.items() if v}
        if shown:
            lines.append("approved divergences seen: " + ", ".join(
                f"{k} ({v} records)" for k, v in shown.items()))
        summary, label = f"OK: {len(verdict.steps)} steps agree", "step"
    if verdict.mismatch is None:
        return "\n".join([*lines, summary])
    return "\n".join([*lines, *_mismatch_lines(verdict.mismatch, label)])


def _mismatch_lines(m: CaptureMismatch, label: str) -> list[str]:
    side = f", side {m.side}" if m.side >= 0 else ""
    lines = [f"{label} {m.step} (record line {m.line}, frame {m.frame}{side}): {m.reason}"]
    lines += [f"  {name}: ours {ours} vs captured {cap}" for name, ours, cap in m.fields]
    if m.rng:
        g = m.rng
        lines.append(f"  rand() calls in between from 0x{g.before:08X}: captured "
                     f"{g.captured_calls} (to 0x{g.captured:08X}), emucore {g.ours_calls} "
                     f"(to 0x{g.ours:08X})")
        calls = fm_check.calls_from(g.before, max(g.captured_calls, g.ours_calls), CALLS_SHOWN)
        lines += [f"    call {i}: state 0x{state:08X} rand() {value}"
                  for i, (state, value) in enumerate(calls, start=1)]
    return [*lines, f"FAIL at {label} {m.step}"]


def import_capture(path: Path | str, out: Path | str, force: bool = False) -> Replay:
    """Turn a verified capture into an emucore replay file (a regression test to keep); an
    existing ``out`` is replaced only with ``force``."""
    capture = fileformat.read(path)
    if capture.system != "fm":
        raise UsageError(f"{path}: {capture.system} captures cannot become replays: the duel "
                         f"state is not mapped (verify checks its tables only)")
    capture, verdict = verify_file(path)
    if verdict.mismatch is not None:
        raise UserFileError(path, f"the capture does not verify (first difference at step "
                                  f"{verdict.mismatch.step}); see 'emucore capture verify'")
    if verdict.setup is None:
        raise UserFileError(path, "the deal was not found, so the RNG state before it is "
                                  "missing: record from before the duel starts")
    replay = record_actions(FM_ADAPTER, verdict.setup, verdict.actions)
    replay.save(out, replace=force)
    return replay
