"""Library: every card with its stats, stars, type and fusion partners (partner -> result,
one fusion on two lines so both names read whole), from the FM tables. Cards the player owns
are marked."""

from __future__ import annotations

import numpy as np

from emucore.frontend.app import App, Screen
from emucore.frontend.cards import LARGE, draw_card
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm.common import (
    FmScreen,
    card_face,
    draw_selection,
    stars_text,
    type_name,
)
from emucore.frontend.systems.fm.session import FmGame
from emucore.tables.fm import CARD_COUNT

VISIBLE = 24
PARTNERS_SHOWN = 5  # fusions per page, two lines each: "+ partner" then "= result"
LIST_X = 158


class Library(FmScreen):
    def __init__(self, game: FmGame, back: Screen) -> None:
        super().__init__(game, back)
        self.cursor = self.top = 0
        self.partner_page = 0

    def partners(self, card: int) -> list[tuple[int, int]]:
        """(partner, result) pairs of every fusion ``card`` takes part in."""
        row = self.game.tables.fusion[card]
        return [(int(p), int(row[p])) for p in np.flatnonzero(row)]

    def update(self, app: App) -> Screen | None:
        pad = app.pad
        before = self.cursor
        if pad.repeat("up"):
            self.cursor = (self.cursor - 1) % CARD_COUNT
        elif pad.repeat("down"):
            self.cursor = (self.cursor + 1) % CARD_COUNT
        elif pad.repeat("left"):
            self.cursor = max(0, self.cursor - VISIBLE)
        elif pad.repeat("right"):
            self.cursor = min(CARD_COUNT - 1, self.cursor + VISIBLE)
        elif pad.repeat("r1"):
            self.partner_page += 1
        elif pad.repeat("l1"):
            self.partner_page = max(0, self.partner_page - 1)
        elif pad.pressed("cancel"):
            app.sound.play("cancel")
            return self.back
        if self.cursor != before:
            self.partner_page = 0
        self.top = min(max(self.top, self.cursor - VISIBLE + 1), self.cursor)
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        t = self.game.tables
        x = fb.text(4, 2, "LIBRARY", app.colour("highlight"))
        card = self.cursor + 1
        draw_fitted(fb, x + CELL_W, 2, t.names[card], fb.width - x - CELL_W - 2,
                    app.colour("text"))  # the selected name whole (the list may shorten it)
        for row in range(VISIBLE):
            listed = self.top + row + 1
            if listed > CARD_COUNT:
                break
            y = 14 + row * CELL_H
            if listed == card:
                draw_selection(app, fb, 2, y, 150)
            owned = self.game.trunk_count(listed) > 0
            fb.text(4, y, f"{listed:03d}", app.colour("text" if owned else "text_dim"))
            draw_fitted(fb, 28, y, t.names[listed], 122,
                        app.colour("text" if owned else "text_dim"))
        draw_card(app, fb, 158, 14, card_face(self.game, card), LARGE)
        x, y = 246, 14
        info = [type_name(self.game, card)]
        if t.is_monster(card):
            info += [f"Lv {int(t.level[card])}", *stars_text(self.game, card).split(" / ")]
        info.append(f"Owned {self.game.trunk_count(card)}")
        for i, line in enumerate(info):
            draw_fitted(fb, x, y + i * CELL_H, line, fb.width - x - 2, app.colour("text"))
        partners = self.partners(card)
        pages = max(1, -(-len(partners) // PARTNERS_SHOWN))
        page = min(self.partner_page, pages - 1)
        fb.text(LIST_X, 136, f"Fusions {len(partners)}  {page + 1}/{pages} (L1/R1)",
                app.colour("highlight"))
        shown = partners[page * PARTNERS_SHOWN:(page + 1) * PARTNERS_SHOWN]
        width = fb.width - LIST_X - 2 - 2 * CELL_W
        for i, (partner, result) in enumerate(shown):
            y = 146 + i * 2 * CELL_H
            fb.text(LIST_X, y, "+", app.colour("text_dim"))
            draw_fitted(fb, LIST_X + 2 * CELL_W, y, t.names[partner], width,
                        app.colour("text"))
            fb.text(LIST_X + CELL_W, y + CELL_H, "=", app.colour("text_dim"))
            draw_fitted(fb, LIST_X + 2 * CELL_W + CELL_W, y + CELL_H, t.names[result],
                        width - CELL_W, app.colour("highlight"))
