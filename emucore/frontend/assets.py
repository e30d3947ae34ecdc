"""Our own assets (pixel font, palettes) from the ``assets/`` folder beside the package.

The folder can be moved with the ``EMUCORE_ASSETS`` environment variable. Nothing here comes
from any game: the font and palettes were drawn for emucore.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

FONT_FILE = "font/emucore5x8.txt"
PALETTE_FILE = "palettes.json"
GLYPH_W, GLYPH_H = 5, 8  # 7 rows above the baseline + 1 descender row (g j p q y , ;)


class AssetError(RuntimeError):
    """An asset file is missing or malformed (an installation problem, not a user mistake)."""


def assets_root() -> Path:
    env = os.environ.get("EMUCORE_ASSETS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "assets"


def read_asset(name: str) -> str:
    """The text of asset file ``name`` (a path inside the assets folder)."""
    path = assets_root() / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise AssetError(f"{path}: cannot read asset ({exc.__class__.__name__}); "
                         "set EMUCORE_ASSETS to the assets folder") from None


@functools.cache
def palettes() -> dict:
    """The parsed palettes.json."""
    return json.loads(read_asset(PALETTE_FILE))


def palette_rgb(machine: str, name: str) -> NDArray[np.uint8]:
    """One palette as (N, 3) uint8 RGB; 15-bit entries expand as the PSX video DAC does
    (5 bits to 8 by repeating the top bits)."""
    data = palettes()[machine]
    entries = np.array(data["palettes"][name], dtype=np.uint16)
    if data["format"] == "rgb555":
        if entries.max() > 31:
            raise AssetError(f"{PALETTE_FILE}: {machine}/{name} has a channel above 31")
        entries = (entries << 3) | (entries >> 2)
    return entries.astype(np.uint8)


@functools.cache
def font_glyphs() -> dict[str, NDArray[np.bool_]]:
    """Character -> (8, 5) bool mask, from the font file."""
    glyphs: dict[str, NDArray[np.bool_]] = {}
    lines = [ln for ln in read_asset(FONT_FILE).splitlines() if ln and not ln.startswith(";")]
    i = 0
    while i < len(lines):
        head = lines[i].split()
        if len(head) != 2 or head[0] != "glyph" or not head[1].startswith("U+"):
            raise AssetError(f"{FONT_FILE}: expected 'glyph U+XXXX', got {lines[i]!r}")
        rows = lines[i + 1:i + 1 + GLYPH_H]
        if len(rows) != GLYPH_H or any(len(r) != GLYPH_W for r in rows):
            raise AssetError(f"{FONT_FILE}: glyph {head[1]} is not {GLYPH_W}x{GLYPH_H}")
        glyphs[chr(int(head[1][2:], 16))] = np.array([[c == "#" for c in r] for r in rows])
        i += 1 + GLYPH_H
    return glyphs
