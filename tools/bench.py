#!/usr/bin/env python3
"""Opt-in benchmarks: ``python tools/bench.py NAME [--repeat N]``; ``python tools/bench.py``
lists them. Each benchmark is a module ``tools/benches/<name>.py`` whose ``run(repeat)``
returns rows of (measure, median, max, unit, goal); figures are medians of ``repeat`` runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

BENCHES = Path(__file__).resolve().parent / "benches"
sys.path.insert(0, str(BENCHES.parents[1]))


def measure(fn: Callable[[], object], repeat: int, inner: int = 1) -> tuple[float, float]:
    """Median and max seconds per call of ``fn`` over ``repeat`` samples of ``inner`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples), max(samples)


def _load(name: str):
    path = BENCHES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    names = sorted(p.stem for p in BENCHES.glob("*.py") if not p.stem.startswith("_"))
    parser = argparse.ArgumentParser(description="emucore benchmarks")
    parser.add_argument("name", nargs="?", choices=names)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.name:
        print("benchmarks: " + ", ".join(names))
        return 0
    rows = _load(args.name).run(args.repeat)
    if args.json:
        print(json.dumps([dict(zip(("measure", "median", "max", "unit", "goal"), r,
                                   strict=True)) for r in rows], indent=1))
    else:
        for measure_name, median, worst, unit, goal in rows:
            print(f"{measure_name:<48} median {median:>12.4f} {unit:<8} max {worst:>12.4f}"
                  f"   goal {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
