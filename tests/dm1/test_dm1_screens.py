"""DM1 screens on the gb machine, driven headless by pad words as a script would."""

from __future__ import annotations

import json

import pytest

from emucore.dm1 import ai
from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import ORDERS
from emucore.duel.padlog import word_from_buttons
from emucore.frontend.app import App
from emucore.frontend.systems import dm1 as screens
from emucore.frontend.systems.dm1_duel import DuelScreen

IDLE = 0


@pytest.fixture
def app(headless_app):
    return headless_app("gb", "dm1")


def press(app: App, *buttons: str, idle: int = 1) -> None:
    """One frame with ``buttons`` held, then ``idle`` frames with nothing held."""
    app.step((word_from_buttons("gb", set(buttons)), IDLE))
    for _ in range(idle):
        app.step((IDLE, IDLE))


def new_game(app: App) -> screens.Dm1Game:
    app.switch(screens.title_screen(app))
    press(app, "start")
    press(app, "a")  # New Game
    assert isinstance(app.screen, screens.MainMenu)
    return app.screen.game


def test_title_new_game_deals_a_40_card_deck_and_the_frame_is_160x144(app):
    """spec/dm1.md §3: "Starter deck: 33 monsters drawn at random from a 100-card pool + 7
    fixed magic cards" (reference/dm1/starter_pool.csv and its README row)."""
    game = new_game(app)
    assert len(game.deck) == 40 and sum(game.trunk.values()) == 40
    assert all(c in game.t.starter_pool for c in game.deck[:33])
    assert sorted(game.deck[33:]) == [337, 338, 339, 343, 343, 344, 350]
    assert app.fb.pixels.shape == (144, 160) and int(app.fb.pixels.max()) <= 3


def test_opponent_select_opens_stage_one_only(app):
    game = new_game(app)
    press(app, "a")  # Duel
    select = app.screen
    assert isinstance(select, screens.OpponentSelect)
    stages = [o["stage"] for o in select.order]
    assert stages == sorted(stages)
    assert select.menu.disabled == {i for i, s in enumerate(stages) if s > 1}
    for o in game.t.opponents:
        if o["stage"] == 1:
            game.wins[o["id"]] = 5
    assert game.unlocked_stage() == 2


def test_a_duel_played_by_the_pad(app):
    new_game(app)
    press(app, "a")  # Duel
    press(app, "a")  # first stage-1 opponent
    duel_screen = app.screen
    assert isinstance(duel_screen, DuelScreen)
    duel = duel_screen.duel
    hand = duel.hand_cards(0)
    first_monster = next(i for i, c in enumerate(hand) if duel.t.is_monster(c))
    for _ in range(first_monster):
        press(app, "right")
    press(app, "a")  # choose the card
    press(app, "right")
    press(app, "a")  # into zone 1
    assert duel.zone_card(0, 1) == hand[first_monster]
    assert duel.v.phase[0] == ORDERS
    press(app, "down")
    press(app, "a")  # Def.
    assert duel.acting_side == 1
    for _ in range(app.machine.action_frames * 10):  # the computer's turn, step by step
        app.step((IDLE, IDLE))
        if duel.acting_side == 0:
            break
    assert duel.acting_side == 0 and duel.v.turn[0] == 3


def test_start_passes_the_play(app):
    """Issue 15 item 6: the player may play no card; START in the hand passes."""
    new_game(app)
    press(app, "a")  # Duel
    press(app, "a")  # first stage-1 opponent
    duel = app.screen.duel
    hand = duel.hand_cards(0)
    press(app, "start")
    assert duel.hand_cards(0) == hand and duel.acting_side == 1
    assert "You play no card." in app.screen.log


def test_a_finished_duel_shows_the_result_and_counts_the_win(app):
    """reference/dm1/drops.csv: the card won comes from Tristan's drop table (29 cards)."""
    game = new_game(app)
    seed = next(s for s in range(50) if _winner(game, s) == 0)
    duel = Dm1Duel(game.deck, opponent=10, seed=seed)
    ai.play_out(duel)
    app.switch(DuelScreen(game, 10, duel))
    before = sum(game.trunk.values())
    press(app, "a")
    assert isinstance(app.screen, screens.ResultScreen)
    won = app.screen.won
    assert game.wins[10] == 1 and sum(game.trunk.values()) == before + 1
    assert game.t.drops[10, won.drop] > 0 and won.reward is None
    press(app, "a", idle=screens.RESULT_HOLD)  # presses count once the result has shown
    press(app, "a")
    assert isinstance(app.screen, screens.MainMenu)


