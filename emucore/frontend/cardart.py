"""Card art of our own: deterministic pixel pictures made from a card's facts.

A picture is one of our silhouettes (``assets/cardart/silhouettes.txt``: one per monster type,
one per kind of non-monster card) scaled by the largest whole factor that fits, outlined, and
coloured from two colour ramps (dark outline, mid body lit bright from the top left, pale
details): the figure from the ``tint`` ramp (a guardian star, or the
card's kind) and the ground from the ``ground`` ramp with a pattern chosen by the card's
number, which also mirrors the figure on odd numbers. The same facts give the same pixels on
every run; nothing comes from any game. No pygame here: a picture is an array of palette
indices, as the framebuffer holds.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from emucore.frontend import assets

SILHOUETTE_FILE = "cardart/silhouettes.txt"
SIDE = 16  # silhouettes are 16x16
EMPTY, BODY, LIGHT = 0, 1, 2
DARK, MID, BRIGHT, PALE = range(4)  # the four shades of a ramp, darkest first
PATTERNS = 4  # ground patterns: plain, rays, bands, dots


@dataclass(frozen=True)
class ArtFacts:
    """What a picture is made from: a silhouette name, the figure's and the ground's colour
    ramps (names in the machine's ``art`` ramps) and the card number as the seed."""

    shape: str
    tint: str
    ground: str
    seed: int


@functools.cache
def silhouettes() -> dict[str, NDArray[np.uint8]]:
    """Name -> (16, 16) uint8 mask (EMPTY, BODY, LIGHT), from the asset file."""
    text = assets.read_asset(SILHOUETTE_FILE)
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith(";")]
    shapes: dict[str, NDArray[np.uint8]] = {}
    for i in range(0, len(lines), SIDE + 1):
        head, rows = lines[i], lines[i + 1:i + 1 + SIDE]
        if not head.startswith("shape ") or len(rows) != SIDE or \
                any(len(r) != SIDE or set(r) - set(".#+") for r in rows):
            raise assets.AssetError(f"{SILHOUETTE_FILE}: bad shape at {head!r}")
        shapes[head[6:]] = np.array([[".#+".index(c) for c in r] for r in rows], np.uint8)
    return shapes


def _ground(seed: int, height: int, width: int) -> NDArray[np.bool_]:
    """Where the ground shows its brighter shade: a pattern picked by the seed."""
    y, x = np.mgrid[0:height, 0:width]
    kind = seed % PATTERNS
    if kind == 1:  # rays from the bottom centre
        angle = np.arctan2(height - y, x - width / 2 + 0.5)
        return (angle * (5 + seed % 3)).astype(int) % 2 == 0
    if kind == 2:  # horizontal bands, wider towards the top
        return (np.sqrt(height - y) * 2).astype(int) % 2 == 0
    if kind == 3:  # a dot lattice
        return ((x + (y // 3) * 2) % 4 == 0) & (y % 3 == 0)
    return y >= height * 2 // 3  # plain: a horizon


def outline(body: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Pixels next to the body (4-neighbourhood) that are not body."""
    grown = body.copy()
    grown[1:] |= body[:-1]
    grown[:-1] |= body[1:]
    grown[:, 1:] |= body[:, :-1]
    grown[:, :-1] |= body[:, 1:]
    return grown & ~body


def picture(facts: ArtFacts, width: int, height: int,
            ramps: dict[str, tuple[int, ...]]) -> NDArray[np.uint8]:
    """The (height, width) palette-index picture of ``facts``; ``ramps`` maps a ramp name to
    its four palette indices (dark, mid, bright, pale)."""
    figure, ground = ramps[facts.tint], ramps[facts.ground]
    image = np.full((height, width), ground[PALE], np.uint8)
    image[_ground(facts.seed, height, width)] = ground[BRIGHT]
    mask = silhouettes()[facts.shape]
    if facts.seed % 2:
        mask = mask[:, ::-1]
    scale = max(1, min((width - 2) // SIDE, (height - 2) // SIDE))
    mask = np.repeat(np.repeat(mask, scale, axis=0), scale, axis=1)
    mh, mw = mask.shape
    top, left = max((height - mh) // 2, 0), max((width - mw) // 2, 0)
    mask = mask[:height - top, :width - left]
    full = np.zeros((height, width), np.uint8)
    full[top:top + mask.shape[0], left:left + mask.shape[1]] = mask
    body = full != EMPTY
    image[outline(body)] = figure[DARK]
    image[full == BODY] = figure[MID]
    image[lit(body) & (full == BODY)] = figure[BRIGHT]
    image[full == LIGHT] = figure[PALE]
    return image


def lit(body: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Body pixels lit from the top left: those whose upper or left neighbour is not body."""
    edge = np.zeros_like(body)
    edge[1:] |= ~body[:-1]
    edge[:, 1:] |= ~body[:, :-1]
    edge[0] = edge[:, 0] = True
    return body & edge
