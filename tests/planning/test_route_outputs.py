"""``plan route``'s outputs go through the writing edge and its journal through the journal
edge: every output checked before the work, nothing replaced without ``--force``, nothing
half-written left behind, and a bad journal one line naming the file and the line.

Source of every case: the reproductions listed in the hardening issue ("every command through
one reading edge and one writing edge": an existing ``--out`` or ``--plot`` replaced with exit
0, a symbolic link replaced, a traceback for a missing folder, a folder refused only after all
the work, a junk journal line reported without its file), and the README's promise that
outputs never replace a file without ``--force``.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from emucore import tables
from emucore.cli import main
from emucore.cliutil import UsageError
from emucore.planning import route, route_run, route_spec

FM = tables.load("fm")
SPEC = {"name": "tiny", "start": {"from": 0, "count": 4}, "chunk": 1,
        "link": [{"kind": "starter", "has": []},
                 {"kind": "duel", "duelist": 1, "frames": [0, 0]}]}


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(SPEC))
    return path


def plan_route(capsys: pytest.CaptureFixture[str], spec: Path, *extra: str
               ) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``plan route SPEC --jobs 1 EXTRA``."""
    code = main(["plan", "route", str(spec), "--jobs", "1", *extra])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], spec: Path, *extra: str) -> str:
    """Exit 2 and one line on stderr, at once (before any duel: well under a second)."""
    began = time.perf_counter()
    code, _, err = plan_route(capsys, spec, *extra)
    assert code == 2 and err.count("\n") == 1, err
    assert time.perf_counter() - began < 5
    return err


def stopped_run(spec_file: Path, out: Path, chunks: int = 2) -> Path:
    """The journal of a run stopped (Ctrl-C) after ``chunks`` chunks."""
    spec = route_spec.load(spec_file, FM)

    def some_then_stop(todo: Iterator[tuple[int, int]]) -> Iterator[route.Chunk]:
        for start, count in islice(todo, chunks):
            yield route.search_chunk(spec, start, count)
        raise KeyboardInterrupt

    assert not route_run.run(spec, out, some_then_stop).finished
    return route_run.journal_path(out)