def test_the_tenth_win_brings_the_milestone_reward(app):
    """reference/dm1/victory_rewards.csv: each opponent's reward at 10 wins, e.g. "Bandit
    Keith,10,325,Machine Conversion"; it comes on top of the drop."""
    game = new_game(app)
    game.wins[8] = 9
    seed = next(s for s in range(200) if _winner(game, s, opponent=8) == 0)
    duel = Dm1Duel(game.deck, opponent=8, seed=seed)
    ai.play_out(duel)
    before = sum(game.trunk.values())
    won = game.finish(8, duel)
    assert (won.wins, won.reward) == (10, 325) and game.t.drops[8, won.drop] > 0
    assert sum(game.trunk.values()) == before + 2
    app.switch(screens.ResultScreen(game, 8, duel, won))
    app.step((IDLE, IDLE))
    assert game.wins[8] == 10


def _winner(game: screens.Dm1Game, seed: int, opponent: int = 10) -> int | None:
    duel = Dm1Duel(game.deck, opponent=opponent, seed=seed)
    ai.play_out(duel)
    return duel.winner


def test_deck_edit_needs_40_cards_to_leave(app):
    game = new_game(app)
    press(app, "down")
    press(app, "a")  # Deck Edit
    assert isinstance(app.screen, screens.DeckEdit)
    press(app, "a")  # the first deck card goes back to the trunk
    assert len(game.deck) == 39
    press(app, "b")
    assert isinstance(app.screen, screens.DeckEdit) and "needs 40" in app.notices[-1]
    press(app, "right")
    press(app, "a")  # a spare copy from the trunk into the deck
    assert len(game.deck) == 40
    press(app, "b")
    assert isinstance(app.screen, screens.MainMenu)


def test_save_and_continue_round_trip(app):
    game = new_game(app)
    game.wins[3] = 7
    game.save()
    other = screens.Dm1Game()
    assert other.load() is None
    assert other.deck == game.deck and other.wins[3] == 7 and other.trunk == game.trunk


def test_corrupt_save_is_kept_aside_with_a_message(app):
    game = new_game(app)
    game.save()
    data = json.loads(game.save_file.path.read_text())
    data["deck"] = data["deck"][:39]
    game.save_file.path.write_text(json.dumps(data))
    message = screens.Dm1Game().load()
    assert "corrupt save" in message and "39 cards" in message
    assert game.save_file.path.with_name("save.json.corrupt-1").exists()
    assert not game.save_file.path.exists()


def test_play_command_headless(tmp_path, monkeypatch, capsys):
    from emucore import cli
    monkeypatch.setenv("EMUCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path / "data"))
    script = tmp_path / "dm1.pad"
    script.write_text("0 -\n5 start\n6 -\n8 a\n9 -\n12 a\n13 -\n16 a\n17 -\n40 end\n")
    assert cli.main(["play", "--system", "dm1", "--headless", "--script", str(script),
                     "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["screen"] == "DuelScreen"


def test_deck_edit_up_wraps_to_the_last_card_then_a_does_not_crash(app):
    """Issue 17 "Why" 1: New Game, Deck Edit, Up (the cursor wraps to the last card), A used
    to raise IndexError in Menu.draw because the window's top stayed past the shorter list."""
    game = new_game(app)
    press(app, "down")
    press(app, "a")  # Deck Edit
    press(app, "up")  # wraps to the last deck card, the window scrolls to the end
    press(app, "a")  # that card goes back to the trunk: the list shrinks by one
    assert len(game.deck) == 39
    for _ in range(45):  # empty the deck entirely, drawing every frame
        press(app, "a")
    assert game.deck == [] and isinstance(app.screen, screens.DeckEdit)


def test_cancelling_a_target_choice_returns_to_the_order_panel(app):
    """Issue 17 "Why" 1: choosing an attack with more than one target, then B, used to leave
    Order actions in the panel's labels (TypeError in DuelScreen._panel)."""
    game = new_game(app)
    duel = next(d for s in range(50) if (d := _two_targets(game, s)) is not None)
    screen = DuelScreen(game, 0, duel)
    app.switch(screen)
    app.step((IDLE, IDLE))
    press(app, "a")  # Atk. -> more than one target: the target mode
    assert screen.mode == "target"
    press(app, "b")
    assert screen.mode == "order"
    press(app, "a")  # Atk. again: the target mode is offered again
    assert screen.mode == "target"


def _two_targets(game: screens.Dm1Game, seed: int) -> Dm1Duel | None:
    """A duel (played by the computer on both sides) stopped where side 0 orders a monster
    that has more than one attack target."""
    duel = Dm1Duel(game.deck, opponent=0, seed=seed)
    for _ in range(200):
        if duel.over:
            return None
        if duel.acting_side == 0 and duel.v.phase[0] == ORDERS and \
                sum(1 for a in duel.legal_actions() if a.attack) > 1:
            return duel
        duel.step(ai.choose_action(duel))
    return None
