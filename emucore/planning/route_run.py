"""Running a route search: chunks on this process, a local Dask cluster or a remote one,
streamed to a journal so a killed run loses no finished chunk.

The journal ``OUT.part`` is JSON lines: a header (the spec and its chunking), then one line
per finished chunk, appended and fsynced as each chunk finishes, in whatever order they
finish. It is written and read only through the journal edge
(:class:`emucore.duel.files.Journal`, :func:`emucore.duel.files.journal_records`).
``--resume`` reads it back (a torn last line from a kill is left out, then cut off), checks
the header and every chunk against the spec, and submits only the chunks not in it. When
every chunk is done, the routes of all chunks are sorted by
:func:`emucore.planning.route.cost_key` and written atomically to ``OUT`` (one JSON line per
route), and the journal is removed. The final file depends on the spec alone, not on the
order chunks finished in or on how many times the run was stopped. A run that ends
unfinished keeps the journal when it holds a finished chunk, and says how to resume; with
nothing to resume it removes it. The chunks are made one at a time and handed to the
searcher as an iterator, so nothing grows with the size of the range before work starts.

Dask (``dask.distributed``) is imported only when a cluster is used, so ``emucore`` starts
fast. Without ``--scheduler``, ``--jobs N`` > 1 starts a local cluster of N one-thread worker
processes; ``--jobs 1`` runs the chunks in this process.
"""

from __future__ import annotations

import json
import logging
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from emucore.cliutil import UsageError
from emucore.duel.files import (
    Journal,
    UserFileError,
    journal_records,
    lexists,
    remove_journal,
    write_atomic,
)
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
    journal: Path | None = None  # the journal a stopped run left to resume from

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
    """The chunks a stopped run finished, read through the reading edge
    (:func:`emucore.duel.files.journal_records`: a torn last line is left out). The header
    must be this run's, and each chunk one of the spec's, once; a bad line is one
    :class:`UserFileError` naming the journal and the line."""
    done: dict[int, route.Chunk] = {}
    for number, record in journal_records(path):
        if number == 1:
            if record != _header(spec, disc):
                raise UserFileError(path, "line 1: was written for another spec, chunk size, "
                                          "engine version or disc; remove it or drop --resume")
            continue
        try:
            chunk = route.Chunk.from_json(record, spec)
        except ValueError as exc:
            raise UserFileError(path, f"line {number}: {exc}") from None
        if chunk.start in done:
            raise UserFileError(path, f"line {number}: the chunk at {chunk.start} is on an "
                                      "earlier line too")
        done[chunk.start] = chunk
    return list(done.values())


