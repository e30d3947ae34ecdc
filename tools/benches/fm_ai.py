"""FM computer opponent: AI-vs-AI duels per second (one core) and the hand decision with a
20-card look-ahead window (Heishin). The goal of 500 duels/s is for the compiled duel
(``EMUCORE_COMPILE=1`` at install; ``emucore --version`` says what runs compiled)."""

from __future__ import annotations

import statistics
import time

from bench import measure

DUELS_PER_SAMPLE = 20


def _deck() -> list[int]:
    from emucore import tables

    t = tables.load("fm")
    monsters = [c for c in range(1, 400) if t.is_monster(c) and c not in range(17, 22)]
    return monsters[:34] + [330, 343, 348, 301, 683, 672]


def _hand_phase_duels(count: int):
    """Heishin duels stopped at CPU hand phases a few turns in."""
    from emucore.fm.ai import choose_action
    from emucore.fm.setup import FmSetup, new_duel

    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        duel = new_duel(FmSetup(deck=_deck(), duelist=8, state=seed * 7919, computer=[0, 1]))
        cpu_turns = 0
        while not duel.over:
            if duel.acting_side == 1 and duel.phase == 0:
                cpu_turns += 1
                if cpu_turns == 3:
                    out.append(duel)
                    break
            duel.step(choose_action(duel))
    return out


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    from emucore.fm.ai import choose_action
    from emucore.fm.ai.sim import play_range
    from emucore.fm.setup import FmSetup

    setup = FmSetup(deck=_deck(), duelist=7)
    play_range(setup, 0, 2)   # warm the caches
    rates, cpu_rates = [], []
    for k in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        play_range(setup, 1000 + k * DUELS_PER_SAMPLE, DUELS_PER_SAMPLE)
        rates.append(DUELS_PER_SAMPLE / (time.perf_counter() - start))
        cpu_rates.append(DUELS_PER_SAMPLE / (time.process_time() - cpu))
    duels = _hand_phase_duels(8)
    samples = []
    for duel in duels:
        median, _ = measure(lambda d=duel: choose_action(d), repeat, inner=5)
        samples.append(median)
    return [
        ("AI-vs-AI duels per second (one core, wall)", statistics.median(rates), min(rates),
         "duels/s", ">= 500 compiled (max column: slowest sample)"),
        ("AI-vs-AI duels per second (CPU time)", statistics.median(cpu_rates),
         min(cpu_rates), "duels/s", ">= 500 compiled (max column: slowest sample)"),
        ("hand decision, 20-card window (Heishin)", statistics.median(samples) * 1e3,
         max(samples) * 1e3, "ms", "< 2 ms"),
    ]
