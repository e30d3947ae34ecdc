"""Forbidden Memories' whole loop in one headless pad log from power-on, and the same through
Trade between two saves.

The first run starts with a save on the memory card, as a player's console would: title,
New Game, name entry (the starter deck dealt), the Password shop (no starchips: refused),
back to the title, Continue the save, Build Deck, the Password shop (a purchase), Free Duel
and its duel, Save, Title, Continue. A purchase needs the save: a new game holds 0
starchips, a win pays tier + 1, at most 5 (``DuelScene_UpdateResultRewards``), and the
cheapest password costs 10 (cards.csv). The unsaved new game is lost at Continue, as on the
console; the one RNG stream runs on through it all.

Expected values come from the routines, never from emucore's run: the RNG state frame by
frame from each mode's per-frame ``rand()`` calls (frontend_fmloop.Walk: ``Main_RunMenu``,
``NameEntry_Main``, ``FreeDuel_Entry`` one a frame, ``Main_RunPasswordMenu``,
``Main_RunTrade`` and Build Deck none, ``Main_Loop``'s reset pass none), the starter deck by
``NameEntry_BuildStarterDeck`` at that state (emucore.fm.deck.starter_deck, pinned against
the original in its own tests), Duel Master K's deal by ``Duel_ShuffleBothDecks`` (320 calls
a deck), the price and password from the card table (cards.csv, ``Password_LookupCardID``),
the shop's refusal below the price (message 228), the starchips of a win ``tier + 1``, and
the trade rule (``MainMenu_UpdateTradeScreen``: each offered copy out of one chest into the
other). What a duel itself does (its turns, the drop, its last RNG state) is the duel
engine's, pinned by the duel's own ledger; the walk takes the duel's end from its result
and derives everything after it.
"""

from __future__ import annotations

import json
from collections import Counter

from frontend_fmdriver import new_app
from frontend_fmloop import Walk, card_row
from frontend_padbot import duel_buttons, name_entry_buttons

from emucore.cli import main
from emucore.duel.padlog import load as load_pad
from emucore.fm import deck as fm_deck
from emucore.fm.story import DUEL_MASTER_K
from emucore.frontend.systems.fm.session import FmGame
from emucore.hw.psyq_rand import Rand, jump_int, state_at
from emucore.tables import load

SHUFFLE_CALLS = 2 * 320  # Duel_ShuffleBothDecks: Duel Master K's deck is a copy, no generation
RYU_KISHIN = 5  # cards.csv: password 15303296, 30 starchips
TIERS = "DCBAS"  # the rank's tier, D = 0 (DuelScene_UpdateResultRewards)
SAVED_STARCHIPS = 100


def write_save(name: str, starchips: int = 0, extra: dict[int, int] | None = None,
               file: str = "save.json") -> dict:
    """A save on the memory card (a file in the FM save folder): a new game dealt at the boot
    state, with ``starchips`` and ``extra`` chest cards; returns it as written."""
    game = FmGame()
    game.new_game(name)
    game.data["starchips"] = starchips
    for card, n in (extra or {}).items():
        game.data["trunk"][str(card)] = game.data["trunk"].get(str(card), 0) + n
    path = game.save_file.path.parent / file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(game.data))
    return json.loads(path.read_text())


def counts(trunk: dict[str, int]) -> Counter:
    """A save's trunk as card -> copies."""
    return Counter({int(c): n for c, n in trunk.items()})


def new_game(walk: Walk, title_wait: int) -> list[int]:
    """``title_wait`` frames on the title, Start, New Game (below Continue when a save
    exists), the name "A"; returns the starter deck dealt at the state the frames give (its
    own calls taken too)."""
    walk.wait(title_wait)
    walk.press("start")
    while walk.app.screen.menu.items[walk.app.screen.menu.cursor] != "New Game":
        walk.press("down")
    walk.press("cross")
    walk.until("MainMenu", name_entry_buttons)
    dealt = Rand(walk.state)
    starter = fm_deck.starter_deck(dealt, load("fm"))
    walk.state = dealt.state
    assert walk.game.deck == starter and walk.game.rng.state == walk.state
    return starter


def look_up(walk: Walk, card: int) -> None:
    """In the shop: the card's password, Cross, and the reveal's 1 + 1 + 16 frames."""
    walk.digits(card_row(card)["password"])
    walk.press("cross")
    walk.wait(18)


def title_and_continue(walk: Walk) -> None:
    walk.menu_item("Title")
    walk.press("start")
    walk.press("cross")  # Continue, first when a save exists
    assert walk.screen == "MainMenu"


