"""Paper rule systems: computer-vs-computer duels per second on one core, per profile.

Each sample plays 40 complete duels (consecutive seeds, the built-in decks, the computer on
both sides) and reports duels per second twice: by wall time and by the process's CPU time
(``time.process_time``), which stays meaningful when other jobs share the machine. Each
figure is the median over ``repeat`` samples.
"""

from __future__ import annotations

import statistics
import time

GOAL = ">= 500 /s"
DUELS_PER_SAMPLE = 40


def _duels_per_second(system, first_seed: int) -> tuple[float, float]:
    """(duels per wall second, duels per CPU second) for one sample."""
    from emucore.paper.ai import choose

    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(first_seed, first_seed + DUELS_PER_SAMPLE):
        duel = system.new_duel(seed)
        while not duel.over:
            duel.step(choose(duel))
    return (DUELS_PER_SAMPLE / (time.perf_counter() - wall),
            DUELS_PER_SAMPLE / (time.process_time() - cpu))


def _reference_loop() -> float:
    """CPU seconds for one million plain Python additions: how fast this machine runs Python
    right now, so the duel rates can be compared across machines and loads."""
    start = time.process_time()
    total = 0
    for i in range(1_000_000):
        total += i
    return time.process_time() - start


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    from emucore.ocg1999.system import SYSTEM as OCG
    from emucore.tcglite.system import SYSTEM as TCG

    rows = []
    for system in (OCG, TCG):
        system.new_duel(0)  # load the tables outside the timing
        samples = [_duels_per_second(system, i * DUELS_PER_SAMPLE) for i in range(repeat)]
        # bench.py prints (median, max): for a rate, the max column holds the slowest sample
        for clock, rates in (("wall", [s[0] for s in samples]), ("CPU", [s[1] for s in samples])):
            rows.append((f"{system.name}: duels per second ({clock} time)",
                         statistics.median(rates), min(rates), "duels/s", GOAL))
    loops = [_reference_loop() * 1e3 for _ in range(repeat)]
    rows.append(("reference: 1M Python additions (CPU time)", statistics.median(loops),
                 max(loops), "ms", "about 35 ms on an idle desktop core"))
    return rows
