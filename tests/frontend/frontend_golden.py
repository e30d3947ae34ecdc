"""Golden framebuffer hashes: compared by default, rewritten only with EMUCORE_UPDATE_GOLDEN=1."""

from __future__ import annotations

import json
import os
from pathlib import Path

GOLDEN = Path(__file__).with_name("golden") / "screens.json"


def check(name: str, digest: str) -> None:
    """Assert that screen ``name`` hashes to its golden value (or record it when updating)."""
    data = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("EMUCORE_UPDATE_GOLDEN") == "1":
        data[name] = digest
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        return
    assert name in data, f"no golden hash for {name!r}; run with EMUCORE_UPDATE_GOLDEN=1"
    assert data[name] == digest, (f"screen {name!r} changed; if intended, rerun with "
                                  "EMUCORE_UPDATE_GOLDEN=1 and review the screenshots")
