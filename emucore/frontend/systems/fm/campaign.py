"""The campaign: the duelists in the story's order (no story text), the next one's
portrait and a line of our own from them (banter.LINES). Winning against the next one moves
on and opens that duelist for Free Duel (session.CAMPAIGN_ORDER)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.portraits import SIZE, portrait, seed_of
from emucore.frontend.systems.fm.banter import LINES
from emucore.frontend.systems.fm.common import FmScreen, menu_tick
from emucore.frontend.systems.fm.session import CAMPAIGN_ORDER, FmGame

SHOWN = 9
PORTRAIT_SCALE = 2  # the next opponent's portrait, 64x64
SIDE = SIZE * PORTRAIT_SCALE
BOX_W = SIDE + 32  # the name and the line under the portrait
LINE_ROWS = 4  # the opponent's line wraps onto at most this many rows of BOX_W


class CampaignScreen(FmScreen):
    def __init__(self, game: FmGame, back: Screen) -> None:
        super().__init__(game, back)
        self._faces: dict[int, NDArray[np.uint8]] = {}

    def _face(self, app: App, duelist: int) -> NDArray[np.uint8]:
        face = self._faces.get(duelist)
        if face is None:
            face = self._faces[duelist] = portrait(seed_of("fm", duelist), app.machine.art,
                                                   scale=PORTRAIT_SCALE)
        return face

    def update(self, app: App) -> Screen | None:
        menu_tick(app, self.game)
        if app.pad.pressed("cancel"):
            app.sound.play("cancel")
            return self.back
        duelist = self.game.next_campaign_duelist()
        if app.pad.pressed("confirm"):
            if duelist is None:
                app.sound.play("error")
                return self
            app.sound.play("confirm")
            from emucore.frontend.systems.fm.duel import DuelScreen
            return DuelScreen(self.game, self.game.start_duel(duelist), self, duelist,
                              campaign=True)
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(16, 12, "CAMPAIGN", app.colour("highlight"), app.colour("black"))
        progress = self.game.data["campaign"]
        fb.text(16, 26, f"Stage {progress + 1} of {len(CAMPAIGN_ORDER)}",
                app.colour("text_dim"))
        first = max(0, progress - SHOWN // 2)
        names = self.game.tables.duelist_name
        for row, i in enumerate(range(first, min(first + SHOWN, len(CAMPAIGN_ORDER)))):
            y = 44 + row * (CELL_H + 4)
            duelist = CAMPAIGN_ORDER[i]
            if i < progress:
                fb.text(24, y, f"{names(duelist)}  beaten", app.colour("text_dim"))
            elif i == progress:
                fb.fill(20, y - 2, 200, CELL_H + 2, app.colour("panel_light"))
                fb.text(24, y, f"\u25b6 {names(duelist)}", app.colour("text"))
            else:
                fb.text(24, y, "?????", app.colour("text_dim"))
        duelist = self.game.next_campaign_duelist()
        if duelist is not None:  # the next opponent's portrait and name
            x = fb.width - SIDE - 24
            fb.frame(x - 2, 42, SIDE + 4, SIDE + 4, app.colour("highlight"), 2)
            fb.blit(x, 44, self._face(app, duelist))
            rows = draw_fitted(fb, x - 16, 50 + SIDE, f"Next: {names(duelist)}", BOX_W,
                               app.colour("text"), lines=2)
            draw_fitted(fb, x - 16, 54 + SIDE + rows * CELL_H, LINES[duelist], BOX_W,
                        app.colour("text_dim"), lines=LINE_ROWS)
        if progress >= len(CAMPAIGN_ORDER):
            fb.text(16, 140, "The story is over. Free Duel is all yours.", app.colour("good"))
        fb.text(16, fb.height - 14, "Cross: duel  Circle: back", app.colour("text_dim"))
