"""Cards drawn by emucore's own code: a frame of the card's kind, a picture of our own
(:mod:`emucore.frontend.cardart`), the name in our pixel font, ATK/DEF, stars, type, an
effect emblem and line, and a card back. Used by every system's screens.

No art or text from any game: pictures are figures composed from the card's facts,
each kind's frame has its own border pattern, lines are our own words chosen by each system,
the back is a geometric pattern. Each distinct card image is drawn once and cached as a small
index array, so a frame full of cards costs one array copy per card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from emucore.frontend.app import App
from emucore.frontend.cardart import ArtFacts, Traits, picture
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer
from emucore.frontend.layout import fit
from emucore.frontend.machine import Machine

SMALL = (30, 40)  # field zones and hands on psx
LARGE = (84, 116)  # the card detail panel
KINDS = ("monster", "magic", "trap", "ritual", "equip", "field")
# Each kind's frame: every n-th pixel of its border drawn in the card-face colour (0: plain).
FRAME_MARKS = {"monster": 0, "magic": 4, "trap": 2, "ritual": 3, "equip": 5, "field": 6}
KIND_LABELS = {"monster": "MON", "magic": "MAG", "trap": "TRP", "ritual": "RIT",
               "equip": "EQP", "field": "FLD"}
_CACHE: dict[tuple, NDArray[np.uint8]] = {}
CACHE_LIMIT = 4096


@dataclass(frozen=True)
class CardFace:
    """What a card shows. ``atk``/``defense`` None for non-monsters; ``art`` the facts its
    picture is made from; ``type_name`` the monster type or kind name for the large card;
    ``emblem`` one font character for the effect class; ``line`` one short line of our own
    words on what the card does (non-monsters)."""

    name: str
    kind: str
    atk: int | None = None
    defense: int | None = None
    stars: int = 0
    number: int | None = None
    art: ArtFacts | None = None
    type_name: str = ""
    emblem: str = ""
    line: str = ""


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


def card_image(app: App, face: CardFace, size: tuple[int, int] = SMALL,
               selected: bool = False) -> NDArray[np.uint8]:
    """The (h, w) palette-index image of a face-up card (cached; do not modify it)."""
    def paint(canvas: Framebuffer) -> None:
        _face(app, canvas, face, size, selected)
    return _image(app, ("face", face, selected), size, paint)


def draw_card(app: App, fb: Framebuffer, x: int, y: int, face: CardFace,
              size: tuple[int, int] = SMALL, selected: bool = False,
              sideways: bool = False) -> None:
    """A face-up card with its top-left corner at (x, y); ``sideways`` turns it a quarter
    to the left (a card in defence), so it is ``size`` high and wide."""
    fb.blit(x, y, _turned(card_image(app, face, size, selected), sideways))


def _turned(image: NDArray[np.uint8], sideways: bool) -> NDArray[np.uint8]:
    return np.rot90(image) if sideways else image


_DIM_LUTS: dict[str, NDArray[np.uint8]] = {}
DIM = 0.55  # how much of its brightness a dimmed card keeps


def dim_lut(machine: Machine) -> NDArray[np.uint8]:
    """Palette index -> the index nearest in colour to it at DIM brightness (default
    palette): laid over a card with :meth:`Framebuffer.remap` it darkens the card (a monster
    that has acted) and keeps every pixel readable."""
    lut = _DIM_LUTS.get(machine.name)
    if lut is None:
        rgb = np.asarray(machine.palettes[machine.default_palette], dtype=np.int32)
        distance = ((rgb[:, None, :] * DIM - rgb[None, :, :]) ** 2).sum(axis=2)
        lut = _DIM_LUTS[machine.name] = distance.argmin(axis=1).astype(np.uint8)
    return lut


def _face(app: App, fb: Framebuffer, face: CardFace, size: tuple[int, int],
          selected: bool) -> None:
    w, h = size
    kind = face.kind if face.kind in KINDS else "monster"
    fb.box(0, 0, w, h, app.colour(kind), app.colour("highlight" if selected else "frame_dark"))
    step = FRAME_MARKS[kind]
    if step:  # the kind's border pattern, on the frame's inner ring
        mark = app.colour("card_face")
        fb.pixels[1, 1:w - 1:step] = mark
        fb.pixels[h - 2, 1:w - 1:step] = mark
        fb.pixels[1:h - 1:step, 1] = mark
        fb.pixels[1:h - 1:step, w - 2] = mark
    if w >= LARGE[0]:
        _large_face(app, fb, w, h, face)
    else:
        _small_face(app, fb, w, h, face)


def _art(app: App, fb: Framebuffer, x: int, y: int, w: int, h: int, face: CardFace) -> None:
    """The picture in a dark frame; the emblem in its top-right corner."""
    fb.frame(x - 1, y - 1, w + 2, h + 2, app.colour("frame_dark"))
    if face.art is not None:
        fb.blit(x, y, face_picture(face, w, h, app.machine.art))
    else:
        fb.fill(x, y, w, h, app.colour("panel"))
    if face.emblem:
        fb.box(x + w - CELL_W - 2, y, CELL_W + 2, CELL_H, app.colour("black"),
               app.colour("frame_dark"))
        fb.text(x + w - CELL_W - 1, y + 1, face.emblem, app.colour("highlight"))


def face_picture(face: CardFace, width: int, height: int,
                 ramps: dict[str, tuple[int, ...]]) -> NDArray[np.uint8]:
    """The picture of a face with art: a monster's figure posed by its level and ATK/DEF
    (see :mod:`emucore.frontend.cardart`)."""
    assert face.art is not None
    traits = Traits(face.stars, face.atk or 0, face.defense or 0)
    return picture(face.art, width, height, ramps, traits)


def _small_face(app: App, fb: Framebuffer, w: int, h: int, face: CardFace) -> None:
    if face.atk is not None:
        _art(app, fb, 3, 3, w - 6, h - 2 * CELL_H - 5, face)
        fb.text_right(w - 2, h - 2 * CELL_H, str(face.atk), app.colour("text"))
        fb.text_right(w - 2, h - CELL_H, str(face.defense), app.colour("text_dim"))
    else:
        _art(app, fb, 3, 3, w - 6, h - CELL_H - 6, face)
        fb.text(3, h - CELL_H - 1, KIND_LABELS.get(face.kind, face.kind[:3].upper()),
                app.colour("text"))


def _large_face(app: App, fb: Framebuffer, w: int, h: int, face: CardFace) -> None:
    text = app.colour("text")
    name_lines = fit(face.name, w - 6, 2)
    fb.fill(2, 2, w - 4, len(name_lines) * CELL_H + 2, app.colour("card_face"))
    for i, line in enumerate(name_lines):
        fb.text(3, 3 + i * CELL_H, line, app.colour("black"))
    art_y = 6 + len(name_lines) * CELL_H + 2
    info_rows = 4
    info_y = h - info_rows * CELL_H - 2
    _art(app, fb, 6, art_y, w - 12, info_y - art_y - 3, face)
    if face.atk is not None:
        fb.text(3, info_y, ("\u2605" * face.stars)[:(w - 6) // CELL_W], app.colour("star"))
        fb.text(3, info_y + CELL_H, fit(face.type_name, w - 6)[0], text)
        fb.text(3, info_y + 2 * CELL_H, f"ATK{face.atk:>5}", text)
        fb.text(3, info_y + 3 * CELL_H, f"DEF{face.defense:>5}", text)
    else:
        fb.text(3, info_y, face.type_name.upper() or face.kind.upper(), app.colour("star"))
        for i, line in enumerate(fit(face.line, w - 6, info_rows - 1)):
            fb.text(3, info_y + (i + 1) * CELL_H, line, text)
    if face.number is not None:
        number_y = info_y + (3 * CELL_H if face.atk is not None else 0)
        fb.text_right(w - 3, number_y, f"#{face.number:03d}", app.colour("text_dim"))


def draw_back(app: App, fb: Framebuffer, x: int, y: int, size: tuple[int, int] = SMALL,
              selected: bool = False, sideways: bool = False) -> None:
    """A card back: a frame around a diamond lattice (``sideways``: see draw_card)."""
    fb.blit(x, y, _turned(back_image(app, size, selected), sideways))


def back_image(app: App, size: tuple[int, int] = SMALL,
               selected: bool = False) -> NDArray[np.uint8]:
    """The (h, w) palette-index image of a card back (cached; do not modify it)."""
    def paint(canvas: Framebuffer) -> None:
        w, h = size
        canvas.box(0, 0, w, h, app.colour("card_back"),
                   app.colour("highlight" if selected else "frame_dark"))
        mark = app.colour("card_back_mark")
        for i in range(4, h - 4, 6):
            for j in range(4 + (i // 6 % 2) * 3, w - 4, 6):
                canvas.fill(j, i, 2, 2, mark)
    return _image(app, ("back", selected), size, paint)


def draw_empty(app: App, fb: Framebuffer, x: int, y: int, size: tuple[int, int] = SMALL,
               selected: bool = False) -> None:
    """An empty zone: an outline on the background colour."""
    def paint(canvas: Framebuffer) -> None:
        canvas.clear(app.colour("bg"))
        canvas.frame(0, 0, *size, app.colour("highlight" if selected else "zone"))
    fb.blit(x, y, _image(app, ("empty", selected), size, paint))
