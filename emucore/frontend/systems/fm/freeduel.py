"""Free Duel: a grid of the 39 duelists' portraits (locked ones as shadows).

quirk: like the original's Free Duel overlay (``FreeDuel_Entry``, 0x80168FB4), this screen
calls ``rand()`` once every frame and discards it, so the deal of the duel depends on how many
frames the player spends here (spec/fm-engine.md §1.3).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from emucore.fm.mainloop import FREE_DUEL
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.portraits import SIZE, portrait, seed_of
from emucore.frontend.systems.fm.common import FmScreen
from emucore.frontend.systems.fm.session import FmGame
from emucore.tables.fm import DUELIST_COUNT

COLS, ROWS = 8, 5  # the portrait grid (39 duelists in 40 cells)
CELL = 38  # pixels per grid cell: a 32x32 portrait in a frame
GRID_X, GRID_Y = 8, 16


class FreeDuelSelect(FmScreen):
    def __init__(self, game: FmGame, back: Screen) -> None:
        super().__init__(game, back)
        self.cursor = 0
        self._faces: dict[int, NDArray[np.uint8]] = {}

    def update(self, app: App) -> Screen | None:
        self.game.mode_frame(FREE_DUEL)  # FreeDuel_Entry: one discarded rand() per frame
        pad = app.pad
        if pad.repeat("left"):
            self.cursor = (self.cursor - 1) % DUELIST_COUNT
        elif pad.repeat("right"):
            self.cursor = (self.cursor + 1) % DUELIST_COUNT
        elif pad.repeat("up") or pad.repeat("down"):
            step = -COLS if pad.held("up") else COLS
            self.cursor = (self.cursor + step) % (COLS * ROWS)
            self.cursor = min(self.cursor, DUELIST_COUNT - 1)
        if pad.pressed("cancel"):
            app.sound.play("cancel")
            return self.back
        if pad.pressed("confirm"):
            duelist = self.cursor + 1
            if duelist not in self.game.unlocked():
                app.sound.play("error")
                return self
            app.sound.play("confirm")
            from emucore.frontend.systems.fm.duel import DuelScreen
            return DuelScreen(self.game, self.game.start_duel(duelist), self, duelist)
        return self

    def _face(self, app: App, duelist: int, locked: bool) -> NDArray[np.uint8]:
        """The duelist's portrait; a locked one as a shadow in the frame colour."""
        key = -duelist if locked else duelist
        face = self._faces.get(key)
        if face is None:
            shadow = (app.colour("panel"), app.colour("frame_dark")) if locked else None
            face = self._faces[key] = portrait(seed_of("fm", duelist), app.machine.art, shadow)
        return face

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(8, 4, "FREE DUEL", app.colour("highlight"), app.colour("black"))
        unlocked = self.game.unlocked()
        for i in range(DUELIST_COUNT):
            row, col = divmod(i, COLS)
            x, y = GRID_X + col * CELL, GRID_Y + row * CELL
            locked = i + 1 not in unlocked
            fb.blit(x + 3, y + 3, self._face(app, i + 1, locked))
            fb.frame(x + 1, y + 1, SIZE + 4, SIZE + 4, app.colour("frame_dark"), 2)
            if locked:
                fb.text_centred(x + 3 + SIZE // 2, y + 3 + SIZE // 2 - 4, "?",
                                app.colour("text_dim"))
            if i == self.cursor:
                fb.frame(x, y, SIZE + 6, SIZE + 6, app.colour("cursor"), 2)
        duelist = self.cursor + 1
        info_y = GRID_Y + ROWS * CELL + 2
        if duelist in unlocked:
            wins, losses = self.game.data["records"].get(str(duelist), [0, 0])
            draw_fitted(fb, 8, info_y, f"{duelist}. {self.game.tables.duelist_name(duelist)}",
                        220, app.colour("text"))
            fb.text_right(fb.width - 8, info_y, f"Won {wins} Lost {losses}",
                          app.colour("text_dim"))
        else:
            fb.text(8, info_y, f"{duelist}. Locked: win in the campaign to meet them",
                    app.colour("text_dim"))
        fb.text(8, fb.height - CELL_H, f"RNG {self.game.rng.state:08X}", app.colour("text_dim"))

