"""Pad bindings as data: which keys, controller buttons and joystick inputs press which
button of the original pad, per machine and player (DuckStation keeps bindings the same way:
one list of sources per button, controller buttons named by **position**).

The user's ``bindings.json`` (in :func:`emucore.frontend.paths.config_dir`) may override any
button of :data:`DEFAULTS`; it is validated as a whole, and a bad file gives one clear message,
leaves the file untouched and uses the defaults.

Binding strings:

* ``key:NAME`` - a keyboard key by its pygame name (``key:z``, ``key:up``, ``key:return``).
* ``pad:POSITION`` - an SDL game-controller input by position: ``south east west north``
  (the four face buttons), ``dpup dpdown dpleft dpright``, ``start back guide``, ``l1 r1``
  (shoulders), ``l2 r2`` (analogue triggers), ``l3 r3`` (stick clicks), ``lsup lsdown lsleft
  lsright`` (left stick pushed past half way).
* ``joy:hat:up|down|left|right`` (hat 0), ``joy:button:N``, ``joy:axis:N+`` / ``joy:axis:N-`` -
  plain joysticks that SDL does not know as game controllers.
"""

from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass
from pathlib import Path

import pygame

from emucore.duel.files import UserFileError, decimal, exists, read_json
from emucore.duel.padlog import BUTTONS
from emucore.frontend import paths

FILE_NAME = "bindings.json"
PLAYERS = ("1", "2")
HOTKEYS = ("fullscreen", "mute", "screenshot", "pause", "rank_meter", "palette")

PAD_POSITIONS = ("south", "east", "west", "north", "dpup", "dpdown", "dpleft", "dpright",
                 "start", "back", "guide", "l1", "r1", "l2", "r2", "l3", "r3",
                 "lsup", "lsdown", "lsleft", "lsright")
HAT_DIRECTIONS = ("up", "down", "left", "right")

_DPAD = {"up": ["pad:dpup", "pad:lsup", "joy:hat:up", "joy:axis:1-"],
         "down": ["pad:dpdown", "pad:lsdown", "joy:hat:down", "joy:axis:1+"],
         "left": ["pad:dpleft", "pad:lsleft", "joy:hat:left", "joy:axis:0-"],
         "right": ["pad:dpright", "pad:lsright", "joy:hat:right", "joy:axis:0+"]}


def _with_keys(pad: dict[str, list[str]], keys: dict[str, str]) -> dict[str, list[str]]:
    return {b: ([f"key:{keys[b]}"] if b in keys else []) + list(sources)
            for b, sources in pad.items()}


_PSX_PAD = {**_DPAD, "cross": ["pad:south", "joy:button:0"], "circle": ["pad:east",
            "joy:button:1"], "square": ["pad:west", "joy:button:2"],
            "triangle": ["pad:north", "joy:button:3"], "l1": ["pad:l1", "joy:button:4"],
            "r1": ["pad:r1", "joy:button:5"], "l2": ["pad:l2"], "r2": ["pad:r2"],
            "select": ["pad:back", "joy:button:6"], "start": ["pad:start", "joy:button:7"],
            "l3": ["pad:l3"], "r3": ["pad:r3"]}
_GB_PAD = {**_DPAD, "a": ["pad:east", "joy:button:1"], "b": ["pad:south", "joy:button:0"],
           "select": ["pad:back", "joy:button:6"], "start": ["pad:start", "joy:button:7"]}

# Keyboard layout by position too: Z is the lower/left face button, X the right one.
_PSX_KEYS = ({"up": "up", "down": "down", "left": "left", "right": "right", "cross": "z",
              "circle": "x", "square": "a", "triangle": "s", "l1": "q", "r1": "w", "l2": "1",
              "r2": "2", "start": "return", "select": "backspace"},
             {"up": "i", "down": "k", "left": "j", "right": "l", "cross": "n", "circle": "m",
              "square": "b", "triangle": "h", "l1": "u", "r1": "o", "l2": "7", "r2": "9",
              "start": "p", "select": "y"})
_GB_KEYS = ({"up": "up", "down": "down", "left": "left", "right": "right", "a": "x", "b": "z",
             "start": "return", "select": "backspace"},
            {"up": "i", "down": "k", "left": "j", "right": "l", "a": "m", "b": "n",
             "start": "p", "select": "y"})

DEFAULTS: dict = {
    "psx": {p: _with_keys(_PSX_PAD, k) for p, k in zip(PLAYERS, _PSX_KEYS, strict=True)},
    "gb": {p: _with_keys(_GB_PAD, k) for p, k in zip(PLAYERS, _GB_KEYS, strict=True)},
    "hotkeys": {"fullscreen": ["key:f11"], "mute": ["key:f9"], "screenshot": ["key:f12"],
                "pause": ["key:escape"], "rank_meter": ["key:tab"], "palette": ["key:f8"]},
}


@dataclass(frozen=True)
class Source:
    """One parsed binding: ``kind`` is key / pad / padaxis / joybutton / joyhat / joyaxis."""

    kind: str
    code: int
    sign: int = 0


_PAD_BUTTONS = {"south": "A", "east": "B", "west": "X", "north": "Y", "dpup": "DPAD_UP",
                "dpdown": "DPAD_DOWN", "dpleft": "DPAD_LEFT", "dpright": "DPAD_RIGHT",
                "start": "START", "back": "BACK", "guide": "GUIDE", "l1": "LEFTSHOULDER",
                "r1": "RIGHTSHOULDER", "l3": "LEFTSTICK", "r3": "RIGHTSTICK"}
