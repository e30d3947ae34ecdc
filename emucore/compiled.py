"""Compiled copies of emucore's hot modules, used only while they match their source.

Two sets of modules can be compiled, to C extensions with Cython (``setup.py``), each from
its unchanged source, so there is no second implementation that could drift:

* :data:`KERNELS`, small loops over plain integers (their ``.pxd`` types them as C
  integers): many times faster compiled, so every install builds them;
* :data:`DUEL_MODULES`, the modules an AI-vs-AI duel spends its time in (docs/fm-ai.md,
  Speed): their time is interpreter work spread thin over the engine, the board export and
  the AI programs, and compiling them as they are gains about 1.6x, short of the 2x that
  would pay for a C build on every install, so they are built only when the install asks
  for it: ``EMUCORE_COMPILE=1 pip install -e .`` (:data:`COMPILE_ENV`).

A ``.pxd`` beside a module declares its slotted classes as extension types and its
functions as directly callable (``cpdef``), with the arguments untyped but for those
classes and for integers bounded and masked exactly as the Python does, so the compiled
code computes what the Python does. Each extension is named after the module and a hash of
what it was built from (``engine-<hash>.<platform suffix>`` beside ``engine.py``), and
:class:`Finder` loads it only while the ``.py`` and the ``.pxd`` files it is compiled with
(its own and those it cimports) still hash the same: an edited module runs as Python until
the next install rebuilds it, so a stale build is never used.

``EMUCORE_PURE=1`` in the environment (any value but empty or ``0``) runs every module as
Python (profiles, debugging, and the test that checks the compiled duel equals the pure
one). Without a C compiler the install skips the build and everything runs as Python, only
slower.
``emucore --version`` tells how many modules of each set run compiled.

This file is read by ``setup.py`` before the package exists, so it imports the standard
library only.
"""

from __future__ import annotations

import importlib
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from pathlib import Path

# Kernels: built by every install (a kernel is listed here, one line each).
KERNELS: tuple[str, ...] = (
    "emucore.fm.deal_kernel",  # the deal of every duel, plan and capture search
    "emucore.fm.drop_kernel",  # the drop roll over many states (plan drops, route search)
    "emucore.planning.starter_kernel",  # the starter-deck search over 2^27 indices
)

# The modules an AI-vs-AI duel spends its time in (py-spy of `tools/bench.py fm_ai`): built
# only with EMUCORE_COMPILE=1 at install.
DUEL_MODULES = (
    "emucore.fm.engine",
    "emucore.fm.board",
    "emucore.fm.battle",
    "emucore.fm.effect_calls",
    "emucore.fm.timeline",
    "emucore.fm.snapshot",
    "emucore.fm.export",
    "emucore.fm.ai.adapter",
    "emucore.fm.ai.embedded",
    "emucore.fm.ai.executors",
    "emucore.fm.ai.helpers",
    "emucore.fm.ai.vm",
    "emucore.fm.ai.sim",
    "emucore.fm.machine",
    "emucore.duel.records",   # the record mechanism fm.machine declares its state through
    "emucore.fm.state",
    "emucore.fm.setup",
    "emucore.fm.combine",
)

MODULES = KERNELS + DUEL_MODULES   # every module the finder loads from a matching build

# Cython compiles the source as Python 3 and ignores the type hints, so a compiled module
# keeps Python's semantics (ints never overflow, a hint never rejects a value).
DIRECTIVES = {"language_level": 3, "annotation_typing": False}

PURE_ENV = "EMUCORE_PURE"
COMPILE_ENV = "EMUCORE_COMPILE"


def _set(name: str) -> bool:
    """Whether environment variable ``name`` is set to anything but empty or ``0``."""
    return os.environ.get(name, "") not in ("", "0")


def pure() -> bool:
    """Whether ``EMUCORE_PURE`` asks for Python: set to anything but empty or ``0``."""
    return _set(PURE_ENV)


def to_build() -> tuple[str, ...]:
    """The modules an install compiles: the kernels, and the duel modules when
    ``EMUCORE_COMPILE`` is set (anything but empty or ``0``)."""
    return KERNELS + DUEL_MODULES if _set(COMPILE_ENV) else KERNELS


