"""Turns keyboards, SDL game controllers and plain joysticks into the original pad words.

Controllers are opened through pygame-ce's SDL game-controller API, which names buttons by
position (A = south ...). Devices SDL does not know as controllers fall back to
``pygame.joystick`` (hat 0 = d-pad). Devices are handled as one family only: a joystick that
is also a controller is used as a controller. Hot-plugged devices take the lowest free player
slot (two players); unplugging frees it.
"""

from __future__ import annotations

import pygame
from pygame._sdl2 import controller as sdl_controller

from emucore.duel.padlog import BUTTONS, word_from_buttons
from emucore.frontend.bindings import PLAYERS, Bindings, Source

AXIS_THRESHOLD = 16384  # half of the axis range counts as pressed
_HAT = {0: (1, 1), 1: (1, -1), 2: (0, -1), 3: (0, 1)}  # hat direction -> (axis, sign)


class InputManager:
    """Keeps the set of held keys and the connected devices; builds pad words on demand."""

    def __init__(self, bindings: Bindings) -> None:
        self.bindings = bindings
        self.keys: set[int] = set()
        self._fresh: set[int] = set()  # keys pressed since the last frame's pad words
        self._late: set[int] = set()  # keys released in the frame they were pressed in
        self.devices: dict[int, object] = {}  # instance id -> Controller or Joystick
        self.slots: dict[str, int | None] = {p: None for p in PLAYERS}
        self.messages: list[str] = []  # connect / disconnect notices for the screen
        sdl_controller.init()
        pygame.joystick.init()

    # --- events ---------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        """Feed one pygame event (keys, device hot-plug)."""
        if event.type == pygame.KEYDOWN:
            self.keys.add(event.key)
            self._fresh.add(event.key)
        elif event.type == pygame.KEYUP:
            if event.key in self._fresh:
                self._late.add(event.key)  # a tap shorter than a frame still counts once
            else:
                self.keys.discard(event.key)
        elif event.type == pygame.JOYDEVICEADDED:
            self._add(event.device_index)
        elif event.type in (pygame.JOYDEVICEREMOVED, pygame.CONTROLLERDEVICEREMOVED):
            self._remove(event.instance_id)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.keys.clear()

    def end_frame(self) -> None:
        """The frame's pad words have been read: apply releases held back for quick taps."""
        self.keys -= self._late
        self._late.clear()
        self._fresh.clear()

    def _add(self, index: int) -> None:
        if sdl_controller.is_controller(index):
            device = sdl_controller.Controller(index)
            instance = device.as_joystick().get_instance_id()
        else:
            device = pygame.joystick.Joystick(index)
            instance = device.get_instance_id()
        if instance in self.devices:
            return
        self.devices[instance] = device
        free = [p for p in PLAYERS if self.slots[p] is None]
        if free:
            self.slots[free[0]] = instance
            self.messages.append(f"Pad {free[0]}: {device.name}")

    def _remove(self, instance: int) -> None:
        if self.devices.pop(instance, None) is None:
            return
        for player, held in self.slots.items():
            if held == instance:
                self.slots[player] = None
                self.messages.append(f"Pad {player} disconnected")

    # --- state ----------------------------------------------------------------------------
    def _source_down(self, source: Source, device: object | None) -> bool:
        if source.kind == "key":
            return source.code in self.keys
        if device is None:
            return False
        if isinstance(device, sdl_controller.Controller):
            if source.kind == "pad":
                return bool(device.get_button(source.code))
            if source.kind == "padaxis":
                return device.get_axis(source.code) * source.sign > AXIS_THRESHOLD
            return False
        return _joystick_down(device, source)

    def word(self, player: str) -> int:
        """The pad word of ``player`` ("1" or "2") from everything bound to it now."""
        slot = self.slots.get(player)
        device = self.devices.get(slot) if slot is not None else None
        table = self.bindings.players[player]
        held = [b for b in BUTTONS[self.bindings.machine]
                if any(self._source_down(s, device) for s in table[b])]
        return word_from_buttons(self.bindings.machine, held)

    def hotkey(self, event: pygame.event.Event) -> str | None:
        """The hotkey a KEYDOWN event triggers, if any."""
        if event.type != pygame.KEYDOWN:
            return None
        for name, sources in self.bindings.hotkeys.items():
            if any(s.kind == "key" and s.code == event.key for s in sources):
                return name
        return None


def _joystick_down(stick: object, source: Source) -> bool:
    if source.kind == "joybutton":
        return source.code < stick.get_numbuttons() and bool(stick.get_button(source.code))
    if source.kind == "joyhat":
        if stick.get_numhats() < 1:
            return False
        axis, sign = _HAT[source.code]
        return stick.get_hat(0)[axis] == sign
    if source.kind == "joyaxis":
        if source.code >= stick.get_numaxes():
            return False
        return stick.get_axis(source.code) * source.sign > 0.5
    return False