def test_an_existing_out_or_plot_is_not_replaced_without_force(
        tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Both were replaced with exit 0; now refused before the work, and replaced only with
    ``--force`` (the routes file and a PNG then)."""
    precious, old = tmp_path / "precious.txt", tmp_path / "old.png"
    precious.write_text("precious\n")
    old.write_text("old chart\n")
    err = refused(capsys, spec, "--out", str(precious))
    assert f"{precious}: already exists (pass --force to replace it)" in err
    err = refused(capsys, spec, "--out", str(tmp_path / "new.jsonl"), "--plot", str(old))
    assert f"{old}: already exists" in err
    assert precious.read_text() == "precious\n" and old.read_text() == "old chart\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.png", "precious.txt",
                                                         "tiny.json"]
    code, _, _ = plan_route(capsys, spec, "--out", str(precious), "--plot", str(old),
                            "--force")
    assert code == 0 and json.loads(precious.read_text().splitlines()[0])["index"] in range(4)
    assert old.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_symbolic_link_is_refused_even_with_force(
        tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--out link`` replaced the link itself; a link is never written through or over."""
    target = tmp_path / "precious.txt"
    target.write_text("precious\n")
    link = tmp_path / "link"
    link.symlink_to(target)
    err = refused(capsys, spec, "--out", str(link), "--force")
    assert f"{link}: is a symbolic link" in err
    assert link.is_symlink() and target.read_text() == "precious\n"
    journal_link = tmp_path / "j.jsonl.part"
    journal_link.symlink_to(target)
    err = refused(capsys, spec, "--out", str(tmp_path / "j.jsonl"), "--resume")
    assert f"{journal_link}: is a symbolic link" in err and target.read_text() == "precious\n"


def test_a_missing_folder_is_one_line(tmp_path: Path, spec: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``--out nodir/sub/x.jsonl`` was a traceback (FileNotFoundError on the ``.part``): the
    folder is not created (a mistyped path), the message says so."""
    err = refused(capsys, spec, "--out", str(tmp_path / "nodir" / "sub" / "x.jsonl"))
    assert f"no folder {tmp_path / 'nodir' / 'sub'} (create it first)" in err
    err = refused(capsys, spec, "--out", str(tmp_path / "o.jsonl"), "--plot",
                  str(tmp_path / "tiny.json" / "x.png"))
    assert "tiny.json is not a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.json"]


def test_a_folder_is_refused_before_the_work(tmp_path: Path, spec: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``--out outdir`` was refused only after all the work, leaving ``outdir.part``."""
    (tmp_path / "outdir").mkdir()
    err = refused(capsys, spec, "--out", str(tmp_path / "outdir"))
    assert "outdir: is a folder, not a file" in err
    assert not (tmp_path / "outdir.part").exists()


def test_a_device_or_a_fifo_is_never_replaced(tmp_path: Path, spec: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``--force`` replaces a file, never a FIFO or a device: a regular file was renamed
    over it (as root, ``--out /dev/null --force`` would replace the device; only the FIFO
    is tried here)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    err = refused(capsys, spec, "--out", str(fifo), "--force")
    assert f"{fifo}: is not a regular file; not replaced" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and not (tmp_path / "fifo.part").exists()


def test_out_and_plot_are_not_the_same_file(tmp_path: Path, spec: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.jsonl"
    for plot in (out, route_run.journal_path(out)):
        err = refused(capsys, spec, "--out", str(out), "--plot", str(plot))
        assert "is the routes file or its journal" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.json"]


def test_a_bad_journal_line_names_the_journal_and_the_line(
        tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A junk line was reported as "Expecting value: line 1 ..." without the file; now one
    line naming the journal and the line number, the journal left as it was."""
    out = tmp_path / "o.jsonl"
    journal = stopped_run(spec, out)
    assert "2 of 4 chunks kept" in capsys.readouterr().err
    lines = journal.read_text().splitlines()
    assert len(lines) == 3  # the header and two chunks
    cases = {"junk": "line 3: not valid JSON",
             lines[1]: "line 3: the chunk at 0 is on an earlier line too",
             json.dumps({**json.loads(lines[2]), "start": 7}): "line 3: start 7 with count 1 "
                                                               "is not a chunk of this spec",
             json.dumps({**json.loads(lines[2]), "kept": [True, 1]}):
             "line 3: kept entry 1 must be an integer, not true",
             json.dumps({**json.loads(lines[2]), "routes": [{"index": 1}]}):
             "line 3: routes entry 1: frames must be a list"}
    for bad, words in cases.items():
        text = "\n".join([*lines[:2], bad]) + "\n"
        journal.write_text(text)
        err = refused(capsys, spec, "--out", str(out), "--resume")
        assert err.startswith(f"emucore: error: {journal}: {words}"), err
        assert journal.read_text() == text and not out.exists()


def test_a_run_stopped_before_any_chunk_leaves_nothing(tmp_path: Path, spec: Path) -> None:
    """A journal with no finished chunk has nothing to resume: it is removed."""
    def stop_at_once(todo: Iterator[tuple[int, int]]) -> Iterator[route.Chunk]:
        yield from ()
        raise KeyboardInterrupt

    result = route_run.run(route_spec.load(spec, FM), tmp_path / "o.jsonl", stop_at_once)
    assert not result.finished and result.journal is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.json"]


def test_a_failed_search_keeps_its_finished_chunks(tmp_path: Path, spec: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A search that fails after a chunk (here a bug raised by the searcher) keeps the
    journal and says how to resume; the resumed run finishes the file."""
    loaded = route_spec.load(spec, FM)

    def one_then_fail(todo: Iterator[tuple[int, int]]) -> Iterator[route.Chunk]:
        start, count = next(todo)
        yield route.search_chunk(loaded, start, count)
        raise RuntimeError("a worker broke")

    out = tmp_path / "o.jsonl"
    with pytest.raises(RuntimeError):
        route_run.run(loaded, out, one_then_fail)
    assert "1 of 4 chunks kept" in capsys.readouterr().err
    assert route_run.journal_path(out).read_text().count("\n") == 2
    code, summary, _ = plan_route(capsys, spec, "--out", str(out), "--resume", "--json")
    assert code == 0 and json.loads(summary)["resumed_chunks"] == 1
    assert not route_run.journal_path(out).exists() and out.read_text().count("\n") >= 1


def test_an_out_that_appears_during_the_run_is_not_replaced(
        tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Checked before the work, and again when the file is published (a hard link): a file
    that appeared meanwhile stays; every chunk stays in the journal, and ``--resume
    --force`` writes the routes without searching again."""
    loaded = route_spec.load(spec, FM)
    out = tmp_path / "o.jsonl"

    def then_someone_writes(todo: Iterator[tuple[int, int]]) -> Iterator[route.Chunk]:
        yield from route_run.serial_chunks(loaded, todo)
        out.write_text("someone else's\n")

    with pytest.raises(UsageError) as refusal:
        route_run.run(loaded, out, then_someone_writes)
    assert "already exists" in str(refusal.value)
    assert "4 of 4 chunks kept" in str(refusal.value) and "--resume" in str(refusal.value)
    assert out.read_text() == "someone else's\n"
    code, summary, _ = plan_route(capsys, spec, "--out", str(out), "--resume", "--force",
                                  "--json")
    assert code == 0 and json.loads(summary)["resumed_chunks"] == 4
    assert json.loads(summary)["duels"] == 4 and out.read_text() != "someone else's\n"
    assert not route_run.journal_path(out).exists()
