"""The application loop and the small Screen API every system's screens are written against.

One emulated frame: read events -> build each player's pad word (keyboard/controllers, or the
scripted pad log when headless) -> ``screen.update(app)`` -> ``screen.draw(app, fb)`` -> present
-> wait for the frame's deadline (exact machine rate). Screens see only :class:`App`'s pads,
framebuffer, machine, sound, saves and notices; never pygame events.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from emucore.duel.files import UserFileError
from emucore.duel.padlog import PadScript, write
from emucore.frontend import bindings as bindings_mod
from emucore.frontend import paths
from emucore.frontend.display import Display, save_png
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.input import InputManager
from emucore.frontend.layout import fit
from emucore.frontend.machine import Machine
from emucore.frontend.pacing import FramePacer
from emucore.frontend.pad import PadState
from emucore.frontend.sound import Sound

if TYPE_CHECKING:
    from emucore.frontend.pause import Pause

NOTICE_FRAMES = 180
NOTICE_LINES = 2  # a longer notice is shortened by the layout fitting rule


class Screen:
    """Base of every screen. Subclasses override :meth:`update` and :meth:`draw`.

    ``update`` runs once per emulated frame and returns the screen for the next frame:
    ``self`` to stay, another Screen to switch to, or ``None`` to leave the app.
    ``draw`` paints the whole frame into ``fb`` (palette indices; ``app.colour(role)``).
    """

    music: str | None = None  # the piece to loop while this screen shows; None: keep playing

    def enter(self, app: App) -> None:
        """Called once when this screen becomes the current one."""

    def update(self, app: App) -> Screen | None:
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))


class App:
    """Owns the machine profile, framebuffer, pads, sound and the current screen."""

    def __init__(self, machine: Machine, system: str, *, headless: bool = False,
                 scale: int = 3, fullscreen: bool = False, palette: str | None = None,
                 sound: bool = True, bindings_path: Path | None = None) -> None:
        self.machine, self.system, self.headless = machine, system, headless
        self.fb = Framebuffer(machine.width, machine.height)
        self.pads = [PadState(machine.name), PadState(machine.name)]
        self.frame = 0  # emulated frames since start: the app's only clock
        self.notices: list[str] = []  # every notice shown (tests read it)
        self._notice: tuple[str, int] | None = None
        self.toggles: dict[str, bool] = {"rank_meter": False}
        self.screen: Screen | None = None
        self.paused: Pause | None = None  # the pause menu over the screen, while open
        self.recording: list[tuple[int, tuple[int, int]]] = []  # pad changes, for --record
        pygame.display.init()  # video (keys, window); joystick and mixer start on their own
        self.bindings, warning = bindings_mod.load(machine.name, bindings_path)
        if warning:
            self.notify(warning, stderr=True)
        self.display = Display(machine, scale, fullscreen, palette,
                               title=f"emucore - {system}")
        self.input = InputManager(self.bindings)
        self.sound = Sound(enabled=sound and not headless)
        self.pacer = FramePacer(machine.frame_ns)

    # --- services for screens ---------------------------------------------------------------
    @property
    def pad(self) -> PadState:
        """Player 1's pad."""
        return self.pads[0]

    @property
    def fast(self) -> bool:
        """Whether the options' fast-animations switch is on."""
        return bool(self.toggles.get("fast_animations"))

    def paced(self, frames: int) -> int:
        """``frames`` of a wait or an animation as this player sees them (the machine's
        :meth:`~emucore.frontend.machine.Machine.paced` under the fast-animations switch)."""
        return self.machine.paced(frames, self.fast)

    def colour(self, role: str) -> int:
        return self.machine.colour(role)

    def notify(self, text: str, stderr: bool = False) -> None:
        """Show a one-line notice at the bottom of the screen for a few seconds."""
        self.notices.append(text)
        self._notice = (text, self.frame + NOTICE_FRAMES)
        if stderr:
            print(f"emucore: {text}", file=sys.stderr)

    def screenshot(self, path: Path | str, scale: int = 1, replace: bool = True) -> None:
        save_png(self.machine, self.fb, path, scale, self.display.palette_name, replace)

    # --- the loop ---------------------------------------------------------------------------
    def switch(self, screen: Screen | None) -> None:
        if screen is not None and screen is not self.screen:
            self.screen = screen
            screen.enter(self)
            self.sound.play_music(screen.music)
        elif screen is None:
            self.screen = None

    def step(self, words: tuple[int, int] | None = None) -> bool:
        """Run one emulated frame; ``words`` are scripted pad words (None: live input).
        Returns False once the app should stop."""
        if not self._events():
            return False
        if words is None:
            words = (self.input.word("1"), self.input.word("2"))
            self.input.end_frame()
        if not self.recording or self.recording[-1][1] != words:
            self.recording.append((self.frame, words))
        for pad, word in zip(self.pads, words, strict=True):
            pad.advance(word)
        for message in self.input.messages:
            self.notify(message)
        self.input.messages.clear()
        if self.paused is not None:
            if not self._update_pause():
                return False
        else:
            self.switch(self.screen.update(self))
        if self.screen is None:
            return False
        (self.paused or self.screen).draw(self, self.fb)
        self._draw_notice()
        self.frame += 1
        return True

    def _events(self) -> bool:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return False
            if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self.display.resized()
            hotkey = self.input.hotkey(event)
            if hotkey == "pause":
                self.pause()
            elif hotkey:
                self._hotkey(hotkey)
            self.input.handle(event)
        return True

    def pause(self) -> None:
        """Open the pause menu over the current screen (Esc); again closes it."""
        from emucore.frontend.pause import Pause  # pause draws with widgets, which need App
        if self.paused is None and self.screen is not None:
            self.paused = Pause(self.screen)
            self.sound.play("confirm")
        else:
            self.paused = None

    def _update_pause(self) -> bool:
        """One frame of the pause menu; False when the player chose to quit."""
        outcome = self.paused.update(self)
        if outcome == "quit":
            return False
        if outcome != "stay":
            self.paused = None
            if outcome != "resume":
                self.switch(outcome)
        return True

    def _hotkey(self, name: str) -> None:
        if name == "fullscreen":
            self.display.toggle_fullscreen()
        elif name == "mute":
            self.notify("Sound off" if self.sound.toggle_mute() else "Sound on")
        elif name == "palette":
            names = list(self.machine.palettes)
            self.display.set_palette(names[(names.index(self.display.palette_name) + 1)
                                          % len(names)])
            self.notify(f"Palette {self.display.palette_name}")
        elif name == "screenshot":
            target = paths.data_dir() / "screenshots" / f"{self.system}-{self.frame:08d}.png"
            try:
                self.screenshot(target, self.display.scale)
                self.notify(f"Saved {target.name}")
            except UserFileError as exc:  # a full disk must not stop the game
                self.notify(str(exc), stderr=True)
        else:
            self.toggles[name] = not self.toggles.get(name, False)

    def _draw_notice(self) -> None:
        if self._notice is None:
            return
        text, until = self._notice
        if self.frame >= until:
            self._notice = None
            return
        fb = self.fb
        lines = fit(text, fb.width - 4, NOTICE_LINES)
        top = fb.height - len(lines) * CELL_H - 2
        fb.fill(0, top, fb.width, fb.height - top, self.colour("notice"))
        for i, line in enumerate(lines):
            fb.text(2, top + 2 + i * CELL_H, line, self.colour("notice_text"))

    def pad_log(self) -> str:
        """Everything pressed so far as a pad script (see emucore.duel.padlog) that
        replays this session headless, frame for frame."""
        return write(self.machine.name, [(frame, f"0x{a:04X} 0x{b:04X}")
                                        for frame, (a, b) in self.recording], self.frame)

    def run(self, first: Screen, script: PadScript | None = None) -> int:
        """Play from ``first`` until quit (live, paced) or the script's end (headless,
        unpaced). Returns the number of frames run."""
        self.switch(first)
        self.pacer = FramePacer(self.machine.frame_ns)  # frame 0 is due from now
        hint = 0
        while script is None or self.frame < script.end:
            words = None
            if script is not None:
                words, hint = script.words_at(self.frame, hint)
            if not self.step(words):
                break
            if not self.headless:
                self.display.present(self.fb)
                self.pacer.wait()
        return self.frame
