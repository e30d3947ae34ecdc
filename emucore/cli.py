"""The ``emucore`` command.

The commands are listed in :mod:`emucore.commands` (path, module, one-line help).
``emucore --help`` is built from that list alone; ``emucore fm drop ...`` imports only the
modules that build ``fm`` and ``fm drop`` and calls their ``register(subparsers)``, so a small
look-up does not pay for importing every system. Every user mistake is one line on stderr and
exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence

from emucore import SYSTEMS, __version__, commands, compiled
from emucore.cliutil import Parser

# The exceptions that are user mistakes (one line, exit 2), named by module: an exception
# class of a module no command imported cannot have been raised, so telling them apart
# imports nothing.
USER_ERRORS = (("emucore.cliutil", "UsageError"), ("emucore.duel.files", "UserFileError"),
               ("emucore.tables.csvfile", "TableError"), ("emucore.duel.protocol", "IllegalAction"))
# numpy starts an OpenBLAS thread pool when imported (~50 ms of a command's start here) that
# emucore never uses: nothing in it calls BLAS. One thread unless the user set it.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "1")
# The only exit codes: 0 success, 1 "verified and differs", 2 anything else (bad input,
# usage, interrupted; argparse uses 2 for usage too).
EXIT_OK, EXIT_DIFFERS, EXIT_BAD_INPUT = 0, 1, 2


class _Version(argparse.Action):
    """``--version``: the version and how many FM hot modules run compiled, worked out only
    when asked (it hashes their sources, which no other command needs)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: object) -> None:
        super().__init__(option_strings, dest, nargs=0,
                         help="show the version and whether the FM duel runs compiled")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"emucore {__version__} ({compiled.summary()})")
        parser.exit()


def build_parser(lines: Sequence[Sequence[str]] | None = None,
                 parser_class: type[Parser] = Parser) -> Parser:
    """The argument parser for the command lines ``lines`` (their words, see
    :func:`command_words`; None: every command in full). Every command is listed with its
    help; only the commands the lines name are built by their modules. Every parser of the
    tree is a ``parser_class`` (sub-parsers take their parent's class): a usage error is one
    line (:class:`emucore.cliutil.Parser`)."""
    parser = parser_class(
        prog="emucore",
        description="Faithful recreations of the early Yu-Gi-Oh! Duel Monsters engines "
                    f"({', '.join(SYSTEMS)}).",
    )
    parser.add_argument("--version", action=_Version)
    _add_commands(parser.add_subparsers(dest="command", metavar="COMMAND"), (), lines)
    return parser


def _add_commands(sub: argparse._SubParsersAction, group: tuple[str, ...],
                  lines: Sequence[Sequence[str]] | None) -> None:
    """Add the listed commands below ``group``: in full (by their module's ``register``) when
    wanted, else as an entry of the group's help only. A command listed but not wanted is
    never parsed: a command line that names it wants it."""
    listed = commands.children(group)
    for module in dict.fromkeys(m for m, _ in listed.values()):
        paths = [path for path, (m, _) in listed.items() if m == module]
        if any(commands.wanted(path, lines) for path in paths):
            importlib.import_module(module).register(sub)
        else:
            for path in paths:
                commands.add_command(sub, *path, add_help=False)
    for path in listed:
        if commands.children(path) and commands.wanted(path, lines):
            group_parser = sub.choices[path[-1]]
            inner = next(a for a in group_parser._actions
                         if isinstance(a, argparse._SubParsersAction))
            _add_commands(inner, path, lines)


def command_words(argv: Sequence[str]) -> list[str]:
    """The words of a command line that are not options: their start is the command path
    (the top level and the listed groups take no option with a value)."""
    return [a for a in argv if not a.startswith("-")]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run, turn user mistakes into one line and exit code 2."""
    os.environ.setdefault(*BLAS_THREADS)  # before any command imports numpy
    if argv is None:  # a process of its own (not a call from Python): stop as on Ctrl-C
        signal.signal(signal.SIGTERM, _stop)
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser([command_words(argv)])
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return run_parsed(args)


def _stop(*_signal: object) -> None:
    """SIGTERM (a shell's ``kill``, a job scheduler's stop, a container's shutdown) ends a
    command as Ctrl-C does: temporary files removed, a route's journal kept with how to
    resume, one line and exit 2, where the default action would end it mid-write."""
    raise KeyboardInterrupt


def is_user_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of :data:`USER_ERRORS`."""
    return any(isinstance(exc, getattr(sys.modules[module], name))
               for module, name in USER_ERRORS if module in sys.modules)


def run_parsed(args: argparse.Namespace) -> int:
    """Run parsed arguments: user mistakes become one line on stderr and exit code 2."""
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("emucore: interrupted", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except Exception as exc:
        # a bug is exit 2 as well: never let it pass for "verified and differs" (exit 1)
        print(failure_line(exc), file=sys.stderr)
        return EXIT_BAD_INPUT


def failure_line(exc: Exception) -> str:
    """The one line a failed command prints: the user's mistake, or for a bug (after its
    traceback on stderr) that it is one."""
    if is_user_error(exc):
        return f"emucore: error: {' '.join(str(exc).split())}"
    import traceback  # a bug's: a command that works never imports it

    traceback.print_exception(exc)
    return "emucore: internal error (a bug in emucore; please report it)"


if __name__ == "__main__":
    sys.exit(main())
