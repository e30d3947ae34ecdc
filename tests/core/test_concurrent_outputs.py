"""Outputs that cannot clobber: of several commands writing the same new file at once,
exactly one succeeds and the others are refused in one line, and the file is whole.

Source of the expectations: the README's promise (an output never replaces a file without
``--force``) and POSIX ``link(2)``, which fails with EEXIST when the new name exists, so the
check and the publication of a file are one atomic step."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from emucore.cli import main
from emucore.duel import files
from emucore.duel.replay import load

EMUCORE = Path(sys.executable).with_name("emucore")  # the installed command


def test_a_file_that_appears_after_the_check_is_not_replaced(tmp_path):
    """The existence check passes, another writer creates the file, the publication refuses."""
    target = files.check_output(tmp_path / "out.json")
    target.write_text("the other writer's\n")
    with pytest.raises(files.UserFileError, match="already exists"):
        files.write_atomic(target, "mine\n", replace=False)
    assert target.read_text() == "the other writer's\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no temporary file left


def test_replace_keeps_the_old_behaviour(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    files.write_atomic(target, "new\n")
    assert target.read_text() == "new\n"


def test_eight_recorders_one_winner(tmp_path):
    """Eight ``fm replay record --out X`` at once: one exit 0, seven one-line refusals, and X
    a replay that verifies."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["fm", "starter", "--index", "0", "--out", str(tmp_path / "my.deck")]) == 0
    out = tmp_path / "same.json"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    argv = [str(EMUCORE), "fm", "replay", "record", "--duelist", "1", "--deck", "my.deck",
            "--index", "7", "--player", "ai", "--out", str(out)]
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env, cwd=tmp_path) for _ in range(8)]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    codes = sorted(code for code, _ in results)
    assert codes == [0] + [2] * 7, results
    for code, err in results:
        if code == 2:
            assert len(err.strip().splitlines()) == 1 and "already exists" in err, err
            assert "Traceback" not in err
    assert load(out).steps  # a whole replay
    json.loads(out.read_text())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my.deck", "same.json"]
