"""A table file's rows and cells, read and checked without numpy.

:mod:`emucore.tables.schema` reads whole tables into numpy arrays for the engines; a look-up
(``emucore fm drop``) reads the few columns it answers from with :func:`read_columns` here,
as lists of ints and strings. Both read a file's rows with :func:`read_rows` (its header and
field counts) and word every problem alike: :class:`TableError` names the file, the line and
the column of the first bad value.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections import namedtuple
from collections.abc import Sequence
from pathlib import Path

from emucore.duel.files import UserFileError, read_text


class TableError(ValueError):
    """A table on disk breaks its schema. ``str()`` is one line: file, line, column, problem."""

    def __init__(self, path: Path | str, message: str, line: int | None = None,
                 column: str | None = None) -> None:
        where = str(path)
        if line is not None:
            where += f" line {line}"
        if column is not None:
            where += f", column {column}"
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.column = str(path), line, column


# The records below are collections.namedtuple classes, not typing.NamedTuple ones: a
# look-up imports this module, and importing typing would cost it ~3 ms of its start.
class Column(namedtuple("Column", "name kind lo hi multiple_of choices optional default unique",
                        defaults=("int", None, None, None, (), False, 0, False))):
    """One named column: ``kind`` ``int`` (decimal or 0x-hex), ``str`` or ``choice``; an int
    kept within ``lo``..``hi`` (None: unbounded) and a ``multiple_of`` (None: any); the
    ``choices`` of a choice; ``optional``: an empty cell is allowed (an int column then reads
    as ``default``); ``unique``: no value twice in the column."""

    __slots__ = ()


class Schema(namedtuple("Schema", "file columns rows key", defaults=(None, ()))):
    """A table file: its name, its :class:`Column` tuple, an exact row count (None: any) and
    the column names of a unique key (empty: none)."""

    __slots__ = ()


_INT = re.compile(r"[+-]?(0[xX][0-9a-fA-F]{1,16}|[0-9]{1,19})")
INT64 = (-(1 << 63), (1 << 63) - 1)


def parse_int(text: str) -> int:
    """A decimal or 0x-hex cell in ASCII within int64 (ValueError otherwise: int() would
    also take '٣', '５' and '1_000')."""
    text = text.strip()
    if not _INT.fullmatch(text):
        raise ValueError(text)
    value = int(text, 16 if "x" in text.lower() else 10)
    if not INT64[0] <= value <= INT64[1]:
        raise ValueError(text)
    return value


def table_text(path: Path) -> str:
    """A table file's text, read through the reading edge (a missing file is a
    :class:`TableError` that says so)."""
    try:
        return read_text(path)
    except UserFileError as exc:
        problem = str(exc).removeprefix(f"{path}: ")
        raise TableError(path, "missing table file" if problem == "no such file" else problem) \
            from None


def read_rows(path: Path, schema: Schema, text: str | None = None) -> list[list[str]]:
    """The data rows of a table file (``text``, or read through the reading edge), its
    header and every row's field count checked against ``schema``."""
    if text is None:
        text = table_text(path)
    split = _split_plain(text)
    if split is not None:
        header, rows = split
    else:
        try:
            reader = csv.reader(io.StringIO(text, newline=""))
            header = next(reader, None)
            rows = list(reader)
        except csv.Error as exc:
            raise TableError(path, f"unreadable CSV ({exc})") from None
    if header is None:
        raise TableError(path, "empty file (no header)")
    wanted = [c.name for c in schema.columns]
    if header != wanted:
        raise TableError(path, f"header {','.join(header)} != expected {','.join(wanted)}",
                         line=1)
    if any(n != len(wanted) for n in set(map(len, rows))):
        i, row = next((i, r) for i, r in enumerate(rows) if len(r) != len(wanted))
        raise TableError(path, f"{len(row)} fields, expected {len(wanted)}", line=i + 2)
    return rows


def _split_plain(text: str) -> tuple[list[str], list[list[str]]] | None:
    """The header and rows of a CSV text that has no quote, no ``\\r`` and no blank line,
    split with ``str.split`` (what :mod:`csv` reads from such a text, several times faster);
    None for any other text (the :mod:`csv` module reads it)."""
    if '"' in text or "\r" in text or not text:
        return None
    lines = (text[:-1] if text.endswith("\n") else text).split("\n")
    if "" in lines:
        return None
    header, *rows = [line.split(",") for line in lines]
    return header, rows


def check_choices(path: Path, col: Column, cells: Sequence[str]) -> None:
    """Every cell of a ``choice`` column is one of its choices."""
    allowed = set(col.choices)
    if allowed.issuperset(cells):
        return
    for i, cell in enumerate(cells):
        if cell not in allowed:
            raise TableError(path, f"{cell!r} is not one of {', '.join(col.choices)}",
                             line=i + 2, column=col.name)


