"""Load and validate ``roms_tables/<system>/`` into numpy arrays, once per process.

A look-up that answers from a few files reads them without numpy (:func:`lookup` for
``card`` and ``fusion``, :func:`emucore.tables.fm_lookup.drop_pool` for ``fm drop``);
importing this package imports no numpy.

Each system has two modules here: ``emucore.tables.<system>_lookup`` declares its schemas and
constants and what a one-card look-up reads, without numpy; ``emucore.tables.<system>``
turns the checked tables into the arrays its engine uses. The root folder is ``roms_tables`` beside
the package, or the folder named by the ``EMUCORE_TABLES`` environment variable.
"""

from __future__ import annotations

import functools
import importlib
import os
from pathlib import Path

from emucore import SYSTEMS
from emucore.tables.csvfile import TableError

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from typing import Any

    from emucore.tables.catalogue import CardLookup

__all__ = ["TableError", "check_all", "folder", "load", "lookup", "tables_root"]


# resolved once: ``load`` runs for every duel set up, and resolving walks the file system
_PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "roms_tables"


def tables_root() -> Path:
    """The folder holding one sub-folder of tables per system."""
    env = os.environ.get("EMUCORE_TABLES")
    if env:
        return Path(env)
    return _PACKAGE_ROOT


def _checked(system: str) -> str:
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    return system


def _module(system: str) -> Any:
    return importlib.import_module(f"emucore.tables.{_checked(system)}")


def folder(system: str, root: Path | str | None = None) -> Path:
    """The folder of ``system``'s tables: under ``root``, else the ``EMUCORE_TABLES``
    folder, else ``roms_tables`` beside the package."""
    if root is None:
        root = os.environ.get("EMUCORE_TABLES") or None
    return (Path(root) if root is not None else _PACKAGE_ROOT) / system


@functools.cache
def _load_cached(system: str, root: str | None) -> Any:
    return _module(system).load(folder(system, root))


def load(system: str, root: Path | str | None = None) -> Any:
    """The checked tables of ``system`` (cached per process and root folder; a repeated call
    is one dictionary look-up: duels call it as they are set up)."""
    if root is None:
        root = os.environ.get("EMUCORE_TABLES") or None
    return _load_cached(system, None if root is None else str(root))


@functools.cache
def _lookup_cached(system: str, root: str | None) -> CardLookup:
    module = importlib.import_module(f"emucore.tables.{_checked(system)}_lookup")
    return module.lookup(folder(system, root))


def lookup(system: str, root: Path | str | None = None) -> CardLookup:
    """``system``'s cards as ``card`` and ``fusion`` read them: its card file (and fusion
    file), without numpy (:class:`emucore.tables.catalogue.CardLookup`; cached like
    :func:`load`)."""
    if root is None:
        root = os.environ.get("EMUCORE_TABLES") or None
    return _lookup_cached(system, None if root is None else str(root))


def check_all(root: Path | str | None = None) -> dict[str, dict[str, int]]:
    """Load every system's tables uncached; return row counts per table. Raises TableError."""
    base = Path(root) if root is not None else tables_root()
    return {s: _module(s).load(base / s).counts() for s in SYSTEMS}
