"""A screen listing the active keyboard bindings (pad button -> keys) and the hotkeys, for any
system: ``ControlsScreen(back)``; confirm or cancel returns to ``back``."""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.bindings import HOTKEYS, keyboard_table
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted


class ControlsScreen(Screen):
    def __init__(self, back: Screen) -> None:
        self.back = back

    def update(self, app: App) -> Screen | None:
        if app.pad.pressed("confirm") or app.pad.pressed("cancel"):
            app.sound.play("cancel")
            return self.back
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        raw = app.bindings.raw
        narrow = fb.width < 200
        fb.text(4, 2, "CONTROLS", app.colour("highlight"))
        y = 14
        for button, keys in keyboard_table(app.machine.name, "1", raw):
            two = keyboard_table(app.machine.name, "2", raw)
            p2 = dict(two).get(button, [])
            draw_fitted(fb, 4, y, button.upper(), 50, app.colour("text"))
            draw_fitted(fb, 56, y, " ".join(keys), 80 if not narrow else fb.width - 58,
                        app.colour("highlight"))
            if not narrow:
                draw_fitted(fb, 140, y, " ".join(p2), 56, app.colour("text_dim"))
            y += CELL_H
        if narrow:
            return
        y += 4
        for name in HOTKEYS:
            keys = [s[4:] for s in raw["hotkeys"].get(name, []) if s.startswith("key:")]
            draw_fitted(fb, 4, y, name.replace("_", " "), 78, app.colour("text"))
            fb.text(86, y, "/".join(keys), app.colour("highlight"))
            y += CELL_H
        fb.text(200, 14, "P1 keys  P2 keys", app.colour("text_dim"))
        fb.text(200, 28, "Pads: by position", app.colour("text_dim"))
