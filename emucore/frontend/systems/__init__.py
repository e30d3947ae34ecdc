"""The registry of playable systems: ``emucore/frontend/systems/<system>.py`` (or a package).

A system module defines:

* ``MACHINE``: the default machine profile name, ``"psx"`` or ``"gb"``;
* optionally ``MACHINES``: every machine it can be shown on (default ``(MACHINE,)``);
* ``title_screen(app) -> Screen``: the first screen, given the running
  :class:`emucore.frontend.app.App`.

Nothing else is required; the app calls ``title_screen`` once and then follows the screens.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from emucore import SYSTEMS
from emucore.cliutil import UsageError

# The machine each system is shown on when the module does not say (used for messages only).
DEFAULT_MACHINES = {"fm": "psx", "dm1": "gb", "ocg1999": "psx", "tcglite": "psx"}


def load(system: str) -> ModuleType:
    """The screens module of ``system``; UsageError if unknown or not written yet."""
    if system not in SYSTEMS:
        raise UsageError(f"unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    name = f"{__name__}.{system}"
    if importlib.util.find_spec(name) is None:
        raise UsageError(f"no screens for {system} yet (emucore/frontend/systems/{system}.py); "
                         f"playable now: {', '.join(available()) or 'none'}")
    module = importlib.import_module(name)
    for attr in ("MACHINE", "title_screen"):
        if not hasattr(module, attr):
            raise UsageError(f"{name} lacks {attr}; see docs/frontend.md")
    return module


def machines(module: ModuleType) -> tuple[str, ...]:
    """The machine profiles a system module supports, default first."""
    return tuple(getattr(module, "MACHINES", (module.MACHINE,)))


def available() -> list[str]:
    """Systems whose screens exist."""
    return [s for s in SYSTEMS if importlib.util.find_spec(f"{__name__}.{s}") is not None]
