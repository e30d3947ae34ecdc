"""A tour of every screen of every system, reached headless through the pad only.

Each stop is a named list of pad presses from a fresh title screen (a fresh app, its own data
folder), so stops do not depend on each other. ``tools/gallery.py`` photographs the stops and
the layout tests check the text of each.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from emucore.duel.files import write_atomic
from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.fm.mainloop import QUICK_NAME, key_at
from emucore.frontend import systems
from emucore.frontend.app import App
from emucore.frontend.display import init_video
from emucore.frontend.machine import machine

# A press is a button name ("cross"), several joined by "+", "wait:N" (N idle frames),
# "esc" (the pause hotkey), "autoplay" (an FM duel played to its end by duel_buttons) or
# "partner" (a friend's FM save put beside the game's, for Trade and two players).
AUTOPLAY_FRAMES = 20_000


def timed(script: tuple[tuple[int, str], ...], now: int) -> list[str]:
    """Presses at the frames of ``script`` ((frame, button), counted on one screen), from
    that screen's frame ``now`` on: waits between them, each press taking two frames."""
    out: list[str] = []
    for frame, button in script:
        if frame > now:
            out.append(f"wait:{frame - now}")
        out.append(button)
        now = frame + 2
    return out


# New Game, then the quickest name entry (its frame 0 is the frame after Cross's release)
_FM_NEW_GAME = ["start", "cross"]
_FM_MENU = [*_FM_NEW_GAME, *timed(QUICK_NAME, 1)]
# Free Duel: a new game has Duel Master K alone (left of the first cell)
_FM_DUEL = [*_FM_MENU, "cross", "left", "wait:1", "cross", "wait:240"]
_FM_TWO_PLAYERS = [*["down"] * 4, "cross", "cross", "start"]  # one save for both, then Start
_FM_PASSWORD = [*_FM_MENU, *["down"] * 7, "cross"]
_FM_TRADE = [*["down"] * 8, "cross"]
# Ryu-kishin's password (15303296): each digit turned up, then Right and the cursor's slide
_FM_RYU_KISHIN = [p for digit in (1, 5, 3, 0, 3, 2, 9, 6)
                  for p in (*["up"] * digit, "right", "wait:7")]
_DM1_MENU = ["start", "a"]
_DM1_DUEL = [*_DM1_MENU, "a", "a", "wait:60"]
_PAPER_DUEL = ["cross", "cross", "down", "cross", "wait:60"]
_PAPER_END_TURN = ["start", "down", "cross", "wait:200"]  # the computer's turn follows

