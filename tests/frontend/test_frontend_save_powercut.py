"""Saves survive a power cut: a writer process saving over and over is killed (SIGKILL, no
clean-up) at random moments; the save on disk is then always one whole save, the old one or
the new one, never a mix or a truncation (write, flush, fsync, rename: emucore.duel.files)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

WRITER = """
import sys
from emucore.frontend.storage import SaveFile

def check(data):
    if not isinstance(data, dict) or set(data) != {"n", "pad"}:
        raise ValueError("not a test save")

save = SaveFile("test", check, folder=__import__("pathlib").Path(sys.argv[1]))
n = 0
print("ready", flush=True)
while True:
    n += 1
    save.save({"n": n, "pad": [n] * 20000})  # about 100 KB, so a kill lands mid-write
"""


def test_a_killed_writer_leaves_a_whole_save(tmp_path):
    rng = random.Random(17)
    seen = set()
    for _ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.25))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        path = tmp_path / "save.json"
        if not path.exists():
            continue  # killed before the first rename: no save yet, also whole
        data = json.loads(path.read_text())  # a mix or a truncation would not parse
        assert data["pad"] == [data["n"]] * 20000
        seen.add(data["n"])
        for leftover in tmp_path.glob(".save.json.*"):  # a temp file the kill left behind
            leftover.unlink()
    assert len(seen) >= 3  # the kills did land at different points of the writing
