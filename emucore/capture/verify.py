"""Verify a capture file and describe the outcome (text and JSON), and import it as a replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from emucore.capture import approved as approved_list
from emucore.capture import fileformat, fm_check
from emucore.capture.fm_check import Verdict
from emucore.cliutil import UsageError
from emucore.duel.files import UserFileError
from emucore.duel.replay import Replay, record_actions
from emucore.fm.replay import ADAPTER as FM_ADAPTER

CALLS_SHOWN = 12


def verify_file(path: Path | str, approved: bool = True, ai: bool = False
                ) -> tuple[fileformat.Capture, Verdict]:
    """Read and verify a capture; ``approved=False`` compares the approved fields too, ``ai``
    also checks the CPU's steps against emucore's computer opponent."""
    capture = fileformat.read(path)
    if capture.system != "fm":
        raise UsageError(
            f"{path}: {capture.system} captures are read but cannot be verified yet: emucore's "
            f"dm1 record mirrors only the fusion block ($CECB) and opponent ($CEEF); LP, hands, "
            f"field, deck and RNG addresses of the cartridge are not mapped")
    divergences = approved_list.load(capture.system) if approved else ()
    return capture, fm_check.verify(capture, divergences, str(path), ai)


def to_json(capture: fileformat.Capture, verdict: Verdict) -> dict[str, Any]:
    return {
        "game": capture.system, "region": capture.header["region"],
        "emulator": capture.header["emulator"], "script": capture.header["script"],
        "records": len(capture.records), "start_line": verdict.start_line,
        "deal": verdict.deal, "steps": len(verdict.steps),
        "actions": [s.action.to_json() for s in verdict.steps],
        "known_divergences": verdict.known,
        "ok": verdict.mismatch is None,
        "mismatch": verdict.mismatch.to_json() if verdict.mismatch else None,
    }


def describe(capture: fileformat.Capture, verdict: Verdict) -> str:
    """Human-readable outcome: a summary line, then the first difference if any."""
    h = capture.header
    lines = [f"{capture.system} {h['region']} capture from {h['emulator']} ({h['script']}): "
             f"{len(capture.records)} records, duel starts at line {verdict.start_line}",
             verdict.deal]
    shown = {k: v for k, v in verdict.known.items() if v}
    if shown:
        lines.append("approved divergences seen: " + ", ".join(
            f"{k} ({v} records)" for k, v in shown.items()))
    m = verdict.mismatch
    if m is None:
        lines.append(f"OK: {len(verdict.steps)} steps agree")
        return "\n".join(lines)
    lines.append(f"step {m.step} (record line {m.line}, frame {m.frame}, side {m.side}): "
                 f"{m.reason}")
    lines += [f"  {name}: ours {ours} vs captured {cap}" for name, ours, cap in m.fields]
    if m.rng:
        g = m.rng
        lines.append(f"  rand() calls in between from 0x{g.before:08X}: captured "
                     f"{g.captured_calls} (to 0x{g.captured:08X}), emucore {g.ours_calls} "
                     f"(to 0x{g.ours:08X})")
        calls = fm_check.calls_from(g.before, max(g.captured_calls, g.ours_calls), CALLS_SHOWN)
        lines += [f"    call {i}: state 0x{state:08X} rand() {value}"
                  for i, (state, value) in enumerate(calls, start=1)]
    lines.append(f"FAIL at step {m.step}")
    return "\n".join(lines)


def import_capture(path: Path | str, out: Path | str) -> Replay:
    """Turn a verified capture into an emucore replay file (a regression test to keep)."""
    capture, verdict = verify_file(path)
    if verdict.mismatch is not None:
        raise UserFileError(path, f"the capture does not verify (first difference at step "
                                  f"{verdict.mismatch.step}); see 'emucore capture verify'")
    if verdict.setup is None:
        raise UserFileError(path, "the deal was not found, so the RNG state before it is "
                                  "missing: record from before the duel starts")
    replay = record_actions(FM_ADAPTER, verdict.setup, verdict.actions)
    replay.save(out)
    return replay
