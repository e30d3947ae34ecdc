"""The native-size index framebuffer screens draw into, with a few drawing primitives.

Pixels are palette indices (uint8) in a numpy array of shape (height, width); the display
turns them into colours through the machine's palette. No pygame here: a framebuffer's bytes
are what golden tests hash.
"""

from __future__ import annotations

import functools
import hashlib

import numpy as np
from numpy.typing import NDArray

from emucore.frontend import assets

CELL_W, CELL_H = assets.GLYPH_W + 1, assets.GLYPH_H + 1  # character cell incl. spacing


@functools.lru_cache(maxsize=2048)
def text_mask(text: str) -> NDArray[np.bool_]:
    """The pixels of one line of text (8 rows incl. the descender row; 6 columns per
    character, last column blank).

    Characters the font lacks draw as '?'. Cached: screens redraw the same strings each frame.
    """
    glyphs = assets.font_glyphs()
    mask = np.zeros((assets.GLYPH_H, max(len(text) * CELL_W - 1, 0)), dtype=bool)
    for i, ch in enumerate(text):
        glyph = glyphs.get(ch, glyphs["?"])
        mask[:, i * CELL_W:i * CELL_W + assets.GLYPH_W] = glyph
    return mask


def text_width(text: str) -> int:
    """Width in pixels of ``text`` drawn with :meth:`Framebuffer.text`."""
    return max(len(text) * CELL_W - 1, 0)


class Framebuffer:
    """A (height, width) uint8 array of palette indices plus clipped drawing helpers."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.pixels: NDArray[np.uint8] = np.zeros((height, width), dtype=np.uint8)
        # While a list: every piece of text drawn, as ((x, y, w, h), text), for the layout
        # checks of emucore.frontend.layout. None (the default) records nothing.
        self.text_rects: list[tuple[tuple[int, int, int, int], str]] | None = None

    def clear(self, colour: int) -> None:
        self.pixels.fill(colour)

    def _clip(self, x: int, y: int, w: int, h: int) -> tuple[int, int, int, int] | None:
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        if x0 >= x1 or y0 >= y1:
            return None
        return x0, y0, x1, y1

    def fill(self, x: int, y: int, w: int, h: int, colour: int) -> None:
        """Fill a rectangle (clipped to the screen)."""
        box = self._clip(x, y, w, h)
        if box:
            x0, y0, x1, y1 = box
            self.pixels[y0:y1, x0:x1] = colour

    def frame(self, x: int, y: int, w: int, h: int, colour: int, thickness: int = 1) -> None:
        """A rectangle outline ``thickness`` pixels wide, inside the rectangle."""
        t = thickness
        self.fill(x, y, w, t, colour)
        self.fill(x, y + h - t, w, t, colour)
        self.fill(x, y + t, t, h - 2 * t, colour)
        self.fill(x + w - t, y + t, t, h - 2 * t, colour)

    def box(self, x: int, y: int, w: int, h: int, fill: int, border: int) -> None:
        """A filled panel with a one-pixel border."""
        self.fill(x, y, w, h, fill)
        self.frame(x, y, w, h, border)

    def mask(self, x: int, y: int, mask: NDArray[np.bool_], colour: int) -> None:
        """Set the pixels where ``mask`` is true (clipped)."""
        h, w = mask.shape
        box = self._clip(x, y, w, h)
        if not box:
            return
        x0, y0, x1, y1 = box
        sub = mask[y0 - y:y1 - y, x0 - x:x1 - x]
        self.pixels[y0:y1, x0:x1][sub] = colour

    def blit(self, x: int, y: int, image: NDArray[np.uint8]) -> None:
        """Copy a (h, w) array of palette indices to (x, y), clipped."""
        h, w = image.shape
        box = self._clip(x, y, w, h)
        if box:
            x0, y0, x1, y1 = box
            self.pixels[y0:y1, x0:x1] = image[y0 - y:y1 - y, x0 - x:x1 - x]

    def remap(self, x: int, y: int, w: int, h: int, lut: NDArray[np.uint8]) -> None:
        """Replace each pixel index ``i`` of a rectangle by ``lut[i]`` (clipped)."""
        box = self._clip(x, y, w, h)
        if box:
            x0, y0, x1, y1 = box
            self.pixels[y0:y1, x0:x1] = lut[self.pixels[y0:y1, x0:x1]]

    def text(self, x: int, y: int, text: str, colour: int, shadow: int | None = None) -> int:
        """Draw one line of text at (x, y), optionally with a 1-pixel drop shadow; returns
        the x just after it."""
        if not text:
            return x
        mask = text_mask(text)
        if self.text_rects is not None and text.strip():
            lead = (len(text) - len(text.lstrip())) * CELL_W
            self.text_rects.append(((x + lead, y, text_width(text.strip()), mask.shape[0]),
                                    text))
        if shadow is not None:
            self.mask(x + 1, y + 1, mask, shadow)
        self.mask(x, y, mask, colour)
        return x + mask.shape[1] + 1

    def text_centred(self, cx: int, y: int, text: str, colour: int,
                     shadow: int | None = None) -> None:
        """Draw text centred on column ``cx``."""
        self.text(cx - text_width(text) // 2, y, text, colour, shadow)

    def text_right(self, right: int, y: int, text: str, colour: int) -> None:
        """Draw text whose last pixel column is ``right - 1``."""
        self.text(right - text_width(text), y, text, colour)

    def digest(self) -> str:
        """SHA-256 of the pixel indices (with the size), for golden tests."""
        head = f"{self.width}x{self.height}:".encode()
        return hashlib.sha256(head + self.pixels.tobytes()).hexdigest()
