"""The deal kernel (emucore/fm/deal_kernel.py) and every deal built on it (``deck.deal``,
``deck.shuffle_many``, ``deck.deal_many``) against an independent plain reading of the
decompiled routines.

Source of the expected values: docs/fm-engine.md §2 and the docstrings of the decompiled
``Duel_ShuffleBothDecks`` (0x800245A0) / ``Duel_ShuffleDeck`` (0x800243F4) as transcribed in
krystalgamer/memories-decomp: the player's sorted deck is shuffled first, then the CPU's
deck is copied from the player's (Duel Master K, 39) or dealt from the duelist's deck pool
(``(rand() & 0x7FF) + 1`` walked over the weights of ids 1..720, the first id whose running
sum reaches it; a roll that reaches no id or lands on a card held three times is discarded,
one ``rand()`` per attempt), then shuffled; a shuffle is 160 times ``x = rand() % 40``,
``y = rand() % 40``, swap cards and permutation bytes at x and y. Psy-Q ``rand``:
``s = s * 1103515245 + 12345 (mod 2^32)``, output bits 16..30. The pool weights are read
from roms_tables/fm/pools.csv with the csv module, not emucore's loader.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pure_child import json_child

from emucore import compiled, tables
from emucore.fm import deal_kernel, deck
from emucore.hw.psyq_rand import Rand
from emucore.tables import TableError

T = tables.load("fm")
POOLS_CSV = Path(__file__).resolve().parents[2] / "roms_tables" / "fm" / "pools.csv"
PLAYER = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 3 + list(range(11, 21))
DUELISTS = list(range(1, 40))


def _deck_pools() -> dict[int, list[int]]:
    """duelist -> the deck pool's weights of ids 1..720, straight from the CSV."""
    out = {d: [0] * 720 for d in DUELISTS}
    with POOLS_CSV.open(newline="") as f:
        for row in csv.DictReader(f):
            card = int(row["card_id"])
            if row["pool"] == "deck" and card <= 720:
                out[int(row["duelist_id"])][card - 1] = int(row["weight"])
    return out


POOL = _deck_pools()


class _Stream:
    """Psy-Q rand() by hand, counting its calls."""

    def __init__(self, state: int) -> None:
        self.state, self.calls = state, 0

    def rand(self) -> int:
        self.state = (self.state * 1103515245 + 12345) & 0xFFFFFFFF
        self.calls += 1
        return (self.state >> 16) & 0x7FFF


def _shuffle(rng: _Stream, cards: list[int]) -> tuple[list[int], list[int]]:
    cards, perm = list(cards), list(range(40))
    for _ in range(160):
        x = rng.rand() % 40
        y = rng.rand() % 40
        cards[x], cards[y] = cards[y], cards[x]
        perm[x], perm[y] = perm[y], perm[x]
    return cards, perm


def _pool_deck(rng: _Stream, weights: list[int]) -> list[int]:
    held = [0] * 721
    cards: list[int] = []
    while len(cards) < 40:
        roll = (rng.rand() & 0x7FF) + 1
        total = 0
        for i, weight in enumerate(weights):
            total += weight
            if total >= roll:
                if held[i + 1] < 3:
                    held[i + 1] += 1
                    cards.append(i + 1)
                break
    return cards


def reference_deal(state: int, player: list[int], duelist: int) -> dict:
    """Duel_ShuffleBothDecks read plainly: both decks, their bytes, the state and calls."""
    rng = _Stream(state)
    player_cards, player_perm = _shuffle(rng, player)
    source = list(player) if duelist == 39 else _pool_deck(rng, POOL[duelist])
    cpu_cards, cpu_perm = _shuffle(rng, source)
    return {"player": (tuple(player_cards), tuple(player_perm)),
            "cpu": (tuple(cpu_cards), tuple(cpu_perm)), "after": rng.state, "calls": rng.calls}


def _one(state: int, player: list[int], duelist: int) -> dict:
    dealt = deck.deal(Rand(state), player, duelist, T)
    return {"player": (dealt.player.cards, dealt.player.perm),
            "cpu": (dealt.cpu.cards, dealt.cpu.perm), "after": dealt.state_after,
            "calls": dealt.calls}


def _rows(batch: deck.DealBatch, i: int) -> dict:
    dealt = batch.deal(i)
    return {"player": (dealt.player.cards, dealt.player.perm),
            "cpu": (dealt.cpu.cards, dealt.cpu.perm), "after": dealt.state_after,
            "calls": dealt.calls}


def _states(seed: int, n: int) -> list[int]:
    return np.random.default_rng(seed).integers(0, 2**32, n, dtype=np.uint64).tolist()


def test_every_duelist_deals_what_the_routine_deals():
    """All 39 duelists (Duel Master K's copy of the player's deck among them), two random
    states each: ``deal`` of one state and ``deal_many`` of them all equal the plain reading."""
    for duelist in DUELISTS:
        states = _states(duelist, 2)
        batch = deck.deal_many(np.array(states, dtype=np.uint32), PLAYER, duelist, T)
        assert batch.state_before.tolist() == states
        for i, state in enumerate(states):
            expected = reference_deal(state, PLAYER, duelist)
            assert _one(state, PLAYER, duelist) == expected, (duelist, state)
            assert _rows(batch, i) == expected, (duelist, state)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(DUELISTS),
       st.lists(st.integers(1, 722), min_size=40, max_size=40))
