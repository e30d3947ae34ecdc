"""Forbidden Memories from power-on, headless through the pad: title, name entry, Build Deck,
Free Duel, a duel, Save, Continue; then the campaign's game over. The expected RNG state is
counted from the routines' per-frame calls (krystalgamer/memories-decomp: Main_RunMenu one
a frame, NameEntry_Main one a frame, FreeDuel_Entry one a frame, Main_Loop's reset pass none,
Duel_ShuffleDeck 320 per deck) with emucore.hw.psyq_rand, never read off emucore's run; the
starter deck is NameEntry_BuildStarterDeck (emucore.fm.deck.starter_deck) at that index."""

from __future__ import annotations

import json
from collections import Counter

from frontend_fmdriver import new_app, screen_name

from emucore.cli import main
from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.duel.padlog import load as load_pad
from emucore.fm import deck as fm_deck
from emucore.hw.psyq_rand import BOOT_STATE, Rand, jump_int
from emucore.tables import load

PER_FRAME = {"menu": 1, "name": 1, "free_duel": 1, "build_deck": 0, "duel": 0}
RESET_PASS = {"menu", "free_duel", "build_deck", "duel"}  # entered through Main_Loop
NAME_PRESSES = ((14, "cross"), (28, "cross"), (42, "start"), (50, "cross"), (65, "cross"))
NAME_FRAMES = 67  # the frame after the closing press finishes (see tests/fm/test_fm_mainloop)
SHUFFLE_CALLS = 2 * 320  # Duel_ShuffleBothDecks: Duel Master K's deck is a copy, no generation


class Run:
    """A pad run planned segment by segment, with the calls the routines make in each."""

    def __init__(self) -> None:
        self.presses: dict[int, str] = {}
        self.frame = 0
        self.calls = 0
        self.mode: str | None = "menu"  # power-on: the title's first pass, past its reset

    def spend(self, mode: str, frames: int, presses=()) -> None:
        """``frames`` frames in ``mode`` with (offset, button) presses held one frame."""
        for offset, button in presses:
            self.presses[self.frame + offset] = button
        entered = mode != self.mode
        self.calls += PER_FRAME[mode] * (frames - (entered and mode in RESET_PASS))
        self.mode, self.frame = mode, self.frame + frames

    def play(self, app, until: int) -> None:
        idle = IDLE["psx"]
        while app.frame < until:
            button = self.presses.get(app.frame)
            app.step((word_from_buttons("psx", [button]) if button else idle, idle))


def new_game(run: Run, title_wait: int) -> int:
    """Title (wait, Start, Cross on New Game), then the quickest name: the deal's index."""
    run.spend("menu", title_wait + 2, [(title_wait, "start"), (title_wait + 1, "cross")])
    run.spend("name", NAME_FRAMES, NAME_PRESSES)
    return run.calls


def test_power_on_to_continue_ends_in_the_state_the_routines_give(tmp_path):
    app = new_app()
    run = Run()
    index = new_game(run, 10)
    run.play(app, run.frame)
    fm = load("fm")
    dealt = Rand(jump_int(BOOT_STATE, index))
    starter = fm_deck.starter_deck(dealt, fm)
    game = app.screen.game
    assert game.deck == starter and game.data["name"] == "A"
    assert game.rng.state == dealt.state  # the deal's own calls, nothing more yet
    after_deal = dealt.state

    # main menu: Build Deck (down, down, Cross), back with Circle; Free Duel (up, up, Cross)
    run.calls = 0
    run.spend("menu", 6, [(1, "down"), (3, "down"), (5, "cross")])
    run.spend("build_deck", 6, [(5, "circle")])
    run.spend("menu", 6, [(1, "up"), (3, "up"), (5, "cross")])
    # the grid: Left to Duel Master K (a new game's one opponent), Cross
    run.spend("free_duel", 11, [(1, "left"), (10, "cross")])
    run.spend("duel", 30)
    run.play(app, run.frame)
    assert screen_name(app) == "DuelScreen"
    deal_state = jump_int(after_deal, run.calls)
    assert app.screen.view.rng_state == jump_int(deal_state, SHUFFLE_CALLS)

    # forfeit from the pause menu (Forfeit, then yes): a loss, no starchips, no card
    app.pause()
    for button in ("down", "cross", "cross"):
        app.step((word_from_buttons("psx", [button]), IDLE["psx"]))
        app.step((IDLE["psx"], IDLE["psx"]))
    assert screen_name(app) == "FreeDuelSelect"
    run.frame, run.calls, run.mode = app.frame, 0, "free_duel"  # its reset pass is past
    after_duel = jump_int(deal_state, SHUFFLE_CALLS)
    run.spend("free_duel", 4, [(3, "circle")])
    # main menu: down x5 to Save, Cross; down x4 to Title (past Password, Trade), Cross;
    # Start, Cross on Continue
    run.spend("menu", 12, [(1 + 2 * k, "down") for k in range(5)] + [(11, "cross")])
    run.spend("menu", 10, [(1 + 2 * k, "down") for k in range(4)] + [(9, "cross")])
    run.spend("menu", 5, [(1, "start"), (3, "cross")])
    run.spend("menu", 2)
    run.play(app, run.frame)
    assert screen_name(app) == "MainMenu"
    game = app.screen.game
    assert game.rng.state == jump_int(after_duel, run.calls)
    saved = json.loads(game.save_file.path.read_text())
    assert saved == game.data
    assert saved["trunk"] == {str(c): n for c, n in Counter(starter).items()}
    assert saved["starchips"] == 0 and saved["records"] == {"39": [0, 1]}
    assert saved["name"] == "A" and saved["unlocked"] == [39] and saved["story"] == []


