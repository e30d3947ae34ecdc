"""Forbidden Memories screens on the psx machine: title, main menu, Free Duel, the duel,
results, Build Deck, Library, Campaign, two players, saves. Entry point: :func:`title_screen`."""

from __future__ import annotations

from emucore.frontend.app import App, Screen

MACHINE = "psx"


def title_screen(app: App, terrains: dict[int, int] | None = None) -> Screen:
    """The first screen of Forbidden Memories (a fresh game at the boot RNG state);
    ``terrains``: the campaign duels' terrains read from the user's disc
    (``emucore play --disc``, emucore.fm.story.campaign_terrains), else the known ones."""
    from emucore.frontend.systems.fm.session import FmGame
    from emucore.frontend.systems.fm.title import TitleScreen
    game = FmGame()
    game.terrains = terrains
    return TitleScreen(game)
