"""Bindings, keyboard -> pad words, pad scripts, saves and the CLI's one-line errors."""

from __future__ import annotations

import json

import pygame
import pytest

from emucore.cli import main
from emucore.duel import padlog as script
from emucore.duel.files import UserFileError
from emucore.frontend import bindings
from emucore.frontend.input import InputManager
from emucore.frontend.storage import SaveFile


def test_default_bindings_parse_for_both_machines(pg):
    for name in ("psx", "gb"):
        parsed, warning = bindings.load(name)
        assert warning is None
        assert all(parsed.players["1"][b] for b in ("up", "start", "select"))
    table = dict(bindings.keyboard_table("psx"))
    assert table["cross"] == ["z"] and table["start"] == ["return"]


def test_bad_bindings_file_uses_defaults_and_is_left_untouched(pg, user_dirs):
    path = user_dirs / "config" / "bindings.json"
    path.parent.mkdir(parents=True)
    text = json.dumps({"psx": {"1": {"cross": ["key:nosuchkey"]}}})
    path.write_text(text)
    parsed, warning = bindings.load("psx")
    assert "psx player 1 cross: unknown key name 'nosuchkey'" in warning
    assert "using the default bindings" in warning and "\n" not in warning
    assert parsed.players["1"]["cross"][0] == bindings.parse_source("key:z")
    assert path.read_text() == text


@pytest.mark.parametrize(("data", "message"), [
    ({"snes": {}}, "unknown section 'snes'"),
    ({"gb": {"3": {}}}, "unknown player '3'"),
    ({"gb": {"1": {"cross": ["key:z"]}}}, "unknown button 'cross'"),
    ({"psx": {"1": {"cross": "key:z"}}}, "must be a list"),
    ({"psx": {"1": {"cross": ["pad:top"]}}}, "unknown pad position 'top'"),
    ({"psx": {"1": {"cross": ["joy:axis:x"]}}}, "bad joystick binding"),
    ({"hotkeys": {"pause": ["mouse:1"]}}, "does not start with key:, pad: or joy:")])
def test_bindings_validation_messages(pg, user_dirs, data, message):
    path = user_dirs / "bindings.json"
    path.write_text(json.dumps(data))
    _, warning = bindings.load("psx", path)
    assert message in warning


def test_malformed_json_bindings(pg, user_dirs):
    path = user_dirs / "bindings.json"
    path.write_text("{not json")
    parsed, warning = bindings.load("gb", path)
    assert "not valid JSON" in warning and parsed.machine == "gb"


def test_user_override_changes_only_that_button(pg, user_dirs):
    path = user_dirs / "bindings.json"
    path.write_text(json.dumps({"psx": {"1": {"cross": ["key:space", "pad:south"]}}}))
    parsed, warning = bindings.load("psx", path)
    assert warning is None
    manager = InputManager(parsed)
    manager.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    assert manager.word("1") == 0xBFFF
    manager.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z))  # no longer cross
    assert manager.word("1") == 0xBFFF


def test_keyboard_builds_both_players_words(pg):
    manager = InputManager(bindings.load("psx")[0])
    for key in (pygame.K_UP, pygame.K_RETURN, pygame.K_n):
        manager.handle(pygame.event.Event(pygame.KEYDOWN, key=key))
    assert manager.word("1") == 0xFFFF & ~(1 << 4) & ~(1 << 3)
    assert manager.word("2") == 0xBFFF
    manager.end_frame()
    manager.handle(pygame.event.Event(pygame.KEYUP, key=pygame.K_UP))
    assert manager.word("1") == 0xFFF7
    manager.handle(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert manager.word("1") == 0xFFFF


def test_a_tap_shorter_than_a_frame_is_seen_for_one_frame(pg):
    manager = InputManager(bindings.load("psx")[0])
    manager.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z))  # cross
    manager.handle(pygame.event.Event(pygame.KEYUP, key=pygame.K_z))
    assert manager.word("1") == 0xBFFF  # pressed and released between two frames: still seen
    manager.end_frame()
    assert manager.word("1") == 0xFFFF  # and released on the next frame


def test_hotkeys(pg):
    manager = InputManager(bindings.load("gb")[0])
    assert manager.hotkey(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11)) == "fullscreen"
    assert manager.hotkey(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z)) is None


