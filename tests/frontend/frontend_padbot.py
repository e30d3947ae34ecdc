"""A pad-only player for headless tests: looks at what the screen shows and presses buttons.

It never calls the duel: every decision becomes a pad word, fed through ``App.step`` exactly
as a controller would (the app records the words: ``App.pad_log``).
"""

from __future__ import annotations

from emucore.frontend.pad import IDLE, word_from_buttons


class PadBot:
    """Produces one pad word per frame: a press on one frame, then a release frame."""

    def __init__(self, machine: str = "psx") -> None:
        self.machine = machine
        self._release = False

    def word(self, frame: int, buttons: list[str] | None) -> int:
        """The word for this frame: ``buttons`` pressed, unless the previous frame pressed
        (then everything is released so the next press is a new edge)."""
        if self._release or not buttons:
            self._release = False
            return IDLE[self.machine]
        self._release = True
        return word_from_buttons(self.machine, buttons)


def duel_buttons(screen) -> list[str]:
    """What a simple player presses on the FM duel screen: play the first hand card face
    up on the first zone with the first star; attack with every monster that can; end turn."""
    if screen.queue or screen.timer:
        return ["cross"]  # skip messages
    view, ui = screen.view, screen.ui
    if view.acting_side not in screen.humans or view.over:
        return []
    if ui.mode in ("hand", "face", "zone", "star"):
        if ui.mode == "zone" and ui.cursor not in screen._zone_cols():
            return ["right"]
        return ["cross"]
    if ui.mode == "target":
        return ["cross"]
    mine = view.sides[screen.me]
    ready = [c for c in range(5) if mine.monsters[c] is not None and not mine.monsters[c].used
             and not mine.monsters[c].defending and mine.swords == 0]
    if ui.mode == "field" and ready:
        if ui.row != "monster":
            return ["up" if ui.row == "magic" else "down"]
        if ui.cursor != ready[0]:
            return ["right"]
        return ["cross"]
    return ["start"]
