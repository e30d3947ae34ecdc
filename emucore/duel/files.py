"""Reading and writing the files users hand us: atomic writes, one-line errors."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


class UserFileError(ValueError):
    """A file a user handed us is wrong. ``str()`` is one line naming the file and the problem."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = str(path)


def write_atomic(path: Path | str, data: bytes | str) -> None:
    """Write via a temporary file in the same folder and rename, so a crash leaves the old file."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_text(path: Path | str) -> str:
    """A user's text file (a leading BOM dropped); :class:`UserFileError` if unreadable."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserFileError(path, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserFileError(path, f"cannot read ({exc.__class__.__name__})") from None


def read_json(path: Path | str) -> Any:
    """Parse a JSON file, raising :class:`UserFileError` for a missing or malformed one."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserFileError(path, f"not valid JSON (line {exc.lineno}: {exc.msg})") from None


def read_lines(path: Path | str) -> list[tuple[int, str]]:
    """Non-empty lines with ``#`` comments removed, as (line number, text)."""
    text = read_text(path)
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((number, line))
    return out
