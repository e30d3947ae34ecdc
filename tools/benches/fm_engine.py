"""FM engine speed: (a) one step() of a typical action, (b) random-legal-action duels per
second (deal included, no AI), (c) the deal for 10,000 consecutive RNG indices.

Times are CPU seconds of this process (``time.process_time``), i.e. "on one core", so a busy
shared machine does not inflate them.
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


def _step_samples(count: int, tables) -> list[float]:
    """Time step() alone over the actions of recorded random duels (restore untimed)."""
    from emucore.fm.setup import FmSetup, new_duel
    from emucore.hw.psyq_rand import Rand

    samples = []
    seed = 0
    while len(samples) < count:
        duel = new_duel(FmSetup(deck=DECK, duelist=1 + seed % 39, state=seed), tables)
        pick = Rand(seed)
        while not duel.over and len(samples) < count:
            actions = duel.legal_actions()
            action = actions[pick.rand() % len(actions)]
            saved = duel.snapshot()
            start = time.process_time()
            duel.step(action)
            samples.append(time.process_time() - start)
            duel.restore(saved)
            duel.step(action)
        seed += 1
    return samples


def _cpu_measure(fn, repeat: int) -> tuple[float, float]:
    """Median and max CPU seconds of ``fn`` over ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    return statistics.median(samples), max(samples)


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    import numpy as np

    from emucore import tables
    from emucore.fm import deck
    from emucore.hw import psyq_rand

    t = tables.load("fm")
    steps = _step_samples(300 * repeat, t)
    duels = 60

    def many_duels() -> None:
        for seed in range(duels):
            _random_duel(seed, t)

    duel_median, duel_worst = _cpu_measure(many_duels, repeat)
    states = psyq_rand.consecutive_states(psyq_rand.BOOT_STATE, 10_000).astype(np.uint32)
    deal_median, deal_worst = _cpu_measure(lambda: deck.deal_many(states, DECK, 1, t), repeat)
    return [
        ("one step() (random legal actions)", statistics.median(steps) * 1e6,
         max(steps) * 1e6, "us", "< 50 us"),
        ("random-legal-action duels per second", duels / duel_median, duels / duel_worst,
         "duels/s", ">= 300"),
        ("deal for 10,000 consecutive RNG indices", deal_median, deal_worst, "s", "< 1 s"),
    ]
