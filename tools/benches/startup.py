"""Start-up of the ``emucore`` command: the median wall time of whole processes (interpreter
start included) for a few typical small commands; goal < 0.3 s each.

``python tools/bench.py startup`` times this tree, one ``fm drop --states`` of 10,000
states, and the cost of a line of ``emucore batch`` (10,000 lines of ``rng at`` and of ``fm
drop``, less an empty batch). ``python tools/benches/startup.py TREE ...
[--repeat N]`` times several trees side by side (e.g. the baseline copy and this one), runs
interleaved so that a busy moment of a shared machine hits every tree alike. Each run is
``python -c`` importing ``emucore.cli`` from the tree and calling ``main`` with the command's
arguments, which is what the installed ``emucore`` script does.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TREE = Path(__file__).resolve().parents[2]
COMMANDS = (
    "--help",
    "card fm 1",
    "fusion fm 22 31",
    "rng index 0x1474D436",
    "rng at 5",
    "fm drop --duelist 1 --pool sa_pow --state 0x55555555",
    "fm rank --turns 4 --effective-attacks 2 --defensive-wins 0 --face-down 0 --pure-magic 0 "
    "--traps 0 --fusions 0 --equips 0 --cards-drawn 9 --lp 8000 --end lp",
)
GOAL = "< 0.3 s"
RUN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from emucore.cli import main; " \
      "sys.exit(main(sys.argv[1:]))"


def timed(tree: Path, command: str) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one whole ``emucore COMMAND`` process from
    ``tree``. CPU time is the steadier figure on a shared machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", RUN, str(tree), *command.split()], check=True,
                   stdout=subprocess.DEVNULL, cwd=tree)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def wall(tree: Path, command: str) -> float:
    """Wall seconds of one whole ``emucore COMMAND`` process from ``tree``."""
    return timed(tree, command)[0]


def samples(trees: list[Path], repeat: int) -> dict[tuple[Path, str], list[tuple[float, float]]]:
    """``repeat`` (wall, CPU) times per tree and command, interleaved tree by tree."""
    out: dict[tuple[Path, str], list[tuple[float, float]]] = {
        (t, c): [] for t in trees for c in COMMANDS}
    for _ in range(repeat):
        for command in COMMANDS:
            for tree in trees:
                out[tree, command].append(timed(tree, command))
    return out


# Measured with farm-bench -n 5..7, 2026-12-02, 2 shared cores at load 4-7, CPU seconds,
# medians, against the tree before the lean start: python -c pass 0.046 s; emucore rng at 5
# 0.120 s (before 0.195 s); fm drop --states, 10,000 states, --json: 0.201 s (before 0.354 s,
# 0.58x); the issue measured FM-Manip-Tool's whole process at 0.058 s. A line of emucore
# batch, 10,000 lines less an empty batch: rng at 18 us (before 55 us), fm drop 22 us (16 us
# less a one-line batch, which also reads the tables; before 72 us); fm deal, 2,000 lines
# less a one-line batch: 148 us (before 326 us), of which the deal itself (fm.deck.deal of
# that day) is about 45% in-process (48 us of 108 us).
def many_drops(repeat: int, count: int = 10_000) -> list[float]:
    """Wall times of one whole ``fm drop --states FILE --json`` for ``count`` random states
    (FM-Manip-Tool: 0.058 s for 10,000 drops in its own process, as the issue measured)."""
    rng = random.Random(16)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "states.txt"
        path.write_text("".join(f"0x{rng.getrandbits(32):08X}\n" for _ in range(count)))
        return [wall(TREE, f"fm drop --duelist 1 --pool sa_pow --states {path} --json")
                for _ in range(repeat)]


BATCH_LINES = {
    "rng at": lambda rng: ["rng", "at", str(rng.getrandbits(32))],
    "fm drop": lambda rng: ["fm", "drop", "--duelist", "1", "--pool", "sa_pow", "--state",
                            f"0x{rng.getrandbits(32):08X}"],
}


def batch_lines(repeat: int, count: int = 10_000) -> dict[str, list[float]]:
    """Per kind of line of :data:`BATCH_LINES`, the CPU microseconds one line of ``emucore
    batch`` costs: a batch of ``count`` random lines less an empty batch, run in turn."""
    rng = random.Random(29)
    out: dict[str, list[float]] = {kind: [] for kind in BATCH_LINES}
    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.jsonl"
        empty.write_text("")
        files = {}
        for kind, line in BATCH_LINES.items():
            files[kind] = Path(folder) / f"{kind.replace(' ', '_')}.jsonl"
            files[kind].write_text("".join(json.dumps(line(rng)) + "\n" for _ in range(count)))
        for _ in range(repeat):
            for kind, path in files.items():
                lines = timed(TREE, f"batch {path}")[1]
                out[kind].append((lines - timed(TREE, f"batch {empty}")[1]) / count * 1e6)
    return out


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    """bench.py's entry: this tree's median and worst per command."""
    times = samples([TREE], repeat)
    drops = many_drops(repeat)
    lines = batch_lines(repeat)
    return [(f"emucore {c}"[:48], statistics.median(w for w, _ in t), max(w for w, _ in t),
             "s", GOAL) for (_, c), t in times.items()] + [
        ("emucore fm drop --states, 10,000 states", statistics.median(drops), max(drops), "s",
         "whole command; <= 0.116 s (2x FM-Manip-Tool)")] + [
        (f"emucore batch, a line of {kind} (CPU)", statistics.median(t), max(t), "us",
         "<= 20 us") for kind, t in lines.items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", type=Path, default=[TREE])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    times = samples(args.trees, args.repeat)
    print(f"median seconds of {args.repeat} runs, wall / CPU")
    print(f"{'command':<44}" + "".join(f"{str(t)[-20:]:>22}" for t in args.trees))
    for command in COMMANDS:
        cells = []
        for tree in args.trees:
            runs = times[tree, command]
            cells.append(f"{statistics.median(w for w, _ in runs):.3f} / "
                         f"{statistics.median(c for _, c in runs):.3f}")
        print(f"{command[:44]:<44}" + "".join(f"{c:>22}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
