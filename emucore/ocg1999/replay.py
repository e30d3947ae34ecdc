"""Replay adapter of the 1999 Official Rules (``emucore.duel.replay.SystemAdapter``)."""

from emucore.ocg1999.system import SYSTEM
from emucore.paper.replay import PaperAdapter

ADAPTER = PaperAdapter(SYSTEM)
