"""The title screen: Start opens Continue (first, when a save exists) / New Game. The RNG
advances every frame here as Main_RunMenu advances it (emucore.fm.mainloop), and New Game
goes on to name entry, where the starter deck is dealt: the deck depends on how many frames
the player spent on both."""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import Framebuffer
from emucore.frontend.systems.fm.common import FmScreen, menu_tick
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.widgets import Menu


class TitleScreen(FmScreen):
    music = "title"

    def __init__(self, game: FmGame | None = None) -> None:
        super().__init__(game or FmGame())
        self.menu: Menu | None = None

    def update(self, app: App) -> Screen | None:
        menu_tick(app, self.game)
        if self.menu is None:
            if app.pad.pressed("start") or app.pad.pressed("confirm"):
                app.sound.play("confirm")
                items = (["Continue"] if self.game.save_file.exists() else []) + ["New Game"]
                self.menu = Menu(items, cancellable=True, visible=2)
            return self
        choice = self.menu.update(app)
        if choice == -1:
            self.menu = None
        elif choice is None:
            return self
        elif self.menu.items[choice] == "New Game":
            from emucore.frontend.systems.fm.nameentry import NameEntryScreen
            return NameEntryScreen(self.game)
        else:
            message = self.game.load()
            if message:
                app.notify(message, stderr=True)
                self.menu = Menu(["New Game"], visible=1)
                return self
            app.notify("Save loaded")
            return self._main(app)
        return self

    def _main(self, app: App) -> Screen:
        from emucore.frontend.systems.fm.menu import MainMenu
        return MainMenu(self.game)

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        cx = fb.width // 2
        for i in range(0, fb.width, 16):  # a band of card backs as decoration
            fb.fill(i + 2, 40, 12, 16, app.colour("card_back"))
            fb.fill(i + 6, 46, 4, 4, app.colour("card_back_mark"))
        fb.text_centred(cx, 80, "FORBIDDEN MEMORIES", app.colour("highlight"), app.colour("black"))
        fb.text_centred(cx, 94, "an emucore recreation", app.colour("text_dim"))
        if self.menu is not None:
            self.menu.draw(app, fb, cx - 50, 140, 100)
        elif (app.frame // 30) % 2 == 0:
            fb.text_centred(cx, 150, "PRESS START", app.colour("text"), app.colour("black"))
        fb.text_centred(cx, 226, f"RNG {self.game.rng.state:08X}", app.colour("text_dim"))
