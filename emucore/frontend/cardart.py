"""Card art of our own: deterministic pixel pictures made from a card's facts.

A non-monster card's picture is its kind's silhouette (``assets/cardart/silhouettes.txt``).
A monster's is a **figure composed of parts** on a :data:`FIGURE_W` x :data:`FIGURE_H` grid:
its type's silhouette as the body (so a type still reads as its type), posed, with a head
part, a part held in front and a part on its back, all picked from the card's own facts:

* the card number (``seed``), through a fixed permutation of :data:`VARIANTS` values read as
  mixed-radix digits (:func:`digits`): how far the body leans, its build (as drawn, broad or
  heavy), its head part (horns, crest, crown, halo, antennae, plume or none) and what it
  holds in front (spear, shield, raised arm, claws, club, orb or nothing); the back part
  (wing, tail, spikes, cape, fin, second arm or nothing) is a check digit of those four. Two
  numbers below VARIANTS therefore differ in at least two parts, so two monsters of one type
  never share a figure;
* the level: how tall the body stands (stronger monsters loom larger);
* ATK against DEF: an attacker faces right, a defender left.

The figure is scaled by the largest whole factor that fits, outlined, and coloured from two
colour ramps (dark outline, mid body lit bright from the top left, pale details): the figure
from the ``tint`` ramp (a guardian star, or the card's kind) and the ground from the
``ground`` ramp, with a pattern and a motif (sun, crescent, peaks, pillars, waves, stars)
chosen by the card's number. The same facts give the same pixels on every run; nothing comes
from any game. No pygame here: a picture is an array of palette indices, as the framebuffer
holds.
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
KIND_SHAPES = frozenset({"Magic", "Trap", "Equip", "Ritual", "Field"})  # not composed
FIGURE_W, FIGURE_H = 22, 16  # the grid a monster's figure is composed on

Offsets = tuple[tuple[int, int], ...]  # (dy, dx) pixels of a part from its anchor
# Head parts, anchored on the widest run of the figure's top row (dy < 0 is up).
HEADS: tuple[Offsets, ...] = (
    (),  # bare
    ((-1, -2), (-2, -3), (-3, -3), (-1, 2), (-2, 3), (-3, 3)),  # horns
    ((-1, 0), (-2, 0), (-3, 0), (-1, -1), (-2, 1)),  # crest
    ((-1, -2), (-1, -1), (-1, 0), (-1, 1), (-1, 2), (-2, -2), (-2, 0), (-2, 2)),  # crown
    ((-3, -2), (-3, -1), (-3, 0), (-3, 1), (-3, 2), (-2, -3), (-2, 3)),  # halo
    ((-1, -1), (-2, -2), (-3, -3), (-1, 1), (-2, 2), (-3, 3)),  # antennae
    ((-1, 0), (-1, -1), (-2, -2), (-2, -3), (-3, -4), (-3, -5)),  # plume, swept back
)
HALO = 4  # the head part drawn in the pale shade
Part = tuple[str, Offsets]  # the row it hangs from (see _rows) and its pixels, dx outwards
FRONTS: tuple[Part, ...] = (
    ("hip", ()),  # empty-handed
    ("hip", ((0, 1), (-1, 1), (-2, 2), (-3, 2), (-4, 3), (-5, 3), (-6, 3))),  # spear
    ("shoulder", ((0, 1), (1, 1), (2, 1), (3, 1), (0, 2), (1, 2), (2, 2), (3, 2), (1, 3),
                  (2, 3))),  # shield
    ("arm", ((0, 1), (-1, 2), (-2, 2), (-3, 3), (-4, 3))),  # a raised arm
    ("hip", ((0, 1), (0, 2), (0, 3), (-1, 3), (1, 3), (-1, 4), (1, 4))),  # claws
    ("arm", ((0, 1), (1, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 3))),  # club
    ("middle", ((0, 1), (-1, 2), (0, 2), (1, 2), (-1, 3), (0, 3), (1, 3), (0, 4))),  # orb
)
BACKS: tuple[Part, ...] = (
    ("hip", ()),  # nothing
    ("shoulder", ((0, 1), (-1, 1), (0, 2), (-1, 2), (-2, 2), (0, 3), (-1, 3), (-2, 3),
                  (-3, 3))),  # wing
    ("hip", ((0, 1), (1, 2), (1, 3), (0, 4), (-1, 4))),  # tail
    ("crown", ((0, 1), (0, 2), (2, 1), (4, 1), (4, 2), (6, 1))),  # spikes down the back
    ("shoulder", ((0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (3, 2), (4, 2),
                  (4, 3))),  # cape
    ("middle", ((0, 1), (-1, 1), (-1, 2), (-2, 2), (-3, 3))),  # fin
    ("arm", ((0, 1), (0, 2), (1, 3), (2, 3))),  # a second arm
)
LEANS = (-2, -1, 0, 1, 2)  # columns the figure's top is shifted against its feet
BUILDS = 3  # as drawn, broad (one column thicker), heavy (one row thicker)
VARIANTS = len(LEANS) * BUILDS * len(HEADS) * len(FRONTS)  # 735 > FM's 722 cards
PERMUTE = 263  # coprime with VARIANTS: card numbers -> variants, one to one
MOTIFS = 7  # ground motifs: none, sun, crescent, peaks, pillars, waves, stars


@dataclass(frozen=True)
class ArtFacts:
    """What a picture is made from: a silhouette name, the figure's and the ground's colour
    ramps (names in the machine's ``art`` ramps) and the card number as the seed."""

    shape: str
    tint: str
    ground: str
    seed: int


@dataclass(frozen=True)
class Traits:
    """A monster's numbers that pose its figure: level (height) and ATK/DEF (facing)."""

    level: int = 0
    atk: int = 0
    defense: int = 0


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


def digits(seed: int) -> tuple[int, int, int, int, int]:
    """The (lean, build, head, front, back) part indices of card number ``seed``: the number
    permuted within :data:`VARIANTS` and read as the mixed-radix digits lean, build, head,
    front (one to one below VARIANTS); the back part is their sum modulo 7, so two numbers
    whose first digits differ in one place still differ in the back part too."""
    value = seed * PERMUTE % VARIANTS
    value, lean = divmod(value, len(LEANS))
    value, build = divmod(value, BUILDS)
    front, head = divmod(value, len(HEADS))
    return lean, build, head, front, (lean + build + head + front) % len(BACKS)


def _stature(level: int) -> int:
    """Rows the body stands: 11 up to level 4, 12 up to level 6, 13 from level 7."""
    return 11 + (level >= 5) + (level >= 7)


@functools.lru_cache(maxsize=4096)
def figure(shape: str, seed: int, traits: Traits = Traits()) -> NDArray[np.uint8]:
    """The (FIGURE_H, FIGURE_W) mask (EMPTY, BODY, LIGHT) of a monster: its type's
    silhouette posed, with a head part, a part in front and a part on its back (see the
    module notes)."""
    lean, build, head, front, back = digits(seed)
    base = silhouettes()[shape]
    rows, cols = np.flatnonzero(base.any(axis=1)), np.flatnonzero(base.any(axis=0))
    body = base[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    height = _stature(traits.level)
    body = _built(body[np.arange(height) * body.shape[0] // height], build)
    width = body.shape[1]
    grid = np.zeros((FIGURE_H, FIGURE_W), np.uint8)
    top, left = FIGURE_H - height, (FIGURE_W - width) // 2
    for r in range(height):  # the lean: upper rows shifted, the feet stay
        shift = round(LEANS[lean] * (height - 1 - r) / (height - 1))
        grid[top + r, left + shift:left + shift + width] = body[r]
    _stamp(grid, top, _head(grid, top), HEADS[head], LIGHT if head == HALO else BODY)
    anchors = _rows(top, height)
    _hang(grid, FRONTS[front], anchors, front=True)
    _hang(grid, BACKS[back], anchors, front=False)
    return grid if traits.atk >= traits.defense else grid[:, ::-1].copy()


def _built(body: NDArray[np.uint8], build: int) -> NDArray[np.uint8]:
    """The body as drawn (0), broad (1: each pixel doubled to its left, one column wider)
    or heavy (2: each pixel doubled upwards); a doubled pixel takes the body shade."""
    if build == 0:
        return body
    grown = body.copy()
    if build == 1:
        grown = np.pad(grown, ((0, 0), (1, 0)))
        grown[:, :-1] = np.where((grown[:, :-1] == EMPTY) & (body != EMPTY), BODY, grown[:, :-1])
        return grown
    grown[:-1] = np.where((grown[:-1] == EMPTY) & (body[1:] != EMPTY), BODY, grown[:-1])
    return grown


def _head(grid: NDArray[np.uint8], row: int) -> int:
    """The column a head part sits on: the middle of the widest run of figure pixels in
    ``row`` (the figure's top; the front-most of equally wide runs)."""
    cols = np.flatnonzero(grid[row])
    if not cols.size:
        return FIGURE_W // 2
    runs = np.split(cols, np.flatnonzero(np.diff(cols) > 1) + 1)
    widest = max(range(len(runs)), key=lambda i: (len(runs[i]), i))
    return int(runs[widest].mean().round())


def _edges(grid: NDArray[np.uint8], row: int) -> tuple[int, int]:
    """The leftmost and rightmost figure columns in ``row`` (the grid's middle if none)."""
    cols = np.flatnonzero(grid[row])
    return (int(cols[0]), int(cols[-1])) if cols.size else (FIGURE_W // 2, FIGURE_W // 2)


def _stamp(grid: NDArray[np.uint8], y: int, x: int, offsets: Offsets, value: int,
           flip: int = 1) -> None:
    """Set the pixels ``offsets`` from (y, x) (dx times ``flip``) that fall on the grid and
    are still empty."""
    for dy, dx in offsets:
        r, c = y + dy, x + dx * flip
        if 0 <= r < FIGURE_H and 0 <= c < FIGURE_W and grid[r, c] == EMPTY:
            grid[r, c] = value


def _rows(top: int, height: int) -> dict[str, int]:
    """The rows parts hang from: just below the top, the shoulders (a third down), the arms
    (one lower), the middle and the hips (two thirds down)."""
    return {"crown": top + 1, "shoulder": top + height // 3, "arm": top + height // 3 + 1,
            "middle": top + height // 2, "hip": top + 2 * height // 3}


def _hang(grid: NDArray[np.uint8], part: Part, rows: dict[str, int], front: bool) -> None:
    """Add ``part`` at the front (right) or back (left) edge of the body in its row."""
    row = rows[part[0]]
    back_edge, front_edge = _edges(grid, row)
    _stamp(grid, row, front_edge if front else back_edge, part[1], BODY, 1 if front else -1)


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


def _motif(seed: int, height: int, width: int) -> NDArray[np.bool_]:
    """Where the ground shows its motif (mid shade), picked by the seed: none, a sun, a
    crescent, peaks, pillars, waves or stars, sized to the picture."""
    y, x = np.mgrid[0:height, 0:width]
    kind = seed // PATTERNS % MOTIFS
    r = max(min(height, width) // 5, 1)
    cx, cy = (width - r - 2, r + 1) if seed % 2 else (r + 1, r + 1)
    disc = (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    if kind == 1:
        return disc
    if kind == 2:
        return disc & ((x - cx - r // 2) ** 2 + (y - cy + r // 3) ** 2 > r * r * 2 // 3)
    if kind == 3:  # two peaks standing on the bottom edge
        depth = height // 2 - np.minimum(abs(x - width // 4), abs(x - width * 3 // 4))
        return y >= height - depth
    if kind == 4:  # pillars at both sides
        return (x % max(width - 1, 1) < max(width // 10, 1)) & (y > height // 4)
    if kind == 5:  # waves along the bottom
        return y >= height - height // 5 + np.round(np.sin(x * 0.6) * max(height // 16, 1))
    if kind == 6:
        return ((x * 7 + y * 13 + seed) % 29 == 0) & (y < height // 2)
    return np.zeros((height, width), bool)


def outline(body: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Pixels next to the body (4-neighbourhood) that are not body."""
    grown = body.copy()
    grown[1:] |= body[:-1]
    grown[:-1] |= body[1:]
    grown[:, 1:] |= body[:, :-1]
    grown[:, :-1] |= body[:, 1:]
    return grown & ~body


def shape_mask(facts: ArtFacts, traits: Traits = Traits()) -> NDArray[np.uint8]:
    """The unscaled mask (EMPTY, BODY, LIGHT) of a picture: a monster's composed figure, or
    a kind's silhouette (mirrored on odd card numbers)."""
    if facts.shape in KIND_SHAPES:
        mask = silhouettes()[facts.shape]
        return mask[:, ::-1] if facts.seed % 2 else mask
    return figure(facts.shape, facts.seed, traits)


def picture(facts: ArtFacts, width: int, height: int,
            ramps: dict[str, tuple[int, ...]], traits: Traits = Traits()) -> NDArray[np.uint8]:
    """The (height, width) palette-index picture of ``facts``; ``ramps`` maps a ramp name to
    its four palette indices (dark, mid, bright, pale); ``traits`` pose a monster."""
    figure_ramp, ground = ramps[facts.tint], ramps[facts.ground]
    image = np.full((height, width), ground[PALE], np.uint8)
    image[_ground(facts.seed, height, width)] = ground[BRIGHT]
    image[_motif(facts.seed, height, width)] = ground[MID]
    mask = shape_mask(facts, traits)
    scale = max(1, min((width - 2) // mask.shape[1], (height - 2) // mask.shape[0]))
    mask = np.repeat(np.repeat(mask, scale, axis=0), scale, axis=1)
    mh, mw = mask.shape
    top, left = max((height - mh) // 2, 0), max((width - mw) // 2, 0)
    mask = mask[:height - top, :width - left]
    full = np.zeros((height, width), np.uint8)
    full[top:top + mask.shape[0], left:left + mask.shape[1]] = mask
    body = full != EMPTY
    image[outline(body)] = figure_ramp[DARK]
    image[full == BODY] = figure_ramp[MID]
    image[lit(body) & (full == BODY)] = figure_ramp[BRIGHT]
    image[full == LIGHT] = figure_ramp[PALE]
    return image


def lit(body: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Body pixels lit from the top left: those whose upper or left neighbour is not body."""
    edge = np.zeros_like(body)
    edge[1:] |= ~body[:-1]
    edge[:, 1:] |= ~body[:, :-1]
    edge[0] = edge[:, 0] = True
    return body & edge
