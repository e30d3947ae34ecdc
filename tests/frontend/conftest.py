"""Frontend test fixtures: private config/data folders and an initialised pygame."""

from __future__ import annotations

import pygame
import pytest


@pytest.fixture(autouse=True)
def user_dirs(tmp_path, monkeypatch):
    """Every test gets its own config and data folders (never the real user's)."""
    monkeypatch.setenv("EMUCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture
def pg():
    """pygame initialised with the dummy drivers; quit afterwards."""
    pygame.init()
    yield pygame
    pygame.quit()
