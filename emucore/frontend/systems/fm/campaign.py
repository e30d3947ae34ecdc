"""The campaign as a story (emucore.fm.story): the chapter, the story duels offered next -
one, or the player's choice of shrine (and of the labyrinth) where the original leaves it
open - and the optional duels of the moment; the cursor's opponent's portrait, their field
and a line of our own (banter.LINES). A win passes the story duel and opens the duelist for
Free Duel; a loss is game over (gameover.py), except Heishin's first duel, which must be
lost."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from emucore.fm import mainloop, story
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.portraits import SIZE, portrait, seed_of
from emucore.frontend.systems.fm.banter import LINES
from emucore.frontend.systems.fm.common import TERRAIN_NAMES, FmScreen
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.widgets import Menu

PORTRAIT_SCALE = 2  # the cursor's opponent's portrait, 64x64
SIDE = SIZE * PORTRAIT_SCALE
BOX_W = SIDE + 32  # the name and the line under the portrait
LINE_ROWS = 4  # the opponent's line wraps onto at most this many rows of BOX_W
MENU_X, MENU_Y, MENU_W = 16, 44, 196
SHOWN = 8
DEFAULT_LINE = "A duel, then. Let the cards decide."


class CampaignScreen(FmScreen):
    def __init__(self, game: FmGame, back: Screen) -> None:
        super().__init__(game, back)
        self._faces: dict[int, NDArray[np.uint8]] = {}
        self.choices: list[tuple[int, bool]] = []  # (duelist, a story duel)
        self.menu = Menu([], cancellable=True, visible=SHOWN)

    def enter(self, app: App) -> None:
        """Offer what the story offers now (after a duel the path has moved on)."""
        path = self.game.story_path()
        self.choices = [(d, True) for d in story.next_duels(path)]
        self.choices += [(d, False) for d in story.optional_duels(path)]
        self.menu.items = [self._label(d, main) for d, main in self.choices]

    def _label(self, duelist: int, main: bool) -> str:
        name = self.game.tables.duelist_name(duelist)
        shrine = next((s.name for s in story.SHRINES if s.gate == duelist), None)
        if duelist == story.LABYRINTH_MAGE:
            shrine = "The labyrinth"
        label = f"{shrine}: {name}" if shrine else name
        return label if main else f"{label} (optional)"

    def _face(self, app: App, duelist: int) -> NDArray[np.uint8]:
        face = self._faces.get(duelist)
        if face is None:
            face = self._faces[duelist] = portrait(seed_of("fm", duelist), app.machine.art,
                                                   scale=PORTRAIT_SCALE)
        return face

    def update(self, app: App) -> Screen | None:
        game = self.game
        if game.game_over is not None:
            from emucore.frontend.systems.fm.gameover import GameOverScreen
            return GameOverScreen(game, self, game.game_over)
        game.mode_frame(mainloop.CAMPAIGN)
        if not self.choices:
            if app.pad.pressed("cancel") or app.pad.pressed("confirm"):
                app.sound.play("cancel")
                return self.back
            return self
        choice = self.menu.update(app)
        if choice == -1:
            return self.back
        if choice is None:
            return self
        duelist, _ = self.choices[choice]
        from emucore.frontend.systems.fm.duel import DuelScreen
        return DuelScreen(game, game.start_duel(duelist, campaign=True), self, duelist,
                          campaign=True)

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(16, 12, "CAMPAIGN", app.colour("highlight"), app.colour("black"))
        path = self.game.story_path()
        draw_fitted(fb, 16, 26, f"{story.chapter_of(path)} - {len(path)} story duels passed",
                    MENU_W, app.colour("text_dim"))
        if not self.choices:
            draw_fitted(fb, 16, 60, "The story is over. Free Duel is all yours.", 280,
                        app.colour("good"))
            fb.text(16, fb.height - 14, "Cross or Circle: back", app.colour("text_dim"))
            return
        self.menu.draw(app, fb, MENU_X, MENU_Y, MENU_W)
        duelist, _ = self.choices[self.menu.cursor]
        terrain = story.terrain(duelist, self.game.terrains)
        fb.text(MENU_X, MENU_Y + SHOWN * CELL_H + 14, f"Field: {TERRAIN_NAMES[terrain]}",
                app.colour("text"))
        x = fb.width - SIDE - 24
        fb.frame(x - 2, 42, SIDE + 4, SIDE + 4, app.colour("highlight"), 2)
        fb.blit(x, 44, self._face(app, duelist))
        rows = draw_fitted(fb, x - 16, 50 + SIDE, self.game.tables.duelist_name(duelist),
                           BOX_W, app.colour("text"), lines=2)
        draw_fitted(fb, x - 16, 54 + SIDE + rows * CELL_H, LINES.get(duelist, DEFAULT_LINE),
                    BOX_W, app.colour("text_dim"), lines=LINE_ROWS)
        fb.text(16, fb.height - 14, "Cross: duel  Circle: back", app.colour("text_dim"))
