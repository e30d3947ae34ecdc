"""Forbidden Memories screens on the psx machine: title, main menu, Free Duel, the duel,
results, Build Deck, Library, Campaign, two players, saves. Entry point: :func:`title_screen`."""

from __future__ import annotations

from emucore.frontend.app import App, Screen

MACHINE = "psx"


def title_screen(app: App) -> Screen:
    """The first screen of Forbidden Memories (a fresh game at the boot RNG state)."""
    from emucore.frontend.systems.fm.title import TitleScreen
    return TitleScreen()
