"""Start-up of the ``emucore`` command: the median wall time of whole processes (interpreter
start included) for a few typical small commands; goal < 0.3 s each.

``python tools/bench.py startup`` times this tree, and one ``fm drop --states`` of 10,000
states. ``python tools/benches/startup.py TREE ...
[--repeat N]`` times several trees side by side (e.g. the baseline copy and this one), runs
interleaved so that a busy moment of a shared machine hits every tree alike. Each run is
``python -c`` importing ``emucore.cli`` from the tree and calling ``main`` with the command's
arguments, which is what the installed ``emucore`` script does.
"""

from __future__ import annotations

import argparse
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


def many_drops(repeat: int, count: int = 10_000) -> list[float]:
    """Wall times of one whole ``fm drop --states FILE --json`` for ``count`` random states
    (FM-Manip-Tool: 0.17 s for 10,000 drops in its own process)."""
    rng = random.Random(16)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "states.txt"
        path.write_text("".join(f"0x{rng.getrandbits(32):08X}\n" for _ in range(count)))
        return [wall(TREE, f"fm drop --duelist 1 --pool sa_pow --states {path} --json")
                for _ in range(repeat)]


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    """bench.py's entry: this tree's median and worst per command."""
    times = samples([TREE], repeat)
    drops = many_drops(repeat)
    return [(f"emucore {c}"[:48], statistics.median(w for w, _ in t), max(w for w, _ in t),
             "s", GOAL) for (_, c), t in times.items()] + [
        ("emucore fm drop --states, 10,000 states", statistics.median(drops), max(drops), "s",
         "whole command; FM-Manip-Tool 0.17 s")]


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
