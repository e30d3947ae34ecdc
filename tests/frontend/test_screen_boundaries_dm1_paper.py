"""The DM1 and paper screens stay on their side of the protocol.

Source: issue 25 "Must hold" ("No screen module imports an engine's state module or reads an
attribute outside the public protocol and the view (a test checks the imports and attribute
names)") and DESIGN.md rule 4 (a duel is driven only through the protocol). The screen
modules' syntax trees are walked: no import of a system's state module, and every attribute
read on a duel (a name or attribute called ``duel``) is one the protocol's :class:`Duel`
declares; the board itself comes from the engines' views (``emucore.dm1.view``,
``emucore.paper.view``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from emucore.duel.protocol import Duel

SCREENS = Path(__file__).resolve().parents[2] / "emucore" / "frontend" / "systems"
MODULES = ("dm1.py", "dm1_duel.py", "dm1_board.py", "dm1_text.py", "paper_board.py",
           "paper_faces.py", "ocg1999.py", "tcglite.py")
STATE_MODULE = re.compile(r"^emucore\.(dm1|paper|fm|ocg1999|tcglite)\.(state|machine)$")
PROTOCOL = frozenset(name for name in dir(Duel) if not name.startswith("_"))


def imports(tree: ast.AST) -> list[str]:
    """Every module the tree imports (``from a.b import c`` counts ``a.b`` and ``a.b.c``)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
            out += [f"{node.module}.{alias.name}" for alias in node.names]
    return out


def _is_duel(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "duel") or (
        isinstance(node, ast.Attribute) and node.attr == "duel")


def duel_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, attribute) of every attribute read on a duel that the protocol lacks."""
    return sorted((node.lineno, node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and _is_duel(node.value)
            and node.attr not in PROTOCOL)


def _tree(name: str) -> ast.AST:
    return ast.parse((SCREENS / name).read_text(), name)


@pytest.mark.parametrize("name", MODULES)
def test_a_screen_imports_no_engine_state_module(name):
    assert [m for m in imports(_tree(name)) if STATE_MODULE.match(m)] == []


@pytest.mark.parametrize("name", MODULES)
def test_a_screen_reads_only_the_protocol_on_a_duel(name):
    assert duel_reads(_tree(name)) == []


def test_the_walk_finds_what_it_forbids():
    """The checks catch the reads the screens used to make (``duel.v.phase``, ``duel.state``,
    ``self.duel.catalogue``) and a state import, and pass the protocol."""
    tree = ast.parse("from emucore.dm1.state import ZONES\nimport emucore.paper.state\n"
                     "a = duel.v.phase[0]\nb = self.duel.state.sides\nc = self.duel.catalogue\n"
                     "d = duel.legal_actions()\ne = self.duel.options(())\nf = duel.over\n")
    assert [m for m in imports(tree) if STATE_MODULE.match(m)] == [
        "emucore.dm1.state", "emucore.paper.state"]
    assert duel_reads(tree) == [(3, "v"), (4, "state"), (5, "catalogue")]
