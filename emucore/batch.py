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

A line of the usual shape (a JSON array of strings; options as ``--flag value`` pairs, each
flag spelled in full and given once; no value starting with ``-``) skips argparse: its
namespace is made by :func:`quick_args` from the command's own parser (its arguments,
types, choices, defaults, required and exclusive options), the same namespace argparse
would make. Anything else, and any value its type or choices refuse, goes through argparse,
which words the error.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from emucore.cliutil import ANSWERS, Parser, add_json_flag, add_path, input_lines, json_default
from emucore.commands import add_command
from emucore.duel.files import UserFileError, is_int, parse_json

# The per-item commands a batch may hold (a command path: the words before the options).
COMMANDS = (("card",), ("fusion",), ("fm", "drop"), ("fm", "rank"), ("fm", "deal"),
            ("fm", "starter"), ("rng", "index"), ("rng", "at"))
# fm drop/deal --states answer many lines (and may read stdin, the batch's own input).
REFUSED = "{command} --states answers one line per state itself; run it alone"
# A batch answers; it writes no files (``fm starter --out``): an output is a command's own.
WRITES = "a batch writes no files ({flag}); run the command alone to write one"
OUTPUT_ROLES = ("output", "output-folder", "journal")
ANSWERED: dict[tuple[str, ...], Callable[[argparse.Namespace], Any]] = {}  # see _answered


def _answered() -> dict[tuple[str, ...], Callable[[argparse.Namespace], Any]]:
    """The commands whose answer (their ``--json`` object) a line of the usual shape gets
    from a function of its namespace, without running the handler under redirected output
    (they print nothing else and write no file)."""
    from emucore import core_cli
    from emucore.fm import lookup_cli

    return {("rng", "at"): core_cli.rng_at_answer, ("rng", "index"): core_cli.rng_index_answer,
            ("fm", "drop"): lookup_cli.drop_answer, ("fm", "deal"): _deal_answer}


def _deal_answer(args: argparse.Namespace) -> dict[str, Any]:
    """``fm deal``'s answer, the player's deck read and sorted once per deck file's content
    and sort order (:func:`sorted_deck`)."""
    from emucore import tables
    from emucore.fm import lookup_cli

    fm = tables.load("fm")
    return lookup_cli.deal_answer(args, sorted_deck(args.deck, args.sort, fm), fm)


_SORTED: dict[tuple[str, bytes, str], list[int]] = {}  # sorted_deck's decks


def sorted_deck(path: str, sort: str, fm: Any) -> list[int]:
    """The deck file ``path`` read and sorted as ``fm deal`` does, kept by the file's bytes
    (read through the reading edge for every line: a deck edited during a batch is read
    again). A deck is kept only when the file held the same bytes after it was read."""
    from emucore.duel.files import read_bytes
    from emucore.fm import deck
    from emucore.fm.setup import read_deck

    data = read_bytes(path)
    key = (path, data, sort)
    cards = _SORTED.get(key)
    if cards is None:
        cards = deck.sort_deck(read_deck(path, fm), sort, fm)
        if read_bytes(path) == data:
            _SORTED[key] = cards
    return list(cards)


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
    ANSWERED.update(_answered())
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

    try:
        argv = _strings(text) or _query(where, number, text)
        path = next(p for p in COMMANDS if tuple(argv[:len(p)]) == p)  # _query checked it
        words = [*argv[len(path):], "--json"]
        args = quick_args(leaves[path], words)
        if args is not None and path in ANSWERED and getattr(args, "states", None) is None:
            return {"ok": True, "result": ANSWERED[path](args)}
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            args = args or leaves[path].parse_args(words)
            setattr(args, ANSWERS, answers := [])
            if getattr(args, "states", None) is not None:
                raise UserFileError(where, f"line {number}: "
                                               f"{REFUSED.format(command=' '.join(path))}")
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


