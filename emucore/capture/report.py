"""The step-by-step HTML page of a verification: emucore's fields beside the captured ones."""

from __future__ import annotations

import html
from pathlib import Path

from emucore.capture.dm1_check import Dm1Verdict
from emucore.capture.fileformat import Capture
from emucore.capture.fm_check import Verdict
from emucore.capture.verify import describe
from emucore.duel.files import write_atomic
from emucore.fm.machine import fields_of

STYLE = """body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}
td,th{border:1px solid #999;padding:2px 6px;font-size:13px}.bad{background:#fbb}
.ok{background:#dfd}pre{background:#eee;padding:.5em}"""


def _cell(text: object, cls: str = "") -> str:
    return f"<td class='{cls}'>{html.escape(str(text))}</td>"


def render(capture: Capture, verdict: Verdict | Dm1Verdict) -> str:
    """The page: the outcome, then per step its action, rand() calls and changed fields."""
    out = [f"<!doctype html><meta charset='utf-8'><title>emucore capture report</title>"
           f"<style>{STYLE}</style><h1>Capture verification</h1>",
           f"<pre>{html.escape(describe(capture, verdict))}</pre>"]
    if isinstance(verdict, Dm1Verdict):
        out += ["<table><tr><th>check</th><th>line</th><th>frame</th><th>what</th></tr>"]
        out += ["<tr>" + "".join(_cell(v, "ok") for v in (c.number, c.line, c.frame, c.what))
                + "</tr>" for c in verdict.checks]
        return "\n".join([*out, "</table>"]) + "\n"
    out += ["<table><tr><th>step</th><th>line</th><th>frame</th><th>side</th><th>action</th>"
           "<th>rand() calls (rules + decision)</th><th>field</th><th>ours</th>"
           "<th>captured</th></tr>"]
    previous = fields_of(verdict.opening)
    for step in verdict.steps:
        ours, captured = fields_of(step.ours), fields_of(step.captured)
        changed = [n for n in ours if n in verdict.compared
                   and (previous[n] != ours[n] or ours[n] != captured[n])]
        head = [step.number, step.line, step.frame, step.side, step.action.to_json(),
                f"{step.rule_calls} + {step.action.rng_calls}"]
        rows = changed or ["(no compared field changed)"]
        for i, name in enumerate(rows):
            cells = "".join(_cell(v) for v in head) if i == 0 else _cell("", "") * 6
            if name in ours:
                cls = "ok" if ours[name] == captured[name] else "bad"
                cells += _cell(name) + _cell(ours[name], cls) + _cell(captured[name], cls)
            else:
                cells += _cell(name) + _cell("") + _cell("")
            out.append(f"<tr>{cells}</tr>")
        previous = ours
    m = verdict.mismatch
    if m is not None:
        out.append(f"<tr class='bad'><td>{m.step}</td><td>{m.line}</td><td>{m.frame}</td>"
                   f"<td>{m.side}</td><td colspan='5'>{html.escape(m.reason)}</td></tr>")
        for name, ours_v, cap_v in m.fields:
            out.append("<tr>" + _cell("") * 6 + _cell(name) + _cell(ours_v, "bad")
                       + _cell(cap_v, "bad") + "</tr>")
    out.append("</table>")
    return "\n".join(out) + "\n"


def write(path: Path | str, capture: Capture, verdict: Verdict | Dm1Verdict,
          force: bool = False) -> None:
    """The HTML report, written atomically (an existing file replaced only with ``force``)."""
    write_atomic(path, render(capture, verdict), replace=force)
