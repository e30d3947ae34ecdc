"""``emucore ocg1999 ...`` and ``emucore tcglite ...``: output, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emucore.cli import main


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("system", ["ocg1999", "tcglite"])
def test_duel_json_is_complete_and_deterministic(capsys, system: str) -> None:
    code, out, _ = _run(capsys, system, "duel", "--seed", "0x10", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["winner"] in (-1, 0, 1) and data["reason"] in ("lp", "deck_out", "both_lp")
    assert data["events"][0]["kind"] == "started" and data["events"][-1]["kind"] == "ended"
    _, again, _ = _run(capsys, system, "duel", "--seed", "16", "--json")
    assert json.loads(again)["digest"] == data["digest"]


def test_duel_text_names_cards(capsys) -> None:
    code, out, _ = _run(capsys, "tcglite", "duel", "--seed", "3", "--first", "1")
    assert code == 0 and "result: player" in out and "digest:" in out
    assert "draw side=" in out and "card=" in out


def test_script_then_auto(capsys, tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"kind": "summon", "hand": 0, "position": 0},
                                  {"kind": "end_turn"}]))
    code, out, _ = _run(capsys, "tcglite", "duel", "--first", "0", "--script", str(script),
                        "--json")
    data = json.loads(out)
    assert code == 0 and data["winner"] is None and data["turns"] == 2
    assert [e["kind"] for e in data["events"]].count("placed") == 1
    code, out, _ = _run(capsys, "tcglite", "duel", "--first", "0", "--script", str(script),
                        "--auto", "--json")
    assert json.loads(out)["winner"] is not None


@pytest.mark.parametrize("system", ["ocg1999", "tcglite"])
def test_an_unfinished_script_prints_readable_text(capsys, tmp_path: Path, system: str) -> None:
    """A scripted duel that does not end: exit 0, the events and "result: unfinished"."""
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"kind": "next_phase"}, {"kind": "next_phase"}]))
    code, out, err = _run(capsys, system, "duel", "--seed", "7", "--script", str(script))
    assert code == 0 and err == ""
    assert "result: unfinished (running)" in out and "digest:" in out


def test_an_illegal_scripted_action_is_one_line_exit_2(capsys, tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"kind": "attack", "zone": 0, "target": -1}]))
    code, out, err = _run(capsys, "tcglite", "duel", "--script", str(script))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "step 1 (attack)" in err and "[phase]" in err


MONSTERS = ("Kurama", "Haniwa", "Tomozaurus", "Dark Gray", "Nemuriko", "Meotoko", "Silver Fang",
            "Mammoth Graveyard", "Eyearmor", "Thunder Kid", "Fire Reaper", "Firegrass",
            "Petit Dragon", "Hitodenchak")
FORTY_TWO = "".join(f"3x {name}\n" for name in MONSTERS)


@pytest.mark.parametrize(("deck", "words"), [
    ("".join(f"3x {name}\n" for name in MONSTERS[:13]), "[deck-size]"),  # 39 cards
    (FORTY_TWO + "[side]\n3x Sparks\n", "[side-deck-size]"),
    (FORTY_TWO + "Kurama\n", "[max-copies]"),
    (FORTY_TWO + "[side]\nKurama\n" + "Sparks\n" * 3 + "Hinotama\n" * 3 + "Raigeki\n" * 3,
     "4 copies of Kurama"),
    ("Kurama\nExodia\n", "line 2: unknown card 'Exodia'"),
])
def test_bad_deck_files(capsys, tmp_path: Path, deck: str, words: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(deck)
    code, _, err = _run(capsys, "ocg1999", "duel", "--deck0", str(path))
    assert code == 2 and words in err and err.count("\n") == 1


def test_deck_file_with_sections_and_sharp_names(capsys, tmp_path: Path) -> None:
    magician = "\n".join(["# my deck", "2x Dark Magician", "3 x Hitotsu-Me Giant",
                          "3x Mystical Sheep #2  # a name with a sharp",
                          "3x Rock Ogre Grotto #2", "3x Fiend Reflection #2", "3x Kurama",
                          "3x Haniwa", "3x Tomozaurus", "3x Dark Gray", "3x Nemuriko",
                          "3x Meotoko", "3x Silver Fang", "3x Mammoth Graveyard",
                          "2x Polymerization", "[side]", "3x Sparks", "3x Hinotama",
                          "3x Red Medicine", "Raigeki", "[fusion]", "Fusionist"])
    path = tmp_path / "deck.txt"
    path.write_text(magician)
    code, out, err = _run(capsys, "ocg1999", "duel", "--deck0", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["winner"] in (-1, 0, 1)


def test_replay_record_verify_and_a_tampered_file(capsys, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    code, out, _ = _run(capsys, "ocg1999", "replay", "record", "--seed", "4", "--ante",
                        "--out", str(path))
    assert code == 0 and "recorded" in out
    code, out, _ = _run(capsys, "ocg1999", "replay", "verify", str(path))
    assert code == 0 and "agree" in out
    data = json.loads(path.read_text())
    data["steps"][2]["action"] = {"kind": "end_turn"}
    path.write_text(json.dumps(data))
    code, out, _ = _run(capsys, "ocg1999", "replay", "verify", str(path), "--json")
    result = json.loads(out)
    assert code == 1 and result["mismatch"]["step"] in (3, 4)
    path.write_text("{broken")
    code, _, err = _run(capsys, "ocg1999", "replay", "verify", str(path))
    assert code == 2 and "not valid JSON" in err


def test_a_tcglite_replay_is_not_an_ocg1999_replay(capsys, tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    _run(capsys, "tcglite", "replay", "record", "--out", str(path))
    code, out, _ = _run(capsys, "ocg1999", "replay", "verify", str(path))
    assert code == 1 and "not 'ocg1999'" in out


def test_match_json(capsys) -> None:
    code, out, _ = _run(capsys, "ocg1999", "match", "--seed", "3", "--ante", "--wager0",
                        "gold", "--wager1", "silver,bronze", "--json")
    data = json.loads(out)
    assert code == 0 and data["winner"] in (-1, 0, 1) and 2 <= len(data["duels"]) <= 3
    assert sum(data["chips"]) == 0 and data["chips"] in ([6, -6], [-10, 10], [0, 0])


def test_match_bad_wager_and_unknown_deck(capsys) -> None:
    code, _, err = _run(capsys, "ocg1999", "match", "--wager0", "ruby")
    assert code == 2 and "ruby" in err
    code, _, err = _run(capsys, "tcglite", "duel", "--deck1", "joey")
    assert code == 2 and "unknown tcglite deck 'joey'" in err


@pytest.mark.parametrize(("system", "deck"), [("ocg1999", "dragon"), ("ocg1999", "magician"),
                                              ("tcglite", "kaiba")])
def test_deck_prints_a_deck_file_that_reads_back(capsys, tmp_path: Path, system: str,
                                                 deck: str) -> None:
    code, text, _ = _run(capsys, system, "deck", deck)
    assert code == 0
    path = tmp_path / "copy.deck"
    path.write_text(text)
    _, again, _ = _run(capsys, system, "deck", str(path))
    assert again == text
    data = json.loads(_run(capsys, system, "deck", deck, "--json")[1])
    assert sum(r["copies"] for r in data["main"]) >= 19


def test_deck_check_names_the_rule(capsys, tmp_path: Path) -> None:
    path = tmp_path / "bad.deck"
    path.write_text("4x Kurama\n" + FORTY_TWO)
    code, _, err = _run(capsys, "ocg1999", "deck", str(path))
    assert code == 2 and "[max-copies]" in err and str(path) in err


def test_a_replay_of_an_older_engine_is_refused_in_one_line(capsys, tmp_path: Path) -> None:
    """Replays store the engine version; one recorded before a rule change is refused."""
    from emucore.paper.replay import ENGINE_VERSION

    path = tmp_path / "old.json"
    _run(capsys, "ocg1999", "replay", "record", "--seed", "2", "--out", str(path))
    data = json.loads(path.read_text())
    data["engine_version"] = ENGINE_VERSION - 1
    path.write_text(json.dumps(data))
    code, out, _ = _run(capsys, "ocg1999", "replay", "verify", str(path))
    assert code == 1 and out.count("\n") == 1
    assert f"engine version {ENGINE_VERSION - 1}, this emucore is {ENGINE_VERSION}" in out
