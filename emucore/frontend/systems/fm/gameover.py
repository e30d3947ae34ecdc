"""Game over, after a campaign duel lost (``Main_RunGameOver``, 0x8002D730): try the same
duel again or go back to the title. The story does not move on; what was saved stays saved
(the title's Continue reads it). The screen is emucore's own (``frontend.choices F3``): the
original's is an unmatched package; its two choices are the ones the-game.md §7.12 names."""

from __future__ import annotations

from emucore.fm import mainloop
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm.common import FmScreen
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.widgets import Menu

ITEMS = ("Try again", "Title")


class GameOverScreen(FmScreen):
    music = "defeat"

    def __init__(self, game: FmGame, campaign: Screen, duelist: int) -> None:
        super().__init__(game, campaign)
        self.duelist = duelist
        self.menu = Menu(ITEMS, cancellable=False, visible=len(ITEMS))

    def update(self, app: App) -> Screen | None:
        self.game.mode_frame(mainloop.GAME_OVER)
        choice = self.menu.update(app)
        if choice is None:
            return self
        self.game.game_over = None
        if ITEMS[choice] == "Title":
            from emucore.frontend.systems.fm.title import TitleScreen
            return TitleScreen(self.game)
        return self.back  # the campaign, the lost duel offered again

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("black"))
        cx = fb.width // 2
        fb.text_centred(cx, 60, "GAME OVER", app.colour("danger"), app.colour("black"))
        name = self.game.tables.duelist_name(self.duelist)
        draw_fitted(fb, 40, 84, f"{name} has won. The story waits until you win this "
                    "duel.", fb.width - 80, app.colour("text"), lines=3)
        self.menu.draw(app, fb, cx - 50, 130, 100)
