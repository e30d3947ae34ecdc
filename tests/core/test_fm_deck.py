"""Deck preparation exact to the RNG call (spec/fm-engine.md §2)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emucore import tables
from emucore.fm import deck
from emucore.hw import psyq_rand
from emucore.hw.psyq_rand import Rand

T = tables.load("fm")
PLAYER = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 3 + list(range(11, 21))


def _literal_starter(state: int) -> tuple[list[int], int]:
    """NameEntry_BuildStarterDeck transcribed loop for loop: one discarded rand() per id."""
    rng = Rand(state)
    counts = [0] * 722
    out: list[int] = []
    for group in range(1, 8):
        weights = T.starter_weights[group, 1:].tolist()
        remaining = int(T.starter_drawn[group])
        while True:
            threshold = (rng.rand() & 0x7FF) + 1
            acc, i = 0, 0
            while True:
                rng.rand()
                acc += weights[i]
                if acc >= threshold:
                    if counts[i] >= 3:
                        remaining += 1
                    else:
                        counts[i] += 1
                        out.append(i + 1)
                    break
                i += 1
                if i >= 720:
                    break
            remaining -= 1
            if remaining == 0:
                break
    return out, rng.state


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_starter_deck_equals_the_literal_routine(state):
    rng = Rand(state)
    cards = deck.starter_deck(rng, T)
    expected, end_state = _literal_starter(state)
    assert cards == expected and rng.state == end_state
    assert len(cards) == 40
    assert max(np.bincount(cards)) <= 3


def test_starter_deck_groups_in_order():
    cards = deck.starter_deck(Rand(), T)
    bounds = np.cumsum([0, *T.starter_drawn[1:8]])
    for group in range(1, 8):
        for card in cards[bounds[group - 1]:bounds[group]]:
            assert T.starter_weights[group, card] > 0


def test_player_shuffle_is_320_calls_and_permutation_tracks_cards():
    rng = Rand()
    shuffled = deck.shuffle_deck(rng, PLAYER)
    assert rng.calls == 320
    assert [PLAYER[p] for p in shuffled.perm] == list(shuffled.cards)
    assert sorted(shuffled.perm) == list(range(40))


def test_swap_stage_swaps_even_equal_indices_in_call_order():
    rng, check = Rand(123), Rand(123)
    cards, perm = list(range(40)), list(range(40))
    deck.swap_stage(rng, cards, perm)
    expected = list(range(40))
    for _ in range(160):
        x, y = check.rand() % 40, check.rand() % 40
        expected[x], expected[y] = expected[y], expected[x]
    assert cards == expected == perm


def test_cpu_deck_is_dealt_from_the_pool_with_copy_limit():
    rng = Rand(0xDEADBEEF)
    result = deck.deal(rng, PLAYER, 7, T)
    cpu = result.cpu.cards
    assert len(cpu) == 40 and max(np.bincount(cpu)) <= 3
    assert all(T.pools[7, 0, c] > 0 for c in cpu) and max(cpu) <= 720
    assert result.calls == rng.calls > 640
    # Generated permutation bytes are deck positions, then swapped alongside the cards.
    assert sorted(result.cpu.perm) == list(range(40))


def test_generation_discards_fourth_copies():
    weights = np.zeros(723, dtype=np.int64)
    weights[5] = 1024  # half of all rolls land on card 5
    weights[100:128] = 1024 // 28
    weights[128] = 2048 - weights.sum()
    rng = Rand(1)
    cards, _ = deck.generate_pool_deck(rng, weights)
    assert cards.count(5) == 3
    assert rng.calls > 50  # the rejected attempts consumed rand() calls too


def test_duel_master_k_plays_an_independent_copy_of_the_players_deck():
    rng = Rand()
    result = deck.deal(rng, PLAYER, deck.DUEL_MASTER_K, T)
    assert result.calls == 640
    assert sorted(result.cpu.cards) == sorted(PLAYER)
    assert result.cpu.cards != result.player.cards


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 7, 20, 39]))
def test_vectorised_deal_equals_scalar_deal(start, duelist):
    states = psyq_rand.consecutive_states(start, 8)
    batch = deck.deal_many(states, PLAYER, duelist, T)
    for i, state in enumerate(states):
        one = deck.deal(Rand(int(state)), PLAYER, duelist, T)
        assert tuple(batch.player_cards[i]) == one.player.cards
        assert tuple(batch.player_perm[i]) == one.player.perm
        assert tuple(batch.cpu_cards[i]) == one.cpu.cards
        assert tuple(batch.cpu_perm[i]) == one.cpu.perm
        assert int(batch.state_after[i]) == one.state_after
        assert int(batch.calls[i]) == one.calls


def test_sort_orders():
    cards = [3, 1, 2, 1]
    assert deck.sort_deck(cards, "none", T) == cards
    assert deck.sort_deck(cards, "id", T) == [1, 1, 2, 3]
    by_atk = deck.sort_deck(cards, "atk", T)
    keys = [int(T.sort_keys["atk"][c]) for c in by_atk]
    assert keys == sorted(keys)
    with pytest.raises(ValueError, match="unknown sort order"):
        deck.sort_deck(cards, "name", T)


def test_ai_sort_ties_keep_given_order():
    ties = [c for c in range(1, 723) if T.sort_keys["ai"][c] == T.sort_keys["ai"][1]][:4]
    assert len(ties) >= 2
    assert deck.sort_deck(list(reversed(ties)), "ai", T) == list(reversed(ties))
