"""The title screen: press Start (or confirm)."""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import Framebuffer


class TitleScreen(Screen):
    def update(self, app: App) -> Screen | None:
        if app.pad.pressed("start") or app.pad.pressed("confirm"):
            app.sound.play("confirm")
            from emucore.frontend.systems.fm.menu import MainMenu
            return MainMenu(app)
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        cx = fb.width // 2
        fb.text_centred(cx, 70, "FORBIDDEN MEMORIES", app.colour("highlight"),
                        app.colour("black"))
        fb.text_centred(cx, 84, "emucore recreation", app.colour("text_dim"))
        if (app.frame // 30) % 2 == 0:
            fb.text_centred(cx, 160, "PRESS START", app.colour("text"), app.colour("black"))
