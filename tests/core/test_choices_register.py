"""Every choice emucore makes where its source is silent sits in one register per system
(docs/ARCHITECTURE.md, "One plan": fm/choices.py, dm1/choices.py, paper/choices.py,
frontend/choices.py), and every site that names an entry names one the register holds.

Source: the project's own rule (DESIGN.md: a choice is named in code and docs and easy to
change); the package's text is read, so a new inline ``Choice:`` or a reference to a missing
entry fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "emucore"
REGISTERS = {"fm.choices": "fm/choices.py", "dm1.choices": "dm1/choices.py",
             "paper.choices": "paper/choices.py", "frontend.choices": "frontend/choices.py"}
INLINE = re.compile(r"(?<![A-Za-z])Choice:")
REFERENCE = re.compile(r"\b(fm|dm1|paper|frontend)\.choices ([A-Z]\d+)\b|\bchoices ([A-Z]\d+)\b")


def _sources() -> dict[str, str]:
    return {p.relative_to(PACKAGE).as_posix(): p.read_text(encoding="utf-8")
            for p in PACKAGE.rglob("*.py")}


def _entries(register: str) -> set[str]:
    """The numbered entries a register lists (``G3  ...`` or ``# G3  ...`` at a line start)."""
    text = (PACKAGE / register).read_text(encoding="utf-8")
    return set(re.findall(r"^(?:# )?([A-Z]\d+) +\S", text, flags=re.MULTILINE))


def test_no_choice_is_marked_inline():
    inline = [(name, n + 1) for name, text in _sources().items()
              for n, line in enumerate(text.splitlines()) if INLINE.search(line)]
    assert inline == []


def test_every_named_entry_is_in_its_register():
    entries = {key: _entries(path) for key, path in REGISTERS.items()}
    assert all(entries.values())  # each register lists entries
    missing = []
    for name, text in _sources().items():
        own = next((k for k, p in REGISTERS.items() if name.startswith(p.split("/")[0] + "/")),
                   None)
        for m in REFERENCE.finditer(text):
            key = f"{m.group(1)}.choices" if m.group(1) else own
            entry = m.group(2) or m.group(3)
            if key is None or entry not in entries.get(key, set()):
                missing.append((name, m.group(0)))
    assert missing == []
