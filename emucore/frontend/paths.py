"""Where the frontend keeps user files: the config folder (bindings) and the data folder
(saves, screenshots). ``EMUCORE_CONFIG_DIR`` / ``EMUCORE_DATA_DIR`` override both (tests use
them); otherwise the platform's usual places (XDG on Linux)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _base(env_name: str, xdg: str, xdg_default: str) -> Path:
    override = os.environ.get(env_name)
    if override:
        return Path(override)
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", home / "AppData" / "Roaming")) / "emucore"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "emucore"
    return Path(os.environ.get(xdg) or home / xdg_default) / "emucore"


def config_dir() -> Path:
    """The folder holding ``bindings.json``."""
    return _base("EMUCORE_CONFIG_DIR", "XDG_CONFIG_HOME", ".config")


def data_dir() -> Path:
    """The folder holding saves (one sub-folder per system)."""
    return _base("EMUCORE_DATA_DIR", "XDG_DATA_HOME", ".local/share")


def shown(path: Path) -> str:
    """A folder as a screen names it: under the home folder as ``~/...`` (shorter, and the
    same on every machine whose home it is under), else whole."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:
        return str(path)
