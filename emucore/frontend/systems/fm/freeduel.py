"""Free Duel: the grid of the 39 duelists (locked ones hidden), and the two-player start.

quirk: like the original's Free Duel overlay (``FreeDuel_Entry``, 0x80168FB4), this screen
calls ``rand()`` once every frame and discards it, so the deal of the duel depends on how many
frames the player spends here (spec/fm-engine.md §1.3).
"""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm.common import FmScreen
from emucore.frontend.systems.fm.session import FmGame
from emucore.tables.fm import DUELIST_COUNT

ROWS = 20
COLUMN_W = 150


class FreeDuelSelect(FmScreen):
    def __init__(self, game: FmGame, back: Screen) -> None:
        super().__init__(game, back)
        self.cursor = 0

    def update(self, app: App) -> Screen | None:
        self.game.rng.rand()  # FreeDuel_Entry: one discarded rand() per frame
        pad = app.pad
        if pad.repeat("up"):
            self.cursor = (self.cursor - 1) % DUELIST_COUNT
        elif pad.repeat("down"):
            self.cursor = (self.cursor + 1) % DUELIST_COUNT
        elif pad.repeat("left") or pad.repeat("right"):
            self.cursor = (self.cursor + ROWS) % (2 * ROWS)
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

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(8, 4, "FREE DUEL", app.colour("highlight"), app.colour("black"))
        unlocked = self.game.unlocked()
        records = self.game.data["records"]
        for i in range(DUELIST_COUNT):
            col, row = divmod(i, ROWS)
            x, y = 8 + col * (COLUMN_W + 8), 16 + row * CELL_H
            duelist = i + 1
            if i == self.cursor:
                fb.fill(x - 2, y - 1, COLUMN_W, CELL_H, app.colour("panel_light"))
            if duelist in unlocked:
                wins, losses = records.get(str(duelist), [0, 0])
                fb.text(x, y, f"{duelist:2d}", app.colour("text"))
                draw_fitted(fb, x + 18, y, self.game.tables.duelist_name(duelist),
                            COLUMN_W - 44, app.colour("text"))
                fb.text_right(x + COLUMN_W - 4, y, f"{wins}-{losses}", app.colour("text_dim"))
            else:
                fb.text(x, y, f"{duelist:2d} ?????", app.colour("text_dim"))
        fb.text(8, fb.height - CELL_H, f"RNG {self.game.rng.state:08X}", app.colour("text_dim"))


def two_player_duel(app: App, game: FmGame, back: Screen) -> Screen:
    """A duel on one machine: pad 1 plays side 0, pad 2 side 1. Choice: player 2 duels with
    a copy of player 1's deck (one save holds one deck)."""
    from emucore.frontend.systems.fm.duel import DuelScreen
    duel = game.start_duel(0, deck2=list(game.deck))
    return DuelScreen(game, duel, back, 0)
