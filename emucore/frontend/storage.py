"""Save files in the user data folder: JSON, written atomically (temp file, fsync, rename);
a corrupt save is moved aside (``save.json.corrupt-N``) with a clear message and never
overwritten; a save that cannot be read (permissions, I/O) is left where it is; a save that
cannot be written (read-only folder, full disk) is reported, and the game goes on."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from emucore.duel.files import UserFileError, parse_json, read_text, write_atomic
from emucore.frontend import paths

MAX_SAVE_BYTES = 4 << 20  # a save is a few KB


class SaveFile:
    """One JSON save of one system. ``validate`` raises ValueError for a bad payload."""

    def __init__(self, system: str, validate: Callable[[Any], None], name: str = "save.json",
                 folder: Path | None = None) -> None:
        self.path = (folder or paths.data_dir() / system) / name
        self.validate = validate
        self.error: str | None = None  # why the last save failed (None: it worked)

    def exists(self) -> bool:
        return self.path.exists()

    def load(self) -> tuple[Any | None, str | None]:
        """(data, None) for a good save; (None, None) when there is none; (None, message)
        when the save was corrupt and has been moved aside (the message names both files)
        or could not be read (then it stays where it is)."""
        if not self.path.exists():
            return None, None
        try:
            text = read_text(self.path, MAX_SAVE_BYTES)
        except UserFileError as exc:
            return None, f"cannot read the save ({exc}); it was left as it is"
        try:
            data = parse_json(text, self.path)
            self.validate(data)
        except (UserFileError, ValueError, TypeError, KeyError) as exc:
            reason = str(exc).removeprefix(f"{self.path}: ")
            try:
                aside = self._move_aside()
            except OSError as move:
                return None, f"{self.path}: corrupt save ({reason}); could not move it aside " \
                             f"({move.strerror})"
            return None, f"{self.path}: corrupt save ({reason}); kept as {aside.name}"
        return data, None

    def _move_aside(self) -> Path:
        n = 1
        while (aside := self.path.with_name(f"{self.path.name}.corrupt-{n}")).exists():
            n += 1
        self.path.rename(aside)
        return aside

    def save(self, data: Any) -> bool:
        """Write atomically (temp file, fsync, rename): a crash or a power cut leaves the
        previous save or this one. A failure is reported on stderr, kept in ``error`` and
        returned as False; the game goes on."""
        self.validate(data)
        try:
            write_atomic(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n")
        except UserFileError as exc:
            self.error = f"could not save: {exc}"
            print(f"emucore: {self.error}", file=sys.stderr)
            return False
        self.error = None
        return True
