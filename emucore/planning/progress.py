"""Long searches: split an index range into pieces, run them on ``jobs`` processes, and show
progress on stderr once a run has taken more than a second, only when stderr is a terminal
(a log file or a pipe gets no progress lines)."""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import IO, Any, TypeVar

T = TypeVar("T")

QUIET_FOR = 1.0  # seconds before the first progress line
EVERY = 0.25  # seconds between updates of the line on a terminal


class Progress:
    """A counter on stderr, silent for runs under a second and when stderr is not a
    terminal: one ``\\r``-updated line."""

    def __init__(self, total: int, what: str = "indices", stream: IO[str] | None = None,
                 enabled: bool = True) -> None:
        self.total, self.what, self.done = total, what, 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and getattr(self.stream, "isatty", lambda: False)()
        self.started = time.perf_counter()
        self.shown_at = 0.0
        self.shown = False
        self.note = ""  # shown after the counts (e.g. "12 routes")

    def advance(self, n: int) -> None:
        """Count ``n`` more finished items and redraw if it is time."""
        self.done += n
        now = time.perf_counter()
        if not self.enabled or now - self.started < QUIET_FOR or now - self.shown_at < EVERY:
            return
        self.shown_at, self.shown = now, True
        rate = self.done / (now - self.started)
        left = (self.total - self.done) / rate if rate else 0.0
        self.stream.write(f"\r{self.done:,}/{self.total:,} {self.what} "
                          f"({100 * self.done / max(self.total, 1):5.1f}%)  {self.note}  "
                          f"{_rate(rate)}  {left:5.1f} s left ")
        self.stream.flush()

    def finish(self) -> float:
        """End the line if one was drawn; return the elapsed seconds."""
        elapsed = time.perf_counter() - self.started
        if self.shown:
            self.stream.write(f"\r{self.done:,} {self.what} in {elapsed:.1f} s "
                              f"({_rate(self.done / elapsed)}) {self.note}{' ' * 20}\n")
            self.stream.flush()
        return elapsed


def _rate(per_second: float) -> str:
    """Millions a second for index counts, plain for slow items such as chunks."""
    return f"{per_second / 1e6:.2f} M/s" if per_second >= 1e5 else f"{per_second:.2f}/s"


def pieces(start: int, count: int, size: int) -> Iterator[tuple[int, int]]:
    """``(start, count)`` pieces of at most ``size`` covering the range in order."""
    for base in range(start, start + count, size):
        yield base, min(size, start + count - base)


def run_pieces(work: Callable[..., T], start: int, count: int, args: tuple[Any, ...],
               jobs: int, size: int, progress: Progress) -> list[T]:
    """``work(piece_start, piece_count, *args)`` over the range, results in range order.

    ``jobs`` > 1 runs the pieces on that many worker processes (``work`` must be a
    module-level function); each process loads what it needs once.
    """
    parts = list(pieces(start, count, size))
    if jobs <= 1 or len(parts) <= 1:
        out = []
        for base, n in parts:
            out.append(work(base, n, *args))
            progress.advance(n)
        return out
    results: dict[int, T] = {}
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(work, base, n, *args): (i, n) for i, (base, n) in enumerate(parts)}
        for future in as_completed(futures):
            i, n = futures[future]
            results[i] = future.result()
            progress.advance(n)
    return [results[i] for i in range(len(parts))]
