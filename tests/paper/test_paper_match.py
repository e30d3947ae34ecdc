"""ocg1999 match play: scoring, side-deck swaps, ante and star chips."""

from __future__ import annotations

import pytest

from emucore.duel.protocol import IllegalAction
from emucore.ocg1999.match import Match, chip_value, computer_swaps, match_result
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.ai import choose
from emucore.paper.state import DRAW


@pytest.mark.parametrize(("results", "outcome"), [
    ([0, 0], 0), ([1, 0, 1], 1), ([0, 1], None), ([0], None), ([DRAW], None),
    ([0, DRAW, DRAW], DRAW),  # 1 win 2 draws
    ([0, 1, DRAW], DRAW),  # 1 win 1 loss 1 draw
    ([DRAW, DRAW, DRAW], DRAW),  # 3 draws
    ([DRAW, 1, 1], 1), ([DRAW, DRAW], None),
])
def test_match_scoring(results: list[int], outcome: int | None) -> None:
    assert match_result(results) == outcome


def test_star_chip_values() -> None:
    assert chip_value("gold,silver,bronze") == 16
    assert chip_value("bronze, bronze") == 2
    assert chip_value("") == 0
    with pytest.raises(ValueError, match="platinum"):
        chip_value("platinum")


def _play(match: Match) -> None:
    duel = match.next_duel()
    while not duel.over:
        duel.step(choose(duel))
    match.finish()


def _match(seed: int = 4, ante: bool = True) -> Match:
    return Match(OCG, [OCG.decks["magician"](), OCG.decks["dragon"]()], seed, ante, (10, 6))


def test_a_whole_match_with_ante_and_chips() -> None:
    match = _match()
    while not match.over:
        _play(match)
    winner = match.winner
    assert winner in (0, 1) and match.results.count(winner) == 2
    assert match.chips() == ((6, -6) if winner == 0 else (-10, 10))
    # every duel's two bet cards are out of the decks for the rest of the match
    assert len(match.barred[0]) == len(match.barred[1]) == len(match.results)
    won = sorted(match.won[0] + match.won[1])
    assert won == sorted(match.barred[0] + match.barred[1])
    with pytest.raises(IllegalAction) as info:
        match.next_duel()
    assert info.value.rule == "match_over"


def test_bet_cards_go_to_the_winner_and_leave_the_decks() -> None:
    match = _match(seed=11)
    _play(match)
    duel = match.duel
    bets = [list(s.ante) for s in duel.state.sides]
    assert all(len(b) == 1 for b in bets)
    assert match.won[duel.winner] == bets[0] + bets[1]
    next_duel = match.next_duel()
    for side in (0, 1):
        main = OCG.decks[("magician", "dragon")[side]]().main
        held = next_duel.state.sides[side]
        in_play = len(held.deck) + len(held.hand) + len(held.ante)
        assert in_play == len(main) - 1  # the used bet card stays out


def test_drawn_duel_returns_each_bet_card_to_its_owner() -> None:
    match = _match(seed=2)
    duel = match.next_duel()
    duel._end(DRAW, "both_lp", [])
    match.finish()
    assert match.won == [list(duel.state.sides[0].ante), list(duel.state.sides[1].ante)]


def test_side_deck_swaps_only_between_duels() -> None:
    match = _match(ante=False)
    dark_hole, giant = OCG.card_id("Dark Hole"), OCG.card_id("Hitotsu-Me Giant")
    match.swap(0, giant, dark_hole)
    deck = match.decks[0]
    assert deck.main.count(giant) == 2 and dark_hole in deck.main
    assert giant in deck.side and dark_hole not in deck.side and len(deck.side) == 10
    with pytest.raises(IllegalAction) as info:
        match.swap(0, giant, dark_hole)  # no second Dark Hole in the side deck
    assert info.value.rule == "side_deck_swap"
    with pytest.raises(IllegalAction) as info:
        match.swap(0, OCG.card_id("Blue-Eyes White Dragon"), giant)
    assert info.value.rule == "side_deck_swap"
    match.next_duel()
    with pytest.raises(IllegalAction) as info:
        match.swap(0, dark_hole, giant)
    assert info.value.rule == "between_duels"


def test_first_player_after_a_decided_duel_is_the_loser() -> None:
    match = _match(seed=5, ante=False)
    _play(match)
    loser = 1 - match.results[-1]
    duel = match.next_duel()
    assert duel.opening[0].how == "chosen" and duel.state.first == loser


def test_computer_siding_after_a_loss_brings_in_removal() -> None:
    match = _match(ante=False)
    match.results.append(0)  # player 2 lost duel 1
    match.started = 1
    swaps = computer_swaps(match, 1)
    assert [(OCG.catalogue.name(a), OCG.catalogue.name(b)) for a, b in swaps] == [
        ("Green Phantom King", "Dark Hole"), ("Petit Angel", "Fissure")]
    assert computer_swaps(match, 0) == []
