"""Scenario set-up for DM1 rule tests: unshuffled decks and direct placement on the field."""

from __future__ import annotations

from collections.abc import Sequence

from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import ACTED, ATTACK, DECK_SIZE, ZONES

FILLER = 24  # Skull Servant, Zombie, 300/200: pads decks and hands


def deck(cards: Sequence[int]) -> list[int]:
    """``cards`` first (opening hand = first five, then the draws), padded with FILLER."""
    return list(cards) + [FILLER] * (DECK_SIZE - len(cards))


def start(hand0: Sequence[int] = (), hand1: Sequence[int] = (), draws0: Sequence[int] = (),
          draws1: Sequence[int] = (), turn: int | None = None) -> Dm1Duel:
    """A duel whose opening hands are ``hand0``/``hand1`` (padded to five with FILLER), side 0
    to play. ``turn`` moves the turn counter on (so attacks are allowed from turn 2)."""
    h0 = list(hand0) + [FILLER] * (5 - len(hand0))
    h1 = list(hand1) + [FILLER] * (5 - len(hand1))
    duel = Dm1Duel(deck(h0 + list(draws0)), opponent_deck=deck(h1 + list(draws1)),
                   opponent=0, seed=1, shuffle=False)
    if turn is not None:
        duel.v.turn[0] = turn
    return duel


def put(duel: Dm1Duel, side: int, zone: int, card: int, level: int = 0,
        stance: int = ATTACK, acted: bool = False) -> None:
    """Place a monster directly in the record (test set-up only)."""
    i = side * ZONES + zone
    duel.v.zone_card[i] = card
    duel.v.zone_level[i] = level
    duel.v.zone_stance[i] = stance
    duel.v.zone_flags[i] = ACTED if acted else 0
