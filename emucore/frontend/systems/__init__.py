"""The registry of playable systems: ``emucore/frontend/systems/<system>.py`` (or a package).

A system module defines:

* ``MACHINE``: the default machine profile name, ``"psx"`` or ``"gb"``;
* optionally ``MACHINES``: every machine it can be shown on (default ``(MACHINE,)``);
* ``title_screen(app, **options) -> Screen``: the first screen, given the running
  :class:`emucore.frontend.app.App` and what the command line gives the system (fm:
  ``terrains``, the campaign terrains of ``emucore play --disc``).

Nothing else is required; the app calls ``title_screen`` once and then follows the screens.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from emucore import SYSTEMS
from emucore.cliutil import UsageError


def load(system: str) -> ModuleType:
    """The screens module of ``system``; UsageError if unknown (every system has one)."""
    if system not in SYSTEMS:
        raise UsageError(f"unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    name = f"{__name__}.{system}"
    module = importlib.import_module(name)
    for attr in ("MACHINE", "title_screen"):
        if not hasattr(module, attr):
            raise UsageError(f"{name} lacks {attr}; see docs/frontend.md")
    return module


def machines(module: ModuleType) -> tuple[str, ...]:
    """The machine profiles a system module supports, default first."""
    return tuple(getattr(module, "MACHINES", (module.MACHINE,)))