STOPS: dict[str, tuple[tuple[str, str, list[str]], ...]] = {
    # system: ((stop name, machine, presses), ...)
    "fm": (
        ("title", "psx", ["wait:2"]),
        ("main_menu", "psx", _FM_MENU),
        ("free_duel", "psx", [*_FM_MENU, "cross"]),
        ("duel", "psx", _FM_DUEL),
        ("duel_raise", "psx", [*_FM_DUEL, "up", "right", "up"]),
        ("duel_field", "psx", [*_FM_DUEL, "cross", "cross", "right", "cross", "cross",
                               "wait:120"]),
        ("duel_battle", "psx", [*_FM_DUEL, "cross", "right", "cross", "cross", "cross",
                                "wait:200", "start", "wait:214"]),
        ("campaign", "psx", [*_FM_MENU, "down", "cross"]),
        ("build_deck", "psx", [*_FM_MENU, "down", "down", "cross"]),
        ("library", "psx", [*_FM_MENU, "down", "down", "down", "cross", "down"]),
        ("result", "psx", [*_FM_DUEL, "autoplay"]),
        ("hand_over", "psx", [*_FM_MENU, *_FM_TWO_PLAYERS, "wait:240"]),
        ("two_players", "psx", [*_FM_MENU, *_FM_TWO_PLAYERS, "wait:240", "cross"]),
        ("controls", "psx", [*_FM_MENU, *["down"] * 6, "cross"]),
        ("pause", "psx", [*_FM_DUEL, "esc"]),
        ("pause_options", "psx", [*_FM_DUEL, "esc", "down", "down", "cross", "left"]),
        ("pause_forfeit", "psx", [*_FM_DUEL, "esc", "down", "cross"]),
        # turn 2: the first hand card played on column 2 turns to defence (Triangle): it
        # has acted, and the cursor stays on it, dimmed
        ("duel_acted", "psx", [*_FM_DUEL, "cross", "cross", "cross", "cross", "wait:120",
                               "start", "wait:900", "cross", "cross", "right", "cross",
                               "cross", "wait:120", "triangle", "wait:120"]),
        ("duel_rank_meter", "psx", [*_FM_DUEL, "select"]),
        ("duel_long_name", "psx", [*_FM_DUEL, "right", "right", "right"]),
        # a deal one grid frame later, whose third and fifth hand cards fuse: both raised
        # and played, the star is asked over the fusion's result
        ("duel_star_fusion", "psx", [*_FM_MENU, "cross", "left", "wait:2", "cross",
                                     "wait:240", "right", "right", "up", "right", "right",
                                     "up", "cross", "cross", "cross"]),
        ("library_long_name", "psx", [*_FM_MENU, "down", "down", "down", "cross",
                                      *["right"] * 4, *["down"] * 11]),
        ("build_deck_long_name", "psx", [*_FM_MENU, "down", "down", "cross", "down", "down"]),
        ("hand_over_player_2", "psx", [*_FM_MENU, *_FM_TWO_PLAYERS, "wait:240",
                                       "cross", "cross", "cross", "cross", "cross", "wait:200",
                                       "start", "wait:200"]),
        ("result_two_players", "psx", [*_FM_MENU, *_FM_TWO_PLAYERS, "wait:240",
                                       "autoplay"]),
        # an attack on the first turn: the engine's refusal, in the panel beside the hand
        ("duel_refusal", "psx", [*_FM_DUEL, "cross", "cross", "cross", "cross", "wait:120",
                                 "cross"]),
        ("duel_turn_banner", "psx", [*_FM_MENU, "cross", "left", "cross", "wait:20"]),
        # name entry: the opening box in, the keyboard with a name typed, the closing box
        ("name_entry", "psx", [*_FM_NEW_GAME, "wait:14"]),
        ("name_entry_keyboard", "psx", [*_FM_NEW_GAME, *timed(QUICK_NAME[:2], 1), "wait:14",
                                        "down", "wait:8", "right", "wait:8"]),
        ("name_entry_confirm", "psx", [*_FM_NEW_GAME, *timed(QUICK_NAME[:4], 1), "wait:15"]),
        # the campaign's first story duel forfeited: game over
        ("game_over", "psx", [*_FM_MENU, "down", "cross", "cross", "wait:240", "esc", "down",
                              "cross", "cross", "wait:2"]),
        ("password", "psx", _FM_PASSWORD),
        # a new game has no starchips: the card is shown, its Exchange cannot be chosen
        ("password_short", "psx", [*_FM_PASSWORD, *_FM_RYU_KISHIN, "cross", "wait:20"]),
        ("trade_no_second_save", "psx", [*_FM_MENU, *_FM_TRADE]),
        ("trade_second_save", "psx", [*_FM_MENU, "partner", *_FM_TRADE]),
        ("trade", "psx", [*_FM_MENU, "partner", *_FM_TRADE, "cross"]),
        ("two_player_setup", "psx", [*_FM_MENU, "partner", *["down"] * 4, "cross", "down",
                                     "cross", "left", "wait:10"]),
    ),
    "dm1": (
        ("title", "gb", ["wait:2"]),
        ("main_menu", "gb", _DM1_MENU),
        ("opponents", "gb", [*_DM1_MENU, "a"]),
        ("deck_edit", "gb", [*_DM1_MENU, "down", "a"]),
        ("duel", "gb", _DM1_DUEL),
        # passing every turn loses; the last wait lets the result's prompt appear
        ("result", "gb", [*_DM1_DUEL, *["start", "wait:1000"] * 3, "wait:60"]),
        ("pause", "gb", [*_DM1_MENU, "esc"]),
        ("duel_six_cards", "gb", [*_DM1_DUEL, "start", "wait:600", *["right"] * 5]),
        ("duel_computer", "gb", [*_DM1_DUEL, "start", "wait:200"]),  # its attack plays
        ("duel_long_name", "gb", [*_DM1_DUEL, "right", "right"]),
        ("duel_order", "gb", [*_DM1_DUEL, "right", "a", "a", "wait:2"]),  # turn 1: no attack
        ("pause_forfeit", "gb", [*_DM1_DUEL, "esc", "down"]),
        ("forfeit_result", "gb", [*_DM1_DUEL, "esc", "down", "a", "a", "wait:60"]),
    ),
    "ocg1999": (
        ("title", "psx", ["wait:2"]),
        ("duel", "psx", _PAPER_DUEL),
        ("duel_board", "psx", [*_PAPER_DUEL, "wait:200", "left", "left"]),
        ("duel_menu", "psx", [*_PAPER_DUEL, "wait:200", "start"]),
        ("duel_computer", "psx", [*_PAPER_DUEL, "wait:200", "start", "down", "cross",
                                  "wait:120"]),
        # ending every turn at once, the player loses on LP in the 10th
        ("result", "psx", [*_PAPER_DUEL, "wait:200", *_PAPER_END_TURN * 10]),
        # the computer has just set a card face-down: "CPU sets a card", no name
        ("cpu_set", "psx", [*_PAPER_DUEL, "wait:200", "start", "down", "cross", "wait:309"]),
        ("long_name", "psx", [*_PAPER_DUEL, "wait:200", "right", "right"]),
        ("pause_forfeit", "psx", [*_PAPER_DUEL, "wait:200", "esc"]),
        ("result_forfeit", "psx", [*_PAPER_DUEL, "wait:200", "esc", "down", "cross", "cross"]),
        # mid-attack: the attacker lunges, the LP count down and flash
        ("cpu_attack", "psx", [*_PAPER_DUEL, "wait:200", "start", "down", "cross", "wait:415"]),
        # two players: player 1 ends the turn, player 2 is asked to take the pad (their key)
        ("hand_over", "psx", ["down", "cross", "cross", "down", "cross", "wait:60", "cross",
                              *_PAPER_END_TURN[:3], "wait:60"]),
    ),
    "tcglite": (
        ("title", "psx", ["wait:2"]),
        ("duel", "psx", _PAPER_DUEL),
        ("duel_board", "psx", [*_PAPER_DUEL, "wait:200", "up"]),
        ("result", "psx", [*_PAPER_DUEL, "wait:200", *_PAPER_END_TURN * 6]),  # lost on LP
        # the player summons a monster the computer's cannot beat: it sets one face-down
        ("cpu_set", "psx", [*_PAPER_DUEL, "wait:200", "cross", "cross", "wait:100",
                            *_PAPER_END_TURN[:3], "wait:303", "cross", "cross", "wait:100",
                            *_PAPER_END_TURN[:3], "wait:85"]),
        ("long_name", "psx", [*_PAPER_DUEL, "wait:200", "right", "cross", "cross", "wait:30",
                              "up", "left"]),
        ("pause_forfeit", "psx", [*_PAPER_DUEL, "wait:200", "esc"]),
        ("result_forfeit", "psx", [*_PAPER_DUEL, "wait:200", "esc", "down", "cross", "cross"]),
    ),
}