_PAD_AXES = {"l2": ("TRIGGERLEFT", 1), "r2": ("TRIGGERRIGHT", 1), "lsup": ("LEFTY", -1),
             "lsdown": ("LEFTY", 1), "lsleft": ("LEFTX", -1), "lsright": ("LEFTX", 1)}


def parse_source(text: str) -> Source:
    """Parse one binding string; ValueError with a short reason if it is not valid."""
    if not isinstance(text, str):
        raise ValueError(f"binding {text!r} is not a string")
    family, _, rest = text.partition(":")
    if family == "key":
        try:
            with warnings.catch_warnings():  # SDL's key-name table needs no pygame.init()
                warnings.filterwarnings("ignore", "pygame.init", Warning)
                return Source("key", pygame.key.key_code(rest))
        except ValueError:
            raise ValueError(f"unknown key name {rest!r}") from None
    if family == "pad":
        if rest in _PAD_BUTTONS:
            return Source("pad", getattr(pygame, f"CONTROLLER_BUTTON_{_PAD_BUTTONS[rest]}"))
        if rest in _PAD_AXES:
            axis, sign = _PAD_AXES[rest]
            return Source("padaxis", getattr(pygame, f"CONTROLLER_AXIS_{axis}"), sign)
        raise ValueError(f"unknown pad position {rest!r} (one of {' '.join(PAD_POSITIONS)})")
    if family == "joy":
        return _parse_joy(rest)
    raise ValueError(f"binding {text!r} does not start with key:, pad: or joy:")


def _parse_joy(rest: str) -> Source:
    what, _, arg = rest.partition(":")
    if what == "hat" and arg in HAT_DIRECTIONS:
        return Source("joyhat", HAT_DIRECTIONS.index(arg))
    if what == "button" and (number := decimal(arg)) is not None and number < 256:
        return Source("joybutton", number)
    if what == "axis" and (number := decimal(arg[:-1])) is not None and number < 256 \
            and arg[-1:] in "+-":
        return Source("joyaxis", number, 1 if arg[-1] == "+" else -1)
    raise ValueError(f"bad joystick binding 'joy:{rest}' (joy:hat:up, joy:button:N, "
                     "joy:axis:N+)")


@dataclass
class Bindings:
    """Parsed bindings of one machine: per player, pad button -> sources; plus hotkeys."""

    machine: str
    players: dict[str, dict[str, tuple[Source, ...]]]
    hotkeys: dict[str, tuple[Source, ...]]
    raw: dict  # the merged data, for showing on screen


def _merge(user: object) -> dict:
    """Defaults with the user's overrides laid over them; ValueError names what is wrong."""
    if not isinstance(user, dict):
        raise ValueError("the top level must be an object")
    merged = copy.deepcopy(DEFAULTS)
    for section, value in user.items():
        if section not in merged:
            raise ValueError(f"unknown section {section!r} (psx, gb, hotkeys)")
        if not isinstance(value, dict):
            raise ValueError(f"{section}: must be an object")
        if section == "hotkeys":
            _merge_buttons(merged[section], value, HOTKEYS, section)
            continue
        for player, buttons in value.items():
            if player not in PLAYERS:
                raise ValueError(f"{section}: unknown player {player!r} (1 or 2)")
            if not isinstance(buttons, dict):
                raise ValueError(f"{section} player {player}: must be an object")
            _merge_buttons(merged[section][player], buttons, BUTTONS[section],
                           f"{section} player {player}")
    return merged


def _merge_buttons(into: dict, buttons: dict, names: tuple[str, ...], where: str) -> None:
    for button, sources in buttons.items():
        if button not in names:
            raise ValueError(f"{where}: unknown button {button!r}")
        if not isinstance(sources, list):
            raise ValueError(f"{where} {button}: must be a list of bindings")
        for text in sources:
            try:
                parse_source(text)
            except ValueError as exc:
                raise ValueError(f"{where} {button}: {exc}") from None
        into[button] = list(sources)


def _parse(merged: dict, machine: str) -> Bindings:
    players = {p: {b: tuple(parse_source(s) for s in merged[machine][p].get(b, []))
                   for b in BUTTONS[machine]} for p in PLAYERS}
    hotkeys = {h: tuple(parse_source(s) for s in merged["hotkeys"].get(h, []))
               for h in HOTKEYS}
    return Bindings(machine, players, hotkeys, merged)


def load(machine: str, path: Path | None = None) -> tuple[Bindings, str | None]:
    """The bindings for ``machine`` and a one-line warning if the user's file was rejected
    (then the defaults are used and the file is not touched). A missing file is no warning."""
    path = path or paths.config_dir() / FILE_NAME
    if not exists(path):
        return _parse(DEFAULTS, machine), None
    try:
        merged = _merge(read_json(path))
    except UserFileError as exc:
        return _parse(DEFAULTS, machine), f"{exc}; using the default bindings"
    except ValueError as exc:
        return _parse(DEFAULTS, machine), f"{path}: {exc}; using the default bindings"
    return _parse(merged, machine), None


def keyboard_table(machine: str, player: str = "1", data: dict | None = None) -> list[tuple]:
    """(pad button, key names) rows for showing the keyboard layout on screen and in docs."""
    data = data or DEFAULTS
    rows = []
    for button in BUTTONS[machine]:
        keys = [s[4:] for s in data[machine][player].get(button, []) if s.startswith("key:")]
        if keys:
            rows.append((button, keys))
    return rows