def test_random_states_and_decks_deal_what_the_routine_deals(state, duelist, player):
    """Any state, any duelist, any 40 ids (the deal does not check copies)."""
    expected = reference_deal(state, player, duelist)
    assert _one(state, player, duelist) == expected
    batch = deck.deal_many(np.array([state, state ^ 1], dtype=np.uint32), player, duelist, T)
    assert _rows(batch, 0) == expected
    assert _rows(batch, 1) == reference_deal(state ^ 1, player, duelist)


def test_the_numpy_lanes_deal_what_the_routine_deals():
    """The numpy lanes (deal_many's path while the kernel runs as Python) on 64 lanes."""
    states = _states(64, 64)
    for duelist in (1, 7, 26, 39):
        batch = deck.lanes_deal(np.array(states, dtype=np.uint32), PLAYER, duelist, T)
        assert batch.state_before.tolist() == states
        for i, state in enumerate(states):
            assert _rows(batch, i) == reference_deal(state, PLAYER, duelist)


def test_deal_many_of_no_state_is_empty():
    """Zero lanes: arrays of zero rows, not an error."""
    batch = deck.deal_many(np.zeros(0, dtype=np.uint32), PLAYER, 7, T)
    assert batch.player_cards.shape == (0, 40) and batch.calls.shape == (0,)


def test_shuffle_many_is_the_players_shuffle():
    """``shuffle_many`` = the player's half of the deal: same cards, bytes, state after."""
    states = _states(5, 50)
    cards, perm, after = deck.shuffle_many(np.array(states, dtype=np.uint32), PLAYER)
    for i, state in enumerate(states):
        rng = _Stream(state)
        assert (tuple(cards[i].tolist()), tuple(perm[i].tolist())) == tuple(
            map(tuple, _shuffle(rng, PLAYER)))
        assert int(after[i]) == rng.state


def test_a_pool_that_stops_at_the_roll_bound_stops_deal_many(monkeypatch):
    """The roll bound of generate_pool_deck holds for many states too (the lanes used to
    draw without end on such a pool)."""
    monkeypatch.setattr(deck, "MAX_DEAL_ROLLS", 2000)
    pools = T.pools.copy()
    pools[7, 0] = 0
    pools[7, 0, 1:14] = 1
    pools[7, 0, 14] = 2048 - 13
    thin = type("Thin", (), {"pools": pools})()
    for many in (deck.deal_many, deck.lanes_deal):
        with pytest.raises(TableError, match="2000 rolls dealt only"):
            many(np.arange(3, dtype=np.uint32), PLAYER, 7, thin)


def test_the_kernel_refuses_short_buffers():
    """The compiled loops check no index: the sizes are checked on entry instead."""
    from array import array

    states, cards, perm = array("I", [1, 2]), array("h", [0] * 40), array("B", [0] * 80)
    with pytest.raises(ValueError, match="too short"):
        deal_kernel.shuffle(2, states, cards, perm)
    with pytest.raises(ValueError, match="states for 3 lanes"):
        deal_kernel.shuffle(3, states, array("h", [0] * 120), array("B", [0] * 120))
    with pytest.raises(ValueError, match="a deck has 40 cards"):
        deal_kernel.fill(1, array("h", [1] * 39), cards, perm)
    with pytest.raises(ValueError, match="roll table"):
        deal_kernel.generate(1, states, array("h", [0] * 2047), bytearray(720), cards, perm,
                             array("q", [0]), 10)


_DEALS = """
import json, numpy as np
from emucore import tables
from emucore.fm import deal_kernel, deck
from emucore.hw.psyq_rand import Rand
t = tables.load("fm")
player = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 3 + list(range(11, 21))
states = np.random.default_rng(9).integers(0, 2**32, 100, dtype=np.uint64).tolist()
out = {"file": deal_kernel.__file__, "deals": []}
for duelist in (1, 7, 26, 39):
    for s in states:
        d = deck.deal(Rand(s), player, duelist, t)
        out["deals"].append([d.player.cards, d.player.perm, d.cpu.cards, d.cpu.perm,
                             d.state_after, d.calls])
print(json.dumps(out))
"""


def _deals(pure: bool) -> dict:
    return json_child(_DEALS, pure)


def test_compiled_kernel_deals_what_the_python_kernel_deals():
    """400 deals (four duelists) from the compiled kernel, when it is built, and from its
    Python source under EMUCORE_PURE=1: identical arrays."""
    fast, pure = _deals(pure=False), _deals(pure=True)
    assert pure["file"].endswith(".py")
    built = compiled.compiled_path("emucore.fm.deal_kernel") is not None
    assert fast["file"].endswith(".py") != built
    assert fast["deals"] == pure["deals"]
