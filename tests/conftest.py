"""Test-wide setup: no window, no sound device, and the shared reference folder if present."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = Path(__file__).resolve().parents[1]
REFERENCE = Path(os.environ.get("EMUCORE_REFERENCE", REPO.parent / "shared" / "reference"))


@pytest.fixture
def reference_dir() -> Path:
    """The shared reference facts the tables are built from; skip when they are not here."""
    if not (REFERENCE / "fm" / "cards.csv").is_file():
        pytest.skip(f"reference folder not present at {REFERENCE} (set EMUCORE_REFERENCE)")
    return REFERENCE
