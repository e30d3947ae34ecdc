"""Save files in the user data folder: JSON, written atomically (temp file, fsync, rename).

A save is never lost to a bad one or to a new one written over it:

* **Loading**: a corrupt save (not JSON, or not a save of this system) is moved aside
  (``save.json.corrupt-N``) with a clear message; a save that cannot be read (permissions,
  I/O, too large) is left where it is, since the problem may pass.
* **Saving**: a corrupt or unreadable save still in the way (a new game never loads it) is
  moved aside first, and ``notice`` tells the player where it went; a good one is replaced.
  A save that cannot be written (read-only folder, full disk) is reported, and the game goes
  on. A folder where the save should be is left alone (the write refuses it).

Moving aside is a rename to the first free ``.corrupt-N`` name that never replaces a file,
even one that appeared meanwhile: a hard link (which fails on a taken name) and then the old
name removed, or where the file system has no hard links an exclusive create of the new name
and a rename onto it.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from emucore.duel.files import (
    UserFileError,
    exists,
    is_regular_file,
    move_aside,
    os_problem,
    parse_json,
    read_text,
    write_atomic,
)
from emucore.frontend import paths

MAX_SAVE_BYTES = 4 << 20  # a save is a few KB
CORRUPT, UNREADABLE = "corrupt", "unreadable"  # what :meth:`SaveFile._examine` finds wrong


class SaveFile:
    """One JSON save of one system. ``validate`` raises ValueError for a bad payload."""

    def __init__(self, system: str, validate: Callable[[Any], None], name: str = "save.json",
                 folder: Path | None = None) -> None:
        self.path = (folder or paths.data_dir() / system) / name
        self.validate = validate
        self.error: str | None = None  # why the last save failed (None: it worked)
        self.notice: str | None = None  # where the last save moved a bad old save (or None)
        self._known: tuple[int, ...] | None = None  # the good save last loaded or written

    def exists(self) -> bool:
        return exists(self.path)

    def load(self) -> tuple[Any | None, str | None]:
        """(data, None) for a good save; (None, None) when there is none; (None, message)
        when the save was corrupt and has been moved aside (the message names both files)
        or could not be read (then it stays where it is)."""
        if not exists(self.path):
            return None, None
        data, problem, reason = self._examine()
        if problem == UNREADABLE:
            return None, f"cannot read the save ({self.path}: {reason}); it was left as it is"
        if problem == CORRUPT:
            try:
                aside = self._move_aside()
            except OSError as move:
                return None, f"{self.path}: corrupt save ({reason}); could not move it aside " \
                             f"({os_problem(move)})"
            return None, f"{self.path}: corrupt save ({reason}); kept as {aside.name}"
        self._known = self._identity()
        return data, None

    def _identity(self) -> tuple[int, ...] | None:
        """Which file is at the save's place now (device, inode, size, modification time),
        or None: the file a save wrote or a load found good needs no new look."""
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns

    def _examine(self) -> tuple[Any | None, str | None, str]:
        """(data, None, "") for a good save, else (None, CORRUPT or UNREADABLE, why)."""
        try:
            text = read_text(self.path, MAX_SAVE_BYTES)
        except UserFileError as exc:
            return None, UNREADABLE, str(exc).removeprefix(f"{self.path}: ")
        try:
            data = parse_json(text, self.path)
            self.validate(data)
        except (UserFileError, ValueError, TypeError, KeyError) as exc:
            return None, CORRUPT, str(exc).removeprefix(f"{self.path}: ")
        return data, None, ""

    def _move_aside(self) -> Path:
        """Rename the save to the first free ``NAME.corrupt-N``, never replacing a file."""
        return move_aside(self.path, "corrupt")

    def save(self, data: Any) -> bool:
        """Write atomically (temp file, fsync, rename): a crash or a power cut leaves the
        previous save or this one. A corrupt or unreadable save in the way is moved aside
        first (``notice`` says where; also on stderr). A failure is reported on stderr, kept
        in ``error`` and returned as False; the game goes on."""
        self.validate(data)
        self.notice = self.error = None
        if not self._clear_the_way():
            return False
        try:
            write_atomic(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n")
        except UserFileError as exc:
            return self._failed(str(exc))
        self._known = self._identity()
        return True

    def _clear_the_way(self) -> bool:
        """Move a corrupt or unreadable save at the save's place aside before a new one is
        written there (a good save is replaced, a folder left for the write to refuse; the
        file this object last wrote or loaded is not read again).
        False (and ``error``) when it could not be moved: then nothing is written."""
        if not is_regular_file(self.path) or self._identity() == self._known:
            return True
        _, problem, reason = self._examine()
        if problem is None:
            return True
        try:
            aside = self._move_aside()
        except OSError as exc:
            return self._failed(f"{self.path}: the {problem} save there ({reason}) could not "
                                f"be moved aside ({os_problem(exc)}); it was left as it is")
        self.notice = f"{self.path}: {problem} save ({reason}); kept as {aside.name}"
        print(f"emucore: {self.notice}", file=sys.stderr)
        return True

    def _failed(self, why: str) -> bool:
        self.error = f"could not save: {why}"
        print(f"emucore: {self.error}", file=sys.stderr)
        return False

    def report(self, done: str = "") -> str:
        """What to tell the player after :meth:`save`: where a bad old save went (if one
        was moved aside), then why the save failed or, when it worked, ``done``."""
        return " ".join(text for text in (self.notice, self.error or done) if text)
