"""The pause menu Esc opens over any screen: Resume, Forfeit (on screens that offer it),
Options (music and sound volume, fast animations) and Quit, each of Forfeit and Quit asking
once more.

It is an overlay the app runs instead of the screen's ``update`` (the screen underneath is
frozen and drawn dimmed), so leaving it never calls the screen's ``enter`` again. A screen
offers a forfeit by defining ``forfeit(app) -> Screen`` (the screen to go to after it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.widgets import Menu, gauge

if TYPE_CHECKING:
    from emucore.frontend.app import App, Screen

VOLUME_STEPS = 10  # Left/Right change a volume by one tenth
WIDTH = 150
QUESTIONS = {"forfeit": ("Forfeit the duel?", "It counts as a loss."),
             "quit": ("Quit emucore?",)}


class Pause:
    """The pause overlay. :meth:`update` returns what the app does next: ``"stay"``,
    ``"resume"``, ``"quit"``, or a Screen to switch to (after a forfeit)."""

    def __init__(self, under: Screen) -> None:
        self.under = under
        self.items = ["Resume"] + (["Forfeit"] if hasattr(under, "forfeit") else []) + \
            ["Options", "Quit"]
        self.menu = Menu(self.items, visible=len(self.items))
        self.options: Menu | None = None
        self.asking: str | None = None  # "forfeit" or "quit" while its question shows

    def update(self, app: App) -> Screen | str:
        if self.asking is not None:
            return self._answer(app)
        if self.options is not None:
            self._options(app)
            return "stay"
        choice = self.menu.update(app)
        if choice == -1:
            return "resume"
        if choice is None:
            return "stay"
        item = self.items[choice]
        if item == "Resume":
            return "resume"
        if item == "Options":
            self.options = Menu(self._option_labels(app), visible=4)
        else:
            self.asking = item.lower()
        return "stay"

    def _answer(self, app: App) -> Screen | str:
        if app.pad.pressed("confirm"):
            app.sound.play("confirm")
            if self.asking == "quit":
                return "quit"
            return self.under.forfeit(app)  # type: ignore[attr-defined]
        if app.pad.pressed("cancel"):
            app.sound.play("cancel")
            self.asking = None
        return "stay"

    def _option_labels(self, app: App) -> list[str]:
        bars = {group: gauge(app.sound.volumes[group], VOLUME_STEPS)
                for group in ("music", "effects")}
        fast = "on" if app.fast else "off"
        return [f"Music  {bars['music']:<{VOLUME_STEPS}}",
                f"Sound  {bars['effects']:<{VOLUME_STEPS}}", f"Fast animations {fast}", "Back"]

    def _options(self, app: App) -> None:
        menu = self.options
        assert menu is not None
        choice = menu.update(app)
        step = (1 if app.pad.repeat("right") else -1 if app.pad.repeat("left") else 0)
        row = menu.cursor
        if row < 2 and step:
            group = ("music", "effects")[row]
            app.sound.set_volume(group, app.sound.volumes[group] + step / VOLUME_STEPS)
            app.sound.play("move")
        elif row == 2 and (step or choice == 2):
            app.toggles["fast_animations"] = not app.toggles.get("fast_animations")
        elif choice in (3, -1):
            self.options = None
            return
        menu.items = self._option_labels(app)

    def draw(self, app: App, fb: Framebuffer) -> None:
        """The screen underneath, dimmed (its text no longer counts for the layout check:
        it is a picture behind the panel), with the menu or question in one panel."""
        from emucore.frontend.cards import dim_lut
        rects, fb.text_rects = fb.text_rects, None
        self.under.draw(app, fb)
        fb.text_rects = rects
        fb.remap(0, 0, fb.width, fb.height, dim_lut(app.machine))
        if self.asking is not None:
            title, menu = None, None
            lines = [*QUESTIONS[self.asking], "Cross: yes  Circle: no"]
        else:
            menu = self.options or self.menu
            title = "OPTIONS" if self.options else "PAUSED"
            lines = ["Left/Right: change"] if self.options else []
        rows = (len(menu.items) + 1 if menu else 0) + len(lines)
        width = min(WIDTH, fb.width - 4)
        height = rows * CELL_H + (14 if menu else 8)
        x, y = (fb.width - width) // 2, (fb.height - height) // 2
        fb.box(x, y, width, height, app.colour("panel"), app.colour("highlight"))
        ty = y + 5
        if menu is not None:
            fb.text_centred(fb.width // 2, ty, title, app.colour("highlight"))
            menu.draw(app, fb, x + 2, ty + CELL_H, width - 4)
            ty += (len(menu.items) + 1) * CELL_H + 7
        for i, line in enumerate(lines):
            fb.text_centred(fb.width // 2, ty + i * CELL_H, line,
                            app.colour("text_dim" if i == len(lines) - 1 else "text"))
