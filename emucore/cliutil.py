"""Helpers shared by every ``emucore`` sub-command: argument parsing, errors, JSON output."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from emucore.duel.files import UserFileError, read_text

U32 = (0, 0xFFFFFFFF)  # the range of a 32-bit RNG state or index


class UsageError(ValueError):
    """A mistake in what the user typed: printed as one line, exit code 2."""


# ASCII only: int() also takes '٣', '５' and '1_000', which no user means as a number.
_NUMBER = re.compile(r"-?(0[xX][0-9a-fA-F]{1,16}|[0-9]{1,20})")


def parse_int(text: str, what: str = "number", lo: int | None = None,
              hi: int | None = None) -> int:
    """A decimal or 0x-hex integer within ``lo..hi``, else :class:`UsageError`."""
    if not _NUMBER.fullmatch(text):
        raise UsageError(f"malformed {what} {text[:40]!r} (decimal or 0x-hex)")
    value = int(text, 0) if text.lstrip("-")[:2].lower() == "0x" else int(text, 10)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise UsageError(f"{what} {text} outside {lo}..{hi}")
    return value


def int_arg(what: str, lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` that reports malformed values in one line (exit 2)."""
    def convert(text: str) -> int:
        try:
            return parse_int(text, what, lo, hi)
        except UsageError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = what
    return convert


def add_rng_start(parser: argparse.ArgumentParser, what: str = "",
                  required: bool = True) -> argparse._MutuallyExclusiveGroup:
    """The one ``--state``/``--index`` pair: where the Psy-Q rand() stream starts, as a state
    or as the number of calls after the boot state. Returns the group so a command can add
    another source."""
    group = parser.add_mutually_exclusive_group(required=required)
    what = f" {what}" if what else ""
    group.add_argument("--state", type=int_arg("state", *U32),
                       help=f"RNG state{what} (decimal or 0x-hex)")
    group.add_argument("--index", type=int_arg("index", *U32),
                       help=f"RNG index{what} (rand() calls after the boot state 0x55555555)")
    return group


def rng_start(args: argparse.Namespace) -> int:
    """The RNG state named by the :func:`add_rng_start` pair (``--index``: that many calls
    after the boot state; neither given: the boot state)."""
    if args.state is not None:
        return args.state
    from emucore.hw import psyq_rand  # numpy: imported by the commands that need it

    return int(psyq_rand.jump(psyq_rand.BOOT_STATE, args.index or 0))


def read_states(path: str) -> tuple[list[int], list[int]]:
    """The RNG states of a ``--states`` file (``-``: stdin), one per line, decimal or 0x-hex,
    ``#`` comments and blank lines skipped: their line numbers and the states. A bad line is
    one :class:`~emucore.duel.files.UserFileError` naming the file and the line."""
    name = "<stdin>" if path == "-" else path
    text = sys.stdin.read() if path == "-" else read_text(path)
    lines, states = [], []
    for number, raw in enumerate(text.splitlines(), start=1):
        token = raw.split("#", 1)[0].strip()
        if token:
            try:
                states.append(parse_int(token, "state", *U32))
            except UsageError as exc:
                raise UserFileError(name, f"line {number}: {exc}") from None
            lines.append(number)
    return lines, states


# What a path argument names, declared where it is added (add_path): the registry test
# (tests/core/test_cli_registry.py) fails for a command whose path argument declares none.
# input: a file read through the reading edge (emucore.duel.files); output: a file written
# through the writing edge (never replacing one without --force); journal: a file a command
# appends to and reads back to resume; input-folder / output-folder: the same for a folder.
FILE_ROLES = ("input", "output", "journal", "input-folder", "output-folder")


def add_path(parser: argparse.ArgumentParser | argparse._ActionsContainer, *flags: str,
             role: str, kind: str, **kwargs: Any) -> argparse.Action:
    """A path argument with its declared ``role`` (one of :data:`FILE_ROLES`) and ``kind``
    (what it names, in words: "fm replay", "route spec", ...)."""
    if role not in FILE_ROLES:
        raise ValueError(f"unknown file role {role!r}")
    action = parser.add_argument(*flags, **kwargs)
    action.file_role, action.file_kind = role, kind  # type: ignore[attr-defined]
    return action


def add_output(parser: argparse.ArgumentParser, flag: str = "--out", required: bool = False,
               help: str = "file to write", kind: str = "file", role: str = "output",
               **kwargs: Any) -> None:
    """An output-file (or, with ``role="output-folder"``, folder) option plus ``--force``:
    without it an existing file is never replaced (:func:`emucore.duel.files.check_output`)."""
    add_path(parser, flag, role=role, kind=kind, required=required, help=help, **kwargs)
    if not any(a.dest == "force" for a in parser._actions):
        parser.add_argument("--force", action="store_true",
                            help="replace an existing output file")


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Every command offers ``--json`` for machine-readable output."""
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def emit(args: argparse.Namespace, data: Any, text: Callable[[Any], str]) -> None:
    """Print ``data`` as JSON with ``--json``, else ``text(data)``."""
    if getattr(args, "json", False):
        json.dump(data, sys.stdout, indent=1, default=_json_default)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text(data).rstrip("\n") + "\n")


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "to_json"):
        return value.to_json()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
