"""Helpers shared by every ``emucore`` sub-command: argument parsing, errors, JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any


class UsageError(ValueError):
    """A mistake in what the user typed: printed as one line, exit code 2."""


def parse_int(text: str, what: str = "number", lo: int | None = None,
              hi: int | None = None) -> int:
    """A decimal or 0x-hex integer within ``lo..hi``, else :class:`UsageError`."""
    try:
        value = int(text, 16) if text.lower().startswith("0x") else int(text, 10)
    except ValueError:
        raise UsageError(f"malformed {what} {text!r} (decimal or 0x-hex)") from None
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
