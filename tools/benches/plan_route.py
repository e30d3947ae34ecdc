"""Route search scaling (issue 16, issue 29): start indices per second of ``plan route`` on a
local Dask cluster of one worker and of two, on a route with a duel link (a new game's
starter deck, then Simon Muran right away: one simulated duel per index), and the costs a
cluster of many machines is sized from (docs/planning.md, "Route search at scale").

The clusters are started before the clock runs and warmed with one run (each worker loads
the tables once); samples alternate between the two clusters so both see the same load. The
workers' CPU time per index is reported too: on a machine busy with other work, wall-clock
scaling is capped by the free cores, while equal CPU per index shows that splitting the
range adds no work.
The route uses the spec's default chunk size (``route_spec.DEFAULT_CHUNK``), as a user's
run does; a sample is eight chunks, so each of two workers gets four (an uneven last
chunk then weighs less).
``EMUCORE_BENCH_ROUTE`` sets the indices per sample instead.

From Dask's own task stream (``distributed.get_task_stream``): the seconds one chunk computes
on a worker, the share of the wall time the workers spent computing (the rest is waiting for
the scheduler, the client, or a chunk at the end), and the gap between one chunk's end and
the next one's start on a worker. The scheduler's cost per task is the wall time of many
empty tasks. The serial parts on the client, timed in this process: the spec parsed, one
chunk's journal line appended (and fsynced), and the final file's sort and write per route.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

SPEC = {"name": "bench",
        "link": [{"kind": "starter", "has": []},
                 {"kind": "duel", "duelist": 1, "frames": [0, 0], "win": False}]}
EMPTY_TASKS = 2000  # tasks of the scheduler-cost sample


def _cpu(client) -> float:
    """CPU seconds used so far by every worker process of the cluster."""
    return sum(client.run(time.process_time).values())


def _spec(start: int, count: int, win: bool = False):
    """The bench route over ``count`` starts; ``win``: keep the won duels instead of the
    lost ones (nearly every start: a chunk full of routes)."""
    from emucore import tables
    from emucore.planning import route_spec

    links = [SPEC["link"][0], {**SPEC["link"][1], "win": win}]
    return route_spec.parse({**SPEC, "link": links, "start": {"from": start, "count": count}},
                            tables.load("fm"))


def _rate(client, start: int, count: int, folder: Path) -> dict[str, Any]:
    """One sample: indices per second (wall), CPU milliseconds per index summed over the
    workers, and the chunks' compute spans from Dask's task stream."""
    from distributed import get_task_stream

    from emucore.planning import route_run

    spec = _spec(start, count)
    began, cpu = time.perf_counter(), _cpu(client)
    with get_task_stream(client) as stream:
        route_run.run(spec, folder / f"{start}.jsonl",
                      lambda todo: route_run.cluster_chunks(client, spec, todo), force=True)
    wall = time.perf_counter() - began
    spans = [(task["worker"], s["start"], s["stop"]) for task in stream.data
             for s in task["startstops"] if s["action"] == "compute"]
    return {"rate": count / wall, "cpu": (_cpu(client) - cpu) * 1e3 / count, "wall": wall,
            "spans": spans}


def _gaps(spans: list[tuple[str, float, float]]) -> list[float]:
    """Seconds between a chunk's end and the next chunk's start on the same worker."""
    out = []
    for worker in {w for w, _, _ in spans}:
        mine = sorted((a, b) for w, a, b in spans if w == worker)
        out += [a2 - b1 for (_, b1), (a2, _) in zip(mine, mine[1:], strict=False)]
    return out


def _busy(sample: dict[str, Any], workers: int) -> float:
    """The share of the sample's wall time the workers spent computing chunks."""
    return sum(b - a for _, a, b in sample["spans"]) / (sample["wall"] * workers)


def _scheduler_ms(client) -> float:
    """Milliseconds per task of :data:`EMPTY_TASKS` empty tasks: what the scheduler, the
    workers and the client spend on a task besides its work."""
    from distributed import wait

    began = time.perf_counter()
    # a builtin: the workers need no module of this file to run it
    wait(client.map(abs, range(EMPTY_TASKS), pure=False))
    return (time.perf_counter() - began) * 1e3 / EMPTY_TASKS


def _serial_ms(folder: Path) -> tuple[float, float, float]:
    """The client's serial parts, in this process: milliseconds to parse the spec, to append
    one chunk's journal line (fsynced), and per route to sort and write the final file (on a
    chunk that keeps nearly every start, so the lines are full of routes)."""
    from emucore import tables
    from emucore.duel.files import Journal
    from emucore.planning import route, route_run
    from emucore.planning.route_spec import DEFAULT_CHUNK

    tables.load("fm")  # loaded once per process in a run, not part of the parse
    began = time.perf_counter()
    spec = _spec(0, DEFAULT_CHUNK, win=True)
    parse = (time.perf_counter() - began) * 1e3
    chunk = route.search_chunk(spec, 0, DEFAULT_CHUNK)
    record = chunk.to_json()
    with Journal(folder / "journal.part", new=True) as journal:
        began = time.perf_counter()
        for _ in range(20):
            journal.append(record)
        append = (time.perf_counter() - began) * 1e3 / 20
    parts = [chunk] * 20
    began = time.perf_counter()
    route_run._publish(folder / "out.jsonl", parts, force=True)
    publish = (time.perf_counter() - began) * 1e3 / max(1, sum(len(c.routes) for c in parts))
    return parse, append, publish


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    from emucore.planning import route_run
    from emucore.planning.route_spec import DEFAULT_CHUNK

    count = int(os.environ.get("EMUCORE_BENCH_ROUTE", 8 * DEFAULT_CHUNK))
    samples: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as tmp, \
            route_run.dask_client(1, None) as one, route_run.dask_client(2, None) as two:
        folder = Path(tmp)
        clients = {1: one, 2: two}
        for jobs, client in clients.items():
            _rate(client, 10**6 + jobs * 1000, 8, folder)  # warm: tables loaded per worker
        for k in range(repeat):
            for jobs, client in clients.items():
                samples[jobs].append(_rate(client, k * count, count, folder))
        scheduler = [_scheduler_ms(two) for _ in range(3)]
        parse, append, publish = _serial_ms(folder)
    rates = {j: [s["rate"] for s in samples[j]] for j in samples}
    cpu = {j: [s["cpu"] for s in samples[j]] for j in samples}
    ratios = [b / a for a, b in zip(rates[1], rates[2], strict=True)]
    chunk = [b - a for s in samples[1] for _, a, b in s["spans"]]
    busy = [_busy(s, 2) for s in samples[2]]
    gaps = [g for s in samples[2] for g in _gaps(s["spans"])] or [0.0]
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
        (f"chunk of {DEFAULT_CHUNK} computing, 1 worker (task stream)",
         statistics.median(chunk), max(chunk), "s", "(per-chunk cost)"),
        ("workers busy computing, 2 workers", statistics.median(busy), min(busy), "share",
         "(max column: lowest); 2 x this = speed-up on 2 free cores"),
        ("gap between chunks on a worker, 2 workers", statistics.median(gaps) * 1e3,
         max(gaps) * 1e3, "ms", "(scheduler and client between chunks)"),
        (f"scheduler cost per task ({EMPTY_TASKS} empty tasks)", statistics.median(scheduler),
         max(scheduler), "ms", "(the serial cost per chunk on a cluster)"),
        ("client: spec parsed", parse, parse, "ms", "(once per run)"),
        ("client: one chunk's journal line (fsync)", append, append, "ms", "(per chunk)"),
        ("client: final sort and write", publish, publish, "ms/route", "(once, per route)"),
    ]
