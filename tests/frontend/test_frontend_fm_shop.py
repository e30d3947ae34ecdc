"""The Password shop, Trade and two-player set-up screens, driven headless through the pads.
Expected values come from the decompiled routines (krystalgamer/memories-decomp): the shop's
``Password_UpdateShopScreen`` (``src/overlays/password/shop.c``: Cross looks up, 227 offers,
the price counts down, no ``rand()``), ``Main_RunMenu`` (``src/game/main_modes.c``: one
``rand()`` a frame on the menus), ``MainMenu_UpdateTradeScreen``
(``src/overlays/main_menu/trade_update.c``) and ``MainMenu_UpdateValueSetup``
(``src/overlays/main_menu/value_setup.c``)."""

from __future__ import annotations

import json

import pytest
from frontend_fmdriver import new_app, press, screen_name, wait

from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.fm import password as P
from emucore.fm import trade as TR
from emucore.frontend import layout
from emucore.frontend.systems.fm.menu import ITEMS
from emucore.frontend.systems.fm.session import SAVE_VERSION, FmGame, validate_save
from emucore.hw.psyq_rand import BOOT_STATE, Rand

RYU_KISHIN, CODE, PRICE = 5, (1, 5, 3, 0, 3, 2, 9, 6), 30  # cards.csv: 15303296, 30
MENU_SCREENS = {"TitleScreen", "MainMenu", "SecondSave"}  # Main_RunMenu's frames


class Run:
    """Steps the app and counts the frames whose screen calls rand(): Main_RunMenu's, but
    not the first menu frame after another mode (Main_Loop's reset pass, no call)."""

    def __init__(self) -> None:
        self.app = new_app()
        self.rand_frames = 0
        self.in_menu = True  # power-on: the title's first pass is past its reset
        step = self.app.step

        def counted(words=None):
            menu = screen_name(self.app) in MENU_SCREENS
            self.rand_frames += menu and self.in_menu
            self.in_menu = menu
            return step(words)

        self.app.step = counted  # type: ignore[method-assign]

    def rng(self) -> int:
        rng = Rand(BOOT_STATE)
        for _ in range(self.rand_frames):
            rng.rand()
        return rng.state


def write_save(extra: dict[str, int], starchips: int, name: str = "save.json",
               version: int = 2) -> tuple[FmGame, dict]:
    """A save on disk (by FmGame, in the test's data folder) with ``extra`` chest cards."""
    game = FmGame()
    game.new_game()
    for card, n in extra.items():
        game.data["trunk"][card] = game.data["trunk"].get(card, 0) + n
    game.data["starchips"] = starchips
    data = json.loads(json.dumps(game.data))
    if version == 1:
        data["version"] = 1
        data.pop(P.SAVE_FIELD, None)
    path = game.save_file.path.parent / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return game, data


def to_menu_item(app, item: str) -> None:
    """Move the main menu's cursor down to ``item`` and choose it."""
    while ITEMS[app.screen.menu.cursor] != item:
        press(app, "down")
    press(app, "cross")


def continue_game(app) -> None:
    press(app, "start")
    press(app, "cross")  # Continue is first when a save exists
    assert screen_name(app) == "MainMenu"


def enter_code(app, code) -> None:
    for digit in code:
        for _ in range(digit):
            press(app, "up")
        press(app, "right")
        wait(app, P.CURSOR_FRAMES - 1)


def test_a_purchase_from_power_on_to_continue():
    """Power-on, Continue a version-1 save of 100 starchips (read as no password used),
    Password, 15303296, Cross, Exchange: Ryu-kishin joins the chest and 30 starchips count
    down; Save, back to the title, Continue: 70 starchips, one more Ryu-kishin, the password
    used, and the RNG advanced once per frame on the menus and never in the shop."""
    write_save({}, 100, version=1)
    run = Run()
    app = run.app
    continue_game(app)
    owned = app.screen.game.trunk_count(RYU_KISHIN)
    to_menu_item(app, "Password")
    assert screen_name(app) == "PasswordScreen"
    enter_code(app, CODE)
    press(app, "cross")
    wait(app, 1 + P.LOAD_FRAMES + P.REVEAL_FRAMES)
    assert app.screen.shop.message == P.OFFER
    press(app, "cross")  # Exchange
    wait(app, len(P.countdown(PRICE)) + P.HIDE_FRAMES)
    assert app.screen.shop.state == P.ENTRY
    press(app, "circle")
    assert screen_name(app) == "MainMenu"
    to_menu_item(app, "Save")
    to_menu_item(app, "Title")
    continue_game(app)
    game = app.screen.game
    assert game.data["starchips"] == 100 - PRICE
    assert game.trunk_count(RYU_KISHIN) == owned + 1
    assert game.data[P.SAVE_FIELD] == [RYU_KISHIN] and game.data["version"] == 2
    assert game.rng.state == run.rng()


