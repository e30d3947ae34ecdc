"""Run a script in a fresh Python, compiled or as Python (``EMUCORE_PURE``), and read the
JSON it prints: the compiled-equals-Python tests of the duel modules and the kernels share
this one way of asking both builds the same question."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from emucore import compiled


def json_child(script: str, pure: bool) -> dict:
    """What ``script`` prints (one JSON object) in a child process, with the compiled
    modules (``pure=False``) or with ``EMUCORE_PURE=1``."""
    env = dict(os.environ)
    env.pop(compiled.PURE_ENV, None)
    if pure:
        env[compiled.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout)
