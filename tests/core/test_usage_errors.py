"""Usage errors as the README promises them: "2 a bad file or argument (one line on stderr)".

Every ``emucore`` parser is an :class:`emucore.cliutil.Parser`: argparse's usage block is
shown by ``--help`` alone, and every kind of argparse error (a missing required argument, an
invalid choice, a malformed or out-of-range number, unknown arguments, two arguments that
exclude each other, an unknown command) is ONE line ``emucore <command>: error: MESSAGE (see
emucore <command> --help)`` and exit code 2. Names the user types (FM duelists, DM1
opponents) that match nothing get the closest names.

Sources: the issue's reproductions (``fm deal --duelist 99``, ``rng at -5``, ``fm drop ...
--pool sapow``, ``play --scale 0``, "Seto 3nd"), argparse's own messages, and the spellings of
roms_tables/fm/duelists.csv and roms_tables/dm1/opponents.csv.
"""

from __future__ import annotations

import argparse

import pytest

from emucore.cli import build_parser, main
from emucore.cliutil import Parser


def usage(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command line that must be a usage error; its stderr (checked to be one line)."""
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.count("\n") == 1 and err.endswith("\n") and "usage:" not in err, err
    return err.rstrip("\n")


DROP = ("fm", "drop", "--duelist", "1", "--pool", "bcd")


@pytest.mark.parametrize(("argv", "line"), [
    # the four command lines
    (("fm", "deal", "--duelist", "99"), "emucore fm deal: error: argument --duelist: duelist "
                                        "99 outside 1..39 (see emucore fm deal --help)"),
    (("rng", "at", "-5"), "emucore rng at: error: argument index: index -5 outside "
                          "0..4294967295 (see emucore rng at --help)"),
    (("fm", "drop", "--duelist", "1", "--index", "1", "--pool", "sapow"),
     "emucore fm drop: error: argument --pool: invalid choice: 'sapow' (did you mean "
     "'sa_pow'?) (see emucore fm drop --help)"),
    (("play", "--scale", "0"), "emucore play: error: argument --scale: scale 0 outside "
                               "1..10 (see emucore play --help)"),
    # every other kind of argparse error
    (("fm", "deal", "--duelist", "1"), "emucore fm deal: error: the following arguments are "
                                       "required: --deck, --sort (see emucore fm deal --help)"),
    (DROP, "emucore fm drop: error: one of the arguments --state --index --states is "
           "required (see emucore fm drop --help)"),
    ((*DROP, "--state", "1", "--index", "2"), "emucore fm drop: error: argument --index: not "
                                              "allowed with argument --state (see emucore fm "
                                              "drop --help)"),
    (("rng", "at", "x"), "emucore rng at: error: argument index: malformed index 'x' (decimal "
                         "or 0x-hex) (see emucore rng at --help)"),
    (("rng", "at", "1", "2"), "emucore rng at: error: unrecognized arguments: '2' (see emucore "
                              "rng at --help)"),
    ((*DROP, "--index", "1", "--bogus"), "emucore fm drop: error: unrecognized arguments: "
                                         "'--bogus' (see emucore fm drop --help)"),
    (("--bogus",), "emucore: error: unrecognized arguments: '--bogus' (see emucore --help)"),
    (("card", "pokemon", "1"), "emucore card: error: argument system: invalid choice: "
                               "'pokemon' (choose from 'fm', 'dm1', 'ocg1999', 'tcglite') "
                               "(see emucore card --help)"),
    (("fm", "nosuch"), "emucore fm: error: argument ACTION: invalid choice: 'nosuch' (choose "
                       "from 'deal', 'starter', 'drop', 'rank', 'duel', 'replay', 'sim', 'ai', "
                       "'effects') (see emucore fm --help)"),
    (("tables",), "emucore tables: error: the following arguments are required: ACTION (see "
                  "emucore tables --help)"),
])
def test_every_kind_of_usage_error_is_one_line(capsys, argv, line):
    assert usage(capsys, *argv) == line


def test_what_the_user_typed_is_cut_and_kept_on_one_line(capsys):
    err = usage(capsys, "rng", "at", "1", "a\nb", "c" * 10_000, "d", "e", "f")
    assert err == ("emucore rng at: error: unrecognized arguments: 'a\\nb', '"
                   + "c" * 60 + "...', 'd', 'e', ... (see emucore rng at --help)")
    err = usage(capsys, "card", "x" * 10_000, "1")
    assert "invalid choice: '" + "x" * 60 + "...'" in err and len(err) < 400


def test_help_still_shows_the_usage_block(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["fm", "deal", "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and out.startswith("usage: emucore fm deal")


def test_every_parser_of_the_tree_is_the_one_line_parser():
    """argparse gives sub-parsers their parent's class: no command builds its own."""
    def walk(parser: argparse.ArgumentParser, path: str) -> list[str]:
        wrong = [] if isinstance(parser, Parser) else [path]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    wrong += walk(child, f"{path} {name}")
        return wrong

    assert walk(build_parser(), "emucore") == []


@pytest.mark.parametrize(("argv", "message"), [
    (("plan", "drops", "--duelist", "Seto 3nd"),
     "emucore: error: unknown duelist 'Seto 3nd' (did you mean 'Seto 3rd' or 'Seto 2nd'?)"),
    (("plan", "drops", "--duelist", "heishn"),
     "emucore: error: unknown duelist 'heishn' (did you mean 'Heishin'?)"),
    (("plan", "drops", "--duelist", "Nobody"),
     "emucore: error: unknown duelist 'Nobody' (an id 1..39 or a name)"),
    (("plan", "drops", "--card", "Kuribo"),
     "emucore: error: unknown card 'Kuribo' (did you mean 'Kuriboh'?)"),
    (("dm1", "rewards", "--opponent", "Weevil Underwod"),
     "emucore dm1 rewards: error: argument --opponent: unknown opponent 'Weevil Underwod' "
     "(did you mean 'Weevil Underwood'?) (see emucore dm1 rewards --help)"),
    (("dm1", "drop", "--seed", "1", "--opponent", "Nobody"),
     "emucore dm1 drop: error: argument --opponent: unknown opponent 'Nobody' (an index 0..15 "
     "or a name, see `emucore dm1 opponents`) (see emucore dm1 drop --help)"),
    (("dm1", "stat", "Kuribo"),
     "emucore: error: dm1: unknown card 'Kuribo' (did you mean 'Kuriboh'?)"),
])
def test_a_misspelled_name_gets_the_closest_names(capsys, argv, message):
    """The issue: duelist names (fm) and DM1 opponent names got no suggestion."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and err == message + "\n"


def test_a_dm1_opponent_is_an_index_or_a_name(capsys):
    """opponents.csv: index 0 is "Weevil Underwood", the ROM's name "Weevil"."""
    answers = []
    for who in ("0", "Weevil Underwood", "weevil"):
        assert main(["dm1", "rewards", "--opponent", who, "--json"]) == 0
        answers.append(capsys.readouterr().out)
    assert answers[0] == answers[1] == answers[2] and '"opponent_name": "Weevil' in answers[0]
