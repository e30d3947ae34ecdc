"""``--plot FILE.png``: charts of the planner's distributions, drawn with matplotlib.

matplotlib is an optional extra (``pip install -e ".[plot]"``; the README's install command
includes it). It is imported only when a chart is asked for, with the non-interactive Agg
backend, so the planner starts fast and never needs a display. Without it, ``--plot`` is a
one-line error that says how to get it. The text output of the same command names every bar
in the same order as the chart.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from emucore.cliutil import UsageError
from emucore.duel.files import write_atomic

INSTALL_HINT = 'charts need matplotlib: python -m pip install -e ".[plot]"'
BAR_COLOUR = "#4670be"
ROW_INCHES = 0.28  # height of one bar row


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, or a one-line :class:`UsageError`."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError(INSTALL_HINT) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_available() -> None:
    """Raise the one-line :class:`UsageError` now if charts cannot be drawn: a command that
    draws one after a long search calls this before the search."""
    _pyplot()


def bar_chart_png(labels: Sequence[str], values: Sequence[float], *, title: str,
                  xlabel: str) -> bytes:
    """A horizontal bar chart as PNG bytes: one bar per label, top to bottom in order."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 1.4 + ROW_INCHES * max(1, len(values))),
                           layout="constrained")
    try:
        positions = range(len(values))
        ax.barh(positions, values, color=BAR_COLOUR)
        ax.set_yticks(positions, labels, fontsize=8)
        ax.invert_yaxis()  # first label at the top, as in the text output
        ax.set_xlabel(xlabel)
        ax.set_title(title)
        ax.grid(axis="x", alpha=0.3)
        ax.set_axisbelow(True)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100)
    finally:
        plt.close(fig)
    return buffer.getvalue()


def write_bar_chart(path: Path | str, labels: Sequence[str], values: Sequence[float], *,
                    title: str, xlabel: str, force: bool = False) -> None:
    """Draw the chart and write it to ``path`` atomically (the old file stays on failure; an
    existing one is replaced only with ``force``)."""
    write_atomic(path, bar_chart_png(labels, values, title=title, xlabel=xlabel),
                 replace=force)
