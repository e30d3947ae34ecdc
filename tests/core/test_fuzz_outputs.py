"""Fuzzing concurrent outputs: several writers publish the same file at once through the
writing edge (``files.write_output``), some with ``--force``, some onto a file that is there
already. Whatever the interleaving: without ``force`` at most one writer wins (none when the
file was there), the others are refused with one-line errors naming the file; the file
holds exactly one writer's bytes, whole; no temporary file is left behind.

Source: POSIX ``link(2)`` (EEXIST when the name exists: the check and the publication are one
step) and ``rename(2)`` (atomic replacement) under the README's promise that an output never
replaces a file without ``--force``. The command-level case (eight ``fm replay record``
processes) is tests/core/test_concurrent_outputs.py."""

from __future__ import annotations

import threading

import pytest
from fuzz_harness import RUNS, fresh
from hypothesis import given
from hypothesis import strategies as st

from emucore.duel import files

pytestmark = pytest.mark.fuzz

WRITER = st.tuples(st.booleans(), st.binary(min_size=0, max_size=2048))  # (force, bytes)


@given(writers=st.lists(WRITER, min_size=2, max_size=8), there=st.booleans())
def test_concurrent_writers_of_one_file(work, writers, there):
    folder = fresh(work)
    target = folder / "out.bin"
    old = b"the user's file\n"
    if there:
        target.write_bytes(old)
    start = threading.Barrier(len(writers))
    outcome: list[object] = [None] * len(writers)

    def write(i: int, force: bool, data: bytes) -> None:
        start.wait()
        try:
            files.write_output(target, data, force=force)
            outcome[i] = "written"
        except files.UserFileError as exc:
            outcome[i] = exc

    threads = [threading.Thread(target=write, args=(i, force, data))
               for i, (force, data) in enumerate(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    RUNS["concurrent outputs / write_output"] += 1
    won = [i for i, o in enumerate(outcome) if o == "written"]
    for i, o in enumerate(outcome):
        if o != "written":
            assert isinstance(o, files.UserFileError) and "\n" not in str(o)
            assert str(target) in str(o) and "already exists" in str(o)
            assert not writers[i][0]  # a forced write is never refused here
    plain_won = [i for i in won if not writers[i][0]]
    assert len(plain_won) <= (0 if there else 1)
    assert all(writers[i][0] for i in won) or len(plain_won) == 1
    content = target.read_bytes()
    if won:
        assert content in {writers[i][1] for i in won}
    else:
        assert there and content == old
    assert [p.name for p in folder.iterdir()] == ["out.bin"]
