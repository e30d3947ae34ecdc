"""The registry of ``emucore``'s commands: each command path, the module that builds it and
its one-line help.

Importing this module costs nothing, so ``emucore --help`` (and ``emucore fm --help``) list
every command without importing the systems behind them, and ``emucore fm drop ...`` imports
only the modules that build ``fm`` and ``fm drop``: a small look-up does not pay for the duel
engines, the AI or the frontend. Each module's ``register(subparsers)`` adds the commands
listed here under its name (for a two-word path, to the group's sub-parsers) with
:func:`add_command`, so the help shown is the one written here. A group listed with
sub-commands must take no option with a value before its action word
(:func:`emucore.cli.command_words` reads the words of a command line without parsing it).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from typing import Any

# command path -> (module whose register() adds it, one-line help), in --help order. A
# module's commands are listed together; a group's own sub-commands (those its module adds
# without a path here) come before the listed ones.
COMMANDS: dict[tuple[str, ...], tuple[str, str]] = {
    ("tables",): ("emucore.core_cli", "check the game tables"),
    ("card",): ("emucore.core_cli", "show a card"),
    ("fusion",): ("emucore.core_cli", "show the fusion of two cards"),
    ("rng",): ("emucore.core_cli", "the Psy-Q rand() stream: next values, index <-> state"),
    ("fm",): ("emucore.fm.lookup_cli",
              "Forbidden Memories: deal, starter, drop, rank, duel, replay, sim, ai, "
              "effects"),
    ("fm", "duel"): ("emucore.fm.cli", "play a scripted duel (or against the computer "
                                       "opponent)"),
    ("fm", "replay"): ("emucore.fm.cli", "record or verify a replay file (= emucore replay)"),
    ("fm", "sim"): ("emucore.fm.ai.cli", "play many AI-vs-AI duels and show win rate, ranks "
                                         "and drops"),
    ("fm", "ai"): ("emucore.fm.ai.cli", "a duelist's AI table; check, list or extract your "
                                        "disc's AI programs"),
    ("fm", "effects"): ("emucore.fm.effects_cli", "the duel_effects tables (animation rand() "
                                                  "counts): built-in, or your disc's beside "
                                                  "them"),
    ("dm1",): ("emucore.dm1.cli", "Duel Monsters (Game Boy, 1998)"),
    ("ocg1999",): ("emucore.ocg1999.cli", "the 1999 Official Rules: duel, replay, match"),
    ("tcglite",): ("emucore.tcglite.cli", "the simplified TCG (2002 starter decks): duel, "
                                          "replay"),
    ("replay",): ("emucore.replay_cli", "record or verify a replay file of any system"),
    ("plan",): ("emucore.planning.cli", "speedrun planning: rank, drops, manipulation, seeds"),
    ("capture",): ("emucore.capture.cli", "verify emucore against a duel captured from the "
                                          "original game in an emulator"),
    ("play",): ("emucore.frontend.cli", "play a system in a window (or headless from a pad "
                                        "script)"),
    ("screenshot",): ("emucore.frontend.cli", "write a PNG of a screen (headless)"),
    ("batch",): ("emucore.batch", "answer many card/fusion/fm drop/deal/rng queries (JSON lines)"),
}


def children(group: tuple[str, ...]) -> dict[tuple[str, ...], tuple[str, str]]:
    """The listed commands one word below ``group`` (``()``: the top level), in order."""
    return {path: entry for path, entry in COMMANDS.items()
            if len(path) == len(group) + 1 and path[:len(group)] == group}


def wanted(path: tuple[str, ...], lines: Sequence[Sequence[str]] | None) -> bool:
    """Whether a parser for the command lines ``lines`` (their words; None: every command)
    must hold command ``path`` in full rather than only list it."""
    return lines is None or any(tuple(words[:len(path)]) == path for words in lines)


def add_command(sub: argparse._SubParsersAction, *path: str,
                **kwargs: Any) -> argparse.ArgumentParser:
    """The parser of the listed command ``path`` in the group's ``sub``, with its help from
    :data:`COMMANDS`."""
    return sub.add_parser(path[-1], help=COMMANDS[path][1], **kwargs)
