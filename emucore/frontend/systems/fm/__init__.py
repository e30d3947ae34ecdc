"""Forbidden Memories screens on the psx machine: title, menus, Free Duel, the duel, results,
Build Deck, Library, Campaign, two players, saves. Entry point: :func:`title_screen`."""

from __future__ import annotations

from emucore.frontend.systems.fm.title import TitleScreen

MACHINE = "psx"


def title_screen(app) -> TitleScreen:
    """The first screen of Forbidden Memories."""
    return TitleScreen()
