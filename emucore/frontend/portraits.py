"""Duelist portraits of our own: small procedural pixel faces, one per opponent.

A portrait is made from a seed (the system and the duelist's number, through a fixed CRC, so
it is the same on every run and machine): a ground, shoulders in a clothing colour, a head
of one of three widths, one of five hair styles, eyes, brows and a mouth of a few kinds and an
optional extra (headband, beard, earring). Colours come from the card-art ramps of the
machine (``Machine.art``), so on gb a portrait is drawn in the four shades. Nothing comes
from any game: the faces are geometric and chosen by the seed alone.
"""

from __future__ import annotations

import functools
import zlib

import numpy as np
from numpy.typing import NDArray

from emucore.frontend.cardart import BRIGHT, DARK, MID, PALE, lit, outline

SIZE = 32  # portraits are 32x32
SKINS = ("jupiter", "sun", "venus")
CLOTHES = ("mars", "saturn", "uranus", "pluto", "neptune", "magic", "trap", "equip",
           "ritual", "field")
GROUNDS = ("moon", "mercury", "neptune", "uranus", "field", "ritual", "venus", "pluto")
HAIR = ("mars", "saturn", "pluto", "neptune", "mercury", "jupiter", "trap", "magic")
HAIR_STYLES = ("short", "long", "spiky", "bald", "hood")
EXTRAS = ("none", "headband", "beard", "earring")


def seed_of(system: str, number: int) -> int:
    """The portrait seed of opponent ``number`` of ``system`` (CRC-32, stable everywhere)."""
    return zlib.crc32(f"{system}:{number}".encode())


def _pick(seed: int, shift: int, options: tuple[str, ...]) -> str:
    return options[(seed >> shift) % len(options)]


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> NDArray[np.bool_]:
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0


@functools.lru_cache(maxsize=256)
def features(seed: int) -> dict[str, str | int]:
    """The choices a seed makes (ramps, styles, head width), for tests and docs."""
    return {"skin": _pick(seed, 0, SKINS), "clothes": _pick(seed, 3, CLOTHES),
            "ground": _pick(seed, 7, GROUNDS), "hair": _pick(seed, 10, HAIR),
            "style": _pick(seed, 13, HAIR_STYLES), "extra": _pick(seed, 16, EXTRAS),
            "head": 6 + (seed >> 19) % 3, "eyes": (seed >> 21) % 3, "mouth": (seed >> 23) % 3}


def portrait(seed: int, ramps: dict[str, tuple[int, ...]],
             shadow: tuple[int, int] | None = None, scale: int = 1) -> NDArray[np.uint8]:
    """The (32 x scale)-square palette-index portrait of ``seed``; with ``shadow`` =
    (ground, figure) colours, only its silhouette (a duelist not met yet)."""
    image = _portrait(seed, ramps, shadow)
    return np.repeat(np.repeat(image, scale, axis=0), scale, axis=1) if scale > 1 else image


def _portrait(seed: int, ramps: dict[str, tuple[int, ...]],
              shadow: tuple[int, int] | None) -> NDArray[np.uint8]:
    f = features(seed)
    skin, cloth, ground, hair = (ramps[str(f[k])] for k in ("skin", "clothes", "ground",
                                                               "hair"))
    img = np.full((SIZE, SIZE), ground[PALE], np.uint8)
    y = np.arange(SIZE)[:, None]
    img[np.broadcast_to((y % 4 == 0) & (y < 20), img.shape)] = ground[BRIGHT]
    # shoulders and neck
    body = _ellipse(16, 33, 14, 9)
    neck = np.zeros_like(body)
    neck[20:26, 13:19] = True
    head_w = int(f["head"])
    head = _ellipse(16, 14, head_w, 9)
    hair_mask = _hair(str(f["style"]), head, head_w)
    figure = body | neck | head | hair_mask
    if shadow is not None:
        return np.where(figure, shadow[1], shadow[0]).astype(np.uint8)
    img[outline(figure)] = skin[DARK] if f["style"] == "bald" else hair[DARK]
    img[body] = cloth[MID]
    img[lit(body) & body] = cloth[BRIGHT]
    img[neck & ~body] = skin[DARK]
    img[head] = skin[MID]
    img[lit(head) & head] = skin[BRIGHT]
    img[hair_mask] = hair[MID]
    img[lit(hair_mask) & hair_mask] = hair[BRIGHT]
    _face(img, f, skin, cloth, hair)
    return img


def _hair(style: str, head: NDArray[np.bool_], head_w: int) -> NDArray[np.bool_]:
    """The hair (or hood) mask of a style, around a head."""
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    cap = _ellipse(16, 12, head_w + 1, 8) & (y <= 10)
    if style == "short":
        return cap
    if style == "long":
        ring = _ellipse(16, 16, head_w + 2, 12) & ~_ellipse(16, 16, head_w - 1, 12)
        return cap | (ring & (y >= 8) & (y < 28) & ~head)
    if style == "spiky":
        spikes = (y >= 2) & (y < 8) & (x % 4 < (y - 2) * 4 // 6 + 1) & (abs(x - 16) <= head_w)
        return cap | spikes
    if style == "hood":
        return (_ellipse(16, 14, head_w + 3, 12) & ~_ellipse(16, 15, head_w - 1, 8)
                & (y < 26))
    return np.zeros((SIZE, SIZE), bool)  # bald


def _face(img: NDArray[np.uint8], f: dict, skin: tuple[int, ...], cloth: tuple[int, ...],
          hair: tuple[int, ...]) -> None:
    """Eyes, brows, mouth and the extra, drawn into ``img`` in place."""
    ey = 14
    for ex in (12, 19):
        if f["eyes"] == 0:  # round
            img[ey:ey + 2, ex:ex + 2] = hair[DARK]
        elif f["eyes"] == 1:  # narrow
            img[ey + 1, ex - 1:ex + 2] = hair[DARK]
        else:  # bright
            img[ey:ey + 2, ex:ex + 2] = skin[PALE]
            img[ey + 1, ex + (1 if ex > 16 else 0)] = hair[DARK]
        img[ey - 2, ex - 1:ex + 2] = hair[DARK]
    if f["mouth"] == 0:
        img[19, 14:18] = skin[DARK]
    elif f["mouth"] == 1:  # smile
        img[19, 13] = img[19, 18] = skin[DARK]
        img[20, 14:18] = skin[DARK]
    else:  # stern
        img[20, 14:18] = skin[DARK]
        img[19, 15:17] = skin[DARK]
    if f["extra"] == "headband":
        img[8, 16 - int(f["head"]):17 + int(f["head"])] = cloth[BRIGHT]
    elif f["extra"] == "beard":
        img[20:23, 12:20] = hair[MID]
        img[19, 14:18] = hair[DARK]
    elif f["extra"] == "earring":
        img[17:19, 16 - int(f["head"]) - 1] = cloth[BRIGHT]
