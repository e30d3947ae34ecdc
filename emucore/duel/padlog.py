"""The original machines' pad words and emucore's pad-log file format. Nothing here imports
pygame: the frontend's screens, recordings and headless runs read pads through it, and so
does ``capture record``, which plays a pad log on a real emulator.

**Pad words**:

* PSX digital pad: a 16-bit **active-low** word, 0xFFFF when nothing is held, in the bit order
  of DuckStation's pad model (src/core/digital_controller.h, ``DigitalController::Button``):
  Select, L3, R3, Start, Up, Right, Down, Left, L2, R2, L1, R1, Triangle, Circle, Cross, Square
  (bit 0 .. bit 15). The plain digital pad has no L3/R3; the bits stay 1.
* Game Boy joypad byte: the value the usual joypad routine stores after reading both halves
  of P1 (0xFF00): **active-high**, bit 0 A, 1 B, 2 Select, 3 Start, 4 Right, 5 Left, 6 Up,
  7 Down (the layout pret/pokered keeps in hJoyHeld).

**Pad logs** (:func:`load`, :func:`write`): frame number -> pad state, one change per line.

Format (``#`` starts a comment)::

    # frame  player-1 pad      [player-2 pad]
    0        -
    30       cross                # Cross held from frame 30 ...
    32       -                    # ... released at frame 32
    40       up+cross   0xFFFF    # names joined by '+', or the raw pad word in hex
    900      end                  # stop after frame 899

Each line sets the pads from its frame on, until the next line. Frames must increase.
Without an ``end`` line the run stops one frame after the last line. The pad states are the
machine's own words (PSX active-low 16-bit, GB joypad byte); names are the machine's buttons.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from emucore.duel.files import UserFileError, decimal, read_lines

PSX_BUTTONS = ("select", "l3", "r3", "start", "up", "right", "down", "left",
               "l2", "r2", "l1", "r1", "triangle", "circle", "cross", "square")
GB_BUTTONS = ("a", "b", "select", "start", "right", "left", "up", "down")
BUTTONS = {"psx": PSX_BUTTONS, "gb": GB_BUTTONS}
IDLE = {"psx": 0xFFFF, "gb": 0x00}
ACTIVE_LOW = {"psx": True, "gb": False}

# The confirm and cancel buttons (frontend.choices F4): NTSC-U PlayStation releases confirm
# with Cross and back out with Circle; the Game Boy confirms with A and backs out with B.
ROLES = {"psx": {"confirm": "cross", "cancel": "circle"}, "gb": {"confirm": "a", "cancel": "b"}}


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


MAX_FRAMES = 10_000_000


@dataclass(frozen=True)
class PadScript:
    """A parsed pad log: sorted (frame, (word1, word2)) changes and the frame count to run."""

    machine: str
    changes: tuple[tuple[int, tuple[int, int]], ...]
    end: int

    def words_at(self, frame: int, start: int = 0) -> tuple[tuple[int, int], int]:
        """The pad words in force at ``frame``; ``start`` is a search hint (index into
        changes), the returned index is the hint for the next frame."""
        i = start
        while i + 1 < len(self.changes) and self.changes[i + 1][0] <= frame:
            i += 1
        if not self.changes or self.changes[i][0] > frame:
            return (IDLE[self.machine], IDLE[self.machine]), i
        return self.changes[i][1], i


def parse_pad(machine: str, token: str) -> int:
    """One pad state: ``-``, names joined by ``+``, or a hex word (``0x...``)."""
    if token in ("-", "none"):
        return IDLE[machine]
    if token.lower().startswith("0x"):
        if not re.fullmatch(r"0[xX][0-9a-fA-F]{1,8}", token):
            raise ValueError(f"pad word {token[:20]!r} is not 0x and hex digits")
        value = int(token, 16)
        if not 0 <= value <= 0xFFFF or (machine == "gb" and value > 0xFF):
            raise ValueError(f"pad word {token} out of range for the {machine} pad")
        return value
    names = token.lower().split("+")
    for name in names:
        if name not in BUTTONS[machine] and name not in ("confirm", "cancel"):
            raise ValueError(f"unknown {machine} button {name!r} "
                             f"(one of {', '.join(BUTTONS[machine])})")
    return word_from_buttons(machine, names)


def parse(machine: str, lines: list[tuple[int, str]], where: str) -> PadScript:
    """Parse numbered lines (as :func:`emucore.duel.files.read_lines` gives them)."""
    changes: list[tuple[int, tuple[int, int]]] = []
    end = None
    for number, line in lines:
        parts = line.split()
        try:
            frame = decimal(parts[0])
            if frame is None:
                raise ValueError(f"frame {parts[0][:20]!r} is not a number")
            if not 0 <= frame <= MAX_FRAMES:
                raise ValueError(f"frame {frame} outside 0..{MAX_FRAMES}")
            if (changes and frame <= changes[-1][0]) or end is not None:
                raise ValueError("frames must increase and nothing may follow 'end'")
            if len(parts) == 2 and parts[1] == "end":
                end = frame
                continue
            if len(parts) not in (2, 3):
                raise ValueError("expected: FRAME PAD1 [PAD2]")
            words = [parse_pad(machine, p) for p in parts[1:]]
        except ValueError as exc:
            raise UserFileError(where, f"line {number}: {exc}") from None
        changes.append((frame, (words[0], words[1] if len(words) > 1 else IDLE[machine])))
    if not changes and end is None:
        raise UserFileError(where, "no pad lines")
    if end is None:
        end = changes[-1][0] + 1
    return PadScript(machine, tuple(changes), end)


def load(machine: str, path: Path | str) -> PadScript:
    """Read and check a pad log file; :class:`UserFileError` names the line at fault."""
    return parse(machine, read_lines(path), str(path))


def write(machine: str, changes: list[tuple[int, str]], end: int | None = None) -> str:
    """Text of a pad log from (frame, pad) pairs, e.g. for tests and recordings."""
    out = [f"{frame} {pad}" for frame, pad in changes]
    if end is not None:
        out.append(f"{end} end")
    return "\n".join(out) + "\n"
