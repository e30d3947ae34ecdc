"""Planning speed (issue 7): starter-deck search, ``rng index``, seed from the opening draws.

The starter search is timed on one core over ``EMUCORE_BENCH_STARTER`` indices (default 2^22,
extrapolated to the full 2^27 range), and once with every core (``--jobs``) through the same
process pool the CLI uses. The baseline is the C++ deck checker runners use today: 35 s for
2^27 indices on one core of this machine, i.e. 3.8 million indices per second per core.

``python tools/bench.py plan`` runs it; ``EMUCORE_BENCH_STARTER=134217728`` times the full range.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np
from bench import measure

BASELINE = 3.8e6  # indices per second per core: the C++ tool, same machine
FULL = 1 << 27
QUERY = (100, 100, 8, 337)


def _starter_rows(repeat: int) -> list[tuple[str, float, float, str, str]]:
    from emucore import tables
    from emucore.planning import progress, starter

    fm = tables.load("fm")
    want = starter.Want.of(QUERY, starter.plan(fm))
    count = int(os.environ.get("EMUCORE_BENCH_STARTER", 1 << 22))
    starter.search(0, starter.LANES, want, fm)  # build tables and lane offsets once
    runs = max(1, repeat if count <= 1 << 24 else 1)
    one, one_worst = measure(lambda: starter.search(0, count, want, fm), runs)
    cpu = []
    for _ in range(runs):  # CPU seconds: what one core costs, whatever else the machine runs
        start = time.process_time()
        starter.search(0, count, want, fm)
        cpu.append(time.process_time() - start)
    jobs = os.cpu_count() or 1

    def every_core() -> None:
        progress.run_pieces(starter.search_piece, 0, count, (QUERY,), jobs, 1 << 21,
                            progress.Progress(count, enabled=False))

    every, every_worst = measure(every_core, runs)
    rate, worst_rate = count / one, count / one_worst
    cpu_rate = count / float(np.median(cpu))
    return [
        (f"starter search, 1 core, {count:,} indices (wall)", rate / 1e6, worst_rate / 1e6,
         "M idx/s", f">= {BASELINE / 1e6:.1f} (C++ tool); ratio {rate / BASELINE:.2f}"),
        (f"starter search, 1 core, {count:,} indices (CPU time)", cpu_rate / 1e6,
         count / max(cpu) / 1e6, "M idx/s",
         f">= {BASELINE / 1e6:.1f} (C++ tool); ratio {cpu_rate / BASELINE:.2f}"),
        ("starter search, 2^27 on 1 core (extrapolated)", one * FULL / count,
         one_worst * FULL / count, "s", "<= 35 s"),
        (f"starter search, {jobs} processes, {count:,} indices", count / every / 1e6,
         count / every_worst / 1e6, "M idx/s",
         f">= {BASELINE * jobs / 1e6:.1f}; ratio {count / every / (BASELINE * jobs):.2f}"),
        ("starter search, 2^27 on every core (extrapolated)", every * FULL / count,
         every_worst * FULL / count, "s", "<= 18 s (C++ tool, 2 cores)"),
    ]


def _cpu_seconds(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def _starter_kernel_rows(repeat: int) -> list[tuple[str, float, float, str, str]]:
    """The compiled starter kernel against the numpy lanes on the same 2^20 indices, in turn
    in this process (CPU ns per index; none when the kernel is not built)."""
    from emucore import tables
    from emucore.planning import starter

    if not starter.kernel_compiled():
        return []
    fm = tables.load("fm")
    want = starter.Want.of(QUERY, starter.plan(fm))
    counted = starter.kernel_want(fm, want.key())
    count = 1 << 20
    kernel, lanes = [], []
    for _ in range(max(3, repeat)):
        kernel.append(_cpu_seconds(lambda: starter.search_kernel(0, count, counted)) / count)
        lanes.append(_cpu_seconds(lambda: [starter.search_lanes(b, starter.LANES, want, fm)
                                           for b in range(0, count, starter.LANES)]) / count)
    ratio = [b / a for a, b in zip(kernel, lanes, strict=True)]
    return [
        ("starter kernel (compiled), CPU per index", float(np.median(kernel)) * 1e9,
         max(kernel) * 1e9, "ns", "floor ~32 ns (docs/planning.md)"),
        ("starter numpy lanes / kernel, pairs in turn", float(np.median(ratio)), min(ratio),
         "x", "the lanes are the Python-only path"),
    ]


def _index_row(repeat: int) -> tuple[str, float, float, str, str]:
    from emucore.hw import psyq_rand

    states = np.random.default_rng(7).integers(0, 2**32, repeat, dtype=np.uint64).tolist()
    samples = []
    for s in states:
        start = time.perf_counter()
        psyq_rand.index_of(int(s))
        psyq_rand.index_of(int(s) ^ 0x80000000)  # `rng index` reports the twin too
        samples.append(time.perf_counter() - start)
    return ("rng index (state and twin)", float(np.median(samples)) * 1e3,
            max(samples) * 1e3, "ms", "< 100 ms")


def _seed_row(repeat: int) -> tuple[str, float, float, str, str]:
    from emucore import tables
    from emucore.fm import deck
    from emucore.hw import psyq_rand
    from emucore.planning import seed

    fm = tables.load("fm")
    cards = deck.sort_deck(sorted(list(range(1, 21)) * 2), "atk", fm)
    drawn = deck.deal(psyq_rand.Rand(int(psyq_rand.state_at(4_999_000))), cards, 7,
                      fm).player.cards[:5]
    median, worst = measure(lambda: seed.match_piece(0, 5_000_000, tuple(cards), drawn),
                            max(1, repeat // 2))
    return ("seed from 5 draws over 5,000,000 indices, 1 core", median, worst, "s", "< 2 s")


def _drops_row(repeat: int) -> tuple[str, float, float, str, str]:
    """``fm drop`` for 10,000 unrelated states in one call (FM-Manip-Tool: 0.17 s here)."""
    from emucore import tables
    from emucore.fm import rank

    weights = tables.load("fm").pools[7, 1]
    states = np.random.default_rng(16).integers(0, 2**32, 10_000, dtype=np.uint64)
    states = states.astype(np.uint32)
    median, worst = measure(lambda: rank.drops_at(states, weights), repeat, inner=10)
    return ("10,000 drops, unrelated states, in-process", median * 1e3, worst * 1e3, "ms",
            "<= 170 ms (FM-Manip-Tool)")


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    return [*_starter_rows(repeat), *_starter_kernel_rows(repeat), _index_row(repeat),
            _seed_row(repeat), _drops_row(repeat)]
