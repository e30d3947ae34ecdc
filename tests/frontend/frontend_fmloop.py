"""A pad-only walk through Forbidden Memories' main loop that counts, frame by frame, the
``rand()`` calls the original's routines make, from the screen each frame runs: the
expected RNG state of the headless whole-loop tests (test_frontend_fm_loop.py).

The counts are the decompiled routines' (krystalgamer/memories-decomp), written out here,
not read from emucore.fm.mainloop: ``Main_RunMenu`` (the title, both menus and the second-save
choice, ``SaveData_UpdateLoadPair``) one a frame; ``NameEntry_Main`` one a frame in its own
loop inside the menu's pass; ``FreeDuel_Entry`` one a frame; ``Main_RunPasswordMenu``,
``Main_RunTrade`` and ``Main_RunDuel`` none; Build Deck and the campaign none (the choices
named in the ledger); and every mode written through ``Main_Loop`` spends its first pass in
``Main_ResetFrontendRuntime`` (no call).
"""

from __future__ import annotations

import csv
from pathlib import Path

from frontend_fmdriver import new_app, screen_name

from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.hw.psyq_rand import BOOT_STATE, jump_int

CARDS_CSV = Path(__file__).resolve().parents[2] / "roms_tables" / "fm" / "cards.csv"
MODE_OF_SCREEN = {"TitleScreen": "menu", "MainMenu": "menu", "SecondSave": "menu",
                  "NameEntryScreen": "name", "BuildDeck": "build_deck",
                  "PasswordScreen": "password", "FreeDuelSelect": "free_duel",
                  "CampaignScreen": "campaign", "DuelScreen": "duel", "ResultScreen": "duel",
                  "TradeScreen": "trade"}
PER_FRAME = {"menu": 1, "name": 1, "free_duel": 1, "build_deck": 0, "password": 0,
             "trade": 0, "campaign": 0, "duel": 0}
NO_RESET_PASS = {"name"}  # NameEntry_Main runs inside Main_RunMenu's pass
IDLE_WORD = IDLE["psx"]


def card_row(card: int) -> dict[str, str]:
    """The card's row of the card table (its password and starchip price)."""
    with CARDS_CSV.open(newline="") as f:
        return next(r for r in csv.DictReader(f) if int(r["id"]) == card)


class Walk:
    """The app from power-on, stepped one pad word a frame, with the RNG state the routines
    give (:attr:`state`) kept beside it. A duel's own calls are the duel engine's: when a
    result screen opens, :attr:`state` takes the duel's end state."""

    def __init__(self) -> None:
        self.app = new_app()
        self.state, self.mode = BOOT_STATE, "menu"  # power-on: the title's first pass

    @property
    def game(self):
        return self.app.screen.game

    @property
    def screen(self) -> str:
        return screen_name(self.app)

    def frame(self, pad1: list[str] | None = None, pad2: list[str] | None = None) -> None:
        """One frame with ``pad1``/``pad2`` held (None: idle)."""
        name = self.screen
        mode = MODE_OF_SCREEN[name]
        entered = mode != self.mode and mode not in NO_RESET_PASS
        self.state = jump_int(self.state, 0 if entered else PER_FRAME[mode])
        self.mode = mode
        words = tuple(word_from_buttons("psx", b) if b else IDLE_WORD for b in (pad1, pad2))
        self.app.step(words)
        if self.screen == "ResultScreen" and name == "DuelScreen":
            self.state = self.game.rng.state

    def press(self, *buttons: str, pad: int = 1) -> None:
        """Hold ``buttons`` one frame on a pad, then release them one frame."""
        self.frame(list(buttons) if pad == 1 else None, list(buttons) if pad == 2 else None)
        self.frame()

    def wait(self, frames: int) -> None:
        for _ in range(frames):
            self.frame()

    def until(self, screen: str, buttons, limit: int = 40_000) -> None:
        """Frames chosen by ``buttons(screen object)`` (a press, then a release) until the
        screen is ``screen``."""
        for _ in range(limit // 2):
            if self.screen == screen:
                return
            self.frame(buttons(self.app.screen) or None)
            self.frame()
        raise AssertionError(f"no {screen} after {limit} frames (on {self.screen})")

    def menu_item(self, item: str) -> None:
        """Down to ``item`` on the main menu, then Cross."""
        from emucore.frontend.systems.fm.menu import ITEMS
        while ITEMS[self.app.screen.menu.cursor] != item:
            self.press("down")
        self.press("cross")

    def digits(self, code: str) -> None:
        """Turn the Password shop's eight digits to ``code`` (Up per step, Right to the next
        digit, then the 7 frames the cursor slide holds the shop)."""
        for digit in code:
            for _ in range(int(digit)):
                self.press("up")
            self.press("right")
            self.wait(7)
