"""Cards drawn by emucore's own code: a frame coloured by kind, the name in our pixel font,
ATK/DEF, stars, a type glyph, and a card back. Used by every system's screens.

No art or text from any game: the frame is a coloured border with an inner panel, the type
glyph is a two-letter abbreviation chosen by each system, the back is a geometric pattern.
Each distinct card image is drawn once and cached as a small index array, so a frame full of
cards costs one array copy per card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from emucore.frontend.app import App
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer
from emucore.frontend.layout import fit

SMALL = (30, 40)  # field zones and hands on psx
LARGE = (84, 116)  # the card detail panel
KINDS = ("monster", "magic", "trap", "ritual", "equip", "field")
_CACHE: dict[tuple, NDArray[np.uint8]] = {}
CACHE_LIMIT = 4096


@dataclass(frozen=True)
class CardFace:
    """What a card shows. ``atk``/``defense`` None for non-monsters; ``glyph`` 2 letters."""

    name: str
    kind: str
    atk: int | None = None
    defense: int | None = None
    stars: int = 0
    glyph: str = ""
    number: int | None = None


def _image(app: App, key: tuple, size: tuple[int, int],
           paint: Callable[[Framebuffer], None]) -> NDArray[np.uint8]:
    """The cached image for ``key`` (per machine), painting it on first use."""
    full = (app.machine.name, size, *key)
    image = _CACHE.get(full)
    if image is None:
        if len(_CACHE) >= CACHE_LIMIT:
            _CACHE.clear()
        canvas = Framebuffer(*size)
        paint(canvas)
        image = _CACHE[full] = canvas.pixels
    return image


def draw_card(app: App, fb: Framebuffer, x: int, y: int, face: CardFace,
              size: tuple[int, int] = SMALL, selected: bool = False) -> None:
    """A face-up card with its top-left corner at (x, y)."""
    def paint(canvas: Framebuffer) -> None:
        _face(app, canvas, face, size, selected)
    fb.blit(x, y, _image(app, ("face", face, selected), size, paint))


def _face(app: App, fb: Framebuffer, face: CardFace, size: tuple[int, int],
          selected: bool) -> None:
    w, h = size
    kind_colour = app.colour(face.kind if face.kind in KINDS else "monster")
    fb.box(0, 0, w, h, kind_colour, app.colour("highlight" if selected else "frame_dark"))
    if w >= LARGE[0]:
        _large_face(app, fb, w, h, face)
        return
    fb.fill(2, 2, w - 4, 9, app.colour("card_face"))
    fb.text(3, 3, face.glyph[:2] if face.glyph else face.kind[:2].upper(), app.colour("black"))
    if face.atk is not None:
        fb.text_right(w - 2, h - 2 * CELL_H + 1, str(face.atk), app.colour("text"))
        fb.text_right(w - 2, h - CELL_H + 1, str(face.defense), app.colour("text_dim"))
    else:
        fb.text(3, h - CELL_H + 1, face.kind[:3].upper(), app.colour("text"))


def _large_face(app: App, fb: Framebuffer, w: int, h: int, face: CardFace) -> None:
    text, dark = app.colour("black"), app.colour("frame_dark")
    columns = (w - 6) // CELL_W
    name_lines = fit(face.name, w - 6, 2)
    fb.fill(2, 2, w - 4, len(name_lines) * CELL_H + 2, app.colour("card_face"))
    for i, line in enumerate(name_lines):
        fb.text(3, 3 + i * CELL_H, line, text)
    art_y = 4 + len(name_lines) * CELL_H + 2
    art_h = h - art_y - 3 * CELL_H - 4
    fb.box(6, art_y, w - 12, art_h, app.colour("panel"), dark)
    fb.text_centred(w // 2, art_y + art_h // 2 - 3, face.glyph or face.kind.upper(),
                    app.colour("text"))
    info_y = art_y + art_h + 2
    if face.stars:
        fb.text(3, info_y, ("\u2605" * face.stars)[:columns], app.colour("star"))
    if face.atk is not None:
        fb.text(3, info_y + CELL_H, f"ATK{face.atk:>5}", app.colour("text"))
        fb.text(3, info_y + 2 * CELL_H, f"DEF{face.defense:>5}", app.colour("text"))
    else:
        fb.text(3, info_y + CELL_H, face.kind.upper(), app.colour("text"))
    if face.number is not None:
        fb.text_right(w - 3, info_y + 2 * CELL_H, f"#{face.number:03d}", app.colour("text_dim"))


def draw_back(app: App, fb: Framebuffer, x: int, y: int, size: tuple[int, int] = SMALL,
              selected: bool = False) -> None:
    """A card back: a frame around a diamond lattice."""
    def paint(canvas: Framebuffer) -> None:
        w, h = size
        canvas.box(0, 0, w, h, app.colour("card_back"),
                   app.colour("highlight" if selected else "frame_dark"))
        mark = app.colour("card_back_mark")
        for i in range(4, h - 4, 6):
            for j in range(4 + (i // 6 % 2) * 3, w - 4, 6):
                canvas.fill(j, i, 2, 2, mark)
    fb.blit(x, y, _image(app, ("back", selected), size, paint))


def draw_empty(app: App, fb: Framebuffer, x: int, y: int, size: tuple[int, int] = SMALL,
               selected: bool = False) -> None:
    """An empty zone: an outline on the background colour."""
    def paint(canvas: Framebuffer) -> None:
        canvas.clear(app.colour("bg"))
        canvas.frame(0, 0, *size, app.colour("highlight" if selected else "zone"))
    fb.blit(x, y, _image(app, ("empty", selected), size, paint))