def name_entry_buttons(screen) -> list[str]:
    """What a simple player presses on the name-entry screen: close a box once it waits,
    type the glyph under the cursor into an empty name, then Start and End."""
    entry = screen.entry
    if entry.phase in ("intro", "confirm"):
        return ["cross"] if entry.box_waiting() else []
    if entry.phase != "keyboard" or entry.frame < entry.busy_until:
        return []
    if not entry.name:
        return ["cross"]
    return ["cross"] if key_at(entry.row, entry.col) == "End" else ["start"]


def duel_buttons(screen) -> list[str]:
    """What a simple player presses on the FM duel screen: play the first hand card face
    up on the first zone with the first star; attack with every monster that can (none on
    the first turn); end turn."""
    if screen.queue or screen.timer or screen.handing_over:
        return ["cross"]  # skip messages; take the pad at a hand-over
    view, ui = screen.view, screen.ui
    if view.acting_side not in screen.humans or view.over:
        return []
    if ui.mode in ("hand", "face", "zone", "star"):
        if ui.mode == "zone" and ui.cursor not in ui.zones:
            return ["right"]
        return ["cross"]
    if ui.mode == "target":
        return ["cross"]
    ready = _attackers(screen.duel)
    if ui.mode == "field" and ready:
        if ui.row != "monster":
            return ["up" if ui.row == "magic" else "down"]
        if ui.cursor != ready[0]:
            return ["right"]
        return ["cross"]
    return ["start"]