def test_a_recorded_run_replays_to_the_same_state(tmp_path, monkeypatch, capsys):
    """`emucore play --record` logs the pad from power-on; the log, played again, ends on
    the same frame with the same screen (the Free Duel grid shows the RNG state)."""
    run = Run()
    index = new_game(run, 3)
    run.calls = 0
    run.spend("menu", 2, [(1, "cross")])
    run.spend("free_duel", 20)
    lines = ["0 -"]
    for f, button in sorted(run.presses.items()):
        lines.append(f"{f} {button}")
        if f + 1 not in run.presses:
            lines.append(f"{f + 1} -")
    script = tmp_path / "in.pad"
    script.write_text("\n".join([*lines, f"{run.frame} end", ""]))
    record = tmp_path / "rec.pad"
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "first"))
    assert main(["play", "--headless", "--script", str(script), "--record", str(record),
                 "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "second"))
    assert main(["play", "--headless", "--script", str(record), "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert first["screen"] == second["screen"] == "FreeDuelSelect"
    assert first["framebuffer_sha256"] == second["framebuffer_sha256"]
    app = new_app()
    run.play(app, run.frame)
    dealt = Rand(jump_int(BOOT_STATE, index))
    fm_deck.starter_deck(dealt, load("fm"))
    assert run.calls == 1 + 19  # the menu's reset pass and Cross; the grid's reset and 19
    assert app.screen.game.rng.state == jump_int(dealt.state, run.calls)


def test_a_campaign_loss_is_game_over_and_try_again_offers_the_duel_again(tmp_path):
    """the-game.md §7.12: a lost campaign duel (here forfeited) is game over
    (Main_RunGameOver); trying again offers the same story duel, Seto (§7.1)."""
    app = new_app()
    run = Run()
    new_game(run, 0)
    run.spend("menu", 6, [(1, "down"), (3, "cross")])  # Campaign
    run.spend("menu", 4, [(1, "cross")])  # Seto, the first story duel
    run.spend("duel", 20)
    run.play(app, run.frame)
    assert screen_name(app) == "DuelScreen" and app.screen.campaign
    app.pause()
    for button in ("down", "cross", "cross", None, None):
        app.step((word_from_buttons("psx", [button]) if button else IDLE["psx"], IDLE["psx"]))
        app.step((IDLE["psx"], IDLE["psx"]))
    assert screen_name(app) == "GameOverScreen"
    app.step((word_from_buttons("psx", ["cross"]), IDLE["psx"]))  # Try again
    app.step((IDLE["psx"], IDLE["psx"]))
    assert screen_name(app) == "CampaignScreen"
    assert app.screen.choices[0] == (7, True) and app.screen.game.game_over is None


def test_plan_starter_pad_log_deals_the_wanted_index(tmp_path, monkeypatch, capsys):
    """`plan starter --pad-log INDEX`: the log played from power-on deals the starter deck
    of INDEX (NameEntry_BuildStarterDeck at the state INDEX calls after the boot state)."""
    index = 150
    assert main(["plan", "starter", "--pad-log", str(index), "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    expected = fm_deck.starter_deck(Rand(jump_int(BOOT_STATE, index)), load("fm"))
    assert plan["deck"] == expected and plan["title_wait"] == index - 2 - NAME_FRAMES
    script = tmp_path / "starter.pad"
    script.write_text(plan["log"])
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "data"))
    assert main(["play", "--headless", "--script", str(script), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["screen"] == "MainMenu"
    app = new_app()
    pads = load_pad("psx", script)
    while app.frame < pads.end:
        app.step(pads.words_at(app.frame)[0])
    assert app.screen.game.deck == expected


def test_plan_starter_pad_log_refuses_an_index_before_the_first_deal(capsys):
    assert main(["plan", "starter", "--pad-log", "68"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "before the earliest deal from power-on (69" in err[0]
