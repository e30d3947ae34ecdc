"""Seed from the opening draws: lane search against the vectorised and scalar deal and the
engine's own opening draws."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from emucore import tables
from emucore.fm import deck
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw import psyq_rand
from emucore.planning import seed

FM = tables.load("fm")
DECK = sorted([int(c) for c in np.flatnonzero(FM.pools[7, 0])[:20]] * 2)


def test_the_first_draws_are_the_first_shuffled_cards() -> None:
    """fm-engine.md §2.3 and the engine: the opening hand is shuffled positions 0..4."""
    for index in (0, 1, 12345):
        state = int(psyq_rand.jump(psyq_rand.BOOT_STATE, index))
        duel = new_duel(FmSetup(deck=DECK, duelist=7, sort="none", state=state), FM)
        drawn = [e.card for e in duel.opening_events if type(e).__name__ == "Drew"]
        dealt = deck.deal(psyq_rand.Rand(state), DECK, 7, FM)
        assert drawn == list(dealt.player.cards[:5])


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 2000), st.integers(0, 1999), st.integers(1, 7))
def test_match_block_equals_the_deal(start: int, pick: int, n: int) -> None:
    states = psyq_rand.consecutive_states(int(psyq_rand.state_at(start)), 2000)
    batch = deck.deal_many(states, DECK, 7, FM)
    drawn = batch.player_cards[pick, :n]
    expected = np.flatnonzero((batch.player_cards[:, :n] == drawn).all(axis=1)) + start
    assert seed.match_block(start, 2000, DECK, drawn.tolist()).tolist() == expected.tolist()


def test_pieces_join_up() -> None:
    drawn = (DECK[0], DECK[2], DECK[4])
    whole = seed.match_block(0, 30000, DECK, drawn)
    assert seed.match_piece(0, 30000, tuple(DECK), drawn, block=7000).tolist() == whole.tolist()
    assert len(whole) > 0
