"""Every path argument of every command declares what it names (emucore.cliutil.add_path):
its role (input, output, journal, folders) and its kind. A command added later with a path
argument that declares nothing fails here, so the file edges (emucore/duel/files.py) know
every file a user hands emucore.

Source: the issue's rule "every command declares each path argument's role in the command
registry"; the parser walked is the one ``emucore`` builds for every command
(``build_parser()``), so nothing listed here is taken from the modules' own say-so."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from emucore.cli import build_parser
from emucore.cliutil import FILE_ROLES

# Argument names (dest) that name a file or folder wherever they appear.
PATH_NAMES = {"out", "file", "replay", "snapshot", "spec", "disc", "deck", "deck0", "deck1",
              "script", "states", "record", "report", "plot", "save", "rom", "folder"}
PATH_METAVARS = ("FILE", "IMAGE", "DIR", "FOLDER", "REPLAY", ".PNG", ".HTML")


def _arguments(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
               ) -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _arguments(child, (*path, name))
        elif not isinstance(action, argparse._HelpAction):
            yield " ".join(path), action


def _names_a_path(action: argparse.Action) -> bool:
    metavar = str(action.metavar or "").upper()
    return (action.type is Path or action.dest in PATH_NAMES
            or any(word in metavar for word in PATH_METAVARS))


ARGUMENTS = list(_arguments(build_parser()))


def test_the_walk_sees_every_command():
    commands = {command for command, _ in ARGUMENTS}
    assert {"fm duel", "plan route", "batch", "capture import", "ocg1999 deck"} <= commands
    assert sum(_names_a_path(a) for _, a in ARGUMENTS) > 60


def test_every_path_argument_declares_its_role_and_kind():
    undeclared = [f"{command} {action.option_strings or action.dest}"
                  for command, action in ARGUMENTS
                  if _names_a_path(action) and not hasattr(action, "file_role")]
    assert undeclared == []
    for command, action in ARGUMENTS:
        if hasattr(action, "file_role"):
            assert action.file_role in FILE_ROLES, (command, action.dest)
            assert action.file_kind and action.file_kind != "file", (command, action.dest)


def test_every_output_has_force():
    """An output never replaces a file unless the user asks: each command with an output
    also takes ``--force``."""
    by_command: dict[str, set[str]] = {}
    for command, action in ARGUMENTS:
        by_command.setdefault(command, set()).add(action.dest)
    for command, action in ARGUMENTS:
        if getattr(action, "file_role", "").startswith("output"):
            assert "force" in by_command[command], command
