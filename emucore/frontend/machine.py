"""Machine profiles: the native framebuffer, palettes and exact frame rate of each machine.

A profile is plain data; nothing here imports pygame, so tests and tools can use it freely.
Frame rates are exact fractions derived from documented clock constants, never 60.0, and all
time in the frontend is counted in emulated frames of this rate.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from emucore.frontend import assets

# --- PlayStation NTSC (SCPH-1001), 240-line progressive mode -------------------------------
# System crystal 44100 Hz x 768 = 33,868,800 Hz (DuckStation src/core/system.h MASTER_CLOCK =
# 44100 * 0x300). The GPU video clock comes from it through a PLL: x 715909 / 451584 =
# 53,693,175 Hz (psx-spx "GPU Timings": NTSC video clock 53.693175 MHz; SwanStation/DuckStation
# src/core/gpu.cpp SystemTicksToCRTCTicks uses the same ratio). A 240p frame is 263 lines
# (DuckStation src/core/gpu.h NTSC_TOTAL_LINES = 263). The console alternates lines of 3412 and
# 3413 video clocks (Mednafen psx/gpu.c toggles PhaseChange), 3412.5 on average; DuckStation
# rounds to NTSC_TICKS_PER_LINE = 3413 and so runs at 59.8173 Hz. We take the console's
# 3412.5: 53693175 / (3412.5 x 263) = 59.826 Hz (psx-spx: "Non-interlaced: 59.826 Hz").
PSX_MASTER_CLOCK = 44100 * 768
PSX_VIDEO_CLOCK = Fraction(PSX_MASTER_CLOCK * 715909, 451584)  # = 53,693,175 exactly
PSX_LINE_CLOCKS = Fraction(6825, 2)  # 3412.5: the choice between 3412.5 and DuckStation's 3413
PSX_NTSC_LINES = 263
PSX_FRAME_RATE = PSX_VIDEO_CLOCK / (PSX_LINE_CLOCKS * PSX_NTSC_LINES)

# --- Game Boy (DMG) -----------------------------------------------------------------------
# CPU clock 4,194,304 Hz, one LCD frame = 154 lines x 456 dots = 70,224 clocks
# (SameBoy Core/gb.h CPU_FREQUENCY 0x400000, LCDC_PERIOD 70224): 59.7275 Hz.
GB_CPU_CLOCK = 4_194_304
GB_FRAME_CLOCKS = 70_224
GB_FRAME_RATE = Fraction(GB_CPU_CLOCK, GB_FRAME_CLOCKS)

# --- Pacing of what a player watches -------------------------------------------------------
# A choice of emucore's, not the original's: a computer's action and its line stay on screen
# this many frames (about 1.5 s, time to read a line of a dozen words) before the next one;
# confirm skips the wait, and the options' fast-animations switch divides it (and every
# animation's length) by FAST_DIVISOR.
ACTION_FRAMES = {"psx": 90, "gb": 90}
FAST_DIVISOR = 3


@dataclass(frozen=True)
class Machine:
    """A machine profile: native size, palettes (name -> (N, 3) uint8 RGB), frame rate."""

    name: str
    width: int
    height: int
    frame_rate: Fraction  # frames per second, exact
    palettes: dict[str, object]  # name -> numpy (N, 3) uint8; first is the default
    colours: dict[str, int]  # colour role name -> palette index, what screens draw with
    colour_depth: str  # what the palette entries mean on the machine
    art: dict[str, tuple[int, ...]]  # card-art ramp name -> 4 palette indices, dark first
    action_frames: int  # frames a computer's action stays shown (ACTION_FRAMES)

    @property
    def frame_ns(self) -> Fraction:
        """Length of one frame in nanoseconds, exact."""
        return Fraction(1_000_000_000) / self.frame_rate

    def paced(self, frames: int, fast: bool) -> int:
        """``frames`` as played: divided by :data:`FAST_DIVISOR` (at least 1) when the
        fast-animations switch is on."""
        return max(1, frames // FAST_DIVISOR) if fast else frames

    @property
    def default_palette(self) -> str:
        return next(iter(self.palettes))

    def colour(self, role: str) -> int:
        """The palette index of a colour role (``bg``, ``text``, ``monster`` ...)."""
        try:
            return self.colours[role]
        except KeyError:
            raise KeyError(f"machine {self.name} has no colour {role!r}") from None


def _build(name: str) -> Machine:
    data = assets.palettes()[name]
    palettes = {p: assets.palette_rgb(name, p) for p in data["palettes"]}
    sizes = {"psx": (320, 240, PSX_FRAME_RATE, "15-bit BGR555 CLUT entries"),
             "gb": (160, 144, GB_FRAME_RATE, "4 shades")}
    width, height, rate, depth = sizes[name]
    art = {ramp: tuple(indices) for ramp, indices in data["art"].items()}
    return Machine(name, width, height, rate, palettes, dict(data["colours"]), depth, art,
                   ACTION_FRAMES[name])


MACHINE_NAMES = ("psx", "gb")
_CACHE: dict[str, Machine] = {}


def machine(name: str) -> Machine:
    """The profile ``psx`` or ``gb`` (built once from assets/palettes.json)."""
    if name not in MACHINE_NAMES:
        raise KeyError(f"unknown machine {name!r}; choose one of {', '.join(MACHINE_NAMES)}")
    if name not in _CACHE:
        _CACHE[name] = _build(name)
    return _CACHE[name]
