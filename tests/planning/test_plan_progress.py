"""Index ranges split for worker processes, and the progress line on stderr."""

from __future__ import annotations

import io

import numpy as np

from emucore.planning import progress, starter


def test_pieces_cover_the_range_in_order() -> None:
    assert list(progress.pieces(10, 25, 10)) == [(10, 10), (20, 10), (30, 5)]
    assert list(progress.pieces(0, 0, 10)) == []


def test_two_processes_give_what_one_gives() -> None:
    meter = progress.Progress(6000, enabled=False)
    one = progress.run_pieces(starter.search_piece, 100, 6000, ((337, 8),), 1, 1000, meter)
    two = progress.run_pieces(starter.search_piece, 100, 6000, ((337, 8),), 2, 1000,
                              progress.Progress(6000, enabled=False))
    assert np.concatenate(one).tolist() == np.concatenate(two).tolist()
    assert meter.done == 6000


def test_progress_is_silent_for_short_runs() -> None:
    out = io.StringIO()
    meter = progress.Progress(100, stream=out)
    meter.advance(100)
    meter.finish()
    assert out.getvalue() == ""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_for_long_runs_on_a_terminal(monkeypatch) -> None:
    monkeypatch.setattr(progress, "QUIET_FOR", 0.0)
    monkeypatch.setattr(progress, "EVERY", 0.0)
    out = Terminal()
    meter = progress.Progress(200, stream=out)
    meter.advance(50)
    meter.advance(150)
    meter.finish()
    text = out.getvalue()
    assert "\r50/200 indices" in text and "\r200/200 indices" in text
    assert text.endswith("\n") and "200 indices in" in text
    assert text.count("\n") == 1  # one line, redrawn in place


def test_no_progress_into_a_log_file(monkeypatch) -> None:
    """A file or a pipe (no terminal) gets no progress at all, as issue 14 asks."""
    monkeypatch.setattr(progress, "QUIET_FOR", 0.0)
    monkeypatch.setattr(progress, "EVERY", 0.0)
    out = io.StringIO()
    meter = progress.Progress(200, stream=out)
    meter.advance(200)
    meter.finish()
    assert out.getvalue() == ""
