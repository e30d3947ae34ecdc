"""Drive the FM app headless through the pad only, for the tests."""

from __future__ import annotations

from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.frontend.app import App
from emucore.frontend.display import init_video
from emucore.frontend.machine import machine
from emucore.frontend.systems import fm


def new_app(system: str = "fm", name: str = "psx") -> App:
    init_video(headless=True)
    app = App(machine(name), system, headless=True, sound=False)
    if system == "fm":
        app.switch(fm.title_screen(app))
    return app


def press(app: App, *buttons: str, player: int = 0, hold: int = 1) -> None:
    """Hold ``buttons`` for ``hold`` frames on one pad, then release for one frame."""
    idle = IDLE[app.machine.name]
    word = word_from_buttons(app.machine.name, list(buttons))
    for _ in range(hold):
        app.step((word, idle) if player == 0 else (idle, word))
    app.step((idle, idle))


def wait(app: App, frames: int) -> None:
    idle = IDLE[app.machine.name]
    for _ in range(frames):
        app.step((idle, idle))


def screen_name(app: App) -> str:
    return type(app.screen).__name__


def enter_name(app: App) -> None:
    """The quickest name entry (mainloop.QUICK_NAME) from the name screen's next frame."""
    from emucore.fm.mainloop import QUICK_NAME
    from emucore.frontend.tour import press as tour_press
    from emucore.frontend.tour import timed
    for p in timed(QUICK_NAME, app.screen.entry.frame):
        tour_press(app, p)


def to_main_menu(app: App) -> None:
    """Title -> Start -> New Game -> the quickest name entry -> main menu."""
    from emucore.frontend.tour import _FM_MENU
    from emucore.frontend.tour import press as tour_press
    for p in _FM_MENU:
        tour_press(app, p)
    assert screen_name(app) == "MainMenu"


def choose(app: App, index: int) -> None:
    """Move a menu cursor down ``index`` times and confirm."""
    for _ in range(index):
        press(app, "down")
    press(app, "cross")
