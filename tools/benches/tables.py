"""Foundation speed: cold import + FM table load; the vectorised 722 x 7 effective-stat table."""

from __future__ import annotations

import subprocess
import sys

from bench import measure

COLD = ("import time; t = time.perf_counter(); import emucore.tables as T; T.load('fm'); "
        "print(time.perf_counter() - t)")


def _cold_once() -> float:
    out = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True, check=True)
    return float(out.stdout)


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    import statistics

    import numpy as np

    from emucore import tables
    from emucore.hw import fm_stats

    cold = [_cold_once() for _ in range(repeat)]
    t = tables.load("fm")
    ids = np.arange(1, 723)
    terrains = np.arange(7)

    def stat_table() -> None:
        boost = fm_stats.terrain_boost(t.terrain, t.type_id[ids][:, None], terrains[None, :])
        fm_stats.card_stat(t.atk[ids][:, None], 0, boost)
        fm_stats.card_stat(t.def_[ids][:, None], 0, boost)

    median, worst = measure(stat_table, repeat, inner=200)
    return [
        ("cold import emucore + load all FM tables", statistics.median(cold), max(cold), "s",
         "< 0.3 s"),
        ("effective ATK/DEF, 722 cards x 7 terrains", median * 1e3, worst * 1e3, "ms", "< 1 ms"),
    ]
