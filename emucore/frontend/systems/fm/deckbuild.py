"""Build Deck: 40 cards from the trunk, at most 3 copies of a card (and no more than owned),
listed in the original's sort orders (emucore.fm.deck.sort_deck). The deck keeps the last sort
order chosen here, which decides its order before the shuffle (spec/fm-engine.md §2)."""

from __future__ import annotations

from collections import Counter

from emucore.fm import deck as fm_deck
from emucore.frontend.app import App, Screen
from emucore.frontend.cards import LARGE, draw_card
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm.common import (
    FmScreen,
    card_face,
    draw_selection,
    stars_text,
)
from emucore.frontend.systems.fm.session import FmGame

ORDERS = tuple(o for o in fm_deck.SORT_ORDERS if o != "none")
SORT_NAMES = {"id": "Card number", "abc": "Name A-Z", "max": "Strongest", "atk": "Attack",
              "def": "Defence", "type": "Type", "ai": "Computer's order"}  # what the player reads
VISIBLE = 22
LIST_W = 200


class BuildDeck(FmScreen):
    def __init__(self, game: FmGame, back: Screen) -> None:
        super().__init__(game, back)
        self.order = game.data["sort"] if game.data["sort"] in ORDERS else "id"
        self.counts = Counter(game.deck)
        self.cursor = self.top = 0
        self._resort()

    def _resort(self) -> None:
        owned = [int(c) for c, n in self.game.data["trunk"].items() if n > 0]
        self.cards = fm_deck.sort_deck(sorted(owned), self.order, self.game.tables)

    def update(self, app: App) -> Screen | None:
        pad = app.pad
        if pad.repeat("up"):
            self.cursor = (self.cursor - 1) % len(self.cards)
        elif pad.repeat("down"):
            self.cursor = (self.cursor + 1) % len(self.cards)
        elif pad.repeat("l1") or pad.repeat("r1"):
            self.cursor = max(0, min(len(self.cards) - 1,
                                     self.cursor + (VISIBLE if pad.held("r1") else -VISIBLE)))
        elif pad.pressed("square") or pad.pressed("triangle"):
            step = 1 if pad.pressed("square") else -1
            self.order = ORDERS[(ORDERS.index(self.order) + step) % len(ORDERS)]
            card = self.cards[self.cursor]
            self._resort()
            self.cursor = self.cards.index(card)
            app.sound.play("move")
        elif pad.repeat("right"):
            self._change(app, +1)
        elif pad.repeat("left"):
            self._change(app, -1)
        elif pad.pressed("cancel") or pad.pressed("start"):
            return self._leave(app)
        self.top = min(max(self.top, self.cursor - VISIBLE + 1), self.cursor)
        return self

    def _change(self, app: App, delta: int) -> None:
        card = self.cards[self.cursor]
        have = self.counts[card]
        total = sum(self.counts.values())
        refusal = None
        if delta > 0 and total >= fm_deck.DECK_SIZE:
            refusal = f"The deck is full ({total}/{fm_deck.DECK_SIZE}): take a card out first."
        elif delta > 0 and have >= fm_deck.COPY_LIMIT:
            refusal = f"At most {fm_deck.COPY_LIMIT} copies of a card."
        elif delta > 0 and have >= self.game.trunk_count(card):
            refusal = f"You own {have} of this card."
        if refusal:
            app.sound.play("error")
            app.notify(refusal)
            return
        if delta < 0 and have == 0:
            app.sound.play("error")
            return
        self.counts[card] += delta
        if total + delta == fm_deck.DECK_SIZE:
            app.sound.play("confirm")
            app.notify(f"{fm_deck.DECK_SIZE}/{fm_deck.DECK_SIZE}: the deck is ready. "
                       "Circle to keep it.")
        else:
            app.sound.play("move")

    def _leave(self, app: App) -> Screen:
        total = sum(self.counts.values())
        if total != fm_deck.DECK_SIZE:
            app.sound.play("error")
            app.notify(f"A deck needs exactly {fm_deck.DECK_SIZE} cards ({total} now)")
            return self
        cards = [c for c, n in sorted(self.counts.items()) for _ in range(n)]
        self.game.data["deck"] = fm_deck.sort_deck(cards, self.order, self.game.tables)
        self.game.data["sort"] = self.order
        app.sound.play("confirm")
        return self.back

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        total = sum(self.counts.values())
        full = total == fm_deck.DECK_SIZE
        x = fb.text(4, 2, "BUILD DECK", app.colour("highlight"))
        fb.text(x + CELL_W, 2, f"{total}/{fm_deck.DECK_SIZE}" + ("  ready" if full else ""),
                app.colour("good" if full else "text"))
        t = self.game.tables
        for row in range(min(VISIBLE, len(self.cards))):
            i = self.top + row
            if i >= len(self.cards):
                break
            card = self.cards[i]
            y = 14 + row * CELL_H
            if i == self.cursor:
                draw_selection(app, fb, 2, y, LIST_W)
            in_deck = self.counts[card]
            colour = app.colour("text" if in_deck else "text_dim")
            draw_fitted(fb, 4, y, t.names[card], LIST_W - 32, colour)
            fb.text_right(LIST_W - 2, y, f"{in_deck}/{self.game.trunk_count(card)}",
                          app.colour("highlight" if in_deck else "text_dim"))
        card = self.cards[self.cursor]
        draw_card(app, fb, 214, 14, card_face(self.game, card), LARGE)
        if t.is_monster(card):
            draw_fitted(fb, 208, 136, stars_text(self.game, card), fb.width - 210,
                        app.colour("text_dim"))
        fb.text(208, 148, "Sorted by", app.colour("text_dim"))
        fb.text(208, 148 + CELL_H, SORT_NAMES[self.order], app.colour("highlight"))
        for i, line in enumerate(("Sq/Tri: sort", "Left/Right: -/+", "L1/R1: page",
                                  "Circle: done")):
            fb.text(208, 172 + i * CELL_H, line, app.colour("text_dim"))
        # the selected name whole (the list and the big card may shorten it)
        draw_fitted(fb, 208, 210, t.names[card], fb.width - 210, app.colour("text"), lines=3)
