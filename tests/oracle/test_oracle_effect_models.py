"""The effect models that count by shortcuts (cycles, windows, vectorised sparks) equal a
frame-by-frame transcription of their decompiled routines (krystalgamer/memories-decomp):
``func_80148BA4`` (the board destruction) and ``func_801481A8`` (the guardian-star flash),
run here one frame at a time exactly as their per-frame paths read, on the same streams."""

from __future__ import annotations

import pytest

from emucore.fm import overlay as O
from emucore.fm.effect_calls import (
    BOLT_CALLS,
    PARTICLE_CALLS,
    SPRITE_DRAW_CALLS,
    Stream,
    _remainders,
    board_destruction_calls,
    c_div,
    fade,
    lit,
    rise,
    star_flash_calls,
    vector,
)

STATES = [(0x9E3779B9 * k + 12345) & 0xFFFFFFFF for k in range(12)]


def _board_frames(config: O.BoardConfig, cards: int, state: int) -> int:
    """func_80148BA4, one processing at a time: brightness, particles (draw, fly in and
    climb, or fade and respawn while the last card has not started to vanish; a near
    particle still lit holds stage 2), the fan (three climbs of 2), the cards from tick 61
    (one more every 8 ticks, 17 ticks each, a burst each), the burst's fade; the end on a
    tick after the 180th in stage 3."""
    stream = Stream(state)
    stream.skip(PARTICLE_CALLS * 16 * cards)
    scale = 2 * config.radius
    pos = [vector(stream, scale) for _ in range(64)]
    vel = [tuple(-c_div(a, 32) for a in p) for p in pos]
    stream.skip(48 * (BOLT_CALLS + 1))
    dim = [c // 8 for c in config.colour]
    colours = [list(dim) for _ in range(64)]
    fan = list(dim)
    fan_target = (config.colour[0], config.colour[1], config.colour[0])
    burst = [0, 0, 0]
    brightness, stage, tick = 128, 0, 0
    active_particles = active_cards = 0
    ages, states = [0] * cards, [0] * cards
    while True:
        if stage < 2:
            brightness = brightness - 8 if brightness > 8 else 0
        elif brightness < 120:
            brightness += 8
        else:
            brightness, stage = 128, 3
        last_vanishing = cards and states[-1] != 0
        for i in range(active_particles):
            colour = colours[i]
            if not lit(colour):
                continue
            stream.skip(SPRITE_DRAW_CALLS)
            p = pos[i]
            if abs(p[0]) > 32 or abs(p[1]) > 32 or abs(p[2]) > 32:
                pos[i] = (p[0] + vel[i][0], p[1] + vel[i][1], p[2] + vel[i][2])
                rise(colour, config.colour, 31)
                continue
            fade(colour, 31)
            if not lit(colour) and not last_vanishing:
                pos[i] = tuple(c_div(config.radius * 2 * a, 4096) for a in _remainders(stream))
                vel[i] = tuple(-c_div(a, 32) for a in pos[i])
                colours[i] = colour = list(dim)
            if lit(colour) and stage >= 2:
                stage = 2
        if lit(fan):
            for _ in range(3):
                if stage < 2:
                    stage = int(rise(fan, fan_target, 2))
                else:
                    fade(fan, 1)
        if cards and stage < 2:
            active_particles = min(active_particles + 1, 64)
        if stage and tick > 60:
            if not cards and stage == 1:
                stage = 2
            for k in range(active_cards):
                if states[k] == 0:
                    ages[k] += 1
                    if ages[k] > 16:
                        states[k] = 1
                if states[k] == 1:
                    states[k] = 2
                    burst = list(config.burst_colour)
            if not tick & 7:
                active_cards = min(active_cards + 1, cards)
        if lit(burst):
            fade(burst, 15)
            if cards and states[-1] >= 2 and not lit(burst):
                stage = 2
        tick += 1
        if stage == 3 and tick > 180:
            return stream.calls




def _flash_frames(config: O.GatherConfig, state: int) -> int:
    """func_801481A8, one processing at a time: two more particles and three more sparks
    each frame; a lit particle flies in while |x| or |y| is 17 or more (particle 31 at home
    starts the central fade), climbs by 47 to white and fades by 15; a lit spark draws
    (2 calls), flies in climbing by 15 toward (0xB0, 0xB0, 0xFF), then fades by 15; the
    effect ends when particle 31 and the centre are black."""
    stream = Stream(state)
    points = []
    for _ in range(32 + 48):
        v = stream.take(4)
        points.append([_spread(v[0], v[1], config.spread), _spread(v[2], v[3], config.spread)])
    stream.skip(6 * 16)
    speeds = [[-c_div(x, config.frames), -c_div(y, config.frames)] for x, y in points]
    colours = [[1, 1, 1] for _ in points]
    risen = [False] * 32
    centre, done = [1, 1, 1], 0
    particles = sparks = 0
    while True:
        particles, sparks = min(particles + 2, 32), min(sparks + 3, 48)
        for i in range(particles):
            if not lit(colours[i]):
                continue
            x, y = points[i]
            if abs(x) >= 17 or abs(y) >= 17:
                points[i] = [x + speeds[i][0], y + speeds[i][1]]
            elif i == 31:
                done = 2
            if not risen[i]:
                risen[i] = rise(colours[i], (255, 255, 255), 47)
            else:
                fade(colours[i], 15)
        for j in range(32, 32 + sparks):
            if not lit(colours[j]):
                continue
            stream.skip(SPRITE_DRAW_CALLS)
            x, y = points[j]
            if abs(x) >= 17 or abs(y) >= 17:
                points[j] = [x + speeds[j][0], y + speeds[j][1]]
                rise(colours[j], (0xB0, 0xB0, 0xFF), 15)
            else:
                fade(colours[j], 15)
        if lit(centre):
            if done == 0:
                done = int(rise(centre, (0xB0, 0xB0, 0xFF), 15))
            elif done == 2:
                fade(centre, 15)
        if not lit(colours[31]) and not lit(centre):
            return stream.calls


def _spread(a: int, b: int, scale: int) -> int:
    d = a - b
    rem = abs(d) % 4096 * (1 if d >= 0 else -1)
    return c_div(scale * rem, 4096)


@pytest.mark.parametrize(("record", "cards"), [(0, 0), (0, 1), (0, 6), (0, 20), (1, 2),
                                               (1, 5)])
def test_the_board_destruction_by_cycles_equals_its_frame_loop(record, cards):
    config = O.BUILT_IN.board[record]
    for state in STATES:
        assert board_destruction_calls(config, cards, state) == \
            _board_frames(config, cards, state)


@pytest.mark.parametrize("config", [O.GatherConfig(64, 16), O.GatherConfig(100, 12),
                                    O.GatherConfig(40, 8)])
def test_the_star_flash_by_windows_equals_its_frame_loop(config):
    for state in STATES:
        assert star_flash_calls(config, state) == _flash_frames(config, state)
