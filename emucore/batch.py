"""``emucore batch [FILE]``: many queries of the per-item commands in one process.

Each input line (from FILE, or stdin when FILE is ``-`` or left out) is a JSON array of the
arguments one would type after ``emucore``, e.g. ``["fusion", "fm", "Mystical Elf", "1"]``.
Each answer is one JSON line, in input order: ``{"line": N, "ok": true, "result": ...}``
with the command's own ``--json`` output, or ``{"line": N, "ok": false, "error": "..."}``
with the one-line message the command would print. The commands run through the same parser
and handlers as on the command line, so a batch answers exactly what single calls answer,
without paying a process start per query. Exit code 2 when any query failed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from emucore.cliutil import add_json_flag
from emucore.commands import add_command

# The per-item commands a batch may hold (a command path: the words before the options).
COMMANDS = (("card",), ("fusion",), ("fm", "drop"), ("fm", "rank"), ("rng", "index"),
            ("rng", "at"))
# Options whose answer is not one JSON document: refused in a batch, with the reason.
REFUSED = {"--states": "fm drop --states answers one line per state itself; run it alone"}


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "batch", description=__doc__.split("\n\n")[1].replace("``", ""))
    p.add_argument("file", nargs="?", default="-",
                   help="JSON lines of argument lists (default: stdin)")
    add_json_flag(p)  # answers are always JSON lines; accepted for uniformity
    p.set_defaults(func=_batch)


def _batch(args: argparse.Namespace) -> int:
    from emucore.cli import build_parser
    from emucore.duel.files import UserFileError

    parser = build_parser(COMMANDS)
    lines: Iterable[str] = sys.stdin
    if args.file != "-":
        try:
            lines = Path(args.file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise UserFileError(args.file, f"cannot read ({exc.__class__.__name__})") from None
    failed = False
    for answer in answers(parser, lines):
        failed |= not answer["ok"]
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
    return 2 if failed else 0


def answers(parser: argparse.ArgumentParser, lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One answer per non-blank input line."""
    for number, text in enumerate(lines, 1):
        if text.strip():
            yield {"line": number, **answer(parser, text)}


def answer(parser: argparse.ArgumentParser, text: str) -> dict[str, Any]:
    """Run one query line; its ``--json`` output or its one-line error."""
    from emucore.cli import run_parsed

    try:
        argv = json.loads(text)
    except json.JSONDecodeError as exc:
        return {"ok": False, "error": f"not JSON ({exc.msg})"}
    if not isinstance(argv, list) or not all(isinstance(a, str | int) for a in argv):
        return {"ok": False, "error": "a query is a JSON array of arguments"}
    argv = [str(a) for a in argv]
    if not any(tuple(argv[: len(c)]) == c for c in COMMANDS):
        return {"ok": False, "error": "batch answers only: " + ", ".join(" ".join(c)
                                                                    for c in COMMANDS)}
    refused = [REFUSED[a] for a in argv if a in REFUSED]
    if refused:
        return {"ok": False, "error": refused[0]}
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = run_parsed(parser.parse_args([*argv, "--json"]))
        except SystemExit as exc:  # argparse's own errors
            code = exc.code if isinstance(exc.code, int) else 2
    if code:
        lines = err.getvalue().strip().splitlines()
        return {"ok": False, "error": lines[-1] if lines else f"exit code {code}"}
    return {"ok": True, "result": json.loads(out.getvalue())}
