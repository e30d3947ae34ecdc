"""Route search scaling (issue 16): start indices per second of ``plan route`` on a local Dask
cluster of one worker and of two, on a route with a duel link (a new game's starter deck,
then Simon Muran right away: one simulated duel per index).

The clusters are started before the clock runs and warmed with one run (each worker loads
the tables once); samples alternate between the two clusters so both see the same load. The
workers' CPU time per index is reported too: on a machine busy with other work, wall-clock
scaling is capped by the free cores, while equal CPU per index shows that splitting the
range adds no work.
The route uses the spec's default chunk size (``route_spec.DEFAULT_CHUNK``), as a user's
run does; a sample is four chunks, so each of two workers gets two.
``EMUCORE_BENCH_ROUTE`` sets the indices per sample instead.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

SPEC = {"name": "bench",
        "link": [{"kind": "starter", "has": []},
                 {"kind": "duel", "duelist": 1, "frames": [0, 0], "win": False}]}


def _cpu(client) -> float:
    """CPU seconds used so far by every worker process of the cluster."""
    return sum(client.run(time.process_time).values())


def _rate(client, start: int, count: int, folder: Path) -> tuple[float, float]:
    """Indices per second (wall) and CPU milliseconds per index summed over the workers."""
    from emucore import tables
    from emucore.planning import route_run, route_spec

    spec = route_spec.parse({**SPEC, "start": {"from": start, "count": count}},
                            tables.load("fm"))
    began, cpu = time.perf_counter(), _cpu(client)
    route_run.run(spec, folder / f"{start}.jsonl",
                  lambda todo: route_run.cluster_chunks(client, spec, todo), force=True)
    return count / (time.perf_counter() - began), (_cpu(client) - cpu) * 1e3 / count


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    from emucore.planning import route_run
    from emucore.planning.route_spec import DEFAULT_CHUNK

    count = int(os.environ.get("EMUCORE_BENCH_ROUTE", 4 * DEFAULT_CHUNK))
    rates: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as tmp, \
            route_run.dask_client(1, None) as one, route_run.dask_client(2, None) as two:
        folder = Path(tmp)
        clients = {1: one, 2: two}
        for jobs, client in clients.items():
            _rate(client, 10**6 + jobs * 1000, 8, folder)  # warm: tables loaded per worker
        for k in range(repeat):
            for jobs, client in clients.items():
                rate, per_index = _rate(client, k * count, count, folder)
                rates[jobs].append(rate)
                cpu[jobs].append(per_index)
    ratios = [b / a for a, b in zip(rates[1], rates[2], strict=True)]
    return [
        ("plan route, 1 worker (one duel per index)", statistics.median(rates[1]),
         min(rates[1]), "idx/s", "(max column: slowest sample)"),
        ("plan route, 2 workers", statistics.median(rates[2]), min(rates[2]), "idx/s",
         "(max column: slowest sample)"),
        ("speed-up, 2 workers / 1 (same samples)", statistics.median(ratios), min(ratios),
         "x", ">= 1.6 on 2 cores (max column: worst pair)"),
        ("worker CPU per index, 1 worker", statistics.median(cpu[1]), max(cpu[1]), "ms",
         "(the work itself)"),
        ("worker CPU per index, 2 workers (summed)", statistics.median(cpu[2]), max(cpu[2]),
         "ms", "~ the 1-worker figure: no work added by splitting"),
    ]
