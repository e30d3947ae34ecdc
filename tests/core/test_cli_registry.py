"""The command registry (emucore/commands.py): ``emucore --help`` lists every command from the
registry alone, and a command line imports only the modules that build the commands it names.

Source of the expected helps: the parser every module builds in full (``build_parser()``), so
the lists shown without importing a module say what the module itself says.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from emucore import commands
from emucore.cli import build_parser, command_words, main

HEAVY = ("emucore.fm.engine", "emucore.fm.ai.cli", "emucore.dm1.duel", "emucore.paper.engine",
         "emucore.planning.cli", "pygame", "matplotlib", "dask")


def _helps(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
           ) -> dict[tuple[str, ...], str | None]:
    """Every command path the parser lists, with the help its group shows for it."""
    out: dict[tuple[str, ...], str | None] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            shown = {a.dest: a.help for a in action._choices_actions}
            for name, child in action.choices.items():
                out[(*path, name)] = shown[name]
                out |= _helps(child, (*path, name))
    return out


def test_lists_without_building_show_what_the_modules_show():
    full = _helps(build_parser())
    for line in ([], ["fm"], ["card", "fm", "1"], ["fm", "drop"], ["plan", "rank"],
                 ["fm", "sim"], ["dm1"]):
        listed = _helps(build_parser([line]))
        assert {p: h for p, h in full.items() if p in listed} == listed, line
        # every command of each group the line opens is listed (a command a module adds
        # without a registry entry would be missing from its group's help)
        opened = [p for p in full if tuple(line[:len(p) - 1]) == p[:-1]]
        assert set(opened) <= set(listed), line
    assert set(commands.COMMANDS) <= set(full)


@pytest.mark.parametrize("argv", [["--help"], ["fm", "drop", "--duelist", "1", "--pool",
                                              "bcd", "--index", "5"],
                                  ["rng", "index", "0x1474D436"], ["card", "fm", "1"]])
def test_small_commands_import_no_engine(argv):
    code = ("import sys\nfrom emucore.cli import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit:\n    pass\n"
            f"print([m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          check=True)
    assert done.stderr.strip().splitlines()[-1] == "[]"


def test_command_words_are_the_non_options():
    assert command_words(["fm", "drop", "--duelist", "1", "--json"]) == ["fm", "drop", "1"]


def test_a_named_command_missing_from_the_list_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["fm", "nosuch"])
    assert exc.value.code == 2
    assert "invalid choice: 'nosuch'" in capsys.readouterr().err


@pytest.mark.parametrize(("given", "used"), [(None, "1"), ("4", "4")])
def test_blas_runs_one_thread_unless_the_user_chose(given, used):
    """numpy's OpenBLAS pool costs start-up time and emucore calls no BLAS routine."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given:
        env["OPENBLAS_NUM_THREADS"] = given
    code = ("import os, sys\nfrom emucore.cli import main\nmain(['rng', 'at', '1'])\n"
            "print(os.environ['OPENBLAS_NUM_THREADS'])")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.splitlines()[-1] == used
