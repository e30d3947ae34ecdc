"""Screens of the simplified TCG on the psx machine (320x240): the paper screens of
``ocg1999.py`` with the tcglite rules and its two starter decks (no match play)."""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.systems.ocg1999 import paper_title_screen
from emucore.tcglite.system import SYSTEM

MACHINE = "psx"


def title_screen(app: App) -> Screen:
    """The first screen of the simplified TCG."""
    return paper_title_screen(app, SYSTEM)