def out_of_range(col: Column, value: int) -> str | None:
    """Why ``value`` breaks ``col``'s bounds (the first of minimum, maximum, multiple), or
    None when it keeps them."""
    if col.lo is not None and value < col.lo:
        return f"below the minimum {col.lo}"
    if col.hi is not None and value > col.hi:
        return f"above the maximum {col.hi}"
    if col.multiple_of and value % col.multiple_of != 0:
        return f"not a multiple of {col.multiple_of}"
    return None


def int_cells(path: Path, col: Column, cells: Sequence[str]) -> list[int]:
    """The values of an ``int`` column, each parsed and kept within its bounds (an empty
    optional cell reads as the default)."""
    plain = _plain_ints(cells)
    if plain is not None and _within(col, plain):
        return plain
    values = []
    for i, cell in enumerate(cells):
        if cell == "":
            if not col.optional:
                raise TableError(path, "empty value", line=i + 2, column=col.name)
            values.append(col.default)
            continue
        try:
            value = parse_int(cell)
        except ValueError:
            raise TableError(path, f"{cell!r} is not an integer", line=i + 2,
                             column=col.name) from None
        why = out_of_range(col, value)
        if why:
            raise TableError(path, f"{value} is {why}", line=i + 2, column=col.name)
        values.append(value)
    return values


def _plain_ints(cells: Sequence[str]) -> list[int] | None:
    """Every cell as ``int()`` reads a plain ASCII decimal, in one pass; None when some cell
    is not one (hex, empty, ``1_000``, ...)."""
    joined = "".join(cells)
    if not joined.isascii() or "_" in joined:
        return None
    try:
        return list(map(int, cells))
    except ValueError:
        return None


def _within(col: Column, values: list[int]) -> bool:
    """Whether every value keeps ``col``'s bounds (and int64's)."""
    if not values:
        return True
    low, high = min(values), max(values)
    return (INT64[0] <= low and high <= INT64[1] and out_of_range(col, low) is None
            and out_of_range(col, high) is None
            and not (col.multiple_of and any(v % col.multiple_of for v in values)))


def read_columns(root: Path, schema: Schema, names: tuple[str, ...]) -> dict[str, list]:
    """The columns ``names`` of ``schema``'s file under ``root`` as lists (ints, or strings),
    checked as :func:`emucore.tables.schema.read_table` checks them (header, field counts,
    cells, bounds, choices, row count, unique columns and key); the other columns are not
    looked at."""
    path = root / schema.file
    text = table_text(path)
    columns = _plain_columns(text, schema)
    if columns is None:
        rows = read_rows(path, schema, text)
        columns = list(zip(*rows, strict=True)) if rows else [()] * len(schema.columns)
    count = len(columns[0])
    if schema.rows is not None and count != schema.rows:
        raise TableError(path, f"{count} rows, expected {schema.rows}")
    out: dict[str, list] = {}
    for col, cells in zip(schema.columns, columns, strict=True):
        if col.name not in names:
            continue
        if col.kind == "int":
            out[col.name] = int_cells(path, col, cells)
            continue
        if col.kind == "choice":
            check_choices(path, col, cells)
        elif not col.optional and "" in cells:
            raise TableError(path, "empty value", line=cells.index("") + 2, column=col.name)
        out[col.name] = list(cells)
    for key in [(c.name,) for c in schema.columns if c.unique] + [schema.key]:
        if key and all(name in out for name in key):
            _check_unique(path, key, out)
    return out


def read_records(root: Path, schema: Schema) -> list[dict[str, object]]:
    """Every row of ``schema``'s file under ``root`` as a dict of its columns, checked as
    :func:`read_columns` checks them."""
    names = tuple(c.name for c in schema.columns)
    columns = read_columns(root, schema, names)
    return [dict(zip(names, cells, strict=True))
            for cells in zip(*(columns[n] for n in names), strict=True)]


def _plain_columns(text: str, schema: Schema) -> list[list[str]] | None:
    """The columns of a table text that :func:`_split_plain` reads and whose header and
    field counts are right, cut from one split of the whole text (no list per row); None
    for any other text (:func:`read_rows` then reads it, or names what is wrong)."""
    if '"' in text or "\r" in text or not text:
        return None
    lines = (text[:-1] if text.endswith("\n") else text).split("\n")
    width = len(schema.columns)
    if lines[0].split(",") != [c.name for c in schema.columns] or "" in lines \
            or set(map(str.count, lines, itertools.repeat(","))) != {width - 1}:
        return None
    cells = ",".join(lines[1:]).split(",") if len(lines) > 1 else []
    return [cells[i::width] for i in range(width)]


def _check_unique(path: Path, key: tuple[str, ...], columns: dict[str, list]) -> None:
    """No two rows share the values of the columns ``key``: the first repeat is named with
    the line it repeats."""
    rows = list(zip(*(columns[name] for name in key), strict=True))
    if len(set(rows)) == len(rows):
        return
    seen: dict[tuple, int] = {}
    for i, values in enumerate(rows):
        if values in seen:
            shown = values if len(values) > 1 else values[0]
            raise TableError(path, f"duplicate {'/'.join(key)} {shown} (first at line "
                             f"{seen[values] + 2})", line=i + 2, column=key[-1])
        seen[values] = i
