"""Running a route search: chunks on this process, a local Dask cluster or a remote one,
streamed to a journal so a killed run loses no finished chunk.

The journal ``OUT.part`` is JSON lines: a header (the spec and its chunking), then one line
per finished chunk, appended and flushed to disk as each chunk finishes, in whatever order
they finish. ``--resume`` reads it back (a torn last line from a kill is cut off), checks the
header matches, and submits only the chunks not in it. When every chunk is done, the routes
of all chunks are sorted by :func:`emucore.planning.route.cost_key` and written atomically to
``OUT`` (one JSON line per route), and the journal is removed. The final file depends on the
spec alone, not on the order chunks finished in or on how many times the run was stopped.

Dask (``dask.distributed``) is imported only when a cluster is used, so ``emucore`` starts
fast. Without ``--scheduler``, ``--jobs N`` > 1 starts a local cluster of N one-thread worker
processes; ``--jobs 1`` runs the chunks in this process.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import IO, Any

from emucore.duel.files import UserFileError, write_atomic
from emucore.planning import route
from emucore.planning.progress import Progress
from emucore.planning.route_spec import RouteSpec

JOURNAL_VERSION = 1
WINDOW_PER_WORKER = 4  # chunks in flight per worker: workers never wait, few futures


@dataclass
class RunResult:
    """What a finished (or stopped) run did."""

    spec: RouteSpec
    parts: list[route.Chunk]
    chunks_total: int
    resumed: int  # chunks read back from the journal
    seconds: float
    finished: bool

    @property
    def routes(self) -> int:
        return sum(len(c.routes) for c in self.parts)

    @property
    def searched(self) -> int:
        """Start indices searched by this run (not read back from the journal)."""
        return sum(c.count for c in self.parts[self.resumed:])

    def outcomes(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for c in self.parts:
            total.update(c.outcomes)
        return total

    def kept(self) -> list[int]:
        return route.per_link_kept(self.parts, len(self.spec.links))


def journal_path(out: Path) -> Path:
    return out.with_name(out.name + ".part")


def _header(spec: RouteSpec, disc: route.DiscData | None = None) -> dict[str, Any]:
    header = {"journal": JOURNAL_VERSION, "spec": spec.to_json(), "chunk": spec.chunk,
              "version": route.VERSION}
    if disc is not None:  # a run with --disc resumes only with the same disc's data
        header["disc"] = disc.header()
    return header


def read_journal(path: Path, spec: RouteSpec, disc: route.DiscData | None = None
                 ) -> list[route.Chunk]:
    """The chunks a stopped run finished; the file is cut after its last whole line."""
    if not path.exists():
        return []
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    lines = data[:end].splitlines()
    if not lines or json.loads(lines[0]) != _header(spec, disc):
        raise UserFileError(path, "was written for another spec, chunk size, engine "
                                  "version or disc; remove it or drop --resume")
    if end < len(data):
        with path.open("r+b") as f:
            f.truncate(end)
    return [route.Chunk.from_json(json.loads(line)) for line in lines[1:]]


class Journal:
    """The append-only record of finished chunks."""

    def __init__(self, path: Path, spec: RouteSpec, fresh: bool,
                 disc: route.DiscData | None = None) -> None:
        self.path = path
        self.file: IO[str] = path.open("w" if fresh else "a", encoding="utf-8")
        if fresh:
            self._line(_header(spec, disc))

    def add(self, chunk: route.Chunk) -> None:
        self._line(chunk.to_json())

    def _line(self, data: dict[str, Any]) -> None:
        self.file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()


def serial_chunks(spec: RouteSpec, todo: list[tuple[int, int]],
                  disc: route.DiscData | None = None) -> Iterator[route.Chunk]:
    """The chunks searched one after another in this process."""
    for start, count in todo:
        yield route.search_chunk(spec, start, count, disc)


@contextmanager
def dask_client(jobs: int, scheduler: str | None) -> Iterator[Any]:
    """A ``dask.distributed`` client: on the cluster at ``scheduler``, else on a new local
    cluster of ``jobs`` one-thread worker processes (closed on exit)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UserFileError("dask", 'not installed: python -m pip install -e "."') from None
    if scheduler:
        try:
            client = Client(scheduler, timeout=10)
        except (OSError, TimeoutError) as exc:
            raise UserFileError(scheduler, f"no Dask scheduler answers ({exc})") from None
        with client:
            yield client
        return
    with _workers_ignore_ctrl_c():
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
    with cluster, Client(cluster) as client:
        yield client


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Start the local workers with SIGINT ignored (they inherit it): Ctrl-C in the terminal
    then reaches only this process, which stops the run and closes the cluster itself."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def cluster_chunks(client: Any, spec: RouteSpec, todo: list[tuple[int, int]],
                   disc: route.DiscData | None = None) -> Iterator[route.Chunk]:
    """The chunks searched on a Dask cluster, yielded as they finish; at most
    :data:`WINDOW_PER_WORKER` per worker are in flight. Stopping the iterator cancels the
    rest. ``disc`` (the tables and programs of ``--disc``) goes to every worker as data,
    once, with the spec."""
    from distributed import as_completed

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    pending = iter(todo)
    spec_future = client.scatter(spec, broadcast=True)
    disc_future = client.scatter(disc, broadcast=True) if disc is not None else None

    inflight: set[Any] = set()

    def submit(piece: tuple[int, int]) -> Any:
        future = client.submit(route.search_chunk, spec_future, *piece, disc_future,
                               pure=False)
        inflight.add(future)
        return future

    running = as_completed([submit(p) for p in islice(pending, WINDOW_PER_WORKER * workers)])
    try:
        for future in running:
            chunk = future.result()
            inflight.discard(future)
            following = next(pending, None)
            if following is not None:
                running.add(submit(following))
            yield chunk
    finally:
        client.cancel(list(inflight))


