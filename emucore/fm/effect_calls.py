"""The ``rand()`` calls of the ``duel_effects`` overlay's effect routines, one model each.

Each model follows its decompiled routine (krystalgamer/memories-decomp; names and
addresses are the PAL ones the decompiled C uses) only as far as ``rand()`` is concerned:
what it rolls when it starts, what it rolls on each frame it draws, and what ends it. The
values a model needs come from the overlay's configuration tables (:mod:`emucore.fm.overlay`)
or, where a routine reads no table, are the routine's own constants.

Most effects make a fixed number of calls whatever values they draw: their models return
that number (``*_calls``). A few run a loop whose length depends on the values drawn (the
destruction tiles, the guardian-star flash, the card-removed breakup's falling pieces, the
board destruction's particles, the Exodia burst's lines): those run on a :class:`Stream`,
the duel's own sequence of ``rand()`` values, so the count is the original's for that state.
A frame of the duel serves the live effect requests in pool-slot order
(``DuelEffect_UpdateRequests``), so where effects overlap (Raigeki's bolts and the cards
they break) the models step frame by frame in that order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

from emucore.fm import choices
from emucore.fm import machine as M
from emucore.fm import overlay as O
from emucore.hw import psyq_rand

# ----------------------------------------------------------------------------- unit costs
ROTATION_CALLS = 6     # func_8014EF2C: (rand() - rand()) % 4096 for each of three axes
PARTICLE_CALLS = 6     # func_8014F030 / func_8014F608: the same for a velocity or position
RISING_CALLS = 5       # func_8014F180 / func_8014F754: two signed axes, the vertical one
FLAT_VECTOR_CALLS = 4  # func_8014F89C: two axes
SPRITE_DRAW_CALLS = 2  # func_80156064: rand() % 2 for the cell's u and for its v
BOLT_CALLS = 32        # func_8014FABC(.., 8): 2 + 2 calls for each of its 8 vertices


# ----------------------------------------------------------------------------- colours
Colour = list[int]


def fade(colour: Colour, step: int) -> None:
    """``func_80153F28``: each channel drops by ``step`` while above ``step + 1``, else 0."""
    for k in range(3):
        colour[k] = colour[k] - step if colour[k] > step + 1 else 0


def rise(colour: Colour, target: Iterable[int], step: int) -> bool:
    """``func_80153F98``: each channel climbs by ``step`` toward its target (reaching it once
    within a step); True when all three are there."""
    done = True
    for k, t in enumerate(target):
        colour[k] = colour[k] + step if colour[k] < t + 1 - step else t
        done = done and colour[k] == t
    return done


def lit(colour: Colour) -> bool:
    """``func_8014D3AC``: some channel is not 0 (``func_8014D378`` is its negation)."""
    return any(colour)


@functools.cache
def fade_frames(level: int, step: int) -> int:
    """Frames :func:`fade` takes to bring a channel from ``level`` to 0."""
    channel = [level, 0, 0]
    frames = 0
    while lit(channel):
        fade(channel, step)
        frames += 1
    return frames


# ----------------------------------------------------------------------------- the stream
class Stream:
    """The ``rand()`` values from one RNG state on, read in order: :meth:`skip` for calls
    whose values no count depends on, :meth:`take` for the ones a loop reads. ``calls``
    counts both. A read makes only the values it returns: from the state the last read
    left when it goes on from there, else from the state of its first call, one affine
    step from a remembered state every :data:`CHUNK` calls (an LCG jump), so skipping far
    ahead costs nothing."""

    CHUNK = 256
    __slots__ = ("state", "calls", "_bases", "_end", "_next")

    def __init__(self, state: int) -> None:
        self.state = state
        self.calls = 0
        self._bases: dict[int, int] = {}    # k -> the state after k * CHUNK calls
        self._end, self._next = 0, state    # where the last read ended, the state there

    def skip(self, n: int) -> None:
        self.calls += n

    def take(self, n: int) -> list[int]:
        start = self.calls
        self.calls = end = start + n
        state = self._next if start == self._end else self._state_at(start)
        self._end, self._next = end, after(state, n)
        return rand_values(state, n)

    def one(self) -> int:
        return self.take(1)[0]

    def _state_at(self, calls: int) -> int:
        """The state after ``calls`` calls from :attr:`state`."""
        k, at = divmod(calls, self.CHUNK)
        base = self._bases.get(k)
        if base is None:
            base = self._bases[k] = after(self.state, k * self.CHUNK)
        a, c = _offset_coefficients(at)
        return (a * base + c) & psyq_rand.MASK32


@functools.cache
def _offset_coefficients(n: int) -> tuple[int, int]:
    """The affine map of ``n`` calls for ``0 <= n < Stream.CHUNK`` (its own memo: the
    offsets within a chunk are too many to share :func:`after`'s)."""
    return psyq_rand.jump_coefficients(n)


def after(state: int, n: int) -> int:
    """The RNG state ``n`` calls after ``state`` (one affine step of plain integers, its
    coefficients remembered: the same few counts recur)."""
    a, c = psyq_rand.cached_coefficients(n)
    return (a * state + c) & psyq_rand.MASK32


def rand_values(state: int, n: int) -> list[int]:
    """What ``n`` calls of ``rand()`` return from ``state`` (:mod:`emucore.hw.psyq_rand`'s
    LCG, stepped here in plain integers: the compiled build runs this loop in C)."""
    mult, inc, mask = psyq_rand.MULTIPLIER, psyq_rand.INCREMENT, psyq_rand.MASK32
    out = []
    for _ in range(n):
        state = (state * mult + inc) & mask
        out.append((state >> 16) & 0x7FFF)
    return out


def c_div(a: int, b: int) -> int:
    """C's integer division (toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def spread(first: int, second: int, scale: int) -> int:
    """``scale * ((rand() - rand()) % 4096) / 4096`` in C arithmetic (``func_8014F608``):
    the remainder and the division truncate toward zero."""
    diff = first - second
    rem = abs(diff) % 4096 * (1 if diff >= 0 else -1)
    return c_div(scale * rem, 4096)


def vector(stream: Stream, scale: int) -> tuple[int, int, int]:
    """Three :func:`spread` axes (6 calls)."""
    v = stream.take(6)
    return spread(v[0], v[1], scale), spread(v[2], v[3], scale), spread(v[4], v[5], scale)


# ----------------------------------------------------------------------------- effect 2
@functools.cache
def damage_life(config: O.DamageConfig, sign: int) -> tuple[int, int, int]:
    """``func_80153200`` (the damage number) on its three colours: (frames that draw its
    particles, the call that first marks the request's ``field_1D``, the call it ends on),
    calls counted from its set-up call (1).

    The effect colour (the record's) draws the particles and fades by 8 from the number's
    second frame on; the flash (255 from then) fades by 15; a non-zero number's colour
    starts at an eighth of the record's, climbs by 15 and then fades by 8. The effect ends
    on the call that leaves all three black.
    """
    colour = list(config.colour)
    flash = [0, 0, 0]
    target = config.positive if sign > 0 else config.negative
    number = [t >> 3 for t in target] if sign else [0, 0, 0]
    risen = False
    stage = drawn = marked = 0
    call = 1
    while True:
        call += 1
        if stage and sign and lit(number):
            if not risen:
                risen = rise(number, target, 15)
            else:
                fade(number, 8)
        if lit(colour):
            if stage == 1:
                flash = [255, 255, 255]
            if stage:
                marked = marked or call
                drawn += 1
                fade(colour, 8)
            stage = min(stage + 1, 3)
        if lit(flash):
            fade(flash, 15)
        if not (lit(colour) or lit(flash) or lit(number)):
            return drawn, marked, call


DAMAGE_ROTATIONS = 64  # func_80153200: func_8014EF2C(64)


def damage_calls(config: O.DamageConfig, sign: int) -> int:
    """Effect 2: 6 per particle and 6 x 64 rotations at start, 2 per particle on each
    frame its colour draws them."""
    particles = config.particle_count
    drawn = damage_life(config, sign)[0]
    return (PARTICLE_CALLS * particles + ROTATION_CALLS * DAMAGE_ROTATIONS
            + SPRITE_DRAW_CALLS * particles * drawn)


SHAKE_CALLS = 2  # DuelScene_UpdateBattle state 8: (rand() & 3) - 2 for x, then for y


def shake_calls(config: O.DamageConfig, sign: int) -> int:
    """``DuelScene_UpdateBattle`` state 8: a losing card shakes on every frame its number's
    request is alive with ``field_1D`` set (the scene runs after the effects each frame)."""
    _, marked, ends = damage_life(config, sign)
    return SHAKE_CALLS * max(0, ends - marked)


# ----------------------------------------------------------------------------- effect 3
TILE_COLUMNS, TILE_ROWS = 5, 7  # func_80149F90: the card image cut into 5 x 7 tiles
TILE_START_CALLS = 4  # per tile: rand() % 4 sparkle, one for the radius, two for the jitter


def tile_rolls(values: Sequence[int], delay: int, updates: int) -> int:
    """``func_80149F90``'s per-frame rolls over the ``rand()`` values they read.

    Each of the five columns lights its seven tiles bottom-up: on every update a column not
    yet done rolls ``rand() % countdown``; 0 lights the next tile and restarts the countdown
    at ``delay``, anything else lowers it by one (at 1 the roll always lights). The effect
    ends after ``updates`` updates, done or not. Returns the rolls made.
    """
    left = [TILE_ROWS] * TILE_COLUMNS  # tiles each column still has to light
    countdown = [delay] * TILE_COLUMNS
    calls = 0
    for _ in range(updates):
        active = False
        for k in range(TILE_COLUMNS):
            if left[k]:
                active = True
                value, wait = values[calls], countdown[k]
                calls += 1
                if value % wait == 0:
                    countdown[k] = delay
                    left[k] -= 1
                else:
                    countdown[k] -= 1
        if not active:
            break
    return calls


def destruction_calls(config: O.TileConfig, state: int) -> int:
    """Effect 3 from RNG ``state``: 4 calls per tile at start, then the rolls."""
    start = TILE_COLUMNS * TILE_ROWS * TILE_START_CALLS
    updates = config.frames // choices.TILE_FRAME_STEP + 1
    most = min(updates, TILE_ROWS * config.delay) * TILE_COLUMNS  # no column rolls more
    return start + tile_rolls(rand_values(after(state, start), most),
                              config.delay, updates)


# ----------------------------------------------------------------------------- effect 14
GATHER_PARTICLES, GATHER_SPARKS, GATHER_ROTATIONS = 32, 48, 16  # func_801481A8
GATHER_NEAR = 17  # func_801481A8: a particle is home when |x| and |y| are below this
NEVER = 1 << 30


def _near_window(c: int, frames: int) -> tuple[int, int]:
    """The moves ``k`` after which one coordinate ``c`` of a gather particle is near the
    centre (``|c - k * v| < 17``, its speed ``v = c / frames`` truncated and constant): the
    first and the last such ``k``; (0, NEVER) near for ever at speed 0, (NEVER, 0) never."""
    near = GATHER_NEAR
    c = abs(c)  # the truncated speed has c's sign: mirrored to c >= 0
    v = c // frames
    if v == 0:
        return (0, NEVER) if c < near else (NEVER, 0)
    first = (c - near) // v + 1 if c >= near else 0
    return first, (c + near - 1) // v


def homecoming(x: int, y: int, frames: int) -> int:
    """Moves a gather particle makes before it is home (``|x|, |y| < 17`` on the same
    frame), -1 if never: each coordinate is near the centre for a window of moves, and the
    particle is home at the first move inside both windows, unless one has closed by then
    (it passed the centre and flies on)."""
    fx, lx = _near_window(x, frames)
    fy, ly = _near_window(y, frames)
    first = max(fx, fy)
    return first if first <= lx and first <= ly and first < NEVER else -1


@functools.cache
def _spark_frames(moves: int) -> int:
    """Frames a spark draws: ``moves`` frames flying in (its colour climbing by 15 toward
    (0xB0, 0xB0, 0xFF) from 1), then the fade by 15 of the colour it reached."""
    colour = [1, 1, 1]
    for _ in range(moves):
        rise(colour, (0xB0, 0xB0, 0xFF), 15)
    return moves + fade_frames(max(colour), 15)


GATHER_PARTICLE_FRAMES = 6 + 17  # a particle: 6 frames climbing by 47 to 255, 17 fading by 15
GATHER_LAST_JOINS = (GATHER_PARTICLES + 1) // 2  # particle 31 joins on frame 16


def star_flash_calls(config: O.GatherConfig, state: int) -> int:
    """``func_801481A8``, the guardian-star flash, from RNG ``state``.

    Start: 32 particles and 48 sparks spread by ``func_8014F89C`` (4 calls each), 16
    rotations (6 each). Every frame two more particles and three more sparks join. A
    particle lights up (colour 1 climbing by 47 to 255: 6 frames) and fades by 15 (17
    frames); the last, number 31 (from frame 16), ends the flash: once it is home while
    lit, the central colour (climbing by 15 to (0xB0, 0xB0, 0xFF) from frame 1) fades by
    15, and the effect ends when both are black. Only the sparks call ``rand()`` while
    drawing (``func_80156064``: 2 calls a frame while lit), each for :func:`_spark_frames`
    frames from the one it joins, cut off by the end.
    """
    values = rand_values(state, 4 * (GATHER_PARTICLES + GATHER_SPARKS))
    scale, frames = config.spread, config.frames
    last = 4 * (GATHER_PARTICLES - 1)
    home = homecoming(spread(values[last], values[last + 1], scale),
                      spread(values[last + 2], values[last + 3], scale), frames)
    if not 0 <= home < GATHER_PARTICLE_FRAMES:
        raise ValueError("the guardian-star flash never ends with these overlay values "
                         f"(spread {scale}, frames {frames})")
    signal = GATHER_LAST_JOINS + home  # the frame the central colour starts to fade
    central = [1, 1, 1]
    for _ in range(min(signal - 1, 17)):
        rise(central, (0xB0, 0xB0, 0xFF), 15)
    ends = max(GATHER_LAST_JOINS + GATHER_PARTICLE_FRAMES - 1,
               signal + fade_frames(max(central), 15) - 1)
    drawn = 0
    for j in range(GATHER_SPARKS):
        at = 4 * (GATHER_PARTICLES + j)
        moves = homecoming(spread(values[at], values[at + 1], scale),
                           spread(values[at + 2], values[at + 3], scale), frames)
        life = max(0, ends - (j // 3 + 1) + 1)
        drawn += life if moves < 0 else min(_spark_frames(moves), life)
    return (FLAT_VECTOR_CALLS * (GATHER_PARTICLES + GATHER_SPARKS)
            + ROTATION_CALLS * GATHER_ROTATIONS + SPRITE_DRAW_CALLS * drawn)


# ----------------------------------------------------------------------------- effects 0, 1, 4
EQUIP_CALLS = ROTATION_CALLS * 16  # func_80154688: func_8014EF2C(16); its frames roll nothing
FUSION_ROTATIONS, FUSION_PARTICLES = 12, 64  # func_80157794


def fusion_calls(config: O.FusionConfig) -> int:
    """``func_80157794``: 12 rotations and 64 particles at start; the base colour climbs (by
    8 to 128) until ``first_end``, the beam colour climbs (by 15 to the record's) until
    ``second_end``; then every frame while the beam is lit draws the 64 particles and fades
    it by 8."""
    base, beam = [1, 1, 1], [0, 0, 0]
    frame = drawn = 0
    released = False
    while lit(base) or lit(beam):
        if lit(base):
            if frame < config.first_end:
                rise(base, (128, 128, 128), 8)
            elif frame < config.second_end:
                rise(beam, config.colour, 15)
            else:
                released = True
                fade(base, 15)
        if lit(beam) and released:
            drawn += 1
            fade(beam, 8)
        frame += 1
    return (ROTATION_CALLS * FUSION_ROTATIONS + PARTICLE_CALLS * FUSION_PARTICLES
            + SPRITE_DRAW_CALLS * FUSION_PARTICLES * drawn)


# func_80159AAC: 16 rotations and 24 particles (speed 12) at start; from the frame its
# counter reaches the duration (48) 24 sprites a frame while its colour (the brightest
# channel 255 in both records, notes/overlays/duel-effect-four.md) fades by 15: 17 frames
SWORD_EQUIP_CALLS = ROTATION_CALLS * 16 + PARTICLE_CALLS * 24 + SPRITE_DRAW_CALLS * 24 * \
    fade_frames(255, 15)


# ----------------------------------------------------------------------------- effect 8
def trap_calls(config: O.TrapConfig) -> int:
    """``func_80147B18``: rays (``func_8014F754``) and rising particles (``func_8014F180``),
    5 calls each, then 2 per particle on every frame its colour is lit; the light column
    narrows and grows each frame, and once both reach their limits the colour fades by 8."""
    colour = list(config.colour)
    width, height = config.initial_width, config.initial_height
    frames = 0
    while lit(colour):
        frames += 1
        width = max((width - config.width_step) & 0xFFFF, config.minimum_width)
        height = min((height + config.height_step) & 0xFFFF, config.maximum_height)
        if width == config.minimum_width and height == config.maximum_height:
            fade(colour, 8)
        if frames > 0xFFFF:
            raise ValueError("a trap effect whose light column never settles")
    return (RISING_CALLS * (config.ray_count + config.particle_count)
            + SPRITE_DRAW_CALLS * config.particle_count * frames)


# ----------------------------------------------------------------------------- effect 10
FIELD_PARTICLES = 64  # func_8014C8FC: 64 dissolve particles, 64 speeds, 64 columns


def field_calls(config: O.FieldConfig) -> int:
    """``func_8014C8FC``: 64 dissolve particles and 64 columns (``func_8014F608``, 6 calls
    each) and 64 speeds (one each); then the dissolve draws the particles (2 calls each) on
    every frame its colour is lit, fading it by 8. The colour has climbed to the record's
    before the field card's handler (``DuelEffect_ApplyTerrain``, which waits for the
    request's ``field_1D`` and a disc read) starts the dissolve; mode 2 restarts it at 64."""
    level = 64 if config.mode == 2 else max(config.colour)
    return (2 * PARTICLE_CALLS * FIELD_PARTICLES + FIELD_PARTICLES
            + SPRITE_DRAW_CALLS * FIELD_PARTICLES * fade_frames(level, 8))


# ----------------------------------------------------------------------------- effects 5-9, 13
HEAL_FALL = 106  # func_80157E10: a rising sprite starts at speed -106


def heal_calls(config: O.HealConfig, reversed_: bool) -> int:
    """``func_80157E10``: 64 rising positions (4 calls each), the record's particles
    (``func_8014F030``) and rising sprites (``func_8014EF2C``) at start. Each rising sprite
    draws while it climbs (speed rising by the record's step from -106) and while its colour
    fades by 15 once it turns; the burst that follows draws the particles while the
    secondary colour fades by 15 - or, for Bad Reaction's records 5-9, on each of the 47
    frames of the reversed ending (the colour never fades)."""
    fades = fade_frames(max(config.colour), 15)
    climb = -(-HEAL_FALL // config.rise_speed)
    sprites = SPRITE_DRAW_CALLS * config.sprite_count * (climb - 1 + fades)
    burst = SPRITE_DRAW_CALLS * config.particle_count * (47 if reversed_ else fades)
    return (64 * FLAT_VECTOR_CALLS + PARTICLE_CALLS * config.particle_count
            + ROTATION_CALLS * config.sprite_count + sprites + burst)


# func_80154B30 (burn) and func_801587D8 (Goblin Fan's returned burn): 16 trails of 8 calls
# and 32 particles each at start, nothing per frame, whatever the record
BURN_CALLS = 16 * (8 + PARTICLE_CALLS * 32)
# func_801503F8 (stat change): 48 paths, each func_8014FABC(.., 8) and one angle roll
STAT_CHANGE_CALLS = 48 * (BOLT_CALLS + 1)
# func_80153ADC (Dark-piercing Light, the Exodia sparkles): 64 rotations and 32 particles
# at start; from its 57th frame its colour fades by 8 from 255 while 32 sprites draw
REVEAL_START = ROTATION_CALLS * 64 + PARTICLE_CALLS * 32
REVEAL_FRAME = SPRITE_DRAW_CALLS * 32  # each frame from its 57th while its colour fades
REVEAL_CALLS = REVEAL_START + REVEAL_FRAME * fade_frames(255, 8)


def reversed_heal_calls(rotations: int) -> int:
    """``func_801593A8`` (Bad Reaction to Simochi): the record's rotations and 32 particles
    at start; from its 10th frame 32 sprites while a fixed (255, 64, 255) fades by 15."""
    return (ROTATION_CALLS * rotations + PARTICLE_CALLS * 32
            + SPRITE_DRAW_CALLS * 32 * fade_frames(255, 15))


# ----------------------------------------------------------------------------- effects 12-23
def stop_defense_calls(config: O.GlowConfig) -> int:
    """``func_80150E00`` (Stop Defense, one column): 32 rising particles at start; 32
    sprites on every frame its colour is lit: 3 frames of growth, then the fade by 15."""
    return RISING_CALLS * 32 + SPRITE_DRAW_CALLS * 32 * (3 + fade_frames(max(config.colour), 15))


def opening_calls(config: O.OpeningConfig) -> int:
    """``func_80154084`` (the opening of Swords of Revealing Light and of a ritual, record
    1): 16 rotations and 32 particles at start; once its counter reaches the record's delay,
    32 sprites a frame while the colour it climbed to (by 31 from 1) fades by 15."""
    colour = [1, 1, 1]
    for _ in range(config.delay):
        if rise(colour, config.colour, 31):
            break
    return (ROTATION_CALLS * 16 + PARTICLE_CALLS * 32
            + SPRITE_DRAW_CALLS * 32 * fade_frames(max(colour), 15))


SWORDS_CALLS = 8 * 2 + 1  # func_8014E3EC: 8 swaps of two rand() % 10, one rand() % 3


def duster_calls(cards: int) -> int:
    """``func_80152048`` (Harpie's Feather Duster): 6 calls per card it sweeps away (speeds
    and spin), 60 for the dust of the five columns; nothing per frame."""
    return 6 * cards + 60


# ----------------------------------------------------------------------------- effect 16
def raigeki_runs(config: O.GlowConfig) -> int:
    """Frames each of ``func_80151558``'s five bolts draws its 32 sprites: from its hit on
    while its colours (192, fading by 31, and the record's, fading by 15) are lit."""
    return max(fade_frames(192, 31), fade_frames(max(config.colour), 15))


RAIGEKI_START = 5 * (5 * 4 * 4 + PARTICLE_CALLS * 32 + RISING_CALLS * 32)


def raigeki_hit(bolt: int) -> int:
    """The frame (counted from its set-up) on which bolt ``bolt`` strikes its column: bolts
    join every 8 frames from frame 9 and strike on their fifth frame."""
    return 8 * bolt + 13


# ----------------------------------------------------------------------------- effect 11
class Breakup:
    """``func_80146760`` (a card removed): the card breaks into 4 x 7 pieces that jump and
    fall; each piece, while it falls back toward the board, rolls ``rand() % chance``
    every frame (the chance shrinking by one each miss) until a roll of 0 sets it alight or
    it lands. Start: 3 speed rolls, 16 fragments (6 each), a frame and 16 sizes per piece,
    then the rays and dust (5 each). Each frame while the glow is lit 32 dust sprites draw
    (2 calls each) before the pieces roll; the glow fades by 8 once its column has narrowed
    and grown to its limits. Step it with :meth:`frame` (overlapping requests) or
    :meth:`run` (alone).

    ``height`` is the removed card's height above the board (the request's y, taken from
    the card's display object; choices.CARD_HEIGHT).
    """

    PIECES = 4 * 7

    def __init__(self, config: O.BreakupConfig, stream: Stream, height: int) -> None:
        self.config = config
        self.y, self.v = [], []
        for _ in range(self.PIECES):
            rolls = stream.take(3)
            self.v.append(3 * (rolls[1] % 3 - 1) - config.lift)
            self.y.append(height)
            stream.skip(PARTICLE_CALLS * 16 + 1 + 16)
        stream.skip(RISING_CALLS * (config.ray_count + config.dust_count))
        self.chance = [config.chance] * self.PIECES
        self.state = [0] * self.PIECES
        self.fragment = [255] * self.PIECES  # the fragment colour's channels move together
        self.glow = list(config.colour)
        self.width, self.height = config.width, config.height
        self.completed = 0

    def frame(self, stream: Stream) -> bool:
        """One frame; False once the effect has ended."""
        c = self.config
        if lit(self.glow):
            stream.skip(SPRITE_DRAW_CALLS * c.dust_count)
            self.width = max((self.width - c.shrink) & 0xFFFF, c.min_width)
            self.height = min(self.height + c.growth, c.max_height)
            if self.width == c.min_width and self.height == c.max_height:
                fade(self.glow, 8)
        y, v, state, chance, fragment = self.y, self.v, self.state, self.chance, self.fragment
        for k in range(self.PIECES):
            if not fragment[k]:
                continue
            if v[k] > 0 and not state[k] and y[k] >= -31:
                if stream.one() % chance[k] == 0:
                    state[k] = 1
                else:
                    chance[k] -= 1
            if state[k]:
                state[k] = min(state[k] + 1, 16)
                fragment[k] = fragment[k] - 31 if fragment[k] > 32 else 0
                y[k] -= 8
            elif y[k] < 16:
                y[k] += v[k]
                v[k] += 3
                if y[k] > 16:
                    y[k], state[k] = 16, 1
            if not fragment[k]:
                self.completed += 1
        return not (self.completed == self.PIECES and not lit(self.glow))

    def run(self, stream: Stream) -> None:
        while self.frame(stream):
            pass


# ----------------------------------------------------------------------------- effect 17
BOARD_NEAR = 32       # func_80148BA4: a particle within this on every axis has arrived
BOARD_PARTICLES = 64
BOARD_CARDS_FROM = 64  # the first card starts to vanish at tick 64, one more every 8


def _arrival(position: Sequence[int]) -> int:
    """Moves a board-destruction particle makes before it is within 32 on every axis: its
    speed per axis is ``-c / 32`` (truncated), and each axis is near from its first entry
    on (the decompilation's note checks every value: the first entries always overlap)."""
    moves = 0
    for c in position:
        c = abs(c)
        if c > BOARD_NEAR:
            need = -(-(c - BOARD_NEAR) // (c // BOARD_NEAR))
            if need > moves:
                moves = need
    return moves


@functools.cache
def _board_cycle(dim: tuple[int, ...], colour: tuple[int, ...], moves: int) -> int:
    """Frames one particle cycle lasts: ``moves`` frames flying in (its colour climbing by
    31 from ``dim`` toward ``colour``), then the fade by 31 of the colour reached."""
    level = list(dim)
    for _ in range(moves):
        rise(level, colour, 31)
    return moves + fade_frames(max(level), 31)


def _joined(ticks: int) -> int:
    """Particle draws over ticks 1..``ticks`` while every joined particle is lit: tick
    ``t`` has min(64, t) of them."""
    full = min(ticks, BOARD_PARTICLES)
    return full * (full + 1) // 2 + BOARD_PARTICLES * max(0, ticks - BOARD_PARTICLES)


def board_destruction_calls(config: O.BoardConfig, cards: int, state: int) -> int:
    """``func_80148BA4`` (Dark Hole, Dragon Capture Jar) from RNG ``state``.

    Start: 16 fragments per card it takes (6 calls each), 64 particles spread over twice the
    record's radius (6 each), 48 bolt paths (32 each and an angle roll). Each tick another
    particle joins (particle ``i`` from tick ``i + 1``); a joined particle draws every tick
    it is lit (2 calls), flies toward the centre until within 32 on every axis (its colour
    climbing from an eighth of the record's by 31), then fades by 31, and when black
    respawns far out (6 calls, read from the stream) while the last card has not started to
    vanish. The cards vanish one every 8 ticks from tick 64 (17 ticks each), the last one's
    burst fades by 15, then the brightness climbs by 8 for 16 ticks (stage 3) and the effect
    ends on the first tick from the 180th that no arrived particle is still fading.
    """
    stream = Stream(state)
    stream.skip(PARTICLE_CALLS * 16 * cards + PARTICLE_CALLS * BOARD_PARTICLES)
    start_values = Stream(state)
    start_values.skip(PARTICLE_CALLS * 16 * cards)
    scale = 2 * config.radius
    positions = [vector(start_values, scale) for _ in range(BOARD_PARTICLES)]
    stream.skip(48 * (BOLT_CALLS + 1))
    if not cards:
        return stream.calls  # no particle ever joins
    dim = tuple(c // 8 for c in config.colour)
    colour = tuple(config.colour)
    last_card = BOARD_CARDS_FROM + 17 + 8 * (cards - 1)    # its state changes on this tick
    stage3 = last_card + fade_frames(max(config.burst_colour), 15) - 1 + 16
    # each particle's cycle in progress: (first tick, ticks it lasts, moves before arriving)
    cycles = []
    for i, p in enumerate(positions):
        moves = _arrival(p)
        cycles.append((i + 1, _board_cycle(dim, colour, moves), moves))
    base = stream.calls
    respawns = 0
    due: dict[int, list[int]] = {}
    for i, (first, length, _) in enumerate(cycles):
        due.setdefault(first + length - 1, []).append(i)
    for tick in range(1, last_card + 1):
        ending = due.pop(tick, None)
        if not ending:
            continue
        # the calls made before this tick's particles: every joined one drew each tick
        at = base + SPRITE_DRAW_CALLS * _joined(tick - 1) + 6 * respawns
        for k, i in enumerate(sorted(ending)):
            stream.calls = at + SPRITE_DRAW_CALLS * (i + 1) + 6 * k
            rem = _remainders(stream)
            p = tuple(c_div(config.radius * 2 * a, 4096) for a in rem)
            moves = _arrival(p)
            cycles[i] = (tick + 1, _board_cycle(dim, colour, moves), moves)
            due.setdefault(tick + cycles[i][1], []).append(i)
        respawns += len(ending)
    # after the last card: each particle finishes the cycle it is in, and one still fading
    # after it arrived holds the stage at 2
    ends, fading = [], []
    for first, length, moves in cycles:
        ends.append(first + length - 1)
        fading.append((first + moves, first + length - 2))
    end = max(180, stage3)
    while any(lo <= end <= hi for lo, hi in fading):
        end += 1
    drawn = SPRITE_DRAW_CALLS * (_joined(last_card)
                                 + sum(max(0, min(e, end) - last_card) for e in ends))
    return base + drawn + 6 * respawns


def _remainders(stream: Stream) -> tuple[int, int, int]:
    """Three ``(rand() - rand()) % 4096`` in C arithmetic (6 calls)."""
    v = stream.take(6)
    out = []
    for a, b in ((v[0], v[1]), (v[2], v[3]), (v[4], v[5])):
        d = a - b
        out.append(abs(d) % 4096 * (1 if d >= 0 else -1))
    return out[0], out[1], out[2]


# ----------------------------------------------------------------------------- effect 24
def exodia_burst_calls(stream: Stream, between: int = 0) -> None:
    """``func_8014D3E8`` (the Exodia burst) on ``stream``: 64 lines (three remainders each:
    head 96/4096 and tail 128/4096 of them, speed -tail/8) and 32 ray rotations at start.
    From frame 40 to 340, each frame, the lines that have joined (one more a frame) move
    or, once their head is within 32 on every axis, are drawn anew (6 calls); then the rays
    that have joined (one more every other frame) grow, and every 21st frame of each one
    draws a new rotation (6 calls). ``between``: calls other requests make after its set-up
    and before its frame 40."""
    heads, speeds = [], []
    for _ in range(64):
        rem = _remainders(stream)
        heads.append([c_div(a * 96, 4096) for a in rem])
        speeds.append([-c_div(c_div(a * 128, 4096), 8) for a in rem])
    stream.skip(ROTATION_CALLS * 32 + between)
    lines = rays = 0
    ray_runs = [0] * 32
    for frame in range(40, 341):
        for i in range(lines):
            h = heads[i]
            if abs(h[0]) > 32 or abs(h[1]) > 32 or abs(h[2]) > 32:
                heads[i] = [h[0] + speeds[i][0], h[1] + speeds[i][1], h[2] + speeds[i][2]]
            else:
                rem = _remainders(stream)
                heads[i] = [c_div(a * 96, 4096) for a in rem]
                speeds[i] = [-c_div(c_div(a * 128, 4096), 8) for a in rem]
        lines = min(lines + 1, 64)
        for j in range(rays):
            ray_runs[j] += 1
            if ray_runs[j] % 21 == 0:
                stream.skip(ROTATION_CALLS)
        if frame % 2:
            rays = min(rays + 1, 32)


def exodia_calls_for(sparkles: int) -> Callable[[int], int]:
    """``DuelScene_UpdateExodiaResult``, from the pieces' first frame to the 3-D Exodia
    scene: ``sparkles`` reveal sparkles (effect 19, each placed with 2 calls of the scene),
    an equip glow (effect 0, record 9) on each of the five pieces, the centre sparkle, and
    the burst (effect 24), whose set-up comes after the centre sparkle's first two drawn
    frames and before its other 30. The 3-D scene that follows was not read (no calls)."""
    def run(state: int) -> int:
        stream = Stream(state)
        stream.skip(sparkles * (2 + REVEAL_CALLS) + 5 * EQUIP_CALLS
                    + REVEAL_START + 2 * REVEAL_FRAME)
        exodia_burst_calls(stream, between=(fade_frames(255, 8) - 2) * REVEAL_FRAME)
        return stream.calls
    return run


def ritual_calls_for(level: int, duration: int) -> Callable[[int], int]:
    """``func_8014A8E4`` (the ritual summon) from a state, for a record whose brightest
    colour channel is ``level`` and whose hold is ``duration`` (both estimates: no note
    quotes ``D_8015A658``).

    Start: 2 flame frames, 32 points (``func_8014F89C``), 32 rotations, 32 particles spread
    by 392 (``func_8014F608``; particles 32-63 keep what the shared buffer held: taken as
    the centre) and 64 lines (three remainders each: inner 328/4096, outer 392/4096, speed
    -outer/8). Once the tributes have risen (taken as 3 x 32 moves from the board), each
    frame the joined lines move until their inner point is within 64 on every axis and are
    then drawn anew (6 calls); the joined particles draw (2 calls), fly in until within 32,
    fade by 31 and respawn (6 calls); one more joins every other frame; ``duration`` frames
    after all 64 have joined the flash climbs to 192 by 4 (48 frames), then 64 particles
    (``func_8014F030``) and 65 frames of 64 sprites."""
    def run(state: int) -> int:
        stream = Stream(state)
        stream.skip(2 + FLAT_VECTOR_CALLS * 32 + ROTATION_CALLS * 32)
        pos = [vector(stream, 392) for _ in range(32)] + [(0, 0, 0)] * 32
        vel = [tuple(-c_div(a, 8) for a in p) for p in pos]
        colours = [level] * 64
        inner, speed = [], []
        for _ in range(64):
            rem = _remainders(stream)
            inner.append([c_div(a * 328, 4096) for a in rem])
            speed.append([-c_div(c_div(a * 392, 4096), 8) for a in rem])
        first = 62 + 3 * 32  # the portal and flames rise, then the tributes (no calls)
        joins = first + first % 2
        stage4 = joins + 126 + duration + 47
        active = 0
        for frame in range(first, stage4 + 1):
            for i in range(active):
                h = inner[i]
                if abs(h[0]) > 64 or abs(h[1]) > 64 or abs(h[2]) > 64:
                    inner[i] = [h[0] + speed[i][0], h[1] + speed[i][1], h[2] + speed[i][2]]
                else:
                    rem = _remainders(stream)
                    inner[i] = [c_div(a * 328, 4096) for a in rem]
                    speed[i] = [-c_div(c_div(a * 392, 4096), 8) for a in rem]
            if frame >= joins and frame % 2 == 0:
                active = min(active + 1, 64)
            for i in range(active):
                stream.skip(SPRITE_DRAW_CALLS)
                p = pos[i]
                if abs(p[0]) > 32 or abs(p[1]) > 32 or abs(p[2]) > 32:
                    pos[i] = (p[0] + vel[i][0], p[1] + vel[i][1], p[2] + vel[i][2])
                    continue
                colours[i] = colours[i] - 31 if colours[i] > 32 else 0
                if not colours[i]:
                    pos[i] = vector(stream, 392)
                    vel[i] = tuple(-c_div(a, 8) for a in pos[i])
                    colours[i] = level
        stream.skip(PARTICLE_CALLS * 64 + 65 * SPRITE_DRAW_CALLS * 64)
        return stream.calls
    return run


# ----------------------------------------------------------------------------- pools
POOL_SLOTS = 8  # DuelEffect_FindFreeRequest: the lowest free of eight request records


def raigeki_calls(glow: O.GlowConfig, breakup: O.BreakupConfig, columns: Sequence[bool],
                  height: int, state: int) -> int:
    """``DuelEffect_ApplyRaigeki`` from RNG ``state``: effect 16 and, as each bolt strikes an
    occupied column, an effect 11 for the card there, all running together. Each frame
    serves the live requests in pool-slot order (the bolts hold the lowest slot; a breakup
    takes the lowest slot free when its bolt strikes, and its set-up runs the next frame).
    """
    stream = Stream(state)
    stream.skip(RAIGEKI_START)
    runs = raigeki_runs(glow)
    ends = raigeki_hit(4) + runs - 1
    hits = {raigeki_hit(col) for col, occupied in enumerate(columns) if occupied}
    slots: list[object] = [_BOLTS] + [None] * (POOL_SLOTS - 1)
    frame = 0
    while any(slot is not None for slot in slots):
        frame += 1
        for k, slot in enumerate(slots):
            if slot is _BOLTS:
                bolts = sum(raigeki_hit(j) <= frame < raigeki_hit(j) + runs
                            for j in range(M.ROW_WIDTH))
                stream.skip(SPRITE_DRAW_CALLS * 32 * bolts)
                if frame >= ends:
                    slots[k] = None
            elif slot is _PENDING:
                slots[k] = Breakup(breakup, stream, height)
            elif isinstance(slot, Breakup) and not slot.frame(stream):
                slots[k] = None
        if frame in hits:
            slots[slots.index(None)] = _PENDING
    return stream.calls


_BOLTS, _PENDING = object(), object()  # a pool slot held by the bolts; set up next frame
