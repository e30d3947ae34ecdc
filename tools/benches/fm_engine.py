"""FM engine speed: (a) one step() of a typical action, (b) random-legal-action duels per
second (deal included, no AI) and the same loop's steps per second (rules that change how
long a duel lasts change (b), not this), (c) the deal for 10,000 consecutive RNG indices.

Each measure is given twice: CPU seconds of this process (``time.process_time``, i.e. "on one
core", so a busy shared machine inflates it less) and wall-clock seconds. The goals apply to
the CPU figures.
"""

from __future__ import annotations

import statistics
import time

DECK = list(range(1, 41))


def _random_duel(seed: int, tables) -> int:
    from emucore.fm.setup import FmSetup, new_duel
    from emucore.hw.psyq_rand import Rand

    duel = new_duel(FmSetup(deck=DECK, duelist=1 + seed % 39, state=seed), tables)
    pick = Rand(seed)
    steps = 0
    while not duel.over:
        actions = duel.legal_actions()
        duel.step(actions[pick.rand() % len(actions)])
        steps += 1
    return steps


def _step_samples(count: int, tables) -> tuple[list[float], list[float]]:
    """CPU and wall seconds of step() alone over the actions of recorded random duels
    (restore untimed)."""
    from emucore.fm.setup import FmSetup, new_duel
    from emucore.hw.psyq_rand import Rand

    cpu, wall = [], []
    seed = 0
    while len(cpu) < count:
        duel = new_duel(FmSetup(deck=DECK, duelist=1 + seed % 39, state=seed), tables)
        pick = Rand(seed)
        while not duel.over and len(cpu) < count:
            actions = duel.legal_actions()
            action = actions[pick.rand() % len(actions)]
            saved = duel.snapshot()
            start, start_wall = time.process_time(), time.perf_counter()
            duel.step(action)
            cpu.append(time.process_time() - start)
            wall.append(time.perf_counter() - start_wall)
            duel.restore(saved)
            duel.step(action)
        seed += 1
    return cpu, wall


def _measure(fn, repeat: int) -> tuple[list[float], list[float]]:
    """CPU and wall seconds of ``fn`` over ``repeat`` runs."""
    cpu, wall = [], []
    for _ in range(repeat):
        start, start_wall = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - start)
        wall.append(time.perf_counter() - start_wall)
    return cpu, wall


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    import numpy as np

    from emucore import tables
    from emucore.fm import deck
    from emucore.hw import psyq_rand

    t = tables.load("fm")
    rows = []
    step_cpu, step_wall = _step_samples(300 * repeat, t)
    for clock, samples in (("CPU", step_cpu), ("wall", step_wall)):
        rows.append((f"one step() (random legal actions), {clock}",
                     statistics.median(samples) * 1e6, max(samples) * 1e6, "us", "< 50 us"))
    duels = 60
    steps = sum(_random_duel(seed, t) for seed in range(duels))

    def many_duels() -> None:
        for seed in range(duels):
            _random_duel(seed, t)

    for clock, samples in zip(("CPU", "wall"), _measure(many_duels, repeat), strict=True):
        rows.append((f"random-legal-action duels per second, {clock}",
                     duels / statistics.median(samples), duels / max(samples), "duels/s",
                     ">= 300"))
        rows.append((f"  their steps per second ({steps / duels:.1f} per duel), {clock}",
                     steps / statistics.median(samples), steps / max(samples), "steps/s",
                     "-"))
    states = psyq_rand.consecutive_states(psyq_rand.BOOT_STATE, 10_000).astype(np.uint32)
    deal = _measure(lambda: deck.deal_many(states, DECK, 1, t), repeat)
    for clock, samples in zip(("CPU", "wall"), deal, strict=True):
        rows.append((f"deal for 10,000 consecutive RNG indices, {clock}",
                     statistics.median(samples), max(samples), "s", "< 1 s"))
    return rows
