"""Deal speed: 1,000 full deals (``Duel_ShuffleBothDecks``: the player's shuffle, the CPU's
pool deck and its shuffle) from 1,000 random RNG states, in-process, in microseconds a deal.

Two ways: ``deck.deal_many`` over the 1,000 states at once, and a loop of ``deck.deal``, one
state each. Both run in a child process with the compiled kernel (when the install built
it) and with ``EMUCORE_PURE=1`` (the kernel as Python; ``deal_many`` then takes its numpy
lanes). The yardstick is FM-Manip-Tool's ``genAiDeck`` (the CPU's pool deck and shuffle
only, no player shuffle): 0.60 us a deal on this machine (0.598 ms for 1,000, median of 21
batches, 2026-12-02).

``python tools/bench.py deal`` times this tree. ``python tools/benches/deal.py TREE ...
[--repeat N]`` times several trees side by side (e.g. a ``git archive`` of an older commit
and this one), child by child in turn, so a busy moment of the shared machine hits every
tree alike; each figure is a median of the children's medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

TREE = Path(__file__).resolve().parents[2]
PEER = 0.60  # us a deal: FM-Manip-Tool genAiDeck, in-process
DEALS = 1000
DUELIST = 7
MODES = ("compiled", "pure")
# One child: the tree's emucore, 1,000 random states, the median of REPEAT timed runs of
# each way (after one untimed run that builds the pool's roll table).
RUN = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
from emucore import tables
from emucore.fm import deck
from emucore.hw.psyq_rand import Rand
repeat, deals, duelist = map(int, sys.argv[2:5])
t = tables.load("fm")
player = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 3 + list(range(11, 21))
states = np.random.default_rng(29).integers(0, 2**32, deals, dtype=np.uint64).astype(np.uint32)
listed = states.tolist()
ways = {"deal_many": lambda: deck.deal_many(states, player, duelist, t),
        "deal loop": lambda: [deck.deal(Rand(s), player, duelist, t) for s in listed]}
out = {}
for name, way in ways.items():
    way()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        way()
        samples.append((time.perf_counter() - start) / deals * 1e6)
    out[name] = [statistics.median(samples), max(samples)]
print(json.dumps(out))
"""


def child(tree: Path, mode: str, repeat: int) -> dict[str, list[float]]:
    """One child process's figures: way -> [median, max] us a deal."""
    env = dict(os.environ)
    env.pop("EMUCORE_PURE", None)
    if mode == "pure":
        env["EMUCORE_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", RUN, str(tree), str(repeat), str(DEALS),
                           str(DUELIST)], env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    rows = []
    for mode in MODES:
        figures = child(TREE, mode, repeat)
        for way, (median, worst) in figures.items():
            rows.append((f"{DEALS:,} full deals, {way}, {mode}", median, worst, "us/deal",
                         f"<= {PEER} (genAiDeck); ratio {PEER / median:.2f}"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=5, help="child processes per tree and "
                                                              "mode (each times 7 runs)")
    args = parser.parse_args(argv)
    medians: dict[tuple[Path, str, str], list[float]] = {}
    for _ in range(args.repeat):
        for mode in MODES:
            for tree in args.trees:
                for way, (median, _) in child(tree, mode, 7).items():
                    medians.setdefault((tree, mode, way), []).append(median)
    for (tree, mode, way), values in medians.items():
        median = statistics.median(values)
        print(f"{str(tree):<32} {mode:<9} {way:<10} {median:9.2f} us/deal "
              f"(children {min(values):.2f}..{max(values):.2f})  {PEER / median:6.2f}x genAiDeck")
    return 0


if __name__ == "__main__":
    sys.exit(main())