def test_the_countdown_is_shown_frame_by_frame():
    """State 3 shows the starchips after each slice (Password_RefreshStarchipDisplay)."""
    write_save({}, 100)
    app = new_app()
    continue_game(app)
    to_menu_item(app, "Password")
    enter_code(app, CODE)
    press(app, "cross")
    wait(app, 1 + P.LOAD_FRAMES + P.REVEAL_FRAMES)
    shop = app.screen.shop
    app.step((word_from_buttons("psx", ["cross"]), IDLE["psx"]))
    shown = []
    for _ in P.countdown(PRICE):
        app.step((IDLE["psx"], IDLE["psx"]))
        shown.append(shop.starchips)
    assert shown == [100 - PRICE + left for left in P.countdown(PRICE)]


def test_the_rng_stands_still_in_the_shop():
    """Main_RunPasswordMenu (mode 10) calls no rand(); leaving it writes the menu's mode,
    whose first pass is Main_Loop's reset pass (no call), then one call a frame."""
    write_save({}, 0)
    app = new_app()
    continue_game(app)
    to_menu_item(app, "Password")
    game = app.screen.game
    state = game.rng.state
    wait(app, 50)
    enter_code(app, CODE)
    assert game.rng.state == state and game.mode == "password"
    app.step((word_from_buttons("psx", ["circle"]), IDLE["psx"]))
    assert screen_name(app) == "MainMenu" and game.rng.state == state
    wait(app, 1)
    assert game.rng.state == state  # the menu's reset pass
    wait(app, 3)
    rng = Rand(state)
    for _ in range(3):
        rng.rand()
    assert game.rng.state == rng.state


def trade_setup(mine: dict[str, int], theirs: dict[str, int]):
    game, _ = write_save(mine, 5)
    _, friend = write_save(theirs, 9, "friend.json")
    return game.save_file.path.parent / "friend.json", friend


def to_setup(app) -> None:
    """Main menu -> Two Players -> the friend's save (past "One save for both")."""
    to_menu_item(app, "Two Players")
    press(app, "down")
    press(app, "cross")
    assert screen_name(app) == "TwoPlayerSetupScreen"


def two_player_setup():
    """Power-on with this save and a friend's, Continue, the two-player set-up."""
    trade_setup({}, {})
    app = new_app()
    continue_game(app)
    to_setup(app)
    return app


def test_a_trade_through_the_pads_writes_both_saves():
    """Pad 1 offers its first chest card, pad 2 its first; Square on both pads; Cross on
    the dialog's Trade: both saves on disk hold the other's card, the rest as it was; the
    RNG moved once a frame on the menus (the second-save choice included) and never on the
    Trade screen."""
    path, friend = trade_setup({"700": 2}, {"701": 1})
    run = Run()
    app = run.app
    continue_game(app)
    to_menu_item(app, "Trade")
    assert screen_name(app) == "SecondSave"
    press(app, "cross")
    assert screen_name(app) == "TradeScreen"
    press(app, "cross")
    press(app, "cross", player=1)
    press(app, "square")
    press(app, "square", player=1)
    assert app.screen.dialog == TR.TRADE
    press(app, "cross")
    mine = json.loads(app.screen.game.save_file.path.read_text())
    theirs = json.loads(path.read_text())
    assert mine["trunk"]["700"] == 1 and mine["trunk"]["701"] == 1
    assert theirs["trunk"]["700"] == 1 and "701" not in theirs["trunk"]
    assert theirs["starchips"] == friend["starchips"] and theirs["deck"] == friend["deck"]
    assert app.screen.deal.sides[0].offer == [] and app.notices[-1].startswith("Traded")
    wait(app, 30)
    assert app.screen.game.rng.state == run.rng()


def test_a_bad_second_save_is_refused_on_screen_and_kept():
    """A second save that validate_save refuses: one line on screen, the file unchanged."""
    game, _ = write_save({}, 0)
    bad = game.save_file.path.parent / "friend.json"
    bad.write_text('{"version": 2, "trunk": []}')
    app = new_app()
    continue_game(app)
    to_menu_item(app, "Trade")
    press(app, "cross")
    assert screen_name(app) == "SecondSave"
    assert app.screen.error == f"{bad}: trunk must be an object of card id -> copies"
    assert bad.read_text() == '{"version": 2, "trunk": []}'