def _strings(text: str | UserFileError) -> list[str] | None:
    """A line's arguments when it is a JSON array of strings naming a batch command (what
    :func:`_query` would return, decoded without its bounds, which no string needs); None for
    anything else, which :func:`_query` reads and words."""
    try:
        argv = json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        return None
    if type(argv) is not list or not all(type(a) is str for a in argv) \
            or tuple(argv[:1]) not in _NAMED and tuple(argv[:2]) not in _NAMED:
        return None
    return argv


_NAMED = frozenset(COMMANDS)


def quick_args(parser: argparse.ArgumentParser, words: list[str]) -> argparse.Namespace | None:
    """The namespace ``parser.parse_args(words)`` makes, made without argparse when
    ``words`` have the usual shape: positionals in order, ``--flag value`` pairs and
    ``--json``-like switches, each flag spelled in full and (but for a switch) given at most
    once, no value starting with ``-``. None when anything is unusual (argparse then
    parses, and words any error)."""
    shape = _shape(parser)
    if shape is None:
        return None
    values: dict[str, Any] = {}
    waiting = iter(shape.positionals)
    at, end = 0, len(words)
    while at < end:
        word = words[at]
        action = shape.flags.get(word)
        if action is None:  # a positional
            action = next(waiting, None)
            if action is None or word.startswith("-"):
                return None
        elif action.nargs == 0:  # a switch (store_true): argparse takes it again
            values[action.dest] = True
            at += 1
            continue
        elif action.dest in values or at + 1 == end:
            return None
        else:
            at += 1
            word = words[at]
            if word.startswith("-"):
                return None
        value = _converted(action, word)
        if value is _REFUSED:
            return None
        values[action.dest] = value
        at += 1
    if next(waiting, None) is not None or not shape.complete(values):
        return None
    args = argparse.Namespace()
    vars(args).update(shape.defaults, **values)
    return args


_REFUSED = object()  # a value argparse would refuse (its type or its choices)


@dataclass(frozen=True)
class _Shape:
    """What :func:`quick_args` reads of a parser whose every argument is a plain one (one
    value, or a switch)."""

    flags: dict[str, argparse.Action]  # each spelling of each option
    positionals: tuple[argparse.Action, ...]
    defaults: dict[str, Any]  # every destination's default (and the parser's own defaults)
    required: tuple[str, ...]  # the destinations of required options
    groups: tuple[tuple[tuple[argparse.Action, ...], bool], ...]  # exclusive, required?

    def complete(self, values: dict[str, Any]) -> bool:
        """Whether ``values`` satisfy the parser: every required option given, at most one
        of each exclusive group and one of each required group, counting as argparse does
        only values that are not the option's default object."""
        if any(dest not in values for dest in self.required):
            return False
        for actions, required in self.groups:
            count = sum(values.get(a.dest, a.default) is not a.default for a in actions)
            if count > 1 or (required and count == 0):
                return False
        return True


@functools.cache
def _shape(parser: argparse.ArgumentParser) -> _Shape | None:
    """:class:`_Shape` of ``parser``, or None when some argument is not a plain one (read
    once per parser)."""
    flags: dict[str, argparse.Action] = {}
    positionals = []
    defaults: dict[str, Any] = {}
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        plain = isinstance(action, argparse._StoreAction) and action.nargs is None \
            or isinstance(action, argparse._StoreTrueAction)
        if not plain or isinstance(action.default, str) and action.type is not None:
            return None
        defaults[action.dest] = action.default
        if action.option_strings:
            flags.update(dict.fromkeys(action.option_strings, action))
        else:
            positionals.append(action)
    required = tuple(a.dest for a in parser._actions if a.option_strings and a.required)
    groups = tuple((tuple(g._group_actions), g.required)
                   for g in parser._mutually_exclusive_groups)
    return _Shape(flags, tuple(positionals), {**defaults, **parser._defaults}, required, groups)


def _converted(action: argparse.Action, word: str) -> Any:
    """``word`` as the value of ``action`` (its type, then its choices), or :data:`_REFUSED`."""
    try:
        value = action.type(word) if action.type is not None else word
    except (argparse.ArgumentTypeError, TypeError, ValueError):
        return _REFUSED
    if action.choices is not None and value not in action.choices:
        return _REFUSED
    return value


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
