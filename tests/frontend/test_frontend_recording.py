"""Recordings replay: ``play --record`` names (and keeps) the save its session started from,
and replaying the recording uses that save even after the player's save changed (issue 17,
"Why" 9: a session that began with Continue replayed differently once the save changed)."""

from __future__ import annotations

import json

import pytest

from emucore import cli
from emucore.frontend.systems import dm1 as screens

# Title: Start, then Continue (the first item when a save exists), then Deck Edit (second item
# of the main menu): the last frame shows the saved deck.
CONTINUE_TO_DECK_EDIT = "0 -\n4 start\n5 -\n13 a\n14 -\n18 down\n19 -\n22 a\n23 -\n30 end\n"


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("EMUCORE_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "data"


def _save_game(rng: int) -> None:
    game = screens.Dm1Game()
    game.rng = rng
    game.new_game()
    assert game.save()


def _play(capsys, *argv) -> tuple[int, dict | str]:
    code = cli.main(["play", "--headless", "--system", "dm1", "--json", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else err


def test_a_recording_after_continue_replays_after_the_save_changed(data, tmp_path, capsys):
    script, rec = tmp_path / "s.pad", tmp_path / "rec.pad"
    script.write_text(CONTINUE_TO_DECK_EDIT)
    _save_game(0x1234)
    code, first = _play(capsys, "--script", script, "--record", rec)
    assert code == 0 and first["screen"] == "DeckEdit"
    assert rec.read_text().startswith("# emucore recording: system dm1 save ")
    assert (tmp_path / "rec.pad.save.json").is_file()

    _save_game(0x9876)  # the player plays on: another deck in the save
    player_save = (data / "dm1" / "save.json").read_bytes()
    code, again = _play(capsys, "--script", rec)
    assert code == 0
    assert (again["frames"], again["framebuffer_sha256"]) == \
        (first["frames"], first["framebuffer_sha256"])
    assert (data / "dm1" / "save.json").read_bytes() == player_save  # never written over

    code, plain = _play(capsys, "--script", script)  # the same pad words on today's save
    assert code == 0 and plain["framebuffer_sha256"] != first["framebuffer_sha256"]


def test_a_recording_refuses_to_replay_without_its_save(data, tmp_path, capsys):
    script, rec = tmp_path / "s.pad", tmp_path / "rec.pad"
    script.write_text(CONTINUE_TO_DECK_EDIT)
    _save_game(7)
    assert _play(capsys, "--script", script, "--record", rec)[0] == 0
    store = tmp_path / "rec.pad.save.json"
    store.write_bytes(store.read_bytes().replace(b'"rng"', b'"rng" ', 1))
    code, err = _play(capsys, "--script", rec)
    assert code == 2 and "not the save the recording started from" in err
    store.unlink()
    code, err = _play(capsys, "--script", rec)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "rec.pad.save.json" in err
    code, err = _play(capsys, "--script", rec, "--system", "fm")
    assert code == 2


def test_a_recording_without_a_save_starts_without_one(data, tmp_path, capsys):
    script, rec = tmp_path / "s.pad", tmp_path / "rec.pad"
    script.write_text("0 -\n4 start\n5 -\n12 end\n")
    assert _play(capsys, "--script", script, "--record", rec)[0] == 0
    assert " save none" in rec.read_text().splitlines()[0]
    _save_game(3)
    code, again = _play(capsys, "--script", rec)
    assert code == 0
