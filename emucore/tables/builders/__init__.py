"""Builders that turn ``shared/reference`` facts into ``roms_tables`` (run by
``tools/build_tables.py``). Output is deterministic so a rebuild equals the committed tables."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from emucore import SYSTEMS
from emucore.duel.files import write_atomic

BUILDERS = SYSTEMS   # one builder module per system (emucore.SYSTEMS, the one list)
SOURCES_DIR = Path(__file__).parent / "sources"  # the SOURCES.md text of each system


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows of a reference CSV as dicts (BOM and any line-ending style accepted)."""
    text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    return list(csv.DictReader(io.StringIO(text)))


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> int:
    """Write a table with ``\\n`` line endings; returns the row count."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    count = 0
    for row in rows:
        writer.writerow(row)
        count += 1
    write_atomic(path, buffer.getvalue())
    return count


def write_text(path: Path, text: str) -> None:
    """Write a text file (SOURCES.md) with ``\\n`` line endings."""
    write_atomic(path, text)
