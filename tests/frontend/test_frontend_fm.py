"""Forbidden Memories playable end to end through the pad only (headless), golden screens,
saves, the Free Duel RNG, Build Deck, the rank meter and two players."""

from __future__ import annotations

import json

from frontend_fmdriver import choose, new_app, press, screen_name, to_main_menu, wait
from frontend_golden import check
from frontend_padbot import PadBot, duel_buttons, name_entry_buttons

from emucore.cli import main
from emucore.duel.padlog import IDLE
from emucore.fm.story import DUEL_MASTER_K
from emucore.frontend.systems.fm.meter import live_rank
from emucore.frontend.systems.fm.session import FmGame, validate_save

MAX_FRAMES = 20_000


def play_free_duel(app, bot: PadBot) -> None:
    """From the title screen to the result screen, every input a pad press."""
    while app.frame < MAX_FRAMES:
        name = screen_name(app)
        if name == "ResultScreen":
            return
        if name == "TitleScreen":
            buttons = ["start"] if app.screen.menu is None else ["cross"]
        elif name == "DuelScreen":
            buttons = duel_buttons(app.screen)
        elif name == "NameEntryScreen":
            buttons = name_entry_buttons(app.screen)
        elif name == "FreeDuelSelect" and app.screen.cursor != DUEL_MASTER_K - 1:
            buttons = ["left"]  # a new game has Duel Master K alone, left of the first cell
        else:  # main menu (Free Duel is first) and the Free Duel grid
            buttons = ["cross"]
        app.step((bot.word(app.frame, buttons), IDLE["psx"]))
    raise AssertionError(f"no result screen after {MAX_FRAMES} frames")


