"""The core commands as a user runs them: output, --json, and one-line errors with exit 2."""

from __future__ import annotations

import io
import json

import pytest

from emucore.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code)
    out, err = capsys.readouterr()
    return code, out, err


def test_rng_prints_the_boot_stream(capsys):
    code, out, _ = run(capsys, "rng", "--count", "5", "--json")
    data = json.loads(out)
    assert code == 0
    assert [r["value"] for r in data["calls"]] == [27155, 4859, 20868, 23650, 5236]
    assert data["calls"][-1]["state"] == "0x1474D436"


def test_rng_seed_accepts_hex_and_decimal(capsys):
    _, hex_out, _ = run(capsys, "rng", "--seed", "0x10", "--count", "2", "--json")
    _, dec_out, _ = run(capsys, "rng", "--seed", "16", "--count", "2", "--json")
    assert hex_out == dec_out


def test_rng_index_and_at_round_trip(capsys):
    code, out, _ = run(capsys, "rng", "at", "14810", "--json")
    state = json.loads(out)["state"]
    code, out, _ = run(capsys, "rng", "index", state, "--json")
    data = json.loads(out)
    assert code == 0 and data["index"] == 14810
    assert data["twin_index"] != 14810 and data["twin"] != state


def test_card_by_id_and_name(capsys):
    code, out, _ = run(capsys, "card", "fm", "blue-eyes white dragon", "--json")
    info = json.loads(out)
    assert code == 0 and info["id"] == 1 and info["atk"] == 3000
    assert info["guardian_stars"] == ["Sun", "Mars"]
    code, out, _ = run(capsys, "card", "fm", "1")
    assert "Blue-eyes White Dragon" in out


def test_fusion_found_and_not_found(capsys):
    code, out, _ = run(capsys, "fusion", "fm", "22", "31", "--json")
    assert code == 0 and json.loads(out)["result"] == 72
    code, out, _ = run(capsys, "fusion", "fm", "1", "1")
    assert code == 0 and "no fusion" in out


def test_tables_check_counts_every_system(capsys):
    code, out, _ = run(capsys, "tables", "check", "--json")
    counts = json.loads(out)
    assert code == 0 and counts["fm"]["fusions"] == 25146
    assert set(counts) == {"fm", "dm1", "ocg1999", "tcglite"}


@pytest.mark.parametrize(("argv", "message"), [
    (("card", "fm", "9999"), "card id 9999 outside 1..722"),
    (("card", "fm", "No Such Card"), "unknown card 'No Such Card'"),
    (("card", "pokemon", "1"), "invalid choice: 'pokemon'"),
    (("rng", "--seed", "0xZZ"), "malformed seed '0xZZ'"),
    (("rng", "--seed", "0x1FFFFFFFF"), "outside 0..4294967295"),
    (("fusion", "fm", "1", "nothing"), "unknown card 'nothing'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_bad_table_folder_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("EMUCORE_TABLES", str(tmp_path))
    code, _, err = run(capsys, "tables", "check")
    assert code == 2
    assert "missing table file" in err and len(err.strip().splitlines()) == 1


def test_every_command_offers_help_and_json():
    import argparse

    from emucore.cli import build_parser

    missing: list[str] = []

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        options = {o for a in parser._actions for o in a.option_strings}
        if "func" in parser._defaults and not {"--json", "--help"} <= options:
            missing.append(" ".join(path))
        for action in subs:
            for name, child in action.choices.items():
                walk(child, [*path, name])

    walk(build_parser(), ["emucore"])
    assert missing == []


@pytest.mark.parametrize(("argv", "message"), [
    # the two names; the spellings offered are roms_tables/<system>/cards.csv's
    (("card", "fm", "Blue Eyes White Dragon"),
     "fm: unknown card 'Blue Eyes White Dragon' (did you mean 'Blue-eyes White Dragon'?)"),
    (("card", "fm", "Kuribo"), "fm: unknown card 'Kuribo' (did you mean 'Kuriboh'?)"),
    (("card", "dm1", "Kuribo"), "dm1: unknown card 'Kuribo' (did you mean 'Kuriboh'?)"),
    (("card", "ocg1999", "dark magican"),
     "ocg1999: unknown card 'dark magican' (did you mean 'Dark Magician'?)"),
    (("card", "tcglite", "Summoned Skul"),
     "tcglite: unknown card 'Summoned Skul' (did you mean 'Summoned Skull'?)"),
    (("fusion", "fm", "Mystical Elf", "Kuribo"), "(did you mean 'Kuriboh'?)"),
    (("card", "fm", "xyzzy"), "fm: unknown card 'xyzzy'\n"),  # nothing close: no guess
    (("card", "fm", "q" * 5000), "fm: unknown card '" + "q" * 60 + "...'\n"),  # cut
])
def test_a_misspelled_card_gets_the_closest_names(capsys, argv, message):
    """The issue: misspelled card names got no suggestion. The message stays one line."""
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1
    assert message in err


def drop_states(capsys, path: str) -> tuple[int, str, str]:
    return run(capsys, "fm", "drop", "--duelist", "1", "--pool", "bcd", "--states", path)


def test_a_state_list_holds_at_most_max_states(capsys, monkeypatch, tmp_path):
    """``--states`` lists are bounded (emucore.cliutil.MAX_STATES, named in the help)."""
    monkeypatch.setattr("emucore.cliutil.MAX_STATES", 3)
    path = tmp_path / "states.txt"
    path.write_text("1\n# note\n2\n3\n")
    code, out, _ = drop_states(capsys, str(path))
    assert code == 0 and len(out.splitlines()) == 3
    path.write_text("1\n# note\n2\n3\n4\n")
    code, out, err = drop_states(capsys, str(path))
    assert code == 2 and out == ""
    assert err == f"emucore: error: {path}: line 5: more than 3 states\n"


@pytest.mark.parametrize(("data", "message"), [
    (b"1\n" + b"7" * 100_000 + b"\n2\n", "<stdin>: line 2: longer than 65536 characters"),
    (b"0x10\n\xff\xfe\n", "<stdin>: line 2: malformed state '\ufffd\ufffd' (decimal or 0x-hex)"),
])
def test_a_state_list_on_stdin_is_read_line_by_line(capsys, monkeypatch, data, message):
    """``--states -`` went through ``sys.stdin.read()``: no line bound, and bytes that are
    not UTF-8 were a traceback. Now each bad line is one error naming the line."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code, out, err = drop_states(capsys, "-")
    assert code == 2 and out == ""
    assert err == f"emucore: error: {message}\n"


def test_a_state_list_file_is_read_through_the_reading_edge(capsys, tmp_path):
    code, _, err = drop_states(capsys, "/dev/zero")
    assert code == 2 and err == "emucore: error: /dev/zero: not a regular file\n"
    code, _, err = drop_states(capsys, str(tmp_path))
    assert code == 2 and err == f"emucore: error: {tmp_path}: is a folder, not a file\n"
