"""The ``emucore`` command.

Core commands live here (tables, card, fusion, rng); each rule system, the planner, the capture
tools and the frontend register their own sub-commands through a ``register(subparsers)``
function in their ``cli`` module. Every user mistake is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from collections.abc import Sequence

from emucore import SYSTEMS, __version__
from emucore.cliutil import UsageError
from emucore.duel.files import UserFileError
from emucore.duel.protocol import IllegalAction
from emucore.tables import TableError

# Modules that add sub-commands, in the order they appear in --help.
PLUGINS = (
    "emucore.core_cli",
    "emucore.fm.cli",
    "emucore.dm1.cli",
    "emucore.ocg1999.cli",
    "emucore.tcglite.cli",
    "emucore.replay_cli",
    "emucore.planning.cli",
    "emucore.capture.cli",
    "emucore.frontend.cli",
    "emucore.batch",
)

USER_ERRORS = (UsageError, UserFileError, TableError, IllegalAction)
# The only exit codes: 0 success, 1 "verified and differs", 2 anything else (bad input,
# usage, interrupted; argparse uses 2 for usage too).
EXIT_OK, EXIT_DIFFERS, EXIT_BAD_INPUT = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every plugin's sub-commands."""
    parser = argparse.ArgumentParser(
        prog="emucore",
        description="Faithful recreations of the early Yu-Gi-Oh! Duel Monsters engines "
                    f"({', '.join(SYSTEMS)}).",
    )
    parser.add_argument("--version", action="version", version=f"emucore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in PLUGINS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run, turn user mistakes into one line and exit code 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return run_parsed(args)


def run_parsed(args: argparse.Namespace) -> int:
    """Run parsed arguments: user mistakes become one line on stderr and exit code 2."""
    try:
        return int(args.func(args) or 0)
    except USER_ERRORS as exc:
        print(f"emucore: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("emucore: interrupted", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except Exception:  # a bug: never let it pass for "verified and differs" (exit 1)
        traceback.print_exc()
        print("emucore: internal error (a bug in emucore; please report it)", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
