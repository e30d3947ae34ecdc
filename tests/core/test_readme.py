"""The README's commands work as written: each `emucore ...` line of its code blocks runs in one
shared folder, in README order, and exits 0 (a later line may use a file an earlier one wrote).

Lines that need something a test machine has not got (a window, the user's own disc, cartridge
or emulator capture) or that exist to show a long run are left out, each with its reason.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
LEFT_OUT = {
    "emucore play": "opens a window (the headless path is tested in tests/frontend)",
    "--disc": "needs the user's own disc image (tested with synthetic discs in tests/fm_ai)",
    "YOUR.gb": "needs the user's own cartridge (tested with a synthetic ROM in tests/dm1)",
    "mytables": "needs tables extracted from the user's cartridge",
    "duel.cap": "needs an emulator capture (synthetic captures are tested in tests/capture)",
    "plan starter": "searches all 2^27 starter decks, a benchmark-sized run (tests/planning)",
    "plan route": "reads the repository's example specs and a Dask cluster; every example "
                  "runs in tests/planning/test_plan_route.py",
    "--script duel.json": "needs a hand-written duel script (tests/fm)",
}


def _commands() -> list[str]:
    blocks = re.findall(r"```\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    lines: list[str] = []
    for block in blocks:
        joined = block.replace("\\\n", " ")
        lines += [ln.strip() for ln in joined.splitlines() if ln.strip().startswith("emucore ")]
    return lines


COMMANDS = _commands()
RUN = [c for c in COMMANDS if not any(key in c for key in LEFT_OUT)]


def test_readme_has_commands_for_every_area():
    for area in ("emucore fm ", "emucore plan ", "emucore dm1 ", "emucore ocg1999 ",
                 "emucore tcglite ", "emucore rng ", "emucore card "):
        assert any(c.startswith(area) for c in RUN), area


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """One folder for every command, holding the deck file the README's commands use."""
    return tmp_path_factory.mktemp("readme")


@pytest.mark.parametrize("command", RUN)
def test_readme_command_runs(command, folder):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               EMUCORE_DATA_DIR=str(folder / "data"), EMUCORE_CONFIG_DIR=str(folder / "cfg"))
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
    assert done.stdout.strip() or "> " in command
