"""``emucore fm effects [--disc IMAGE] [--out DIR] [--force] [--json]``: the ``duel_effects``
overlay's configuration tables (:mod:`emucore.fm.overlay`), which set how many ``rand()``
calls each duel animation makes.

Without ``--disc``: the built-in values, each with where it came from (a note of the
decompilation, a value calibrated from the runners' measured animation costs, or an
estimate). With ``--disc``: the disc's values beside the built-in ones, the differences
marked; ``--out DIR`` also writes the overlay as ``DIR/duel_effects.bin`` (a folder that
``--disc`` accepts). ``--disc IMAGE`` on ``fm duel``, ``fm sim``, ``fm replay`` and ``plan
route`` plays with the disc's tables.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from emucore.cliutil import UsageError, add_json_flag, add_output, add_path, emit
from emucore.commands import add_command
from emucore.fm import disc as fm_disc
from emucore.fm import overlay as O

# Fields whose provenance is written once for a group (PROVENANCE names the first of them).
_SAME_SOURCE = {f"trap.{name}": "trap.initial_width" for name in
                ("width_step", "minimum_width", "initial_height", "height_step",
                 "maximum_height")}
_RANGE = re.compile(r"(\w+)\[(\d+)\.\.(\d+)\]$")
KINDS = ("note", "calibrated", "estimate")


def register(fm_subparsers: Any) -> None:
    """Add ``effects`` to the ``fm`` command's sub-parsers."""
    p = add_command(
        fm_subparsers, "fm", "effects",
        description="The duel_effects tables that set how many rand() calls each duel "
                    "animation makes: the built-in values and where each came from, or with "
                    "--disc your disc's values beside them.")
    add_path(p, "--disc", role="input", kind="fm disc image or folder", type=Path,
             metavar="IMAGE",
                   help="your own NTSC-U disc image (.bin raw or .iso), or a folder holding "
                        "duel_effects.bin")
    add_output(p, help="with --disc: write the overlay as duel_effects.bin into this folder",
               role="output-folder", kind="folder for duel_effects.bin")
    add_json_flag(p)
    p.set_defaults(func=_cmd_effects)


def provenance(table: str, record: int, field: str) -> tuple[str, str]:
    """(key, text) of :data:`emucore.fm.overlay.PROVENANCE` saying where the built-in value
    of ``table[record].field`` came from. A note for the field holds for every record (the
    notes quote the whole table, and :func:`emucore.fm.overlay.parse` checks it in each);
    otherwise the record's own entry (or a range of records), the field's, then the
    table's."""
    name = f"{table}.{field}"
    field_keys = [k for k in (name, _SAME_SOURCE.get(name)) if k in O.PROVENANCE]
    if field_keys and kind_of(O.PROVENANCE[field_keys[0]]) == "note":
        return field_keys[0], O.PROVENANCE[field_keys[0]]
    keys = [f"{table}[{record}]"]
    for key in O.PROVENANCE:
        match = _RANGE.match(key)
        if match and match[1] == table and int(match[2]) <= record <= int(match[3]):
            keys.append(key)
    for key in [*keys, *field_keys, table]:
        if key in O.PROVENANCE:
            return key, O.PROVENANCE[key]
    return name, "estimate: no source recorded"


def kind_of(text: str) -> str:
    """``note``, ``calibrated`` or ``estimate``: the first word of a provenance text."""
    word = re.split(r"[\s:(]", text.strip(), maxsplit=1)[0]
    return word if word in KINDS else "estimate"


def listing(theirs: O.OverlayTables | None) -> dict[str, Any]:
    """Every modelled field: its built-in value and provenance, and with ``theirs`` (a
    disc's tables) their value and whether it differs."""
    specs = {s.name: s for s in O.SPECS}
    ours = O.BUILT_IN.values()
    other = theirs.values() if theirs is not None else None
    tables, sources, total, differ = [], {}, 0, 0
    for name in O.TABLE_NAMES:
        spec = specs[name]
        rows = []
        for k, record in enumerate(ours[name]):
            for field, value in record.items():
                key, text = provenance(name, k, field)
                kind = kind_of(text)
                sources[key] = text
                row: dict[str, Any] = {"field": f"{name}[{k}].{field}", "built_in": value,
                                       "provenance": kind, "source": key}
                if other is not None:
                    row["disc"] = other[name][k][field]
                    row["differs"] = row["disc"] != value
                    differ += row["differs"]
                rows.append(row)
                total += 1
        tables.append({"table": name, "symbol": spec.symbol, "records": spec.count,
                       "record_bytes": spec.size, "fields": rows})
    return {"tables": tables, "provenance": sources, "fields": total,
            "differences": differ if theirs is not None else None}


def _cmd_effects(args: argparse.Namespace) -> int:
    if args.out is not None and args.disc is None:
        raise UsageError("--out writes the overlay read from your disc: give --disc IMAGE")
    if args.out is not None:  # refused before any work: never the input, no overwrite
        fm_disc.overlay_output(args.out, args.disc, args.force)
    theirs, image = None, b""
    if args.disc is not None:
        image = fm_disc.read_overlay(args.disc)
        theirs = fm_disc.tables_of(image, args.disc)
    data = listing(theirs)
    data.update(source=str(args.disc) if args.disc is not None else None,
                built_in_digest=O.BUILT_IN.digest(),
                digest=theirs.digest() if theirs is not None else None, written=None)
    if args.out is not None:
        data["written"] = str(fm_disc.write_overlay(image, args.out, args.disc, args.force))
    emit(args, data, _text)
    return 0


def _shown(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def _text(d: dict[str, Any]) -> str:
    disc = d["source"] is not None
    if disc:
        lines = [f"duel_effects tables of {d['source']} (digest {d['digest']}) beside the "
                 f"built-in values (digest {d['built_in_digest']}); * marks a difference"]
    else:
        lines = [f"built-in duel_effects tables (digest {d['built_in_digest']}) and where "
                 "each value came from"]
    for table in d["tables"]:
        lines.append(f"{table['table']}  {table['symbol']}  {table['records']} x "
                     f"{table['record_bytes']} bytes")
        width = max(len(r["field"]) for r in table["fields"])
        for r in table["fields"]:
            mark = "*" if r.get("differs") else " "
            built_in = _shown(r["built_in"])
            value = f"disc {_shown(r['disc']):<13} built-in {built_in:<13}" if disc \
                else f"{built_in:<13}"
            lines.append(f"  {mark} {r['field']:<{width}}  {value} {r['provenance']}")
        for key in dict.fromkeys(r["source"] for r in table["fields"]):
            lines.append(f"      {key}: {d['provenance'][key]}")
    if d["written"]:
        lines.append(f"wrote {d['written']}")
    if disc:
        lines.append(f"{d['differences']} of {d['fields']} fields differ from the built-in "
                     f"values; --disc {d['source']} on fm duel, fm sim and plan route plays "
                     "with the disc's tables")
    else:
        estimates = sum(r["provenance"] == "estimate" for t in d["tables"] for r in t["fields"])
        lines.append(f"{d['fields']} fields, {estimates} of them estimates; `fm effects --disc "
                     "IMAGE` shows your disc's beside them, and --disc IMAGE on fm duel, fm "
                     "sim and plan route plays with them")
    return "\n".join(lines)
