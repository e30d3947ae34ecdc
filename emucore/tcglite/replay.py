"""Replay adapter of the simplified TCG (``emucore.duel.replay.SystemAdapter``)."""

from emucore.paper.replay import PaperAdapter
from emucore.tcglite.system import SYSTEM

ADAPTER = PaperAdapter(SYSTEM)
