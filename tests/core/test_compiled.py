"""The compiled FM hot modules (emucore.compiled): loaded only while they match their source,
and a compiled duel equals the Python one.

These pin emucore's own contract: the reference is the Python source of the same modules
(run with EMUCORE_PURE=1 in a child process), which the rest of the suite checks against the
decompiled code.
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

import pytest
from pure_child import json_child

from emucore import compiled
from emucore.cli import main

# Duels played both ways: four duelists, three decks, consecutive RNG indices.
_PLAY = """
import json
from emucore import compiled, tables
from emucore.fm.ai.sim import play_range
from emucore.fm.setup import FmSetup
t = tables.load("fm")
monsters = [c for c in range(1, 722) if t.is_monster(c)]
decks = (monsters[:40], monsters[200:240], monsters[400:440])
out = {"compiled": compiled.loaded(), "duels": []}
for duelist in (1, 8, 30, 39):
    for deck in decks:
        for r in play_range(FmSetup(deck=deck, duelist=duelist), 100, 40):
            out["duels"].append([r.winner, r.reason, r.turns, r.steps, r.drop, r.rank,
                                 r.digest, r.rng_state])
print(json.dumps(out))
"""


def _play(pure: bool) -> dict:
    return json_child(_PLAY, pure)


def test_modules_load_compiled_exactly_when_built():
    """Each hot module runs from its extension when one built from its current source
    exists (and EMUCORE_PURE is not set), else from its .py."""
    pure = compiled.pure()
    assert compiled.loaded() == [name for name in compiled.MODULES
                                 if not pure and compiled.compiled_path(name) is not None]


def test_an_extension_of_another_source_is_ignored(tmp_path):
    """The extension's name carries its source's hash: after an edit of the .py (or with an
    extension built from another version) the module is not matched to it."""
    source = tmp_path / "pkg" / "mod.py"
    source.parent.mkdir()
    source.write_text("VALUE = 1\n")
    assert compiled.compiled_path("pkg.mod", tmp_path) is None
    built = compiled.compiled_name(source)
    assert built.name.startswith("mod-") and built.name.endswith(EXTENSION_SUFFIXES[0])
    built.write_bytes(b"")
    assert compiled.compiled_path("pkg.mod", tmp_path) == built
    source.write_text("VALUE = 2\n")
    assert compiled.compiled_path("pkg.mod", tmp_path) is None


def test_an_edit_of_a_cimported_declaration_changes_the_build(tmp_path):
    """A module is compiled with the .pxd files its own .pxd cimports (Cython reads them for
    the classes' layout), so a change there must make its old build stale too; Cython's own
    modules (``cimport cython``) are not files of the tree."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "base.pxd").write_text("cdef class Board:\n    cdef public int lp\n")
    (pkg / "mid.pxd").write_text("from pkg.base cimport Board\n")
    source = pkg / "mod.py"
    source.write_text("VALUE = 1\n")
    (pkg / "mod.pxd").write_text("cimport cython\ncimport pkg.mid as m\n")
    assert compiled.declarations_of(source) == [pkg / "mod.pxd", pkg / "mid.pxd",
                                                 pkg / "base.pxd"]
    built = compiled.compiled_name(source)
    built.write_bytes(b"")
    assert compiled.compiled_path("pkg.mod", tmp_path) == built
    (pkg / "base.pxd").write_text("cdef class Board:\n    cdef public int lp, turn\n")
    assert compiled.compiled_path("pkg.mod", tmp_path) is None


def test_the_ai_modules_are_built_with_the_helpers_declarations():
    """The AI modules' .pxd cimport the helpers' classes (emucore/fm/ai/*.pxd): those
    declarations are part of their build's hash."""
    source = compiled.source_of("emucore.fm.ai.embedded")
    names = {p.name for p in compiled.declarations_of(source)}
    assert {"embedded.pxd", "helpers.pxd", "vm.pxd"} <= names


def _declared_fields(pxd: str) -> dict[str, set[str]]:
    """Class name -> the fields a .pxd declares for it (``cdef public <type> a, b``)."""
    fields: dict[str, set[str]] = {}
    for line in pxd.splitlines():
        if line.startswith("cdef class "):
            current = fields.setdefault(line[len("cdef class "):].rstrip(":"), set())
        elif line.strip().startswith("cdef public "):
            names = line.strip()[len("cdef public "):].split(None, 1)[1]
            current.update(name.strip() for name in names.split(","))
    return fields


def test_declared_classes_have_the_python_slots():
    """Each extension type a .pxd declares has exactly the fields of the .py class's
    __slots__ (a slot missing from the declaration would be an AttributeError compiled)."""
    declared = 0
    for name in compiled.MODULES:
        pxd = compiled.source_of(name).with_suffix(".pxd")
        if not pxd.is_file():
            continue
        module = importlib.import_module(name)
        for cls, fields in _declared_fields(pxd.read_text()).items():
            assert fields == set(getattr(module, cls).__slots__), f"{pxd.name}: {cls}"
            declared += 1
    assert declared >= 4


def test_declarations_compile_with_their_modules(tmp_path, monkeypatch):
    """Cython translates every module that has a .pxd, so a declaration that no longer
    matches its .py (which would leave the module uncompiled) fails here."""
    from Cython.Build import cythonize
    from setuptools import Extension

    root = compiled.ROOT
    extensions = [Extension(name, [str(compiled.source_of(name).relative_to(root))])
                  for name in compiled.MODULES
                  if compiled.source_of(name).with_suffix(".pxd").is_file()]
    assert extensions
    monkeypatch.chdir(root)
    cythonize(extensions, compiler_directives=compiled.DIRECTIVES, build_dir=str(tmp_path),
              quiet=True, force=True)


def test_compiled_duels_equal_python_duels():
    """480 AI-vs-AI duels (four duelists, Duel Master K's copy of the deck among them, three
    decks, 40 indices each) give the same winner, reason, turns, steps, drop, rank, final
    state digest and RNG state with the compiled modules as with their Python source."""
    fast, pure = _play(pure=False), _play(pure=True)
    assert pure["compiled"] == []
    assert fast["compiled"] == [name for name in compiled.MODULES
                                if compiled.compiled_path(name) is not None]
    assert len(fast["duels"]) == 480
    assert fast["duels"] == pure["duels"]


def test_version_says_how_many_modules_run_compiled(monkeypatch, capsys):
    """``emucore --version`` names the count of each set, or that EMUCORE_PURE is set
    (``0`` and empty mean not set)."""
    kernels = sum(compiled.compiled_path(name) is not None for name in compiled.KERNELS)
    duel = sum(compiled.compiled_path(name) is not None for name in compiled.DUEL_MODULES)
    for value in (None, "", "0"):
        if value is None:
            monkeypatch.delenv(compiled.PURE_ENV, raising=False)
        else:
            monkeypatch.setenv(compiled.PURE_ENV, value)
        with pytest.raises(SystemExit):
            main(["--version"])
        out = capsys.readouterr().out
        assert f"kernels compiled: {kernels} of {len(compiled.KERNELS)}" in out
        assert f"FM duel modules compiled: {duel} of {len(compiled.DUEL_MODULES)}" in out
        assert ("EMUCORE_COMPILE=1 at install builds them" in out) == (duel == 0)
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert "run as Python: EMUCORE_PURE is set" in capsys.readouterr().out


def test_the_duel_modules_are_built_only_when_the_install_asks(monkeypatch):
    """An install compiles the kernels always and the FM duel modules only with
    EMUCORE_COMPILE set to something but empty or ``0`` (docs/fm-ai.md, Speed: compiled
    as they are they gain too little to need a C build on every install)."""
    for value in (None, "", "0"):
        if value is None:
            monkeypatch.delenv(compiled.COMPILE_ENV, raising=False)
        else:
            monkeypatch.setenv(compiled.COMPILE_ENV, value)
        assert compiled.to_build() == compiled.KERNELS
    monkeypatch.setenv(compiled.COMPILE_ENV, "1")
    assert compiled.to_build() == compiled.KERNELS + compiled.DUEL_MODULES
    assert set(compiled.MODULES) == set(compiled.to_build())
    assert not set(compiled.KERNELS) & set(compiled.DUEL_MODULES)
