"""A pad-only player for headless tests: looks at what the screen shows and presses buttons.

It never calls the duel: every decision becomes a pad word, fed through ``App.step`` exactly
as a controller would (the app records the words: ``App.pad_log``).
"""

from __future__ import annotations

from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.frontend.tour import duel_buttons, name_entry_buttons

__all__ = ["PadBot", "duel_buttons", "name_entry_buttons"]


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
