"""The journal edge (``emucore.duel.files``, section "journals") that ``plan route`` writes and
resumes from: an appender that never follows a link and never shares a file, and a bounded
line reader.

Source of the expectations: the house rules for user files (a regular file only, bounded
reads, one line naming the file and the line for a bad one) and POSIX ``open(2)``: with
``O_EXCL`` a name that exists is refused, with ``O_NOFOLLOW`` a symbolic link is refused
(``ELOOP``), with ``O_APPEND`` every write lands at the end.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from emucore.duel.files import Journal, UserFileError, journal_records


def records(path: Path, longest: int | None = None) -> list[tuple[int, object]]:
    return list(journal_records(path) if longest is None else journal_records(path, longest))


def test_records_are_whole_lines_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "j.part"
    with Journal(path, new=True) as journal:
        assert journal.empty
        journal.append({"header": 1})
        journal.append([1, 2])
        assert not journal.empty
    assert path.read_bytes() == b'{"header":1}\n[1,2]\n'
    assert records(path) == [(1, {"header": 1}), (2, [1, 2])]


def test_a_new_journal_never_takes_an_existing_name(tmp_path: Path) -> None:
    """Two runs never share a journal: the second is refused, the first's file untouched."""
    path = tmp_path / "j.part"
    path.write_text("a run's records\n")
    with pytest.raises(UserFileError, match="already exists"):
        Journal(path, new=True)
    assert path.read_text() == "a run's records\n"


def test_a_link_is_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("precious\n")
    link = tmp_path / "j.part"
    link.symlink_to(target)
    for new in (True, False):
        with pytest.raises(UserFileError, match="is a symbolic link"):
            Journal(link, new=new)
    with pytest.raises(UserFileError, match="is a symbolic link"):
        records(link)
    assert target.read_text() == "precious\n"


def test_reopening_cuts_a_torn_last_line(tmp_path: Path) -> None:
    """A kill in mid-record leaves a line without its newline: the reader leaves it out and
    reopening cuts it, so the next record starts a line of its own."""
    path = tmp_path / "j.part"
    path.write_bytes(b'{"a":1}\n{"b":')
    assert records(path) == [(1, {"a": 1})]
    with Journal(path, new=False) as journal:
        journal.append({"c": 3})
    assert path.read_bytes() == b'{"a":1}\n{"c":3}\n'
    path.write_bytes(b'{"torn header')
    with Journal(path, new=False) as journal:
        assert journal.empty


@pytest.mark.parametrize(("data", "words"), [
    (b'{"a":1}\nnot json\n', "line 2: not valid JSON"),
    (b'{"a":1}\n\xff\n', "line 2: not UTF-8 text"),
    (b'{"a":1}\n' + b"[" * 40 + b"]" * 40 + b"\n", "line 2: not valid JSON (nested deeper"),
    (b'{"a":1}\n' + b"9" * 40 + b"\n", "line 2: a number has more than 24 digits"),
    (b'{"a":1}\n[NaN]\n', "line 2: not valid JSON"),
    (b'{"a":1}\n' + b" " * 200 + b"\n", "line 2: longer than 100 bytes"),
])
def test_a_bad_line_names_the_journal_and_the_line(tmp_path: Path, data: bytes,
                                                   words: str) -> None:
    path = tmp_path / "j.part"
    path.write_bytes(data)
    with pytest.raises(UserFileError) as refusal:
        records(path, longest=100)
    assert str(refusal.value).startswith(f"{path}: {words}")


def test_only_a_regular_file_is_read(tmp_path: Path) -> None:
    """A FIFO would block the reader and a folder is no journal: both refused at once."""
    fifo = tmp_path / "fifo.part"
    os.mkfifo(fifo)
    done: list[str] = []

    def read() -> None:
        try:
            records(fifo)
        except UserFileError as exc:
            done.append(str(exc))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    assert done == [f"{fifo}: not a regular file"]
    with pytest.raises(UserFileError, match="is a folder"):
        records(tmp_path)