def run(spec: RouteSpec, out: Path, found: Callable[[list[tuple[int, int]]],
                                                    Iterable[route.Chunk]],
        resume: bool = False, show_progress: bool = False,
        disc: route.DiscData | None = None) -> RunResult:
    """Search every chunk of ``spec`` not yet in the journal with ``found`` (serial or
    cluster), stream each to the journal, and write ``out`` when all are done. A
    ``KeyboardInterrupt`` stops the run with the journal intact (``finished`` False).
    ``disc``: what ``--disc`` gave the duels, recorded in the journal's header."""
    journal_file = journal_path(out)
    done = read_journal(journal_file, spec, disc) if resume else []
    finished_starts = {c.start for c in done}
    all_chunks = route.chunks(spec)
    todo = [c for c in all_chunks if c[0] not in finished_starts]
    progress = Progress(len(todo), "chunks", enabled=show_progress)
    parts = list(done)
    started = time.perf_counter()
    journal = Journal(journal_file, spec, fresh=not done, disc=disc)
    finished = False
    try:
        for chunk in found(todo):
            journal.add(chunk)
            parts.append(chunk)
            progress.note = f"{sum(len(c.routes) for c in parts)} routes"
            progress.advance(1)
        finished = True
    except KeyboardInterrupt:
        pass
    finally:
        journal.close()
        progress.finish()
    if finished:
        routes = sorted((r for c in parts for r in c.routes), key=route.cost_key)
        write_atomic(out, "".join(json.dumps(r, separators=(",", ":")) + "\n"
                                  for r in routes).encode())
        journal_file.unlink()
    elapsed = time.perf_counter() - started
    if not finished:
        print(f"emucore: stopped; {len(parts)} of {len(all_chunks)} chunks kept in "
              f"{journal_file} (run again with --resume)", file=sys.stderr)
    return RunResult(spec, parts, len(all_chunks), len(done), elapsed, finished)