def _attackers(duel) -> list[int]:
    """The columns the duel offers an attack from (none while it offers no attack)."""
    attack = ("kind", "attack")
    if attack not in duel.options():
        return []
    return [column for _, column in duel.options((attack,))]


def press(app: App, press: str) -> None:
    """One press of the tour: held for one frame then one idle frame, ``wait:N``, or
    ``autoplay`` (the FM duel played by :func:`duel_buttons` until the screen changes)."""
    idle = IDLE[app.machine.name]
    if press.startswith("wait:"):
        for _ in range(int(press[5:])):
            app.step((idle, idle))
        return
    if press == "esc":
        app.pause()
        app.step((idle, idle))
        return
    if press == "partner":
        _fm_partner(app.screen.game)
        return
    if press == "autoplay":
        duel = app.screen
        for _ in range(AUTOPLAY_FRAMES):
            if app.screen is not duel:
                return
            buttons = duel_buttons(duel)
            word = word_from_buttons(app.machine.name, buttons) if buttons else idle
            app.step((word, idle))
            app.step((idle, idle))
        raise RuntimeError(f"the duel did not end within {AUTOPLAY_FRAMES} presses")
    app.step((word_from_buttons(app.machine.name, press.split("+")), idle))
    app.step((idle, idle))


def _fm_partner(game) -> None:
    """Write ``friend.json`` beside the FM game's save: its deck, and a chest of one copy of
    each of the first ten cards (the tour's second memory card)."""
    friend = json.loads(json.dumps(game.data))
    for card in range(1, 11):
        friend["trunk"][str(card)] = friend["trunk"].get(str(card), 0) + 1
    write_atomic(game.save_file.path.parent / "friend.json", json.dumps(friend))


def visit(system: str, profile: str, presses: list[str], data_dir: Path) -> App:
    """A fresh headless app of ``system`` on ``profile`` after ``presses`` from its title
    screen, its saves in ``data_dir`` (which should be empty: a fresh game)."""
    os.environ["EMUCORE_DATA_DIR"] = str(data_dir)
    init_video(headless=True)
    app = App(machine(profile), system, headless=True, sound=False)
    app.switch(systems.load(system).title_screen(app))
    for p in presses:
        press(app, p)
    return app


def tour(data_dir: Path, only: str | None = None) -> Iterator[tuple[str, str, App]]:
    """(system, stop name, app standing on that screen) for every stop, in order; each stop
    keeps its saves in its own subfolder of ``data_dir``."""
    for system, stops in STOPS.items():
        if only is not None and system != only:
            continue
        for name, profile, presses in stops:
            yield system, name, visit(system, profile, presses, data_dir / f"{system}-{name}")