def test_pad_script_parses_names_and_words():
    lines = [(1, "0 -"), (2, "10 cross+up 0x7FFF"), (3, "12 -"), (4, "30 end")]
    parsed = script.parse("psx", lines, "t.pad")
    assert parsed.end == 30
    assert parsed.words_at(5)[0] == (0xFFFF, 0xFFFF)
    assert parsed.words_at(11)[0] == (0xFFFF & ~(1 << 14) & ~(1 << 4), 0x7FFF)
    assert parsed.words_at(12)[0] == (0xFFFF, 0xFFFF)


@pytest.mark.parametrize(("text", "message"), [
    ("0 -\n0 cross\n", "line 2: frames must increase"),
    ("0 jump\n", "line 1: unknown psx button 'jump'"),
    ("0 0x1FFFF\n", "line 1: pad word 0x1FFFF out of range"),
    ("x cross\n", "line 1: frame 'x' is not a number"),
    ("5 a b c\n", "line 1: expected: FRAME PAD1 [PAD2]"),
    ("# only a comment\n", "no pad lines")])
def test_bad_pad_scripts(tmp_path, text, message):
    path = tmp_path / "bad.pad"
    path.write_text(text)
    with pytest.raises(UserFileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        script.load("psx", path)


def test_cli_bad_script_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.pad"
    path.write_text("0 jump\n")
    assert main(["play", "--headless", "--script", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.pad: line 1: unknown psx button 'jump'" in err


def test_cli_missing_script_file(tmp_path, capsys):
    assert main(["play", "--headless", "--script", str(tmp_path / "none.pad")]) == 2
    assert "none.pad: no such file" in capsys.readouterr().err


def test_cli_unknown_system(capsys):
    assert main(["play", "--system", "snes", "--headless", "--script", "x"]) == 2
    assert "unknown system 'snes'" in capsys.readouterr().err


def test_cli_headless_needs_script(capsys):
    assert main(["play", "--headless"]) == 2
    assert "--headless needs --script" in capsys.readouterr().err


def test_cli_missing_display_points_to_headless(monkeypatch, capsys):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["play"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no display" in err and "--headless" in err


def _check(data):
    if not isinstance(data, dict) or "trunk" not in data:
        raise ValueError("no trunk")


def test_corrupt_save_is_moved_aside_never_overwritten(user_dirs):
    save = SaveFile("fm", _check)
    save.path.parent.mkdir(parents=True)
    save.path.write_text("{broken")
    data, message = save.load()
    assert data is None and "corrupt save" in message and "save.json.corrupt-1" in message
    assert (save.path.parent / "save.json.corrupt-1").read_text() == "{broken"
    assert not save.path.exists()
    save.save({"trunk": [1]})
    assert save.load() == ({"trunk": [1]}, None)
    save.path.write_text('{"deck": []}')
    data, message = save.load()
    assert "no trunk" in message and (save.path.parent / "save.json.corrupt-2").exists()


def test_save_refuses_to_write_invalid_data(user_dirs):
    save = SaveFile("fm", _check)
    with pytest.raises(ValueError):
        save.save({"deck": []})
    assert not save.path.exists()


def test_write_bindings_never_overwrites(pg, user_dirs, capsys):
    target = user_dirs / "config" / "bindings.json"
    assert main(["play", "--write-bindings"]) == 0
    assert json.loads(target.read_text()) == bindings.DEFAULTS
    assert bindings.load("psx", target)[1] is None
    target.write_text("{}")
    assert main(["play", "--write-bindings"]) == 0
    assert target.read_text() == "{}" and "kept the existing" in capsys.readouterr().out


def test_record_then_replay_gives_the_same_frames(tmp_path, monkeypatch, capsys):
    script_file = tmp_path / "in.pad"
    script_file.write_text("0 -\n5 start\n7 -\n9 cross\n11 -\n13 down\n15 -\n40 end\n")
    record = tmp_path / "rec.pad"
    assert main(["play", "--headless", "--script", str(script_file), "--record", str(record),
                 "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert record.read_text().splitlines()[-1] == "40 end"
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "other"))
    assert main(["play", "--headless", "--script", str(record), "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert first["framebuffer_sha256"] == second["framebuffer_sha256"]
    assert first["frames"] == second["frames"] == 40 and second["screen"] == "NameEntryScreen"
