"""The FM game carried between screens: new game, campaign progress, prizes, save checks."""

from __future__ import annotations

import pytest

from emucore.fm import rank
from emucore.frontend.systems.fm.session import CAMPAIGN_ORDER, FmGame, validate_save


@pytest.fixture
def game():
    g = FmGame()
    g.new_game()
    return g


def test_new_game_deals_a_legal_starter_deck_into_the_trunk(game):
    validate_save(game.data)
    assert len(game.deck) == 40
    assert sum(game.data["trunk"].values()) == 40
    assert game.unlocked() == {1} and game.next_campaign_duelist() == CAMPAIGN_ORDER[0]


def test_campaign_win_moves_on_and_unlocks_the_duelist(game):
    first = CAMPAIGN_ORDER[0]
    notes = game.duel_finished(first, 0, 0x1234, starchips=3, drop=5, campaign=True)
    assert game.data["campaign"] == 1 and first in game.unlocked()
    assert notes == [f"{game.tables.duelist_name(first)} joins Free Duel"]
    assert game.data["starchips"] == 3 and game.trunk_count(5) == 1
    assert game.data["records"][str(first)] == [1, 0] and game.rng.state == 0x1234


def test_a_loss_or_a_free_duel_win_does_not_advance_the_campaign(game):
    game.duel_finished(CAMPAIGN_ORDER[0], 1, 1, starchips=0, drop=0, campaign=True)
    game.duel_finished(CAMPAIGN_ORDER[0], 0, 1, starchips=1, drop=0, campaign=False)
    assert game.data["campaign"] == 0
    assert game.data["records"][str(CAMPAIGN_ORDER[0])] == [1, 1]


def test_the_last_campaign_win_opens_the_post_game(game):
    game.data["campaign"] = len(CAMPAIGN_ORDER) - 1
    game.duel_finished(CAMPAIGN_ORDER[-1], 0, 1, starchips=5, drop=0, campaign=True)
    assert game.next_campaign_duelist() is None and 39 in game.unlocked()


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
