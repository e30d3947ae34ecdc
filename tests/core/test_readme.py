"""The README's commands work as written, as a newcomer runs them (source: README.md itself,
and the issue "the README's promises kept word for word").

Every command line of the README's fenced blocks is either run or left out with a reason.
The lines run in README order in one folder that starts as a fresh clone's working folder
holds it, with nothing but a copy of ``examples/``: a line may use only files an earlier line
made or files from ``examples/``. No line writes over a file an earlier line wrote (two deck
files of the same name were one), and where the README says what a command shows, its output
is checked for it.

Lines that need something a test machine has not got (a window, the user's own disc,
cartridge or emulator capture) or that exist to show a long run are left out, each with its
reason.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from emucore import cli

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
LEFT_OUT = {  # a pattern a line matches -> why it is not run
    r"^python -m pip install ": "the install itself: this suite runs in the installed package",
    r"^python -m pytest": "runs this suite",
    r"^emucore play(?! --write-bindings)": "opens a window, or replays the pad log of a "
                                          "windowed session (the headless path is tested in "
                                          "tests/frontend)",
    r"--disc ": "needs the user's own disc image (tested with synthetic discs in tests/fm_ai)",
    r"YOUR\.gb": "needs the user's own cartridge (tested with a synthetic ROM in tests/dm1)",
    r"mytables": "needs tables extracted from the user's cartridge",
    r"duel\.cap": "needs an emulator capture (synthetic captures are tested in tests/capture)",
    r"--from-replay|seto\.cap": "needs the user's own disc, BIOS and memory card (played on a "
                                "stand-in for the original in tests/capture/test_from_replay.py)",
    r"plan starter": "searches all 2^27 starter decks, a benchmark-sized run (tests/planning)",
    r"plan route": "runs a Dask cluster; every example spec runs in "
                   "tests/planning/test_plan_route.py",
    r"^python tools/capture/gen_tables\.py": "rewrites the repository's capture tables "
                                             "(tests/capture checks they are current)",
}


def _stages_in_order(out: str) -> bool:
    """``dm1 opponents`` lists all 16 opponents by stage."""
    stages = [int(s) for s in re.findall(r"stage (\d+)", out)]
    return len(stages) == 16 and stages == sorted(stages)


def _finds_some(out: str) -> bool:
    """``plan seed`` finds at least one index ("N of 5,000,000 indices ...")."""
    return int(out.split()[0].replace(",", "")) > 0


SHOWS: dict[str, tuple[Callable[[str], bool], str]] = {  # what the README says a line shows
    "emucore dm1 opponents": (_stages_in_order, "the 16 opponents by stage"),
    "emucore plan seed": (_finds_some, "indices dealing fm deal's hand"),
}


def _lines() -> list[str]:
    """Every line of the README's fenced blocks, in order (``\\`` continuations joined)."""
    blocks = re.findall(r"```\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    lines: list[str] = []
    for block in blocks:
        lines += [ln.strip() for ln in block.replace("\\\n", " ").splitlines() if ln.strip()]
    return lines


LINES = _lines()
RUN = [c for c in LINES if not any(re.search(key, c) for key in LEFT_OUT)]


def _outputs(command: str) -> list[str]:
    """The files a command line writes: after ``>`` and the output options."""
    words = shlex.split(command, comments=True)
    return [after for word, after in zip(words, words[1:], strict=False)
            if word in (">", "--out", "--record", "--report")]


def test_readme_has_commands_for_every_area():
    for area in ("emucore fm ", "emucore plan ", "emucore dm1 ", "emucore ocg1999 ",
                 "emucore tcglite ", "emucore rng ", "emucore card "):
        assert any(c.startswith(area) for c in RUN), area


def test_every_fenced_line_is_a_command():
    """A fenced line is something to type: ``emucore ...`` or ``python ...`` (after
    environment settings)."""
    for line in LINES:
        assert re.match(r"^([A-Z_]+=\S+ )*(emucore|python) ", line), line


def test_no_line_writes_over_a_file_made_before():
    """Each file a README line writes is new: not one an earlier line wrote (the FM deck
    and the ocg1999 deck were both ``my.deck``), nor one the clone holds."""
    written: dict[str, str] = {}
    for line in LINES:
        for path in _outputs(line):
            if path.endswith("/"):  # a folder gathering several outputs (ai/)
                continue
            assert path not in written, f"{line}\nwrites {path}, made by: {written[path]}"
            assert not (REPO / path).exists() or path.startswith("/"), (line, path)
            written[path] = line


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """One folder for every command: a fresh clone's examples/ and nothing else."""
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(REPO / "examples", root / "examples")
    return root


@pytest.mark.parametrize("command", RUN)
def test_readme_command_runs(command, folder):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               EMUCORE_DATA_DIR=str(folder / "data"), EMUCORE_CONFIG_DIR=str(folder / "cfg"))
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
    assert done.stdout.strip() or "> " in command
    for start, (shows, claim) in SHOWS.items():
        if command.startswith(start):
            assert shows(done.stdout), f"{command}\nthe README says: {claim}\n{done.stdout}"


def test_play_refuses_an_unknown_system_before_looking_for_a_display(monkeypatch, capsys):
    """README: ``emucore play [--system fm|dm1|ocg1999|tcglite]``; another name is one line
    that says so (exit 2), even where no display could be found."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    assert cli.main(["play", "--system", "xyz"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown system 'xyz'" in err, err
