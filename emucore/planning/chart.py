"""``--plot FILE.png``: horizontal bar charts written with a tiny PNG encoder (zlib + struct).

Each bar is labelled with a 3x5 pixel font that knows only what the labels need (digits, the
letters of the pool names, ``#``, ``.``, ``%``, ``-``, ``/`` and space), so the planner needs
neither pygame nor a plotting library. The text output of the same command names every bar in
the same order.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from emucore.duel.files import write_atomic

GLYPHS = {  # 3 columns x 5 rows, row by row
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001010010010", "8": "111101111101111",
    "9": "111101111001111", "#": "101111101111101", ".": "000000000000010",
    "%": "101001010100101", "-": "000000111000000", "/": "001001010100100",
    " ": "000000000000000", "A": "010101111101101", "B": "110101110101110",
    "C": "011100100100011", "D": "110101101101110", "E": "111100110100111",
    "O": "010101101101010", "P": "110101110100100", "S": "011100010001110",
    "T": "111010010010010", "W": "101101101111101",
}
SCALE = 2  # pixels per font pixel
ROW = 8 * SCALE  # bar height + gap
LABEL_W = 24 * 4 * SCALE  # room for 24 characters
BAR_W = 400
BACKGROUND, BAR, INK = (255, 255, 255), (70, 110, 190), (0, 0, 0)


def png_bytes(image: NDArray[np.uint8]) -> bytes:
    """An RGB image [height, width, 3] as PNG bytes (8-bit truecolour, no filter)."""
    height, width, _ = image.shape
    raw = b"".join(b"\x00" + image[y].tobytes() for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _text(image: NDArray[np.uint8], x: int, y: int, text: str) -> None:
    for i, ch in enumerate(text):
        bits = GLYPHS.get(ch, GLYPHS[" "])
        for k, bit in enumerate(bits):
            if bit == "1":
                gx, gy = x + (i * 4 + k % 3) * SCALE, y + (k // 3) * SCALE
                image[gy : gy + SCALE, gx : gx + SCALE] = INK


def bar_chart(labels: Sequence[str], values: Sequence[float]) -> NDArray[np.uint8]:
    """Bars proportional to ``values`` (largest = full width), labelled on the left."""
    height = ROW * (len(values) + 1)
    image = np.full((height, LABEL_W + BAR_W + 8, 3), BACKGROUND, dtype=np.uint8)
    top = max(values, default=0) or 1
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = ROW // 2 + i * ROW
        _text(image, 2, y + SCALE, label[:24])
        width = max(1, round(BAR_W * value / top))
        image[y : y + ROW - 2 * SCALE, LABEL_W : LABEL_W + width] = BAR
    return image


def write_chart(path: Path | str, labels: Sequence[str], values: Sequence[float]) -> None:
    """Write the bar chart to ``path`` (atomically)."""
    write_atomic(path, png_bytes(bar_chart(labels, values)))