def test_the_two_player_setup_takes_the_second_saves_deck_and_the_chosen_lp():
    """Two Players -> the friend's save -> pad 1 Left twice (8000 -> 7000), pad 2 Left once
    (7500); the numbers roll 100 a frame and a side reads no input while its number rolls
    (a Left during the roll is lost); Start duels with those LP."""
    app = two_player_setup()
    press(app, "left")
    press(app, "left")  # still rolling 8000 -> 7500: not read
    wait(app, 5)
    press(app, "left")
    press(app, "left", player=1)
    wait(app, 10)
    press(app, "start")
    assert screen_name(app) == "DuelScreen"
    assert list(app.screen.duel.st.sides.lp) == [7000, 7500]


def test_hands_shown_at_the_setup_plays_without_a_hand_over():
    """The set-up's shared choice (MainMenu_UpdateValueSetup's byte D_8009B230): Up from a
    bar to the choice, Right to "Hands shown"; the duel then shows no hand-over screen and
    both hands (emucore's reading of the choice, named in trade.TwoPlayerSetup); "Hands
    hidden", the default, keeps the hand-over."""
    for shown in (False, True):
        app = two_player_setup()
        if shown:
            press(app, "up")
            wait(app, 12)
            press(app, "right")
            wait(app, 2)
        press(app, "start")
        assert screen_name(app) == "DuelScreen"
        screen = app.screen
        wait(app, 240)
        assert screen.hands_shown is shown
        assert screen.handing_over is not shown
        assert [screen.hand_visible(0), screen.hand_visible(1)] == [shown, shown]


def test_the_setups_shared_choice_is_kept_for_the_session():
    """D_8009B230: Main_Init stores 1 (Hands hidden) once, MainMenu_StartValueSetup reads
    it on each visit and MainMenu_FinishValueSetup writes it back on Start or Circle; the
    life points start at 8000 each visit (func_8002DC38). It is RAM, not the save."""
    app = two_player_setup()
    press(app, "left")
    wait(app, 6)  # 8000 rolls to 7500 by 100 a frame
    press(app, "up")
    wait(app, 12)
    press(app, "right")
    wait(app, 2)
    assert app.screen.setup.position == 1 and app.screen.setup.lp[0] == 7500
    press(app, "circle")
    assert screen_name(app) == "MainMenu"
    to_setup(app)
    setup = app.screen.setup
    assert setup.position == 1 and setup.hands_shown and setup.lp == [8000, 8000]
    assert "view_mode" not in json.dumps(app.screen.game.data)
    assert FmGame().view_mode == TR.VIEW_MODE_START == 1


def drawn(app) -> list:
    fb = app.fb
    fb.text_rects = []
    app.screen.draw(app, fb)
    return fb.text_rects


def test_the_trade_screen_with_offers_and_its_dialog_is_drawn_whole():
    """The layout rules of the tour (test_frontend_layout_tour): nothing outside the
    screen, no text over text; here with offers on both sides and the dialog open."""
    trade_setup({str(c): 1 for c in range(700, 722)}, {str(c): 3 for c in range(600, 650)})
    app = new_app()
    continue_game(app)
    to_menu_item(app, "Trade")
    press(app, "cross")
    for _ in range(TR.OFFER_LIMIT):
        press(app, "cross")
        press(app, "down")
    press(app, "cross", player=1)
    press(app, "square")
    press(app, "square", player=1)
    texts = drawn(app)
    assert layout.problems(texts, (0, 0, app.fb.width, app.fb.height)) == []
    assert {"Trade", "Change", "Quit"} <= {t for _, t in texts}


def test_the_used_passwords_are_checked_and_a_version_1_save_has_none():
    """The used bits (flag 0x400 + card) of cards 1..722, each once; a version-1 save, from
    before the shop, is read as having used none and is written as version 2."""
    _, data = write_save({}, 0, version=1)
    validate_save(data)
    assert data[P.SAVE_FIELD] == [] and data["version"] == SAVE_VERSION
    for bad in ([5, 5], [0], [723], ["5"], [True], {}):
        with pytest.raises(ValueError, match="passwords must list distinct card ids"):
            validate_save({**data, P.SAVE_FIELD: bad})


def test_the_second_save_screen_names_its_folder_from_the_home(tmp_path, monkeypatch):
    """The folder to copy a friend's save into, as the player would type it: under the home
    folder as ~/...; elsewhere whole."""
    from emucore.frontend import paths
    monkeypatch.setenv("HOME", str(tmp_path))  # the test's data folder is tmp_path/data
    write_save({}, 0)
    app = new_app()
    continue_game(app)
    to_menu_item(app, "Trade")
    assert "Saves in ~/data/fm" in {t for _, t in drawn(app)}
    assert paths.shown(tmp_path.parent / "fm") == str(tmp_path.parent / "fm")
