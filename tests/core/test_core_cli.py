"""The core commands as a user runs them: output, --json, and one-line errors with exit 2."""

from __future__ import annotations

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
