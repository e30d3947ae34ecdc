"""ocg1999 match play: scoring, side-deck swaps, ante and star chips."""

from __future__ import annotations

import pytest

from emucore.duel.protocol import DRAW, IllegalAction
from emucore.ocg1999.match import (
    Match,
    chip_value,
    computer_make_up,
    computer_swaps,
    match_result,
)
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.ai import choose


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
        for side in (0, 1):
            for card in computer_make_up(match, side):
                match.make_up(side, card)
        _play(match)
    winner = match.winner
    assert winner in (0, 1) and match.results.count(winner) == 2
    assert match.chips() == ((6, -6) if winner == 0 else (-10, 10))
    # only the bet cards of lost duels are barred, each taken by the duel's winner
    decided = [r for r in match.results if r != DRAW]
    assert len(match.barred[0]) + len(match.barred[1]) == len(decided)
    assert sorted(match.won[0] + match.won[1]) == sorted(match.barred[0] + match.barred[1])
    with pytest.raises(IllegalAction) as info:
        match.next_duel()
    assert info.value.rule == "match-over"


def _in_play(duel, side: int) -> list[int]:
    held = duel.state.sides[side]
    return held.deck + held.hand + held.ante


def test_only_a_card_won_by_ante_is_barred_and_the_side_deck_makes_the_deck_up() -> None:
    """Rulebook p. 9: a card won by ante may not be used for the rest of the match (the
    winner's own bet card and the bet cards of a drawn duel may), and when a lost bet card
    takes a deck below 40 the side deck may make it up."""
    match = _match(seed=11)
    duel = match.next_duel()
    bets = [list(s.ante) for s in duel.state.sides]
    assert all(len(b) == 1 for b in bets)
    duel._end(0, "lp", [])  # player 1 wins duel 1
    match.finish()
    assert match.won == [bets[1], []] and match.barred == [[], bets[1]]
    assert match.short(0) == 0 and match.short(1) == 1
    with pytest.raises(IllegalAction) as info:
        match.make_up(0, match.decks[0].side[0])
    assert info.value.rule == "deck-not-short"
    side_before = list(match.decks[1].side)
    (card,) = computer_make_up(match, 1)
    assert OCG.catalogue[card].effect == "destroy_all_monsters"  # removal first: Dark Hole
    match.make_up(1, card)
    assert match.short(1) == 0 and len(match.decks[1].side) == len(side_before) - 1
    duel = match.next_duel()
    for side in (0, 1):
        in_play = _in_play(duel, side)
        assert len(in_play) == 40  # both decks full again
    assert sorted(_in_play(duel, 0)) == sorted(OCG.decks["magician"]().main)  # own bet back
    lost = sorted(OCG.decks["dragon"]().main)
    lost.remove(bets[1][0])
    assert sorted(_in_play(duel, 1)) == sorted(lost + [card])


def test_drawn_duel_bars_no_bet_card() -> None:
    """Rulebook p. 9: a drawn duel's bet cards go back to their owners, not barred."""
    match = _match(seed=2)
    duel = match.next_duel()
    duel._end(DRAW, "both_lp", [])
    match.finish()
    assert match.won == [[], []] and match.barred == [[], []]
    assert match.short(0) == match.short(1) == 0


def test_side_deck_swaps_only_between_duels() -> None:
    match = _match(ante=False)
    dark_hole, giant = OCG.card_id("Dark Hole"), OCG.card_id("Hitotsu-Me Giant")
    match.swap(0, giant, dark_hole)
    deck = match.decks[0]
    assert deck.main.count(giant) == 2 and dark_hole in deck.main
    assert giant in deck.side and dark_hole not in deck.side and len(deck.side) == 10
    with pytest.raises(IllegalAction) as info:
        match.swap(0, giant, dark_hole)  # no second Dark Hole in the side deck
    assert info.value.rule == "side-deck-swap"
    with pytest.raises(IllegalAction) as info:
        match.swap(0, OCG.card_id("Blue-Eyes White Dragon"), giant)
    assert info.value.rule == "side-deck-swap"
    match.next_duel()
    with pytest.raises(IllegalAction) as info:
        match.swap(0, dark_hole, giant)
    assert info.value.rule == "between-duels"


def test_every_duel_starts_with_rock_paper_scissors() -> None:
    """The rulebook's per-duel procedure: rock-paper-scissors decides who goes first in
    every duel; letting the loser go first is a house option."""
    match = _match(seed=5, ante=False)
    _play(match)
    assert match.next_duel().opening[0].how == "rock_paper_scissors"
    house = Match(OCG, [OCG.decks["magician"](), OCG.decks["dragon"]()], 5,
                  loser_goes_first=True)
    _play(house)
    duel = house.next_duel()
    assert duel.opening[0].how == "chosen" and duel.state.first == 1 - house.results[-1]


def test_computer_siding_after_a_loss_brings_in_removal() -> None:
    match = _match(ante=False)
    match.results.append(0)  # player 2 lost duel 1
    match.started = 1
    swaps = computer_swaps(match, 1)
    assert [(OCG.catalogue.name(a), OCG.catalogue.name(b)) for a, b in swaps] == [
        ("Green Phantom King", "Dark Hole"), ("Petit Angel", "Fissure")]
    assert computer_swaps(match, 0) == []
