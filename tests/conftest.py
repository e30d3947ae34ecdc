"""Test-wide setup: no window, no sound device, and the shared reference folder if present."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = Path(__file__).resolve().parents[1]
REFERENCE = Path(os.environ.get("EMUCORE_REFERENCE", REPO.parent / "shared" / "reference"))


def pytest_configure(config: pytest.Config) -> None:
    """``pytest -m fuzz`` runs the fuzz tests with the many-example profile
    (tests/core/test_fuzz_inputs.py reads EMUCORE_FUZZ when it is imported)."""
    if "fuzz" in (config.option.markexpr or ""):
        os.environ.setdefault("EMUCORE_FUZZ", "1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``mgba`` run the real emulator: they are collected only where an mgba-qt
    that loads scripts from its command line (and xvfb-run) is installed."""
    marked = [item for item in items if item.get_closest_marker("mgba")]
    if not marked:
        return
    from test_capture_mgba import mgba_loads_scripts

    if not mgba_loads_scripts():
        config.hook.pytest_deselected(items=marked)
        items[:] = [item for item in items if not item.get_closest_marker("mgba")]


@pytest.fixture
def reference_dir() -> Path:
    """The shared reference facts the tables are built from; skip when they are not here."""
    if not (REFERENCE / "fm" / "cards.csv").is_file():
        pytest.skip(f"reference folder not present at {REFERENCE} (set EMUCORE_REFERENCE)")
    return REFERENCE


@pytest.fixture
def headless_app(tmp_path, monkeypatch):
    """A factory for a headless frontend ``App`` (no sound) whose config and data folders are
    private to the test; pygame is shut down afterwards."""
    import pygame

    from emucore.frontend.app import App
    from emucore.frontend.display import init_video
    from emucore.frontend.machine import machine

    monkeypatch.setenv("EMUCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "data"))

    def make(profile: str, system: str) -> App:
        init_video(True)
        return App(machine(profile), system, headless=True, sound=False)

    yield make
    pygame.quit()
