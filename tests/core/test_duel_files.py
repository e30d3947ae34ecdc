"""User files: atomic writes that lose nothing, one-line errors for bad files."""

from __future__ import annotations

import pytest

from emucore.duel import files


def test_write_atomic_replaces_whole_file(tmp_path):
    target = tmp_path / "sub" / "save.json"
    files.write_atomic(target, "first")
    files.write_atomic(target, b"second")
    assert target.read_text() == "second"
    assert [p.name for p in target.parent.iterdir()] == ["save.json"]  # no temp file left


def test_write_atomic_keeps_old_file_when_writing_fails(tmp_path):
    target = tmp_path / "save.json"
    target.write_text("precious")

    class Boom:  # not bytes or str: the write itself fails
        pass

    with pytest.raises(TypeError):
        files.write_atomic(target, Boom())  # type: ignore[arg-type]
    assert target.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_read_json_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1,\n  oops}')
    with pytest.raises(files.UserFileError, match=r"bad.json: not valid JSON \(line 2"):
        files.read_json(bad)
    with pytest.raises(files.UserFileError, match="missing.json: no such file"):
        files.read_json(tmp_path / "missing.json")


def test_read_lines_drops_comments_and_blanks(tmp_path):
    deck = tmp_path / "my.deck"
    deck.write_text("\ufeff# my deck\n1  # Blue-eyes\n\n  Mystical Elf\n")
    assert files.read_lines(deck) == [(2, "1"), (4, "Mystical Elf")]