def test_free_duel_from_title_to_result_through_the_pad(tmp_path, monkeypatch, capsys):
    app = new_app()
    bot = PadBot()
    play_free_duel(app, bot)
    result = app.screen
    end = result.end
    assert end.winner in (0, 1) and end.reason in ("lp", "deckout", "exodia")
    assert end.rank in {"S-POW", "A-POW", "B-POW", "C-POW", "D-POW", "D-TEC", "C-TEC",
                        "B-TEC", "A-TEC", "S-TEC"}
    save = json.loads(result.game.save_file.path.read_text())
    validate_save(save)
    assert save["records"][str(DUEL_MASTER_K)] == [int(end.winner == 0), int(end.winner == 1)]
    if end.winner == 0:
        assert save["starchips"] == end.starchips and save["trunk"][str(end.drop)] >= 1
    app.step((IDLE["psx"], IDLE["psx"]))
    frames, digest, log = app.frame, app.fb.digest(), app.pad_log()
    press(app, "cross")
    assert screen_name(app) == "FreeDuelSelect"

    # The same pad log through `emucore play --headless --script` ends on the same frame.
    script = tmp_path / "duel.pad"
    script.write_text(log)
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "second"))
    assert main(["play", "--headless", "--script", str(script), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["frames"] == frames and summary["screen"] == "ResultScreen"
    assert summary["framebuffer_sha256"] == digest


def test_golden_screens():
    app = new_app()
    app.step((IDLE["psx"], IDLE["psx"]))
    check("fm_title", app.fb.digest())
    to_main_menu(app)
    check("fm_main_menu", app.fb.digest())
    press(app, "cross")
    assert screen_name(app) == "FreeDuelSelect"
    check("fm_free_duel", app.fb.digest())
    press(app, "left")  # a new game has Duel Master K alone
    press(app, "cross")
    assert screen_name(app) == "DuelScreen"
    check("fm_duel_opening", app.fb.digest())
    app.toggles["rank_meter"] = True
    wait(app, 1)
    check("fm_duel_rank_meter", app.fb.digest())


def test_golden_library_and_build_deck():
    app = new_app()
    to_main_menu(app)
    choose(app, 3)
    assert screen_name(app) == "Library"
    press(app, "down")
    check("fm_library", app.fb.digest())
    press(app, "circle")
    press(app, "up")
    press(app, "cross")
    assert screen_name(app) == "BuildDeck"
    check("fm_build_deck", app.fb.digest())


def test_free_duel_grid_calls_rand_once_per_frame():
    app = new_app()
    to_main_menu(app)
    press(app, "cross")
    game = app.screen.game
    before = game.rng.calls
    wait(app, 100)
    assert game.rng.calls - before == 100


def test_menus_call_rand_once_per_frame_so_the_starter_deck_depends_on_timing():
    decks = []
    for idle_frames in (0, 0, 1):
        app = new_app()
        wait(app, idle_frames)
        to_main_menu(app)
        decks.append(list(app.screen.game.deck))
    assert decks[0] == decks[1] and decks[0] != decks[2]


def test_locked_duelist_cannot_be_chosen():
    app = new_app()
    to_main_menu(app)
    press(app, "cross")
    press(app, "right")  # Teana: locked at a new game
    press(app, "cross")
    assert screen_name(app) == "FreeDuelSelect"


def test_save_then_continue_restores_the_game(user_dirs):
    app = new_app()
    to_main_menu(app)
    deck = list(app.screen.game.deck)
    choose(app, 5)  # Save
    assert any("Saved to" in n for n in app.notices)
    second = new_app()
    press(second, "start")
    assert second.screen.menu.items == ["Continue", "New Game"]  # issue 14: Continue first
    press(second, "cross")  # Continue
    assert screen_name(second) == "MainMenu" and second.screen.game.deck == deck


def test_corrupt_save_is_moved_aside_with_a_message(user_dirs, capsys):
    save = user_dirs / "data" / "fm" / "save.json"
    save.parent.mkdir(parents=True)
    save.write_text('{"version": 1, "trunk": {"9999": 1}}')
    app = new_app()
    press(app, "start")
    press(app, "cross")  # Continue
    assert screen_name(app) == "TitleScreen"
    assert any("corrupt save" in n and "save.json.corrupt-1" in n for n in app.notices)
    assert (save.parent / "save.json.corrupt-1").read_text().startswith('{"version": 1')
    assert not save.exists()
    assert "corrupt save" in capsys.readouterr().err
    press(app, "cross")  # the menu now offers New Game only
    assert screen_name(app) == "NameEntryScreen"


def test_build_deck_needs_forty_cards_and_keeps_the_copy_limit():
    app = new_app()
    to_main_menu(app)
    choose(app, 2)
    screen = app.screen
    card = screen.cards[0]
    have = screen.counts[card]
    press(app, "left")
    assert screen.counts[card] == have - 1
    press(app, "circle")
    assert screen_name(app) == "BuildDeck"
    assert any("exactly 40 cards (39 now)" in n for n in app.notices)
    press(app, "right")
    assert app.notices[-1].startswith("40/40: the deck is ready")  # issue 14: feedback at 40
    press(app, "right")  # a 41st card is refused, in one sentence
    assert sum(screen.counts.values()) == 40
    assert app.notices[-1] == "The deck is full (40/40): take a card out first."
    press(app, "square")  # sort order changes
    assert screen.order != "id"
    press(app, "circle")
    assert screen_name(app) == "MainMenu"
    assert app.screen.game.data["sort"] == screen.order


def test_rank_meter_matches_the_score_table():
    game = FmGame()
    counters = {"turns": 1, "effective_attacks": 0, "defensive_wins": 0,
                "face_down_plays": 0, "pure_magic": 0, "traps_triggered": 0, "fusions": 0,
                "equips": 0, "draw_cursor": 5, "lp": 8000}
    result = live_rank(game, counters)
    # 50 + 2 (win by LP) + 12 + 4 + 0 + 0 + 2 + 2 + 15 + 6 + 4 + 4 = 101 -> clamped S-POW
    assert result.score == 101 and result.rank == "S-POW" and result.starchips == 5
    counters.update(turns=33, defensive_wins=15, lp=50, draw_cursor=37)
    # 50 + 2 - 12 + 4 - 40 + 0 + 2 + 2 - 7 - 7 + 4 + 4 = 2 -> mirrored 97 -> S-TEC
    assert live_rank(game, counters).rank == "S-TEC"


def test_two_players_share_one_machine():
    app = new_app()
    to_main_menu(app)
    choose(app, 4)  # Two Players -> the second save: one save for both -> the set-up
    press(app, "cross")
    press(app, "start")
    screen = app.screen
    assert screen_name(app) == "DuelScreen" and screen.humans == {0, 1}
    bot = PadBot()
    while screen.view.acting_side == 0 or screen.queue or screen.timer:
        app.step((bot.word(app.frame, duel_buttons(screen)), IDLE["psx"]))
    assert screen.view.acting_side == 1 and screen.me == 1
    plays = screen.view.sides[1].counters["draw_cursor"]
    assert screen.handing_over and not screen.hand_visible(1)
    press(app, "cross", player=1)  # player 2 takes the turn on pad 2: their hand shows
    assert not screen.handing_over and screen.hand_visible(1)
    for _ in range(10):  # pad 1 cannot act for player 2 on the turn pad 2 took
        app.step((bot.word(app.frame, ["cross"]), IDLE["psx"]))
    assert screen.ui.mode == "hand" and not screen.ui.raised
    while screen.view.acting_side == 1 and app.frame < 3000:
        app.step((IDLE["psx"], bot.word(app.frame, duel_buttons(screen))))
    assert screen.view.acting_side == 0
    assert screen.view.sides[1].counters["turns"] == 1 and plays == 5
