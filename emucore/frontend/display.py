"""Presents the index framebuffer: 8-bit palettised surface -> integer scale -> letterbox.

The native frame goes into an 8-bit surface carrying the machine's palette, is converted once
to the window's pixel format at native size, then scaled by the largest integer factor that
fits (nearest neighbour, ``pygame.transform.scale_by`` straight into a subsurface of the
window) and centred with black bars in any window size. F11 toggles fullscreen.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pygame

from emucore.cliutil import UsageError
from emucore.duel.files import write_atomic
from emucore.frontend.framebuffer import Framebuffer
from emucore.frontend.machine import Machine


class NoDisplayError(UsageError):
    """No video device: printed as one line that points to ``--headless``."""


def init_video(headless: bool) -> None:
    """Start SDL video, with the dummy driver when headless; NoDisplayError if impossible."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    try:
        pygame.display.init()
    except pygame.error as exc:
        raise NoDisplayError(f"no display available ({exc}); run `emucore play --headless "
                             "--script FILE` or set DISPLAY") from None


def fit_scale(native: tuple[int, int], window: tuple[int, int]) -> tuple[int, tuple[int, int]]:
    """The largest integer scale of ``native`` inside ``window`` (at least 1) and the
    top-left offset that centres it (letterbox)."""
    scale = max(1, min(window[0] // native[0], window[1] // native[1]))
    offset = ((window[0] - native[0] * scale) // 2, (window[1] - native[1] * scale) // 2)
    return scale, offset


class Display:
    """The window (or the dummy one) and the surfaces between framebuffer and screen."""

    def __init__(self, machine: Machine, scale: int = 3, fullscreen: bool = False,
                 palette: str | None = None, title: str = "emucore") -> None:
        self.machine = machine
        self.size = (machine.width, machine.height)
        self.windowed_size = (machine.width * scale, machine.height * scale)
        self.fullscreen = False
        self.native = pygame.Surface(self.size, depth=8)
        self.set_palette(palette or machine.default_palette)
        pygame.display.set_caption(title)
        try:
            self._open(fullscreen)
        except pygame.error as exc:
            raise NoDisplayError(f"cannot open a window ({exc}); run `emucore play "
                                 "--headless --script FILE`") from None

    def set_palette(self, name: str) -> None:
        """Switch to one of the machine's palettes (by name)."""
        rgb = self.machine.palettes[name]
        self.palette_name = name
        self.native.set_palette([tuple(int(c) for c in row) for row in rgb])

    def _open(self, fullscreen: bool) -> None:
        if fullscreen:
            self.window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            self.window = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
        self.fullscreen = fullscreen
        self._layout()

    def _layout(self) -> None:
        """Recompute scale, letterbox offset and the converted native surface."""
        self.scale, offset = fit_scale(self.size, self.window.get_size())
        self.rect = pygame.Rect(offset, (self.size[0] * self.scale, self.size[1] * self.scale))
        self.rect = self.rect.clip(self.window.get_rect())
        self.converted = pygame.Surface(self.size).convert(self.window)
        self.target = self.window.subsurface(self.rect)
        self.window.fill((0, 0, 0))

    def toggle_fullscreen(self) -> None:
        self._open(not self.fullscreen)

    def resized(self) -> None:
        """Call after a VIDEORESIZE / WINDOWSIZECHANGED event."""
        self.window = pygame.display.get_surface()
        self._layout()

    def render(self, fb: Framebuffer) -> None:
        """Draw ``fb`` into the window (without flipping)."""
        pygame.surfarray.blit_array(self.native, fb.pixels.T)
        self.converted.blit(self.native, (0, 0))
        if self.scale == 1:
            self.target.blit(self.converted, (0, 0))
        else:
            pygame.transform.scale_by(self.converted, self.scale, dest_surface=self.target)

    def present(self, fb: Framebuffer) -> None:
        """Render and show one frame."""
        self.render(fb)
        pygame.display.flip()


def save_png(machine: Machine, fb: Framebuffer, path: Path | str, scale: int = 1,
             palette: str | None = None, replace: bool = True) -> None:
    """Write ``fb`` as a PNG through the machine's palette, scaled by an integer factor (an
    existing file is refused with ``replace=False``)."""
    rgb = machine.palettes[palette or machine.default_palette][fb.pixels]
    if scale > 1:
        rgb = np.repeat(np.repeat(rgb, scale, axis=0), scale, axis=1)
    surface = pygame.surfarray.make_surface(np.ascontiguousarray(rgb.swapaxes(0, 1)))
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "shot.png")
    write_atomic(path, buffer.getvalue(), replace=replace)  # a full disk: the old file stays
