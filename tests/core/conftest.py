"""tests/core's fuzz report: the examples run per kind and the rule breaks found by every
fuzz test (tests/core/fuzz_harness.py), written to ``EMUCORE_FUZZ_REPORT`` when it is set."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest


def pytest_sessionfinish() -> None:
    target = os.environ.get("EMUCORE_FUZZ_REPORT")
    harness = sys.modules.get("fuzz_harness")
    if target and harness is not None:
        Path(target).write_text(json.dumps(harness.report(), indent=1))


@pytest.fixture
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fuzz test's folder; each example makes its own inside (``fuzz_harness.fresh``)."""
    return tmp_path_factory.mktemp("fuzz")
