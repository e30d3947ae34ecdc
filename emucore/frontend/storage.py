"""Save files in the user data folder: JSON, written atomically; a corrupt save is moved
aside (``save.json.corrupt-N``) with a clear message and never overwritten."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from emucore.duel.files import UserFileError, read_json, write_atomic
from emucore.frontend import paths


class SaveFile:
    """One JSON save of one system. ``validate`` raises ValueError for a bad payload."""

    def __init__(self, system: str, validate: Callable[[Any], None], name: str = "save.json",
                 folder: Path | None = None) -> None:
        self.path = (folder or paths.data_dir() / system) / name
        self.validate = validate

    def exists(self) -> bool:
        return self.path.exists()

    def load(self) -> tuple[Any | None, str | None]:
        """(data, None) for a good save; (None, None) when there is none; (None, message)
        when the save was corrupt and has been moved aside (the message names both files)."""
        if not self.path.exists():
            return None, None
        try:
            data = read_json(self.path)
            self.validate(data)
        except (UserFileError, ValueError) as exc:
            reason = str(exc).removeprefix(f"{self.path}: ")
            aside = self._move_aside()
            return None, f"{self.path}: corrupt save ({reason}); kept as {aside.name}"
        return data, None

    def _move_aside(self) -> Path:
        n = 1
        while (aside := self.path.with_name(f"{self.path.name}.corrupt-{n}")).exists():
            n += 1
        self.path.rename(aside)
        return aside

    def save(self, data: Any) -> None:
        """Write atomically (temp file + rename): a crash leaves the previous save."""
        self.validate(data)
        write_atomic(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n")
