"""Name entry, between New Game and the main menu: an opening box, a keyboard of our own, a
closing box; the name is saved and the starter deck dealt on the frame the original deals it
(after ``NameEntry_Main``'s last frame). The rules and the frame-by-frame timing are
:class:`emucore.fm.mainloop.NameEntry`; this screen feeds it the pad and draws it."""

from __future__ import annotations

from emucore.fm import mainloop
from emucore.fm.mainloop import COLUMNS, GLYPH_ROWS, KEY_ROW, KEYS, NAME_LENGTH, Keys, NameEntry
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm.common import FmScreen
from emucore.frontend.systems.fm.session import FmGame

CELL = 20  # a keyboard cell, pixels wide
ROW_H = 16
GRID_X, GRID_Y = 50, 74
SLOT_W = 16
NAME_X, NAME_Y = 112, 44
BOX_X, BOX_W, BOX_H = 16, 288, 40
BOX_Y = 240 - BOX_H - 6  # the box's place once fully in
KEY_W = CELL * COLUMNS // len(KEYS)
INTRO = "Welcome, young one. Before the cards are dealt, tell me what to call you."
CONFIRM = "A fine name. Your first deck is waiting for you."
DIRECTIONS = ("up", "down", "left", "right")


def keys_of(app: App) -> Keys:
    """The pad as the keyboard reads it (held directions, repeating confirm and cancel,
    Start pressed)."""
    pad = app.pad
    return Keys(held=frozenset(d for d in DIRECTIONS if pad.held(d)),
                repeat=frozenset(b for b in ("cross", "circle") if pad.repeat(b)),
                pressed=frozenset(b for b in ("start", "cross", "circle") if pad.pressed(b)))


class NameEntryScreen(FmScreen):
    def __init__(self, game: FmGame) -> None:
        super().__init__(game)
        self.entry = NameEntry()

    def update(self, app: App) -> Screen | None:
        self.game.mode_frame(mainloop.NAME_ENTRY)  # NameEntry_Main's rand() of the frame
        before = (self.entry.phase, self.entry.caret, self.entry.row, self.entry.col)
        self.game.advance(self.entry.step(keys_of(app)))  # shards drawing this frame
        if self.entry.error:
            app.sound.play("error")
        elif before != (self.entry.phase, self.entry.caret, self.entry.row, self.entry.col):
            app.sound.play("move")
        if not self.entry.done:
            return self
        cards = self.game.new_game(self.entry.name)
        app.notify(f"New game: starter deck dealt ({len(cards)} cards)")
        from emucore.frontend.systems.fm.menu import MainMenu
        return MainMenu(self.game)

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(16, 12, "NAME ENTRY", app.colour("highlight"), app.colour("black"))
        fb.text(16, NAME_Y + 4, "Name", app.colour("text_dim"))
        self._name(app, fb)
        self._keyboard(app, fb)
        self._box(app, fb)

    def _name(self, app: App, fb: Framebuffer) -> None:
        entry = self.entry
        for i in range(NAME_LENGTH):
            x = NAME_X + i * SLOT_W
            glyph = entry.slots[i]
            if glyph is not None:
                fb.text(x + 5, NAME_Y + 3, glyph, app.colour("text"))
            caret = i == entry.caret and entry.phase == "keyboard"
            fb.fill(x + 2, NAME_Y + 14, SLOT_W - 4, 2,
                    app.colour("cursor" if caret else "text_dim"))

    def _keyboard(self, app: App, fb: Framebuffer) -> None:
        entry = self.entry
        for row, glyphs in enumerate(GLYPH_ROWS):
            for col, glyph in enumerate(glyphs):
                fb.text(GRID_X + col * CELL + 7, GRID_Y + row * ROW_H + 3, glyph,
                        app.colour("text"))
        key_y = GRID_Y + KEY_ROW * ROW_H + 4
        for i, key in enumerate(KEYS):
            fb.text_centred(GRID_X + i * KEY_W + KEY_W // 2, key_y + 3, key, app.colour("text"))
        if entry.row == KEY_ROW:
            i = KEYS.index(mainloop.key_at(entry.row, entry.col))
            fb.frame(GRID_X + i * KEY_W + 2, key_y, KEY_W - 4, ROW_H, app.colour("cursor"), 2)
        else:
            fb.frame(GRID_X + entry.col * CELL + 1, GRID_Y + entry.row * ROW_H, CELL - 2,
                     ROW_H, app.colour("cursor"), 2)

    def _box(self, app: App, fb: Framebuffer) -> None:
        """The opening or closing box, sliding in from below (BOX_IN_FRAMES) and the
        opening one out again (BOX_OUT_FRAMES)."""
        entry = self.entry
        shown = entry.frame - entry.since
        if entry.phase == "intro":
            share, text = min(shown, mainloop.BOX_IN_FRAMES), INTRO
        elif entry.phase == "intro_out":
            share, text = max(mainloop.BOX_OUT_FRAMES - shown, 0), INTRO
        elif entry.phase in ("confirm", "closing", "done"):
            share, text = min(max(shown - 1, 0), mainloop.BOX_IN_FRAMES), CONFIRM
        else:
            return
        hidden = (BOX_H + 6) * (mainloop.BOX_IN_FRAMES - share) // mainloop.BOX_IN_FRAMES
        y = BOX_Y + hidden
        if y >= fb.height - 2:
            return
        height = min(BOX_H, fb.height - y)
        fb.box(BOX_X, y, BOX_W, height, app.colour("panel"), app.colour("text_dim"))
        if entry.box_waiting() and height == BOX_H:
            draw_fitted(fb, BOX_X + 6, y + 5, text, BOX_W - 12, app.colour("text"), lines=3)
        elif height >= CELL_H + 8:
            draw_fitted(fb, BOX_X + 6, y + 5, text, BOX_W - 12, app.colour("text_dim"),
                        lines=max(1, min(3, (height - 8) // CELL_H)))
