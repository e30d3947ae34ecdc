"""Frame pacing at a machine's exact rate with a ``time.perf_counter_ns`` accumulator.

``pygame.time.Clock.tick`` rounds to whole milliseconds and runs fast (about 61.4 Hz for a
59.7275 Hz request), so frames are paced here: the deadline of frame n is ``start + n x
period`` computed exactly (a Fraction period, no drift), the wait sleeps the coarse part and
spins the last ~1 ms, and a pacer that falls more than ``MAX_BEHIND`` frames behind (a stall,
a dragged window) starts counting afresh instead of rushing to catch up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction

SPIN_NS = 1_000_000  # spin (instead of sleeping) for the last millisecond
MAX_BEHIND = 4  # frames


class FramePacer:
    """Waits until each emulated frame is due. ``clock`` and ``sleep`` are injectable."""

    def __init__(self, frame_ns: Fraction, clock: Callable[[], int] = time.perf_counter_ns,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.frame_ns = frame_ns
        self.clock, self.sleep = clock, sleep
        self.start = clock()
        self.frames = 0  # frames since start
        self.resyncs = 0  # how often the pacer fell behind and restarted

    def deadline(self) -> int:
        """perf_counter_ns value at which the next frame is due."""
        return self.start + int((self.frames + 1) * self.frame_ns)

    def wait(self) -> None:
        """Block until the next frame is due, then count it."""
        due = self.deadline()
        now = self.clock()
        if now - due > MAX_BEHIND * self.frame_ns:
            self.start, self.frames = now, 0
            self.resyncs += 1
            return
        remaining = due - now
        if remaining > SPIN_NS:
            self.sleep((remaining - SPIN_NS) / 1e9)
        while self.clock() < due:
            pass
        self.frames += 1
