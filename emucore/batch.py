"""``emucore batch [FILE]``: many queries of the per-item commands in one process.

Each input line (from FILE, or stdin when FILE is ``-`` or left out) is a JSON array of the
arguments one would type after ``emucore``, e.g. ``["fusion", "fm", "Mystical Elf", "1"]``.
Each non-blank line gets one answer, one JSON line, in input order and as soon as it is
known: ``{"line": N, "ok": true, "result": ...}`` with the command's own ``--json`` output,
or ``{"line": N, "ok": false, "error": "..."}`` with the one-line message the command would
print. A bad line (not JSON, longer than 65536 characters, nested too deep, not a query, a
usage error, ``--help``, an output file: a batch writes nothing) gets its own error and
the next line is answered. The commands run
through the same parser and handlers as on the command line, so a batch answers exactly
what single calls answer, without paying a process start per query. Exit code 2 (and one
line on stderr counting them) when any query failed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from typing import Any, NoReturn

from emucore.cliutil import ANSWERS, Parser, add_json_flag, add_path, input_lines, json_default
from emucore.commands import add_command
from emucore.duel.files import UserFileError, is_int, parse_json

# The per-item commands a batch may hold (a command path: the words before the options).
COMMANDS = (("card",), ("fusion",), ("fm", "drop"), ("fm", "rank"), ("fm", "deal"),
            ("fm", "starter"), ("rng", "index"), ("rng", "at"))
# fm drop --states answers many lines (and may read stdin, the batch's own input).
REFUSED = "fm drop --states answers one line per state itself; run it alone"
# A batch answers; it writes no files (``fm starter --out``): an output is a command's own.
WRITES = "a batch writes no files ({flag}); run the command alone to write one"
OUTPUT_ROLES = ("output", "output-folder", "journal")


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "batch", description=__doc__.split("\n\n")[1].replace("``", ""))
    add_path(p, "file", role="input", kind="batch queries", nargs="?", default="-",
             help="JSON lines of argument lists (default: stdin)")
    add_json_flag(p)  # answers are always JSON lines; accepted for uniformity
    p.set_defaults(func=_batch)


class _LineError(Exception):
    """A usage error inside one batch line: argparse's one line for that line's answer."""


class _LineParser(Parser):
    """The parser of batch lines: what would end the process (a usage error, ``--help``)
    is an error of that line alone."""

    def error(self, message: str) -> NoReturn:
        raise _LineError(self.usage_line(message))

    def print_help(self, file: Any = None) -> NoReturn:
        raise _LineError(self.usage_line("--help is not answered in a batch; run it alone"))

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _LineError(self.usage_line(message or "this option is not answered in a batch"))


def _batch(args: argparse.Namespace) -> int:
    from emucore.cli import build_parser

    parser = build_parser(COMMANDS, parser_class=_LineParser)
    outputs = output_flags(parser)
    leaves = {path: leaf_parser(parser, path) for path in COMMANDS}
    where, lines = input_lines(args.file)
    asked = failed = 0
    for number, text in lines:
        if isinstance(text, str) and not text.strip():
            continue
        reply = {"line": number, **answer(leaves, where, number, text, outputs)}
        asked += 1
        failed += not reply["ok"]
        sys.stdout.write(json.dumps(reply, separators=(",", ":"), default=json_default) + "\n")
        sys.stdout.flush()  # a client waiting on this answer gets it now
    if failed:
        raise UserFileError(where, f"{failed} of {asked} queries failed (their answers say why)")
    return 0


def output_flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The destinations of every output path argument below ``parser`` (declared with
    :func:`emucore.cliutil.add_path`), each with its flag."""
    found: dict[str, str] = {}
    for action in parser._actions:
        if getattr(action, "file_role", None) in OUTPUT_ROLES:
            found[action.dest] = action.option_strings[0] if action.option_strings \
                else action.dest
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found.update(output_flags(child))
    return found


def leaf_parser(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> argparse.ArgumentParser:
    """The parser of the command ``path`` inside ``parser``'s tree."""
    for word in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[word]
    return parser


def answer(leaves: dict[tuple[str, ...], Any], where: str, number: int,
           text: str | UserFileError, outputs: dict[str, str]) -> dict[str, Any]:
    """Line ``number`` of ``where`` (its text, or the error reading it): the command's
    ``--json`` output, or the one line it would print on stderr. The line is parsed by its
    command's own parser in ``leaves`` (what the whole tree does after reading the command
    path, without walking the tree for each line), and the handler's answer taken from
    :func:`emucore.cliutil.emit` as data (no JSON written and read back). A line that names
    an output (one of ``outputs``, from :func:`output_flags`) is refused before it runs."""
    from emucore.cli import failure_line

    out = io.StringIO()
    try:
        argv = _query(where, number, text)
        path = next(p for p in COMMANDS if tuple(argv[:len(p)]) == p)  # _query checked it
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            args = leaves[path].parse_args([*argv[len(path):], "--json"])
            setattr(args, ANSWERS, answers := [])
            if getattr(args, "states", None) is not None:
                raise UserFileError(where, f"line {number}: {REFUSED}")
            for dest, flag in outputs.items():
                if getattr(args, dest, None) is not None:
                    raise UserFileError(where, f"line {number}: {WRITES.format(flag=flag)}")
            code = int(args.func(args) or 0)
        if code:
            raise UserFileError(where, f"line {number}: the query ended with exit code {code}")
        if len(answers) == 1 and not out.getvalue():
            return {"ok": True, "result": answers[0]}
        return {"ok": True, "result": json.loads(out.getvalue())}  # printed, not emitted
    except _LineError as exc:
        return {"ok": False, "error": str(exc)}
    except Exception as exc:
        return {"ok": False, "error": failure_line(exc)}


def _query(where: str, number: int, text: str | UserFileError) -> list[str]:
    """A line's arguments (UserFileError naming the line if it holds no query)."""
    if isinstance(text, UserFileError):
        raise text
    argv = parse_json(text, f"{where}: line {number}")
    if not isinstance(argv, list) or not all(isinstance(a, str) or is_int(a) for a in argv):
        raise UserFileError(where, f"line {number}: a query is a JSON array of arguments "
                                   "(strings or integers)")
    argv = [str(a) for a in argv]
    if not any(tuple(argv[: len(c)]) == c for c in COMMANDS):
        raise UserFileError(where, f"line {number}: batch answers only: "
                                   + ", ".join(" ".join(c) for c in COMMANDS))
    return argv
