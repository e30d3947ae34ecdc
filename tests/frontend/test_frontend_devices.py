"""Game controllers by position, hot-plug, the joystick hat fallback, sound without a device,
the gb profile, screenshots and the app's bindings warning."""

from __future__ import annotations

import json

import numpy as np
import pygame
import pytest

from emucore.cli import main
from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.frontend import bindings, sound
from emucore.frontend import input as input_mod
from emucore.frontend.app import App, Screen
from emucore.frontend.display import init_video
from emucore.frontend.machine import machine
from emucore.frontend.widgets import Menu


class FakeJoystick:
    def __init__(self, instance: int, hat=(0, 0), buttons=()) -> None:
        self.instance, self.hat, self.buttons = instance, hat, set(buttons)
        self.name = f"stick {instance}"

    def get_instance_id(self) -> int:
        return self.instance

    def get_numhats(self) -> int:
        return 1

    def get_hat(self, i: int):
        return self.hat

    def get_numbuttons(self) -> int:
        return 12

    def get_button(self, i: int) -> bool:
        return i in self.buttons

    def get_numaxes(self) -> int:
        return 2

    def get_axis(self, i: int) -> float:
        return 0.0


class FakeControllerModule:
    """Stands in for pygame._sdl2.controller: device 0 is a game controller, 1 is not."""

    class Controller:
        def __init__(self, index: int) -> None:
            self.index, self.name, self.pressed, self.axes = index, "pad", set(), {}

        def as_joystick(self):
            return FakeJoystick(100 + self.index)

        def get_button(self, button: int) -> bool:
            return button in self.pressed

        def get_axis(self, axis: int) -> int:
            return self.axes.get(axis, 0)

    @staticmethod
    def init() -> None:
        pass

    @staticmethod
    def is_controller(index: int) -> bool:
        return index == 0


@pytest.fixture
def fake_devices(pg, monkeypatch):
    monkeypatch.setattr(input_mod, "sdl_controller", FakeControllerModule)
    sticks = {1: FakeJoystick(201, hat=(0, 1), buttons={1})}
    monkeypatch.setattr(pygame.joystick, "Joystick", lambda i: sticks[i])
    return sticks


def test_controller_buttons_map_by_position_and_hot_plug(fake_devices):
    manager = input_mod.InputManager(bindings.load("psx")[0])
    manager.handle(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=0))
    pad = manager.devices[100]
    pad.pressed = {pygame.CONTROLLER_BUTTON_A, pygame.CONTROLLER_BUTTON_DPAD_LEFT}
    assert manager.word("1") == word_from_buttons("psx", ["cross", "left"])  # A = south
    pad.pressed = {pygame.CONTROLLER_BUTTON_B}
    assert manager.word("1") == word_from_buttons("psx", ["circle"])  # B = east
    pad.pressed, pad.axes = set(), {pygame.CONTROLLER_AXIS_TRIGGERRIGHT: 30000}
    assert manager.word("1") == word_from_buttons("psx", ["r2"])
    # a plain joystick joins as player 2: hat = d-pad, button 1 = east
    manager.handle(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=1))
    assert manager.slots == {"1": 100, "2": 201}
    assert manager.word("2") == word_from_buttons("psx", ["up", "circle"])
    manager.handle(pygame.event.Event(pygame.JOYDEVICEREMOVED, instance_id=100))
    assert manager.slots["1"] is None and manager.word("1") == IDLE["psx"]
    assert manager.messages == ["Pad 1: pad", "Pad 2: stick 201", "Pad 1 disconnected"]


def test_gb_controller_a_is_east(fake_devices):
    manager = input_mod.InputManager(bindings.load("gb")[0])
    manager.handle(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=0))
    manager.devices[100].pressed = {pygame.CONTROLLER_BUTTON_B}
    assert manager.word("1") == word_from_buttons("gb", ["a"])


