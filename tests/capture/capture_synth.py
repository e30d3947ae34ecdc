"""Captures synthesised from emucore's own FM engine, in the emulator scripts' format.

``synth_fm`` plays a duel (deterministic pseudo-random legal actions; the CPU's actions carry
a few decision ``rand()`` calls) and writes what the capture script would have seen: a menu
record before the deal with the RNG ticking once per frame, the opening, then per action an
animation record (only the side records changed) and the settled record. Hooks change one
thing to test that verification catches it at the right step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from emucore.capture.fileformat import CaptureWriter
from emucore.capture.rammap import FM
from emucore.fm import machine as M
from emucore.fm.actions import Play
from emucore.fm.ai import choose_action
from emucore.fm.engine import FmDuel
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw.psyq_rand import jump

DECK = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 22, 23, 24, 25, 26, 27, 28,
        29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45]
MENU_FRAMES = 5


@dataclass
class Synth:
    text: str
    setup: FmSetup
    actions: list = field(default_factory=list)
    lines: list[int] = field(default_factory=list)   # settled record's line per step
    over: bool = False


def ranges_of(image: bytes, duel: FmDuel) -> dict[str, bytes]:
    """What the capture script reads, as emucore's state shows it."""
    out = {r.name: image[r.target:r.target + r.length] for r in FM.ranges
           if r.target is not None}
    side = duel.acting_side
    out.update(main_mode=b"\x03", scene=bytes([duel.phase, 0]),
               acting_record=(0x800E9FF0 + 0x20 * side).to_bytes(4, "little"),
               trap_id=b"\0\0", trap_record=b"\0", effect_card=b"\0\0")
    return out


def _chooser(seed: int, cpu_ai: bool) -> Callable[[FmDuel], object]:
    state = [seed]

    def choose(duel: FmDuel):
        if cpu_ai and duel.acting_side == 1:
            return choose_action(duel)
        acts = duel.legal_actions()
        for _ in range(8):  # prefer plays of one or two cards, as people mostly make
            state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
            action = acts[state[0] % len(acts)]
            if len(getattr(action, "cards", ())) <= 2:
                break
        if duel.acting_side == 1:  # the CPU's AI used some rand() calls
            action = dataclasses.replace(action, rng_calls=state[0] % 3)
        return action
    return choose


def synth_fm(steps: int = 40, seed: int = 7, duelist: int = 7, state: int = 0x12345678,
             tamper: Callable[[int, FmDuel, bytearray], None] | None = None,
             before_step: Callable[[int, FmDuel, object], object] | None = None,
             step: Callable[[int, FmDuel, object], None] | None = None,
             first_step: int = 0, cpu_ai: bool = False, decoys: bool = False,
             calls_after_deal: int = 0) -> Synth:
    """A capture of ``steps`` actions (fewer if the duel ends).

    ``before_step(n, duel, action)`` may return another action for step n (1-based);
    ``step(n, duel, action)`` replaces ``duel.step`` (to play what emucore forbids);
    ``tamper(n, duel, image)`` edits the settled image written for step n and every later
    one (n = 0: the opening); ``first_step`` > 0 starts the file at that step (a capture
    begun mid-duel); ``cpu_ai`` lets emucore's computer opponent play side 1; ``decoys``
    writes, for each play of three or more cards, an animation record equal to the result of
    playing only its first two (a partial chain that looks like a complete shorter play);
    ``calls_after_deal`` ``rand()`` calls happen between the deal and the duel's first record.
    """
    setup = FmSetup(deck=list(DECK), duelist=duelist, sort="none", state=state, computer=[1])
    writer = CaptureWriter(FM)
    duel = new_duel(setup)
    for _ in range(calls_after_deal):
        duel.rng.rand()
    menu = {name: b"\0" * len(data) for name, data in ranges_of(duel.snapshot(), duel).items()}
    frame = 100
    for k in range(MENU_FRAMES, -1, -1):
        if not first_step:
            writer.add(frame, 0xFFFF, int(jump(state, -k & 0xFFFFFFFF)), menu)
        frame += 1
    synth = Synth("", setup)
    edits: list[Callable[[bytearray], None]] = []

    def write(image: bytes, pad: int) -> None:
        nonlocal frame
        frame += 17
        if n < first_step:
            return
        data = bytearray(image)
        for edit in edits:
            edit(data)
        writer.add(frame, pad, int(np.frombuffer(bytes(data[M.OFFSET["globals"]:][:4]),
                                                 "<u4")[0]), ranges_of(bytes(data), duel))

    n = 0
    if tamper:
        edits.append(lambda data, d=duel: tamper(0, d, data))
    if not first_step:
        write(duel.snapshot(), 0xFFFF)
    choose = _chooser(seed, cpu_ai)
    for n in range(1, steps + 1):
        if duel.over:
            break
        action = choose(duel)
        if before_step:
            action = before_step(n, duel, action) or action
        previous = duel.snapshot()
        decoy = _partial_chain(duel, action) if decoys else None
        (step or _plain_step)(n, duel, action)
        synth.actions.append(action)
        after = duel.snapshot()
        side_end = M.OFFSET["side"] + M.LENGTH["side"]
        write(after[:side_end] + previous[side_end:], 0xBFFF)  # the animation
        if decoy is not None:
            write(decoy, 0xBFFF)
        if tamper:
            edits.append(lambda data, n=n, d=duel: tamper(n, d, data))
        write(after, 0xFFFF)
        synth.lines.append(len(writer.lines))  # the settled record's line number
    synth.text, synth.over = writer.text(), duel.over
    return synth


def _plain_step(_n: int, duel: FmDuel, action: object) -> None:
    duel.step(action)


def _partial_chain(duel: FmDuel, action: object) -> bytes | None:
    """The state after playing only the first two cards of a longer chain, or None."""
    if not isinstance(action, Play) or len(action.cards) < 3:
        return None
    saved = duel.snapshot()
    try:
        duel.step(dataclasses.replace(action, cards=action.cards[:2]))
        return duel.snapshot()
    finally:
        duel.restore(saved)
