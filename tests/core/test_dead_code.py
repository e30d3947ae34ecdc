"""No dead code: vulture (a dead-code finder outside emucore) over the package, the tests and
the tools reports nothing, apart from tools/vulture_whitelist.py (names used in ways it cannot
see, each with its reason)."""

from __future__ import annotations

from pathlib import Path

import vulture

ROOT = Path(__file__).resolve().parents[2]
# Handlers found by name at run time: VM opcodes, duel-screen modes, paper rule checks/actions,
# the stand-in original's phases (tests/capture/fm_original.py: pad readers and entries),
# and pytest's hooks and markers.
DISPATCHED = ["_op_*", "_mode_*", "_check_*", "_do_*", "_p_*", "_e_*", "pytest_*",
              "pytestmark"]


def test_vulture_finds_no_unused_code():
    finder = vulture.Vulture(ignore_names=DISPATCHED)
    finder.scavenge([str(ROOT / "emucore"), str(ROOT / "tests"), str(ROOT / "tools")])
    unused = [item.get_report() for item in finder.get_unused_code(min_confidence=60)]
    assert unused == []
