"""Builders that turn ``shared/reference`` facts into ``roms_tables`` (run by
``tools/build_tables.py``). Output is deterministic so a rebuild equals the committed tables."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

BUILDERS = ("fm", "dm1", "ocg1999", "tcglite")
SOURCES_DIR = Path(__file__).parent / "sources"  # the SOURCES.md text of each system


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows of a reference CSV as dicts (BOM and any line-ending style accepted)."""
    text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    return list(csv.DictReader(io.StringIO(text)))


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> int:
    """Write a table with ``\\n`` line endings; returns the row count."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    count = 0
    for row in rows:
        writer.writerow(row)
        count += 1
    path.write_text(buffer.getvalue(), encoding="utf-8", newline="")
    return count


def write_text(path: Path, text: str) -> None:
    """Write a text file (SOURCES.md) with ``\\n`` line endings."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
