"""Helpers shared by every ``emucore`` sub-command: argument parsing, errors, JSON output."""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator

from emucore import names
from emucore.duel.files import UserFileError, quoted, read_text, stream_lines
from emucore.hw.psyq_lcg import BOOT_STATE, jump_int

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from typing import Any, NoReturn

U32 = (0, 0xFFFFFFFF)  # the range of a 32-bit RNG state or index
HEX_DIGITS = "0123456789abcdefABCDEF"


class UsageError(ValueError):
    """A mistake in what the user typed: printed as one line, exit code 2."""


USAGE_MESSAGE_CHARS = 300  # a usage error's message is cut here (it may repeat what was typed)
_LEFT_BY = "_emucore_left_by"  # Namespace attribute: the parser that left unknown arguments


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, told the terminal's width by :func:`help_width`: left to
    itself it imports :mod:`shutil` to ask (and with it bz2, lzma and zlib, ~3 ms), and
    ``add_argument`` makes a formatter for every argument, so every command would pay that
    at its start for help it seldom prints."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         help_width() if width is None else width)


def help_width() -> int:
    """The width help is wrapped to: the terminal's columns (``COLUMNS`` when set, else
    stdout's terminal, else 80) less 2, as argparse reckons it with
    :func:`shutil.get_terminal_size`."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns - 2


class Parser(argparse.ArgumentParser):
    """The class of every ``emucore`` parser (``add_subparsers`` gives its sub-parsers the
    class of their parent): a usage error is ONE line on stderr, ``emucore fm deal: error:
    MESSAGE (see emucore fm deal --help)``, and exit code 2; the usage block is shown by
    ``--help`` alone. A mistyped choice is answered with the closest choices. Help is
    formatted by :class:`Formatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, self.usage_line(message) + "\n")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """argparse's, remembering which (sub-)parser left arguments it did not know, so
        :meth:`parse_args` names that command in the error."""
        namespace, extras = super().parse_known_args(args, namespace)
        if extras and not hasattr(namespace, _LEFT_BY):
            setattr(namespace, _LEFT_BY, self)
        return namespace, extras

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """argparse's, the unknown arguments reported by the command that left them (cut)."""
        namespace, extras = self.parse_known_args(args, namespace)
        parser = vars(namespace).pop(_LEFT_BY, self)
        if extras:
            shown = ", ".join(quoted(a) for a in extras[:4]) + (", ..." if extras[4:] else "")
            parser.error(f"unrecognized arguments: {shown}")
        return namespace

    def usage_line(self, message: str) -> str:
        """``message`` as this command's one-line usage error."""
        text = " ".join(message.split())
        if len(text) > USAGE_MESSAGE_CHARS:
            text = text[:USAGE_MESSAGE_CHARS] + "..."
        return f"{self.prog}: error: {text} (see {self.prog} --help)"

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """argparse's choice check, the typed value cut and the closest choices offered
        (all of them when none is close)."""
        if action.choices is None or value in action.choices:
            return
        choices = [str(c) for c in action.choices]
        near = names.closest(str(value), choices)
        hint = (names.did_you_mean(near) if near
                else "choose from " + ", ".join(map(repr, choices)))
        raise argparse.ArgumentError(action, f"invalid choice: {quoted(str(value))} ({hint})")


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
    return jump_int(BOOT_STATE, args.index or 0)


MAX_STATES = 1 << 20  # the most RNG states a --states list holds (each answer is one line)


def read_states(path: str) -> tuple[list[int], list[int]]:
    """The RNG states of a ``--states`` file (``-``: stdin), one per line, decimal or 0x-hex,
    ``#`` comments and blank lines skipped, at most :data:`MAX_STATES`: their line numbers and
    the states. Read through :func:`input_lines` (bounded lines, a file through the reading
    edge). A bad line is one :class:`~emucore.duel.files.UserFileError` naming the file and
    the line."""
    name, lines = input_lines(path)
    numbers: list[int] = []
    states: list[int] = []
    plain = _plain_states(lines)
    if plain is not None:
        return plain
    for number, raw in lines:
        if isinstance(raw, UserFileError):
            raise raw
        token = raw.split("#", 1)[0].strip()
        if not token:
            continue
        if len(states) == MAX_STATES:
            raise UserFileError(name, f"line {number}: more than {MAX_STATES} states")
        try:
            states.append(parse_int(token, "state", *U32))
        except UsageError as exc:
            raise UserFileError(name, f"line {number}: {exc}") from None
        numbers.append(number)
    return numbers, states


def _plain_states(lines: Iterable[tuple[int, str | UserFileError]]
                  ) -> tuple[list[int], list[int]] | None:
    """The line numbers and states of a file whose every line is one plain decimal state
    (ASCII decimal digits only, at most 10, within 32 bits, or every line 0x-hex of at most 8
    digits: what a state list usually is), read in
    one pass with ``int()``; None when some line is anything else (a comment, hex, a blank,
    a bad value: :func:`read_states` then reads it line by line and names what is wrong)."""
    if not isinstance(lines, _Lines):
        return None
    text = lines.text
    body = text[:-1] if text.endswith("\n") else text
    if not body.isascii() or "\r" in body:
        return None
    cells = body.split("\n")
    if len(cells) > MAX_STATES:
        return None
    # every line 0x-hex: each line starts with 0x and holds no other x (int() with base 16
    # reads the 0x itself)
    hexed = body[:2] in ("0x", "0X") and (
        body.count("x") + body.count("X") == len(cells)
        == 1 + body.count("\n0x") + body.count("\n0X"))
    digits, shortest, base = (HEX_DIGITS + "xX", 3, 16) if hexed else (HEX_DIGITS[:10], 1, 10)
    if not set(body) <= set(digits + "\n") or min(map(len, cells)) < shortest \
            or max(map(len, cells)) > 10:
        return None
    states = [int(cell, base) for cell in cells]
    if max(states) > U32[1]:
        return None
    return list(range(1, len(states) + 1)), states


class _Lines:
    """The lines of a file read whole (:func:`input_lines`), iterated as
    :func:`emucore.duel.files.stream_lines` gives them, its text kept for a one-pass read."""

    def __init__(self, text: str, where: str) -> None:
        self.text, self.where = text, where

    def __iter__(self) -> Iterator[tuple[int, str | UserFileError]]:
        return iter(stream_lines(io.StringIO(self.text, newline=None), self.where))


def input_lines(path: str) -> tuple[str, Iterable[tuple[int, str | UserFileError]]]:
    """A line-based input named on the command line, as its name for messages and its lines
    (:func:`emucore.duel.files.stream_lines`: a line over the bound is an error for that
    line alone; lines end at ``\\n``, ``\\r\\n`` or ``\\r``). A file is read through the
    reading edge (a regular file, size-bounded); ``-`` is stdin, streamed, its bytes that are
    not UTF-8 read as U+FFFD."""
    if path == "-":
        return "<stdin>", stream_lines(_stdin(), "<stdin>")
    return path, _Lines(read_text(path), path)


def _stdin() -> Any:
    """stdin as UTF-8 text whose bytes that are not UTF-8 read as U+FFFD (a decoding error
    would end the command half-way)."""
    if isinstance(sys.stdin, io.TextIOWrapper):  # not a test's or an embedding's stream
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    return sys.stdin


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
               help: str = "file to write", *, kind: str, role: str = "output",
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


ANSWERS = "_answers"  # a Namespace attribute: a list that takes emit's data instead of stdout


def emit(args: argparse.Namespace, data: Any, text: Callable[[Any], str]) -> None:
    """Print ``data`` as JSON with ``--json``, else ``text(data)``; a caller that set a list
    as ``args._answers`` (:data:`ANSWERS`, ``emucore batch``) gets ``data`` itself there,
    with no JSON written and read back."""
    answers = getattr(args, ANSWERS, None)
    if answers is not None:
        answers.append(data)
    elif getattr(args, "json", False):
        import json  # only a --json answer needs it

        json.dump(data, sys.stdout, indent=1, default=json_default)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text(data).rstrip("\n") + "\n")


def json_default(value: Any) -> Any:
    """JSON for what ``json`` cannot write itself: numpy values and objects with ``to_json``."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "to_json"):
        return value.to_json()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
