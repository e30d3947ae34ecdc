"""Table schemas and the one CSV loader every system uses.

A schema names each column with its kind and allowed values (:mod:`emucore.tables.csvfile`,
which also reads a file's rows); :func:`read_table` reads a CSV into numpy column arrays and
checks it, raising :class:`TableError` that names the file, the line and the column of the
first bad value.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from emucore.duel.files import UserFileError, read_text
from emucore.tables.csvfile import (
    Column,
    Schema,
    TableError,
    check_choices,
    parse_int,
    read_rows,
)

__all__ = ["Column", "Schema", "Table", "TableError", "check_refs", "read_table"]


@dataclass
class Table:
    """A loaded table: one numpy array per column (ints as int64, strings as object)."""

    schema: Schema
    path: Path
    columns: dict[str, NDArray] = field(default_factory=dict)

    def __len__(self) -> int:
        first = self.schema.columns[0].name
        return len(self.columns[first])

    def __getitem__(self, name: str) -> NDArray:
        return self.columns[name]

    def rows(self) -> Iterator[dict[str, object]]:
        """Each row as a dict (for display, not for hot paths)."""
        names = [c.name for c in self.schema.columns]
        for i in range(len(self)):
            yield {n: self.columns[n][i].item() if hasattr(self.columns[n][i], "item")
                   else self.columns[n][i] for n in names}

    def fail(self, index: int, column: str, message: str) -> TableError:
        """A :class:`TableError` for data row ``index`` (0-based; line = index + 2)."""
        return TableError(self.path, message, line=int(index) + 2, column=column)


def _column_values(path: Path, col: Column, cells: list[str]) -> NDArray:
    if col.kind == "str":
        for i, cell in enumerate(cells):
            if not cell and not col.optional:
                raise TableError(path, "empty value", line=i + 2, column=col.name)
        return np.array(cells, dtype=object)
    if col.kind == "choice":
        check_choices(path, col, cells)
        return np.array(cells, dtype=object)
    try:  # fast path: every cell a plain ASCII decimal integer within int64
        if not all(map(str.isascii, cells)) or any("_" in c for c in cells):
            raise ValueError("not plain")
        values = np.fromiter(map(int, cells), dtype=np.int64, count=len(cells))
        given = np.ones(len(cells), dtype=bool)
    except (ValueError, OverflowError):
        values, given = _parse_cells(path, col, cells)
    _check_range(path, col, values, given)
    return values


def _parse_cells(path: Path, col: Column, cells: list[str]) -> tuple[NDArray, NDArray]:
    """Cell by cell: hex values, empty optional cells (read as the default), exact errors."""
    values = np.empty(len(cells), dtype=np.int64)
    given = np.ones(len(cells), dtype=bool)
    for i, cell in enumerate(cells):
        if cell == "":
            if not col.optional:
                raise TableError(path, "empty value", line=i + 2, column=col.name)
            values[i], given[i] = col.default, False
            continue
        try:
            values[i] = parse_int(cell)
        except ValueError:
            raise TableError(path, f"{cell!r} is not an integer", line=i + 2,
                             column=col.name) from None
    return values, given


def _check_range(path: Path, col: Column, values: NDArray, given: NDArray[np.bool_]) -> None:
    bad = np.zeros(len(values), dtype=bool)
    reason = ""
    checks = []
    if col.lo is not None:
        checks.append((given & (values < col.lo), f"below the minimum {col.lo}"))
    if col.hi is not None:
        checks.append((given & (values > col.hi), f"above the maximum {col.hi}"))
    if col.multiple_of:
        checks.append((given & (values % col.multiple_of != 0),
                       f"not a multiple of {col.multiple_of}"))
    for mask, why in checks:
        if mask.any():
            first = int(np.flatnonzero(mask)[0])
            if not bad.any() or first < int(np.flatnonzero(bad)[0]):
                bad, reason = mask, why
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise TableError(path, f"{int(values[i])} is {reason}", line=i + 2, column=col.name)


def _check_unique(table: Table, names: tuple[str, ...]) -> None:
    cols = [table[n] for n in names]
    if len(cols[0]) < 2:
        return
    order = np.lexsort(cols[::-1])
    same = np.ones(len(order) - 1, dtype=bool)
    for col in cols:
        ordered = col[order]
        same &= ordered[1:] == ordered[:-1]
    if not same.any():
        return
    pairs = np.sort(np.stack([order[:-1][same], order[1:][same]], axis=1), axis=1)
    first, later = (int(v) for v in pairs[np.argmin(pairs[:, 1])])
    key = tuple(c[later].item() if hasattr(c[later], "item") else c[later] for c in cols)
    shown = key if len(key) > 1 else key[0]
    raise table.fail(later, names[-1], f"duplicate {'/'.join(names)} {shown} "
                     f"(first at line {first + 2})")


_ODD = re.compile("[\0\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _plain(text: str) -> bool:
    """Text numpy's C reader may be given: ASCII, no NUL or unusual line breaks, quotes
    paired on every line. Fuzzed tables crashed numpy 2's reader (a segmentation fault on a
    pools.csv whose first cell was one 4-byte UTF-8 character); the careful reader takes
    everything else and names the cell."""
    return text.isascii() and not _ODD.search(text) and all(line.count('"') % 2 == 0
                                         for line in text.split("\n"))


def _fast_columns(path: Path, schema: Schema) -> dict[str, NDArray] | None:
    """Parse a well-formed file with numpy's C reader; None if anything looks off (empty
    cells, hex values, ragged rows), so the careful reader can name the exact cell."""
    try:
        text = read_text(path)
    except UserFileError:
        return None
    header = text.split("\n", 1)[0].rstrip("\r")
    if header != ",".join(c.name for c in schema.columns) or '""' in text or \
            not _plain(text):
        return None
    ints = [i for i, c in enumerate(schema.columns) if c.kind == "int"]
    strs = [i for i, c in enumerate(schema.columns) if c.kind != "int"]
    options = {"delimiter": ",", "skiprows": 1, "ndmin": 2, "quotechar": '"', "comments": None}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            int_part = np.loadtxt(io.StringIO(text), dtype=np.int64, usecols=ints, **options) \
                if ints else None
            str_part = np.loadtxt(io.StringIO(text), dtype=str, usecols=strs, **options) \
                if strs else None
    except (ValueError, OverflowError, UserWarning):
        return None
    columns: dict[str, NDArray] = {}
    for part, where in ((int_part, ints), (str_part, strs)):
        for j, i in enumerate(where):
            columns[schema.columns[i].name] = part[:, j] if part is not None else None
    for col in schema.columns:
        if col.kind != "int":
            values = columns[col.name].astype(object)
            if (values == "").any():
                return None
            columns[col.name] = values
    return columns


def read_table(root: Path, schema: Schema) -> Table:
    """Read and check one table file under ``root``."""
    path = root / schema.file
    table = Table(schema, path)
    fast = _fast_columns(path, schema)
    if fast is None:
        rows = read_rows(path, schema)
        for j, col in enumerate(schema.columns):
            table.columns[col.name] = _column_values(path, col, [r[j] for r in rows])
    else:
        table.columns = fast
        for col in schema.columns:
            if col.kind == "int":
                _check_range(path, col, fast[col.name], np.ones(len(table), dtype=bool))
            elif col.kind == "choice":
                check_choices(path, col, list(fast[col.name]))
    if schema.rows is not None and len(table) != schema.rows:
        raise TableError(path, f"{len(table)} rows, expected {schema.rows}")
    for col in schema.columns:
        if col.unique:
            _check_unique(table, (col.name,))
    if schema.key:
        _check_unique(table, schema.key)
    return table


def check_refs(table: Table, column: str, valid: NDArray[np.bool_], what: str) -> None:
    """Every value of ``column`` must index a True entry of ``valid`` (e.g. an existing card)."""
    values = table[column]
    inside = (values >= 0) & (values < len(valid))
    ok = np.zeros(len(values), dtype=bool)
    ok[inside] = valid[values[inside]]
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        raise table.fail(i, column, f"{int(values[i])} is not {what}")
