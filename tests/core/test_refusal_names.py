"""Refusal names: one spelling in every system (emucore.duel.protocol.IllegalAction).

The protocol promises ``rule`` as a short stable name for scripts and tests; the source of
the spelling is the protocol's own (``no-such-choice``, ``duel-over``: lower-case words
joined by hyphens). The names are read from the source text: every string literal passed
as the first argument of ``IllegalAction(...)`` or of a module's ``_refuse(...)``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "emucore"
SPELLING = re.compile(r"[a-z0-9]+(-[a-z0-9*]+)*")


def _names() -> dict[str, str]:
    out = {}
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and node.args:
                f = node.func
                called = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
                first = node.args[0]
                if called in ("IllegalAction", "_refuse") and isinstance(first, ast.Constant):
                    out[first.value] = f"{path.relative_to(ROOT.parent)}:{node.lineno}"
    return out


def test_every_refusal_name_is_spelled_one_way():
    names = _names()
    assert {"duel-over", "no-such-choice", "first-turn-attack", "direct-attack"} <= names.keys()
    assert {n: at for n, at in names.items() if not SPELLING.fullmatch(n)} == {}
