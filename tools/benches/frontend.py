"""Frontend speed: one duel frame drawn at native size plus the 3x integer scale.

For each machine profile the system's own duel screen is reached through the pad (psx: fm,
gb: dm1), a few turns are played so the board holds cards, then each sample draws the screen
into the index framebuffer and presents it: 8-bit palettised surface, conversion, 3x
``scale_by`` into the window (SDL dummy driver). 1,000 frames per machine, after 10 warm-up
frames that fill the card-image cache, regardless of ``--repeat``; the goal is a median under
2 ms (12% of a 59.8 Hz frame).
"""

from __future__ import annotations

import os
import tempfile

from bench import measure

FRAMES = 1000
SETTLE = 600  # frames of play before measuring, so the board is populated
SYSTEMS = (("psx", "fm"), ("gb", "dm1"))


def _duel_app(profile: str, system: str):
    """A headless app whose current screen is the system's duel screen (via the pad)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("EMUCORE_DATA_DIR", tempfile.mkdtemp(prefix="emucore-bench-"))
    from emucore.duel.padlog import IDLE, word_from_buttons
    from emucore.frontend import systems
    from emucore.frontend.app import App
    from emucore.frontend.display import init_video
    from emucore.frontend.machine import machine

    init_video(headless=True)
    app = App(machine(profile), system, headless=True, scale=3, sound=False)
    app.switch(systems.load(system).title_screen(app))
    idle = IDLE[profile]
    presses = [word_from_buttons(profile, [b]) for b in ("start", "confirm", "confirm")]
    # FM's Free Duel grid opens on Simon Muran, locked in a new game: one Left wraps the
    # cursor to the last duelist, Duel Master K, open from the start (fm.story)
    left = word_from_buttons(profile, ["left"])
    frame, wrapped = 0, False
    while type(app.screen).__name__ != "DuelScreen":
        frame += 1
        if frame > 2000:
            raise RuntimeError(f"{system}: no duel screen reached through the pad")
        word = presses[frame // 2 % 3]
        if frame % 2 and type(app.screen).__name__ == "FreeDuelSelect" and not wrapped:
            word, wrapped = left, True
        app.step((word if frame % 2 else idle, idle))
    confirm, end = word_from_buttons(profile, ["confirm"]), word_from_buttons(profile, ["start"])
    for i in range(SETTLE):
        if app.screen is None or type(app.screen).__name__ != "DuelScreen":
            break
        word = (confirm if i % 40 < 30 else end) if i % 2 else idle
        app.step((word, idle))
    return app


def run(repeat: int) -> list[tuple[str, float, float, str, str]]:
    rows = []
    for profile, system in SYSTEMS:
        app = _duel_app(profile, system)
        screen, fb, display = app.screen, app.fb, app.display
        assert display.scale == 3, display.scale

        def frame(screen=screen, fb=fb, display=display, app=app) -> None:
            screen.draw(app, fb)
            display.render(fb)

        for _ in range(10):  # first draws paint the card-image cache
            frame()
        median, worst = measure(frame, FRAMES)
        rows.append((f"{profile} ({system}) duel frame, draw + 3x scale", median * 1e3,
                     worst * 1e3, "ms", "median < 2 ms"))
    return rows