def test_power_on_to_continue_through_the_whole_loop(tmp_path, monkeypatch):
    saved = write_save("S", SAVED_STARCHIPS)
    price = int(card_row(RYU_KISHIN)["starchip_cost"])
    assert price == 30 and card_row(RYU_KISHIN)["password"] == "15303296"
    walk = Walk()

    # a new game: the starter deck at the frames spent; the shop refuses (message 228)
    new_game(walk, 10)
    walk.menu_item("Password")
    look_up(walk, RYU_KISHIN)
    shop = walk.app.screen.shop
    assert shop.card == RYU_KISHIN and shop.message == 228 and shop.starchips == 0
    walk.press("cross")  # the dialog's cursor is on Quit (Exchange cannot be chosen)
    walk.wait(16)
    walk.press("circle")
    assert walk.screen == "MainMenu" and walk.game.data["passwords"] == []

    # the title, Continue: the save on the card (the new game was never saved)
    title_and_continue(walk)
    assert walk.game.data == saved

    # Build Deck and back (Main_RunBuildDeckMenu: the menu's first frame back is a reset)
    walk.menu_item("Build Deck")
    walk.press("circle")
    assert walk.screen == "MainMenu"

    # the purchase: the card to the chest, the price counted down out of the starchips
    walk.menu_item("Password")
    look_up(walk, RYU_KISHIN)
    assert walk.app.screen.shop.message == 227
    walk.press("cross")  # Exchange
    walk.wait(40)
    walk.press("circle")
    assert walk.game.data["starchips"] == SAVED_STARCHIPS - price

    # Free Duel against Duel Master K: the deal at the grid's frames, then 2 x 320 shuffle
    # calls; the duel played to its end by the pad player, then back to the main menu
    walk.menu_item("Free Duel")
    walk.until("DuelScreen", lambda s: ["left"] if s.cursor != DUEL_MASTER_K - 1 else
               ["cross"])
    assert walk.game.rng.state == walk.state
    assert walk.app.screen.view.rng_state == jump_int(walk.state, SHUFFLE_CALLS)
    walk.until("ResultScreen", duel_buttons)
    end = walk.app.screen.end
    walk.until("MainMenu", lambda s: ["cross"] if walk.screen == "ResultScreen" else
               ["circle"])
    walk.menu_item("Save")
    title_and_continue(walk)

    game = walk.game
    won = end.winner == 0
    chest = counts(saved["trunk"]) + Counter([RYU_KISHIN])
    chest += Counter([end.drop] if won else [])
    assert counts(game.data["trunk"]) == chest
    earned = TIERS.index(end.rank[0]) + 1 if won else 0
    assert game.data["starchips"] == SAVED_STARCHIPS - price + earned
    assert game.data["passwords"] == [RYU_KISHIN]
    assert Counter(game.data["deck"]) == Counter(saved["deck"])  # Build Deck sorts it
    assert game.data["records"] == {str(DUEL_MASTER_K): [int(won), int(not won)]}
    assert game.rng.state == walk.state
    assert json.loads(game.save_file.path.read_text()) == game.data

    # the same pad log, played again from power-on on the same memory card, ends the same
    log = tmp_path / "loop.pad"
    log.write_text(walk.app.pad_log())
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "again"))
    write_save("S", SAVED_STARCHIPS)
    app = new_app()
    pads = load_pad("psx", log)
    hint = 0
    while app.frame < pads.end:
        words, hint = pads.words_at(app.frame, hint)
        app.step(words)
    assert app.screen.game.data == game.data and app.screen.game.rng.state == walk.state


def test_power_on_through_trade_to_continue():
    """Power-on, New Game, Trade with a friend's save: pad 2 offers two copies of card 700
    and one of 701, pad 1 (a new game's chest is empty: its 40 cards are the deck) offers
    nothing, both Square, Trade; leave, Save, Title, Continue. Each copy went out of the
    friend's chest into this one (MainMenu_UpdateTradeScreen), both saves were written
    (SaveData_RequestTradeWrite), and the RNG moved once a frame on the menus and the
    second-save choice (Main_RunMenu), never in Trade (Main_RunTrade), none in the menu's
    first frame back (Main_Loop's reset pass)."""
    friend = write_save("B", extra={700: 2, 701: 1}, file="friend.json")
    walk = Walk()
    starter = new_game(walk, 25)
    walk.menu_item("Trade")
    assert walk.screen == "SecondSave"
    walk.press("cross")  # friend.json, the only other save
    assert walk.screen == "TradeScreen"
    path = walk.app.screen.path
    rows = walk.app.screen.rows(1)
    for card in (700, 700, 701):
        while rows[walk.app.screen.cursor[1]] != card:
            walk.press("down", pad=2)
        walk.press("cross", pad=2)
    walk.press("square", pad=2)
    walk.press("square")
    walk.press("cross")  # the dialog's Trade
    walk.press("circle")  # nothing on the table: leave
    assert walk.screen == "MainMenu"
    walk.menu_item("Save")
    title_and_continue(walk)

    game = walk.game
    mine = Counter(starter) + Counter({700: 2, 701: 1})
    assert counts(game.data["trunk"]) == mine
    written = json.loads(path.read_text())
    assert counts(written["trunk"]) == counts(friend["trunk"]) - Counter({700: 2, 701: 1})
    assert {k: v for k, v in written.items() if k != "trunk"} == \
        {k: v for k, v in friend.items() if k != "trunk"}
    assert game.rng.state == walk.state


def test_the_starter_pad_log_plans_print_plays_as_it_is(tmp_path, capsys):
    """``plan starter --pad-log INDEX`` prints a pad log ``play --script`` reads unchanged (its
    summary as comments), and played from power-on it deals the deck of INDEX: the starter
    deck ``NameEntry_BuildStarterDeck`` deals at that RNG index (emucore.fm.deck.starter_deck,
    pinned against the original in its own tests)."""
    index = 1000
    assert main(["plan", "starter", "--pad-log", str(index)]) == 0
    text = capsys.readouterr().out
    path = tmp_path / "starter.pad"
    path.write_text(text)
    script = load_pad("psx", path)
    app = new_app()
    hint = 0
    for frame in range(script.end):
        words, hint = script.words_at(frame, hint)
        app.step(words)
    printed = next(line for line in text.splitlines() if line.startswith("#   deck: "))
    deck = [int(c) for c in printed.split(":")[1].split()]
    expected = fm_deck.starter_deck(Rand(state_at(index)), load("fm"))
    assert app.screen.game.deck == deck == expected