ROOT = Path(__file__).resolve().parent.parent   # the directory that holds the package


def source_of(name: str, root: Path = ROOT) -> Path:
    """The ``.py`` file of module ``name`` under ``root``."""
    return root.joinpath(*name.split(".")).with_suffix(".py")


def source_hash(source: Path) -> str:
    """The first 16 hex digits of the SHA-256 of a module's source bytes and of the
    declarations the compiler reads for it (:func:`declarations_of`). hashlib is imported
    here: a command that imports no listed module never pays for it."""
    import hashlib

    digest = hashlib.sha256(source.read_bytes())
    for declarations in declarations_of(source):
        digest.update(declarations.read_bytes())
    return digest.hexdigest()[:16]


def declarations_of(source: Path) -> list[Path]:
    """The ``.pxd`` beside ``source`` and every ``.pxd`` of the same tree it cimports
    (``cimport a.b`` or ``from a.b cimport ...``), and theirs, each once: a changed layout in
    a cimported declaration changes the build of every module that reads it."""
    found: list[Path] = []
    todo = [source.with_suffix(".pxd")]
    while todo:
        pxd = todo.pop(0)
        if pxd in found or not pxd.is_file():
            continue
        found.append(pxd)
        for line in pxd.read_text().splitlines():
            words = line.split()
            if len(words) > 1 and words[0] in ("cimport", "from") and "cimport" in words:
                todo.extend(_in_tree(words[1], source))
    return found


def _in_tree(name: str, source: Path) -> list[Path]:
    """The ``.pxd`` of cimported module ``name`` under an ancestor of ``source`` (none for
    Cython's own, as ``cython`` or ``libc.stdint``)."""
    for parent in source.parents:
        candidate = parent.joinpath(*name.split(".")).with_suffix(".pxd")
        if candidate.is_file():
            return [candidate]
    return []


def compiled_name(source: Path, suffix: str = EXTENSION_SUFFIXES[0]) -> Path:
    """Where the extension built from ``source`` as it is now lies (beside it). The name is
    not an importable module name, so Python's own finder never picks it up."""
    return source.with_name(f"{source.stem}-{source_hash(source)}{suffix}")


def compiled_path(name: str, root: Path = ROOT) -> Path | None:
    """The extension to load for module ``name``, or None (not built, or built from another
    version of the source)."""
    source = source_of(name, root)
    if not source.is_file():
        return None
    path = compiled_name(source)
    return path if path.is_file() else None


class Finder:
    """A meta-path finder for :data:`MODULES`: the matching extension if there is one, else
    nothing (Python's finder then loads the ``.py``)."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> ModuleSpec | None:
        if fullname not in MODULES or pure():
            return None
        compiled = compiled_path(fullname)
        if compiled is None:
            return None
        from importlib.util import spec_from_file_location

        return spec_from_file_location(fullname, compiled,
                                       loader=ExtensionFileLoader(fullname, str(compiled)))


def install() -> None:
    """Put :class:`Finder` first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, Finder())


def runs_compiled(name: str) -> bool:
    """Whether module ``name`` runs from an extension in this process (imports it)."""
    return not importlib.import_module(name).__file__.endswith(".py")


def loaded() -> list[str]:
    """The modules of :data:`MODULES` this process runs from an extension (imports each)."""
    return [name for name in MODULES if runs_compiled(name)]


def summary() -> str:
    """How many of each set run compiled in a new process, for ``emucore --version``."""
    if pure():
        return f"hot modules run as Python: {PURE_ENV} is set"

    def built(names: tuple[str, ...]) -> int:
        return sum(compiled_path(name) is not None for name in names)

    return (f"kernels compiled: {built(KERNELS)} of {len(KERNELS)}; FM duel modules "
            f"compiled: {built(DUEL_MODULES)} of {len(DUEL_MODULES)}"
            + ("" if built(DUEL_MODULES) else f" ({COMPILE_ENV}=1 at install builds them)"))
