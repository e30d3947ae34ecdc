"""The import graph of the rule systems: arrows point one way (docs/ARCHITECTURE.md).

The rule is the house's (DESIGN.md, Layout: ``planning/`` uses the systems, never the other
way; a rule module is typed against what it needs, not the engine that calls it). The graph
is read from the source text with :mod:`ast`: every ``import`` statement anywhere in a
module counts, those under ``if TYPE_CHECKING:`` and inside functions included, so a
circle cannot hide behind a lazy or a typing-only import. ``from package import name``
is an arrow to the submodule when ``name`` is one, else to the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("fm", "dm1", "paper", "ocg1999", "tcglite")


def _modules() -> dict[str, Path]:
    out = {}
    for path in (ROOT / "emucore").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The emucore modules that module ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            subs = {f"{base}.{alias.name}" for alias in node.names}
            out.update(subs & MODULES.keys() or {base})
    return {m for m in out if m in MODULES and m != name}


def _graph(prefixes: tuple[str, ...]) -> dict[str, set[str]]:
    names = [m for m in MODULES if m.split(".")[1:2] and m.split(".")[1] in prefixes]
    return {m: _imports(m, MODULES[m]) for m in names}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's walk)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v] & graph.keys():
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                group.append(w)
            if group:
                out.append(sorted([v, *group]))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_the_walk_sees_typing_only_and_lazy_imports(tmp_path):
    """The reader counts an import under TYPE_CHECKING and one inside a function."""
    path = tmp_path / "m.py"
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                    "    from emucore.fm.engine import FmDuel\n"
                    "def f():\n    from emucore.dm1 import duel\n")
    assert _imports("emucore.x", path) == {"emucore.fm.engine", "emucore.dm1.duel"}


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_system_imports_planning():
    """No arrow from a rule system to ``emucore.planning``."""
    back = [(m, t) for m, targets in _graph(SYSTEMS).items() for t in sorted(targets)
            if t == "emucore.planning" or t.startswith("emucore.planning.")]
    assert back == []


def test_no_import_circle_among_the_systems_modules():
    """No circle among the modules of fm, dm1, paper, ocg1999 and tcglite."""
    graph = _graph(SYSTEMS)
    assert len(graph) > 60   # the walk saw the packages
    assert _circles(graph) == []
