"""The original machines' pad state: what every screen reads, once per emulated frame.

The pad words themselves (bit layouts, idle words, the confirm/cancel roles) are
:mod:`emucore.duel.padlog`'s.

Screens never see keys or controllers, only a :class:`PadState`, and name buttons either by
the machine's own names or by the roles ``confirm`` / ``cancel`` (``padlog.ROLES`` decides
which button each role is).
"""

from __future__ import annotations

from dataclasses import dataclass

from emucore.duel.padlog import ACTIVE_LOW, BUTTONS, IDLE, ROLES, bit

# Menus repeat a held direction after this many frames, then every REPEAT_EVERY frames.
REPEAT_DELAY = 20
REPEAT_EVERY = 4


@dataclass
class PadState:
    """One player's pad this frame and last frame, with menu auto-repeat counters."""

    machine: str
    word: int = -1
    previous: int = -1
    _held_frames: dict[str, int] | None = None

    def __post_init__(self) -> None:
        if self.word < 0:
            self.word = IDLE[self.machine]
        if self.previous < 0:
            self.previous = self.word
        self._held_frames = {}

    def _down(self, word: int, button: str) -> bool:
        on = bool(word & bit(self.machine, button))
        return not on if ACTIVE_LOW[self.machine] else on

    def advance(self, word: int) -> None:
        """Start a new frame with ``word`` as the pad's value."""
        self.previous, self.word = self.word, word
        for name in BUTTONS[self.machine]:
            held = self._held_frames
            held[name] = held.get(name, 0) + 1 if self._down(word, name) else 0

    def held(self, button: str) -> bool:
        """Whether ``button`` (a name or a role) is down this frame."""
        return self._down(self.word, button)

    def pressed(self, button: str) -> bool:
        """Whether ``button`` went down this frame (an edge)."""
        return self._down(self.word, button) and not self._down(self.previous, button)

    def repeat(self, button: str) -> bool:
        """Pressed now, or held long enough to auto-repeat (for moving menu cursors)."""
        name = ROLES[self.machine].get(button, button)
        frames = self._held_frames.get(name, 0)
        if frames == 1:
            return True
        return frames > REPEAT_DELAY and (frames - REPEAT_DELAY) % REPEAT_EVERY == 0

    def any_pressed(self) -> bool:
        """Any button went down this frame."""
        return any(self.pressed(name) for name in BUTTONS[self.machine])