def test_square_wave_and_silence_without_a_device(monkeypatch):
    samples = sound.square_wave(((1000, 10),), rate=8000)
    assert len(samples) == 80 and samples.dtype == np.int16
    assert samples[0] > 0 and samples[4] < 0  # half period of 1 kHz at 8 kHz = 4 samples
    assert abs(int(samples[0])) <= int(32767 * sound.VOLUME)

    def no_device(*args, **kwargs):
        raise pygame.error("no audio device")
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    silent = sound.Sound()
    assert not silent.available
    silent.play("fusion")  # silent, no error


def test_sound_plays_on_the_dummy_driver(pg):
    player = sound.Sound()
    for name in sound.EFFECTS:
        player.play(name)
    assert player.toggle_mute() is True
    player.play("win")


class GbMenu(Screen):
    def __init__(self) -> None:
        self.menu = Menu(["Duel", "Deck", "Quit"])

    def update(self, app: App):
        return None if self.menu.update(app) == 2 else self

    def draw(self, app: App, fb) -> None:
        fb.clear(app.colour("bg"))
        self.menu.draw(app, fb, 8, 8, 80)


def test_gb_profile_screen_uses_four_shades_and_gb_roles(pg):
    init_video(headless=True)
    app = App(machine("gb"), "dm1", headless=True, sound=False)
    app.switch(GbMenu())
    idle = IDLE["gb"]
    app.step((idle, idle))
    assert app.fb.pixels.shape == (144, 160) and app.fb.pixels.max() <= 3
    for word in (word_from_buttons("gb", ["down"]), idle, word_from_buttons("gb", ["down"]),
                 idle):
        app.step((word, idle))
    assert app.screen.menu.cursor == 2
    assert app.step((word_from_buttons("gb", ["a"]), idle)) is False  # A confirms on gb


def test_bad_bindings_reach_the_screen_and_stderr(pg, user_dirs, capsys):
    path = user_dirs / "config" / "bindings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"psx": {"1": {"start": ["key:nope"]}}}))
    init_video(headless=True)
    app = App(machine("psx"), "fm", headless=True, sound=False)
    assert len(app.notices) == 1 and "unknown key name 'nope'" in app.notices[0]
    assert "using the default bindings" in capsys.readouterr().err
    assert json.loads(path.read_text()) == {"psx": {"1": {"start": ["key:nope"]}}}


def test_screenshot_command_writes_a_scaled_png(tmp_path, capsys):
    out = tmp_path / "title.png"
    assert main(["screenshot", "--out", str(out), "--scale", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["screen"] == "TitleScreen" and data["frames"] == 1
    pygame.init()
    image = pygame.image.load(str(out))
    assert image.get_size() == (640, 480)


def test_unknown_palette_is_one_line(capsys):
    assert main(["screenshot", "--out", "x.png", "--palette", "sepia"]) == 2
    assert "unknown palette 'sepia' for psx" in capsys.readouterr().err


def test_hotkeys_cycle_palette_and_toggle_fullscreen(pg):
    init_video(headless=True)
    app = App(machine("gb"), "dm1", headless=True, sound=False)
    app.switch(GbMenu())
    for key in (pygame.K_F8, pygame.K_F11, pygame.K_TAB):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
    app.step()
    assert app.display.palette_name == "grey" and "Palette grey" in app.notices
    assert app.display.fullscreen and app.toggles["rank_meter"]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
    assert app.step() is True and app.paused is not None  # Esc pauses; quitting asks first
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert app.step() is False  # closing the window still ends the app


def test_golden_controls_screen_on_both_machines(pg):
    from frontend_golden import check

    from emucore.frontend.controls import ControlsScreen
    init_video(headless=True)
    for name, palette in (("psx", None), ("gb", "grey")):
        app = App(machine(name), "fm", headless=True, sound=False, palette=palette)
        app.switch(ControlsScreen(GbMenu()))
        app.step((IDLE[name], IDLE[name]))
        check(f"{name}_controls", app.fb.digest())
        app.step((word_from_buttons(name, ["confirm"]), IDLE[name]))
        assert isinstance(app.screen, GbMenu)
