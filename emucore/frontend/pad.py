"""The original machines' pad state: what every screen reads, once per emulated frame.

* PSX digital pad: a 16-bit **active-low** word, 0xFFFF when nothing is held, in the bit order
  of DuckStation's pad model (src/core/digital_controller.h, ``DigitalController::Button``):
  Select, L3, R3, Start, Up, Right, Down, Left, L2, R2, L1, R1, Triangle, Circle, Cross, Square
  (bit 0 .. bit 15). The plain digital pad has no L3/R3; the bits stay 1.
* Game Boy joypad byte: the value the usual joypad routine stores after reading both halves
  of P1 (0xFF00): **active-high**, bit 0 A, 1 B, 2 Select, 3 Start, 4 Right, 5 Left, 6 Up,
  7 Down (the layout pret/pokered keeps in hJoyHeld).

Screens never see keys or controllers, only a :class:`PadState`, and name buttons either by
the machine's own names or by the roles ``confirm`` / ``cancel`` (one place below decides
which button each role is).
"""

from __future__ import annotations

from dataclasses import dataclass

PSX_BUTTONS = ("select", "l3", "r3", "start", "up", "right", "down", "left",
               "l2", "r2", "l1", "r1", "triangle", "circle", "cross", "square")
GB_BUTTONS = ("a", "b", "select", "start", "right", "left", "up", "down")
BUTTONS = {"psx": PSX_BUTTONS, "gb": GB_BUTTONS}
IDLE = {"psx": 0xFFFF, "gb": 0x00}
ACTIVE_LOW = {"psx": True, "gb": False}

# Choice: confirm/cancel buttons. NTSC-U PlayStation releases confirm with Cross and back out
# with Circle; the Game Boy confirms with A and backs out with B.
ROLES = {"psx": {"confirm": "cross", "cancel": "circle"}, "gb": {"confirm": "a", "cancel": "b"}}

# Menus repeat a held direction after this many frames, then every REPEAT_EVERY frames.
REPEAT_DELAY = 20
REPEAT_EVERY = 4


def bit(machine: str, button: str) -> int:
    """The bit mask of ``button`` in the machine's pad word (roles allowed)."""
    button = ROLES[machine].get(button, button)
    try:
        return 1 << BUTTONS[machine].index(button)
    except ValueError:
        raise KeyError(f"{machine} pad has no button {button!r}") from None


def word_from_buttons(machine: str, held: set[str] | frozenset[str] | list[str]) -> int:
    """The machine's pad word with exactly ``held`` pressed."""
    mask = 0
    for name in held:
        mask |= bit(machine, name)
    return IDLE[machine] & ~mask & 0xFFFF if ACTIVE_LOW[machine] else mask


def buttons_from_word(machine: str, word: int) -> list[str]:
    """The buttons held in a pad word, in bit order."""
    pressed = ~word if ACTIVE_LOW[machine] else word
    return [name for i, name in enumerate(BUTTONS[machine]) if pressed >> i & 1]


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
