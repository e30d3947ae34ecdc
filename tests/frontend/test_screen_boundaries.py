"""Screens choose from what the engine offers and draw from its public view (the one plan of
docs/ARCHITECTURE.md; DESIGN.md, rule 4): a screen module imports no engine state or rule-internal
module and reads no attribute of a duel outside the protocol.

Source: the protocol's own surface, the public names of :class:`emucore.duel.protocol.Duel`,
read from the class (not listed here), plus each system's few prompt or set-up names. The
screens are read as source (their AST), so an import or a ``duel.<name>`` /
``self.duel.<name>`` read anywhere in them counts, run or not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from emucore.duel.protocol import Duel

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS_DIR = "emucore/frontend/systems"
FM_SCREENS = f"{SYSTEMS_DIR}/fm"

# Each system's screen modules that must keep to the protocol and the view; another
# system's screens join by adding an entry (its modules and its own allowed names).
SCREENS: dict[str, tuple[str, ...]] = {
    "fm": tuple(sorted(p.relative_to(ROOT).as_posix()
                       for p in (ROOT / FM_SCREENS).glob("*.py"))),  # every FM screen module
    "dm1": tuple(f"{SYSTEMS_DIR}/{name}.py" for name in (
        "dm1", "dm1_duel", "dm1_board", "dm1_text")),
    "paper": tuple(f"{SYSTEMS_DIR}/{name}.py" for name in (
        "paper_board", "paper_faces", "ocg1999", "tcglite")),
}

# The engine modules that hold a system's state or its rules' internals (DM1's and the
# paper engine's boards reach the screens through emucore.dm1.view / emucore.paper.view).
ENGINE_INTERNALS: dict[str, tuple[str, ...]] = {
    "fm": tuple(f"emucore.fm.{name}" for name in (
        "machine", "state", "board", "legal", "snapshot", "export", "combine", "effects",
        "effect_calls")),
    "dm1": ("emucore.dm1.state",),
    "paper": ("emucore.paper.state",),
}

PROTOCOL = frozenset(name for name in dir(Duel) if not name.startswith("_"))
# Beyond the protocol: FM's play preview (emucore.fm.prompts) and the duel's set-up facts a
# screen is built with (which sides the computer plays, the opening draw's events).
SYSTEM_NAMES: dict[str, frozenset[str]] = {
    "fm": frozenset({"preview", "computer_sides", "opening_events"}),
    "dm1": frozenset(),
    "paper": frozenset(),
}


def _tree(path: str) -> ast.Module:
    return ast.parse((ROOT / path).read_text(), filename=path)


def _imports(tree: ast.Module) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out |= {f"{node.module}.{alias.name}" for alias in node.names}
    return out


def _duel_reads(tree: ast.Module) -> set[str]:
    """The attribute names read off ``duel`` or ``self.duel``."""
    out = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id == "duel" or \
                isinstance(owner, ast.Attribute) and owner.attr == "duel":
            out.add(node.attr)
    return out


CASES = [(system, path) for system, paths in SCREENS.items() for path in paths]


@pytest.mark.parametrize(("system", "path"), CASES, ids=[p for _, p in CASES])
def test_a_screen_imports_no_engine_internals(system: str, path: str) -> None:
    banned = {m for m in _imports(_tree(path))
              if any(m == b or m.startswith(f"{b}.") for b in ENGINE_INTERNALS[system])}
    assert banned == set(), f"{path} imports {sorted(banned)}"


@pytest.mark.parametrize(("system", "path"), CASES, ids=[p for _, p in CASES])
def test_a_screen_reads_only_the_protocol_of_a_duel(system: str, path: str) -> None:
    outside = _duel_reads(_tree(path)) - PROTOCOL - SYSTEM_NAMES[system]
    assert outside == set(), f"{path} reads duel.{sorted(outside)}"


def test_the_checks_see_what_they_forbid() -> None:
    """The walkers find an internal import and an internal read (so a pass means something)."""
    tree = ast.parse("from emucore.fm import state as S\nimport emucore.fm.board\n"
                     "from emucore.dm1.state import ZONES\n"
                     "x = self.duel.st.sides\ny = duel.phase\nz = duel.v.phase[0]\n"
                     "w = self.duel.options(())\n")
    assert {"emucore.fm.state", "emucore.fm.board", "emucore.dm1.state"} <= _imports(tree)
    assert _duel_reads(tree) - PROTOCOL == {"st", "phase", "v"}
