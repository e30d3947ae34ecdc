"""``emucore tcglite ...``: duels and replays of the simplified TCG."""

from __future__ import annotations

import argparse

from emucore.paper.cli import recorder, register_system
from emucore.tcglite.replay import ADAPTER

RECORDER = recorder(ADAPTER, ante=False)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``tcglite`` command group."""
    register_system(sub, ADAPTER)
