"""The main menu."""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import Framebuffer
from emucore.frontend.widgets import Menu

ITEMS = ("Free Duel", "Campaign", "Build Deck", "Library", "Two Players", "Save", "Quit")


class MainMenu(Screen):
    def __init__(self, app: App) -> None:
        self.menu = Menu(ITEMS)

    def update(self, app: App) -> Screen | None:
        choice = self.menu.update(app)
        if choice == ITEMS.index("Quit"):
            return None
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(16, 16, "MAIN MENU", app.colour("highlight"))
        self.menu.draw(app, fb, 16, 32, 120)
