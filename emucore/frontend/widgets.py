"""Reusable screen pieces for every system: a vertical menu, gauges in its labels, a message
box and a layout helper. They read the pad through the app and draw with colour roles, so
they work on both machine profiles."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from emucore.duel.protocol import Action, Duel, Event, IllegalAction
from emucore.frontend.app import App
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer


def try_step(app: App, duel: Duel, action: Action) -> list[Event] | None:
    """Step ``duel``; an action the rules refuse plays the error sound, shows the rule as
    one sentence in a notice and returns None (the duel is unchanged)."""
    try:
        return duel.step(action)
    except IllegalAction as exc:
        app.sound.play("error")
        app.notify(refusal(exc))
        return None


# How a duel ended, in words for the result screens of every system (Duel.end_reason values).
END_REASON_TEXT = {"lp": "Life points", "both_lp": "Both out of LP", "deckout": "Deck out",
                   "deck_out": "Deck out", "exodia": "Exodia", "empty_hand": "Empty hand"}


def reason_text(reason: str | None) -> str:
    """``Duel.end_reason`` as a player reads it (unknown reasons: the name, capitalised)."""
    if not reason:
        return "Unfinished"
    return END_REASON_TEXT.get(reason, reason.replace("_", " ").capitalize())


def refusal(exc: IllegalAction) -> str:
    """The rule that refused an action as one sentence for the player: the message without
    its ``[rule]`` tag (kept for scripts and tests), capitalised, with a full stop."""
    text = str(exc).removesuffix(f" [{exc.rule}]").strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


@dataclass
class Menu:
    """A list of labels with a cursor; Up/Down move (auto-repeat), confirm chooses.

    :meth:`update` returns the chosen index on the frame confirm is pressed, ``-1`` when
    cancel is pressed (if ``cancellable``), else ``None``.
    """

    items: Sequence[str]
    cursor: int = 0
    cancellable: bool = True
    visible: int = 12
    top: int = 0
    disabled: set[int] = field(default_factory=set)

    def update(self, app: App) -> int | None:
        pad = app.pad
        if pad.repeat("up") or pad.repeat("down"):
            step = -1 if pad.held("up") else 1
            self.cursor = (self.cursor + step) % len(self.items)
            app.sound.play("move")
        self._clamp()
        if pad.pressed("confirm"):
            if self.cursor in self.disabled:
                app.sound.play("error")
                return None
            app.sound.play("confirm")
            return self.cursor
        if self.cancellable and pad.pressed("cancel"):
            app.sound.play("cancel")
            return -1
        return None

    def _clamp(self) -> None:
        """Keep the cursor on an item and the window over the cursor; the owner may have
        replaced ``items`` with a shorter list since the last frame."""
        self.cursor = min(max(self.cursor, 0), max(len(self.items) - 1, 0))
        self.top = min(max(self.top, self.cursor - self.visible + 1), self.cursor,
                       max(len(self.items) - self.visible, 0))

    def draw(self, app: App, fb: Framebuffer, x: int, y: int, width: int) -> None:
        """Draw the visible part of the list in a panel at (x, y)."""
        self._clamp()
        rows = min(self.visible, len(self.items))
        fb.box(x, y, width, rows * CELL_H + 6, app.colour("panel"), app.colour("text_dim"))
        for row in range(rows):
            i = self.top + row
            ty = y + 4 + row * CELL_H
            colour = app.colour("text_dim" if i in self.disabled else "text")
            if i == self.cursor:
                fb.fill(x + 2, ty - 1, width - 4, CELL_H, app.colour("panel_light"))
                fb.text(x + 3, ty, "\u25b6", app.colour("cursor"))
            label = self.items[i][: max((width - 14) // CELL_W, 1)]
            draw_label(fb, x + 3 + CELL_W + 2, ty, label, colour, app.colour("text_dim"))


GAUGE_FULL, GAUGE_EMPTY = "\u2588", "\u2591"  # a gauge's filled and empty steps in a label


def gauge(fraction: float, steps: int) -> str:
    """A gauge of ``steps`` steps with ``fraction`` of them filled, to put in a label (a
    volume): :func:`draw_label` draws it as a bar of blocks."""
    filled = max(0, min(steps, round(fraction * steps)))
    return GAUGE_FULL * filled + GAUGE_EMPTY * (steps - filled)


def draw_label(fb: Framebuffer, x: int, y: int, label: str, colour: int, empty: int) -> None:
    """Draw ``label`` at (x, y): its text in the font, each gauge step as a block one
    character cell wide, filled in ``colour`` or hollow in ``empty``."""
    for i, part in enumerate(re.split(f"([{GAUGE_FULL}{GAUGE_EMPTY}]+)", label)):
        if i % 2 == 0:
            fb.text(x, y, part, colour)
        else:
            for j, step in enumerate(part):
                left = x + j * CELL_W
                if step == GAUGE_FULL:
                    fb.fill(left, y, CELL_W - 1, CELL_H - 2, colour)
                else:
                    fb.frame(left, y, CELL_W - 1, CELL_H - 2, empty)
        x += len(part) * CELL_W


def wrap(text: str, columns: int) -> list[str]:
    """Split ``text`` into lines of at most ``columns`` characters at spaces."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            if line and len(line) + 1 + len(word) > columns:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines
