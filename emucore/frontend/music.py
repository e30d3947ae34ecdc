"""Music of our own: short looping chiptune pieces, one per kind of screen, synthesised with
numpy (a pulse-wave lead, a triangle bass and a noise hi-hat, as a handheld's sound chip would
play them). The tunes were written for emucore; nothing comes from any game.

A piece is a tempo and three voices written as text: ``NOTE:LEN`` tokens, NOTE a name with
octave (``A4``, ``C#5``) or ``-`` for a rest, LEN in sixteenth notes. Every voice of a piece
spans the same whole number of bars, so the loop joins without a click.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

RATE = 22050
VOLUME = 0.16  # of full scale, before the player's volume
SIXTEENTHS_PER_BAR = 16
_NAMES = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}


@dataclass(frozen=True)
class Piece:
    """One looping tune: beats per minute, lead and bass voices, hi-hat pattern ("x" a hit,
    "." a rest, one character per sixteenth, repeated to the piece's length)."""

    bpm: int
    lead: str
    bass: str
    hats: str = ""


PIECES: dict[str, Piece] = {
    "title": Piece(
        112,
        "A4:4 C5:2 E5:2 D5:4 C5:4 B4:4 G4:2 B4:2 D5:8 "
        "F4:4 A4:2 C5:2 E5:4 D5:4 C5:6 B4:2 A4:8",
        "A2:8 A2:8 G2:8 G2:8 F2:8 F2:8 E2:8 E2:8",
        "x...x...x.x.x..."),
    "menu": Piece(
        96,
        "E5:4 G5:4 C5:4 E5:4 A4:4 C5:4 E5:8 F4:4 A4:4 C5:4 F5:4 D5:4 B4:4 G4:8",
        "C3:8 C3:8 A2:8 A2:8 F2:8 F2:8 G2:8 G2:8",
        "x.......x......."),
    "duel": Piece(
        138,
        "E5:2 -:2 E5:2 G5:2 F#5:2 E5:2 D5:2 B4:2 C5:4 B4:2 A4:2 B4:8 "
        "E5:2 -:2 E5:2 G5:2 A5:2 G5:2 F#5:2 D5:2 E5:4 D5:2 B4:2 E5:8",
        "E2:2 E3:2 E2:2 E3:2 E2:2 E3:2 E2:2 E3:2 C2:2 C3:2 C2:2 C3:2 D2:2 D3:2 D2:2 D3:2 "
        "E2:2 E3:2 E2:2 E3:2 E2:2 E3:2 E2:2 E3:2 C2:2 C3:2 D2:2 D3:2 E2:2 E3:2 E2:4",
        "x.x.x.x.x.x.xxx."),
    "victory": Piece(
        120,
        "C5:2 C5:2 C5:2 G5:6 E5:4 G5:2 -:2 C6:8 A5:4 F5:4 G5:4 B5:4 C6:16 -:4",
        "C3:8 C3:8 C3:8 C3:8 F2:8 G2:8 C3:16",
        "x...x...x...xxxx"),
    "defeat": Piece(
        72,
        "A4:6 G4:2 F4:4 E4:4 D4:6 E4:2 C4:8 D4:6 C4:2 B3:4 A3:4 A3:16",
        "A2:16 D2:16 E2:16 A2:16",
        ""),
}


def frequency(note: str) -> float:
    """Equal temperament, A4 = 440 Hz."""
    name, octave = note[:-1], int(note[-1])
    semitone = _NAMES[name[0]] + name.count("#") - name.count("b")
    return 440.0 * 2 ** ((semitone - 9) / 12 + (octave - 4))


def _tokens(voice: str) -> list[tuple[str, int]]:
    out = []
    for token in voice.split():
        note, length = token.split(":")
        out.append((note, int(length)))
    return out


def _voice(voice: str, step: int, wave: str) -> NDArray[np.float64]:
    """Samples of one voice; ``step`` samples per sixteenth."""
    parts = []
    for note, length in _tokens(voice):
        n = step * length
        if note == "-":
            parts.append(np.zeros(n))
            continue
        phase = np.arange(n) * frequency(note) / RATE % 1.0
        tone = (np.where(phase < 0.25, 1.0, -1.0) if wave == "pulse"  # 25% duty pulse
                else 4 * np.abs(phase - 0.5) - 1)  # triangle
        envelope = np.minimum(1.0, np.linspace(1.4, 0.5, n)) * np.minimum(
            1.0, (n - np.arange(n)) / 64)  # decay, and a short release so notes part
        parts.append(tone * envelope)
    return np.concatenate(parts)


def _hats(pattern: str, step: int, length: int, seed: int) -> NDArray[np.float64]:
    """A noise burst on each "x" of the pattern (a fixed-seed generator: same every run)."""
    out = np.zeros(length)
    if not pattern:
        return out
    noise = np.random.default_rng(seed).uniform(-1, 1, step)
    burst = noise * np.linspace(1.0, 0.0, step) ** 3
    for i in range(length // step):
        if pattern[i % len(pattern)] == "x":
            out[i * step:(i + 1) * step] = burst
    return out


def bars(piece: Piece) -> int:
    """Length of a piece in bars (every voice must agree)."""
    lengths = {sum(n for _, n in _tokens(v)) for v in (piece.lead, piece.bass)}
    if len(lengths) != 1 or next(iter(lengths)) % SIXTEENTHS_PER_BAR:
        raise ValueError(f"voices of a piece must span the same whole bars: {lengths}")
    return next(iter(lengths)) // SIXTEENTHS_PER_BAR


@functools.cache
def render(name: str) -> NDArray[np.int16]:
    """int16 mono samples of one loop of piece ``name``."""
    piece = PIECES[name]
    bars(piece)
    step = round(RATE * 60 / piece.bpm / 4)
    lead = _voice(piece.lead, step, "pulse")
    bass = _voice(piece.bass, step, "triangle")
    mix = 0.5 * lead + 0.6 * bass + 0.25 * _hats(piece.hats, step, len(lead), len(name))
    return (np.clip(mix, -1, 1) * VOLUME * 32767).astype(np.int16)
