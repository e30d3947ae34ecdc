"""A corrupt or unreadable save is moved aside before a new save is written, never
overwritten, and the player is told where it went; for every system's save.

Sources: the issue's reproduction (an invalid FM save ``{"old":"save"}``, then New Game and
Save in the frontend overwrote it) and the README's promise "a corrupt save is moved aside,
never overwritten"; the house rule that a move never replaces an existing file.
"""

from __future__ import annotations

import errno
import json
import os

import pytest
from frontend_fmdriver import choose, enter_name, press, screen_name

from emucore.duel import files
from emucore.frontend.storage import SaveFile
from emucore.frontend.systems import dm1, fm
from emucore.frontend.systems import ocg1999 as paper
from emucore.frontend.systems.fm.session import validate_save
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.ai import choose as paper_ai

OLD = b'{"old":"save"}'


def _bad_save(user_dirs, system: str, content: bytes = OLD):
    path = user_dirs / "data" / system / "save.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    return path


def test_fm_new_game_then_save_keeps_the_invalid_save_aside(headless_app, user_dirs, capsys):
    """The issue's steps through the pad: title, New Game (the bad save is never loaded),
    main menu, Save."""
    path = _bad_save(user_dirs, "fm")
    app = headless_app("psx", "fm")
    app.switch(fm.title_screen(app))
    press(app, "start")
    assert app.screen.menu.items == ["Continue", "New Game"]
    choose(app, 1)  # New Game
    enter_name(app)
    assert screen_name(app) == "MainMenu"
    choose(app, 5)  # Save
    aside = path.with_name("save.json.corrupt-1")
    assert aside.read_bytes() == OLD
    validate_save(json.loads(path.read_text()))
    assert f"{path}: corrupt save (not an emucore fm save" in app.notices[-1]
    assert "kept as save.json.corrupt-1" in app.notices[-1] and "Saved to" in app.notices[-1]
    assert "kept as save.json.corrupt-1" in capsys.readouterr().err


def test_dm1_new_game_then_save_keeps_the_invalid_save_aside(headless_app, user_dirs):
    path = _bad_save(user_dirs, "dm1")
    app = headless_app("gb", "dm1")
    app.switch(dm1.title_screen(app))
    press(app, "start")
    press(app, "down")
    press(app, "a")  # New Game (under Continue)
    assert isinstance(app.screen, dm1.MainMenu)
    press(app, "down")
    press(app, "down")
    press(app, "a")  # Save
    assert path.with_name("save.json.corrupt-1").read_bytes() == OLD
    dm1.validate_save(json.loads(path.read_text()))
    assert "kept as save.json.corrupt-1" in app.notices[-1] and "Saved" in app.notices[-1]


def test_paper_unreadable_save_is_left_at_load_and_kept_aside_at_the_next_save(
        headless_app, user_dirs):
    """A save that cannot be read (here not UTF-8) stays where it is when the game starts;
    the record saved after a duel against the computer moves it aside first."""
    content = b"\xff\xfe not text"
    path = _bad_save(user_dirs, "ocg1999", content)
    app = headless_app("psx", "ocg1999")
    app.switch(paper.title_screen(app))
    assert "cannot read the save" in app.notices[-1] and path.read_bytes() == content
    game = app.screen.game
    duel = OCG.new_duel(1)
    while not duel.over:
        duel.step(paper_ai(duel))
    app.switch(paper.ResultScreen(game, duel, {0}, None))
    assert path.with_name("save.json.corrupt-1").read_bytes() == content
    assert json.loads(path.read_text())["version"] == paper.SAVE_VERSION
    assert f"{path}: unreadable save (not UTF-8 text" in app.notices[-1]
    assert "kept as save.json.corrupt-1" in app.notices[-1]


def _check(data):
    if not isinstance(data, dict) or "n" not in data:
        raise ValueError("not a test save")


def test_a_taken_aside_name_is_never_replaced(tmp_path):
    save = SaveFile("test", _check, folder=tmp_path)
    save.path.write_bytes(OLD)
    first = tmp_path / "save.json.corrupt-1"
    first.write_text("an earlier corrupt save")
    assert save.save({"n": 1})
    assert first.read_text() == "an earlier corrupt save"
    assert (tmp_path / "save.json.corrupt-2").read_bytes() == OLD
    assert "kept as save.json.corrupt-2" in save.report()


def test_a_good_save_is_replaced_and_our_own_file_is_not_read_again(tmp_path, monkeypatch):
    save = SaveFile("test", _check, folder=tmp_path)
    assert save.save({"n": 1}) and save.save({"n": 2})
    assert json.loads(save.path.read_text()) == {"n": 2}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]
    assert save.notice is None and save.report("Saved") == "Saved"
    other = SaveFile("test", _check, folder=tmp_path)  # a good save it did not write
    assert other.save({"n": 3}) and sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]
    monkeypatch.setattr(SaveFile, "_examine", lambda self: pytest.fail("read again"))
    assert other.save({"n": 4})


def test_without_hard_links_the_move_claims_the_name_first(tmp_path, monkeypatch):
    """Where the file system has no hard links, the free name is claimed by an exclusive
    create, and only then is the save renamed onto it."""
    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    save = SaveFile("test", _check, folder=tmp_path)
    save.path.write_bytes(OLD)
    (tmp_path / "save.json.corrupt-1").write_text("taken")
    assert save.save({"n": 1})
    assert (tmp_path / "save.json.corrupt-1").read_text() == "taken"
    assert (tmp_path / "save.json.corrupt-2").read_bytes() == OLD


def test_a_bad_save_that_cannot_be_moved_is_not_overwritten(tmp_path, monkeypatch, capsys):
    def refuse(source, target):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(files, "rename_new", refuse)
    save = SaveFile("test", _check, folder=tmp_path)
    save.path.write_bytes(OLD)
    assert not save.save({"n": 1})
    assert save.path.read_bytes() == OLD and sorted(p.name for p in tmp_path.iterdir()) == [
        "save.json"]
    assert "could not be moved aside (read-only file system)" in save.report()
    assert "could not save" in capsys.readouterr().err