def serial_chunks(spec: RouteSpec, todo: Iterable[tuple[int, int]],
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


def cluster_chunks(client: Any, spec: RouteSpec, todo: Iterable[tuple[int, int]],
                   disc: route.DiscData | None = None) -> Iterator[route.Chunk]:
    """The chunks searched on a Dask cluster, yielded as they finish; at most
    :data:`WINDOW_PER_WORKER` per worker are in flight. Stopping the iterator cancels the
    rest. ``disc`` (the tables and programs of ``--disc``) goes to every worker as data,
    once, with the spec."""
    from distributed import KilledWorker, as_completed
    from distributed.comm import CommClosedError

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    pending = iter(todo)
    # hash=False: a key of its own for each search, so a second search of the same spec on
    # one client never meets the first one's copy being released ("lost dependencies")
    spec_future = client.scatter(spec, broadcast=True, hash=False)
    disc_future = None if disc is None else client.scatter(disc, broadcast=True, hash=False)

    inflight: set[Any] = set()

    def submit(piece: tuple[int, int]) -> Any:
        future = client.submit(route.search_chunk, spec_future, *piece, disc_future,
                               pure=False)
        inflight.add(future)
        return future

    running = as_completed([submit(p) for p in islice(pending, WINDOW_PER_WORKER * workers)])
    try:
        for future in running:
            try:
                chunk = future.result()
            except KilledWorker as exc:
                where = getattr(exc.last_worker, "address", "a worker")
                raise UsageError(f"a Dask worker died searching a chunk (the last on "
                                 f"{where}; out of memory?)") from None
            except CommClosedError:
                raise UsageError("the Dask scheduler went away during the search") from None
            inflight.discard(future)
            following = next(pending, None)
            if following is not None:
                running.add(submit(following))
            yield chunk
    finally:
        client.cancel(list(inflight))


def run(spec: RouteSpec, out: Path, found: Callable[[Iterator[tuple[int, int]]],
                                                    Iterable[route.Chunk]],
        resume: bool = False, show_progress: bool = False,
        disc: route.DiscData | None = None, force: bool = False) -> RunResult:
    """Search every chunk of ``spec`` not yet in the journal with ``found`` (serial or
    cluster; it gets the chunks to do one at a time), stream each to the journal, and write
    ``out`` when all are done (replacing a file only with ``force``). A
    ``KeyboardInterrupt`` stops the run (``finished`` False). Whenever a run ends unfinished,
    the journal is kept if it holds a finished chunk (the message says how to resume) and
    removed if not. ``disc``: what ``--disc`` gave the duels, recorded in the header."""
    journal_file = journal_path(out)
    resuming = resume and lexists(journal_file)
    done = read_journal(journal_file, spec, disc) if resuming else []
    finished_starts = {c.start for c in done}
    todo = (c for c in route.chunks(spec) if c[0] not in finished_starts)
    parts = list(done)
    total = route.chunk_count(spec)
    started = time.perf_counter()
    journal = Journal(journal_file, new=not resuming)
    finished = False
    try:
        with journal:
            if journal.empty:
                journal.append(_header(spec, disc))
            _record(journal, found(todo), parts, Progress(total - len(done), "chunks",
                                                          enabled=show_progress))
        _publish(out, parts, force)
        finished = True
        remove_journal(journal_file)
    except KeyboardInterrupt:
        left = _keep_or_remove(journal_file, parts, total, resuming)
        print(f"emucore: stopped; {left}", file=sys.stderr)
    except Exception as exc:
        left = _keep_or_remove(journal_file, parts, total, resuming)
        if isinstance(exc, UserFileError | UsageError):
            raise UsageError(f"{exc}; {left}") from None
        print(f"emucore: {left}", file=sys.stderr)
        raise
    kept = None if finished or not lexists(journal_file) else journal_file
    return RunResult(spec, parts, total, len(done), time.perf_counter() - started, finished,
                     kept)


def _record(journal: Journal, found: Iterable[route.Chunk], parts: list[route.Chunk],
            progress: Progress) -> None:
    """Append each chunk ``found`` yields to ``parts`` and to the journal (a stop in mid-append
    leaves a torn line, cut off when resumed); stop ``found`` (cancelling a cluster's chunks
    in flight) however this ends."""
    chunks = iter(found)
    try:
        for chunk in chunks:
            parts.append(chunk)  # first: a stop during the append keeps the journal
            journal.append(chunk.to_json())
            progress.note = f"{sum(len(c.routes) for c in parts)} routes"
            progress.advance(1)
    finally:
        getattr(chunks, "close", lambda: None)()
        progress.finish()


def _publish(out: Path, parts: list[route.Chunk], force: bool) -> None:
    """Every route of every chunk, in cost order, written atomically to ``out``."""
    routes = sorted((r for c in parts for r in c.routes), key=route.cost_key)
    write_atomic(out, "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in routes),
                 replace=force)


def _keep_or_remove(journal_file: Path, parts: list[route.Chunk], total: int,
                    resuming: bool) -> str:
    """The journal of an unfinished run kept when it holds finished chunks (or was there
    before this run), removed when there is nothing to resume; what was done, in words."""
    if parts or resuming:
        return (f"{len(parts)} of {total} chunks kept in {journal_file} "
                "(run again with --resume)")
    remove_journal(journal_file)
    return "no chunk had finished; nothing kept"
