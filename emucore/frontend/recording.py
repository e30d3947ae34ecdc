"""Pad-log recordings that replay: a recording names the save its session started from.

``emucore play --record FILE`` writes the pad log with a first comment line naming the system
and the SHA-256 of the save the session started from (or ``none``) and keeps a copy of that
save beside it (``FILE.save.json``). ``emucore play|screenshot --script FILE`` of such a
recording runs with that save in a private data folder, and refuses to run without it or with
a different one, so a session that began with Continue replays frame for frame even after the
player's save has changed (and the replay never writes over the player's save). A pad log
without the header (written by hand) runs as before, against the player's data folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

from emucore.duel.files import UserFileError, is_regular_file, read_bytes, read_text, write_atomic
from emucore.frontend import paths

SAVE_NAME = "save.json"  # as emucore.frontend.storage.SaveFile names a system's save
SAVE_SUFFIX = ".save.json"
_HEADER = re.compile(r"# emucore recording: system (\w+) save ([0-9a-f]{64}|none)")


def current_save(system: str) -> bytes | None:
    """The bytes of ``system``'s save in the data folder now (None: there is none)."""
    path = paths.data_dir() / system / SAVE_NAME
    return read_bytes(path) if is_regular_file(path) else None


def digest(save: bytes | None) -> str:
    return "none" if save is None else hashlib.sha256(save).hexdigest()


def write(path: Path | str, system: str, pad_log: str, save: bytes | None,
          force: bool = False) -> None:
    """Write a recording (header + pad log) and, when there was a save, its copy (existing
    files replaced only with ``force``)."""
    if save is not None:
        write_atomic(f"{path}{SAVE_SUFFIX}", save, replace=force)
    write_atomic(path, f"# emucore recording: system {system} save {digest(save)}\n"
                 + pad_log, replace=force)


def companion(path: Path | str) -> Path:
    return Path(f"{path}{SAVE_SUFFIX}")


def named_save(path: Path | str, system: str) -> tuple[bool, bytes | None]:
    """(named, save): whether the pad log is a recording that names its starting save, and
    that save's bytes (None: it started without one). UserFileError when the named save is
    missing or differs, or the recording is of another system."""
    try:
        first = read_text(path).split("\n", 1)[0].strip()
    except UserFileError:
        return False, None  # the pad-log reader reports it, after the system is checked
    match = _HEADER.fullmatch(first)
    if not match:
        return False, None
    recorded_system, wanted = match.groups()
    if recorded_system != system:
        raise UserFileError(path, f"a recording of {recorded_system}, not {system} "
                                  f"(pass --system {recorded_system})")
    if wanted == "none":
        return True, None
    store = companion(path)
    try:
        save = read_bytes(store)
    except UserFileError as exc:
        raise UserFileError(path, f"the recording started from save {wanted[:12]}, kept in "
                                  f"{store.name}: {str(exc).removeprefix(f'{store}: ')}") \
            from None
    if digest(save) != wanted:
        raise UserFileError(path, f"{store.name} is not the save the recording started from "
                                  f"(sha256 {digest(save)[:12]}, recorded {wanted[:12]})")
    return True, save


@contextlib.contextmanager
def session_data(script: Path | str | None, system: str) -> Iterator[None]:
    """Run a session in a private data folder holding the save a recording names; other
    sessions use the player's data folder."""
    named, save = named_save(script, system) if script else (False, None)
    if not named:
        yield
        return
    old = os.environ.get("EMUCORE_DATA_DIR")
    with tempfile.TemporaryDirectory(prefix="emucore-replay-") as folder:
        if save is not None:
            write_atomic(Path(folder) / system / SAVE_NAME, save)
        os.environ["EMUCORE_DATA_DIR"] = folder
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("EMUCORE_DATA_DIR", None)
            else:
                os.environ["EMUCORE_DATA_DIR"] = old
