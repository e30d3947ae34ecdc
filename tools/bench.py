#!/usr/bin/env python3
"""Opt-in benchmarks: ``python tools/bench.py NAME [--repeat N]``; ``python tools/bench.py``
lists them. Each benchmark is a module ``tools/benches/<name>.py`` whose ``run(repeat)``
returns rows of (measure, median, max, unit, goal); figures are medians of ``repeat`` runs.
A module with options of its own (``peers``: ``--timings FILE``) declares them in
``add_arguments(parser)`` and is run as ``run(repeat, args)``; a mistake in what the user
gave it is one line on stderr and exit code 2.
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
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def _parser(names: list[str], add_help: bool) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="emucore benchmarks", add_help=add_help)
    parser.add_argument("name", nargs="?", choices=names)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    from emucore.cliutil import UsageError
    from emucore.duel.files import UserFileError

    names = sorted(p.stem for p in BENCHES.glob("*.py") if not p.stem.startswith("_"))
    name = _parser(names, add_help=False).parse_known_args(argv)[0].name
    module = _load(name) if name else None
    parser = _parser(names, add_help=True)
    options = getattr(module, "add_arguments", None)
    if options is not None:
        options(parser)
    args = parser.parse_args(argv)
    if module is None:
        print("benchmarks: " + ", ".join(names))
        return 0
    try:
        rows = module.run(args.repeat, args) if options else module.run(args.repeat)
    except (UsageError, UserFileError) as exc:
        print(f"bench: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
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
