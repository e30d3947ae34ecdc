"""A screen listing what a player can do and with which button and keys, for any system:
``ControlsScreen(back)``; confirm or cancel returns to ``back``.

One table, read top to bottom as a player learns the game: each action of the system (choose,
back, the Start button's job, moving, then the system's extra buttons), the pad button it is
on and the keyboard keys of player 1 and player 2 (from the active bindings); then the
hotkeys. Every piece of text sits in a row under its column's heading.
"""

from __future__ import annotations

from emucore.duel.padlog import BUTTONS, ROLES
from emucore.frontend.app import App, Screen
from emucore.frontend.bindings import keyboard_table
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted

DPAD = ("up", "down", "left", "right")
GAP = 2  # pixels between a table's columns
# (what the player does, the pad button or role, or "dpad") per system, in reading order.
_BASICS = (("Choose", "confirm"), ("Back", "cancel"))
ACTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "fm": (*_BASICS, ("End turn", "start"), ("Move", "dpad"),
           ("Change position", "triangle"), ("Sort the deck", "square"), ("Page up", "l1"),
           ("Page down", "r1"), ("Rank meter", "select")),
    "dm1": (*_BASICS, ("End turn", "start"), ("Move", "dpad")),
    "ocg1999": (*_BASICS, ("Phases, end turn", "start"), ("Move", "dpad")),
    "tcglite": (*_BASICS, ("Phases, end turn", "start"), ("Move", "dpad")),
}
HOTKEY_ACTIONS = (("Pause menu", "pause"), ("Rank meter", "rank_meter"),
                  ("Full screen", "fullscreen"), ("Mute", "mute"),
                  ("Screenshot", "screenshot"), ("Palette", "palette"))
BUTTON_NAMES = {"dpad": "D-pad", "l1": "L1", "r1": "R1", "l2": "L2", "r2": "R2", "a": "A",
                "b": "B"}
KEY_NAMES = {"up": "\u25b2", "down": "\u25bc", "left": "\u25c0", "right": "\u25b6",
             "return": "Enter", "backspace": "Bksp", "escape": "Esc", "space": "Space",
             "tab": "Tab"}


def key_label(name: str) -> str:
    """A pygame key name as printed on a keyboard (arrows as arrow signs)."""
    return KEY_NAMES.get(name, name.upper() if len(name) <= 3 else name.capitalize())


def dpad_label(keys: list[str]) -> str:
    """The keys of up, down, left and right: "Arrows" for the arrow keys, else the four
    keys' letters ("IKJL")."""
    if keys == list(DPAD):
        return "Arrows"
    return "".join(key_label(k) for k in keys) if len(keys) == len(DPAD) else ""


def button_label(button: str) -> str:
    """A pad button as a player names it ("Cross", "D-pad", "L1")."""
    return BUTTON_NAMES.get(button, button.capitalize())


def rows(app: App) -> list[tuple[str, str, str, str]]:
    """(action, button, player 1 keys, player 2 keys) for the app's system, in order; an
    action whose button has no key for a player shows "-" there."""
    machine = app.machine.name
    tables = {p: dict(keyboard_table(machine, p, app.bindings.raw)) for p in ("1", "2")}
    out = []
    for action, button in ACTIONS.get(app.system, (*_BASICS, ("Move", "dpad"))):
        button = ROLES[machine].get(button, button)
        if button not in BUTTONS[machine] and button != "dpad":
            continue  # a button this machine's pad lacks
        buttons = DPAD if button == "dpad" else (button,)
        keys = [dpad_label([k for b in buttons for k in tables[p].get(b, [])[:1]])
                if button == "dpad" else "/".join(key_label(k) for k in tables[p].get(button, []))
                for p in ("1", "2")]
        out.append((action, button_label(button), keys[0] or "-", keys[1] or "-"))
    return out


def hotkey_rows(app: App) -> list[tuple[str, str]]:
    """(action, keys) of every hotkey, in :data:`HOTKEY_ACTIONS` order."""
    raw = app.bindings.raw["hotkeys"]
    return [(action, "/".join(key_label(s[4:]) for s in raw.get(name, [])
                              if s.startswith("key:")) or "-")
            for action, name in HOTKEY_ACTIONS]


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
        wide = fb.width >= 240
        # column x positions: action, button, player 1 keys, player 2 keys (wide screens)
        cols = (4, 112, 178, 250) if wide else (4, 76, 116)
        ends = (*cols[1:], fb.width)
        fb.text(4, 3, "CONTROLS", app.colour("highlight"))
        heads = ("ACTION", "BUTTON", "PLAYER 1", "PLAYER 2") if wide else \
            ("ACTION", "BUTTON", "KEYS")
        y = self._table(app, fb, 16, cols, ends, heads, rows(app))
        self._table(app, fb, y + 4, (cols[0], cols[2]), (cols[2], ends[2]),
                    ("HOTKEY", "KEY"), hotkey_rows(app))
        back = f"{button_label(ROLES[app.machine.name]['confirm'])}: back"
        fb.text_right(fb.width - 4, 3, back, app.colour("text_dim"))

    @staticmethod
    def _table(app: App, fb: Framebuffer, y: int, cols: tuple[int, ...],
               ends: tuple[int, ...], heads: tuple[str, ...],
               body: list[tuple[str, ...]]) -> int:
        """Headings then one row per entry, cells fitted to their columns (as many columns
        as ``cols`` gives); returns the y below the table."""
        colours = (app.colour("text"), app.colour("highlight"), app.colour("text"),
                   app.colour("text_dim"))
        for x, end, head in zip(cols, ends, heads, strict=False):
            draw_fitted(fb, x, y, head, end - x - GAP, app.colour("text_dim"))
        y += CELL_H + 2
        for row in body:
            for x, end, cell, colour in zip(cols, ends, row, colours, strict=False):
                draw_fitted(fb, x, y, cell, end - x - GAP, colour)
            y += CELL_H
        return y
