"""The FM game carried between screens: new game, campaign progress, prizes, save checks."""

from __future__ import annotations

import pytest

from emucore.fm import rank
from emucore.frontend.systems.fm.session import FmGame, validate_save


@pytest.fixture
def game():
    g = FmGame()
    g.new_game()
    return g


def test_new_game_deals_a_legal_starter_deck_into_the_trunk(game):
    """the-game.md §1: Free Duel's unlock bits cover ids 1..38, so a new game has Duel
    Master K (39) alone; the story opens on Seto (§7.1)."""
    validate_save(game.data)
    assert len(game.deck) == 40
    assert sum(game.data["trunk"].values()) == 40
    assert game.unlocked() == {39} and game.story_duels() == [7]


def test_campaign_win_moves_on_and_unlocks_the_duelist(game):
    """A story win passes it and opens the duelist (the-game.md §7.1, §7.11)."""
    notes = game.duel_finished(7, 0, 0x1234, starchips=3, drop=5, campaign=True)
    assert game.data["campaign"] == 1 and game.data["story"] == [7] and 7 in game.unlocked()
    assert notes == [f"{game.tables.duelist_name(7)} joins Free Duel"]
    assert game.data["starchips"] == 3 and game.trunk_count(5) == 1
    assert game.data["records"]["7"] == [1, 0] and game.rng.state == 0x1234


def test_a_loss_is_game_over_and_a_free_duel_win_does_not_advance_the_campaign(game):
    """A campaign loss is game over (Main_RunGameOver, the-game.md §7.12)."""
    game.duel_finished(7, 1, 1, starchips=0, drop=0, campaign=True)
    assert game.game_over == 7
    game.duel_finished(7, 0, 1, starchips=1, drop=0, campaign=False)
    assert game.data["campaign"] == 0
    assert game.data["records"]["7"] == [1, 1]


def test_heishin_must_be_lost(game):
    """the-game.md §7.1: Heishin's first duel is the one the story needs lost; a win
    repeats it, and either opens him for Free Duel."""
    game.duel_finished(7, 0, 1, starchips=0, drop=0, campaign=True)
    game.duel_finished(8, 0, 1, starchips=0, drop=0, campaign=True)
    assert game.story_duels() == [8] and 8 in game.unlocked()
    game.duel_finished(8, 1, 1, starchips=0, drop=0, campaign=True)
    assert game.story_duels() == [9] and game.game_over is None


def test_prizes_are_capped_as_the_original_caps_them(game):
    game.data["starchips"] = rank.STARCHIP_CAP - 1
    game.data["trunk"]["5"] = rank.TRUNK_CAP
    game.duel_finished(1, 0, 1, starchips=5, drop=5, campaign=False)
    assert game.data["starchips"] == rank.STARCHIP_CAP and game.trunk_count(5) == rank.TRUNK_CAP


def test_two_player_results_count_per_player(game):
    game.duel_finished(0, 1, 1, starchips=0, drop=0, campaign=False)
    assert game.data["two_player"] == [0, 1] and game.data["records"] == {}


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(version=3), "not an emucore fm save"),
    (lambda d: d["trunk"].update({"723": 1}), "unknown card id '723'"),
    (lambda d: d["trunk"].update({"1": 251}), "251 copies"),
    (lambda d: d.update(deck=d["deck"][:39]), "a deck has 40 cards"),
    (lambda d: d.update(sort="random"), "unknown deck sort"),
    (lambda d: d.update(starchips=-1), "starchips"),
    (lambda d: d.update(unlocked=[40]), "unlocked"),
    (lambda d: d.update(campaign=99), "campaign must be"),
])
def test_bad_saves_are_named(game, change, message):
    change(game.data)
    with pytest.raises(ValueError, match=message):
        validate_save(game.data)


def test_deck_cards_must_be_in_the_trunk(game):
    card = game.deck[0]
    game.data["trunk"][str(card)] = 0
    with pytest.raises(ValueError, match="but the trunk only 0"):
        validate_save(game.data)
