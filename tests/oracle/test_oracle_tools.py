"""Outside oracles for deck preparation and the RNG: public emulator memory dumps and the
test values of the speedrunners' tools, checked against emucore's deck, drop and RNG code.

* sg4e/YGOFM-gamedata, src/test/resources/{villager1,villager3,heishin1}.txt, copied to
  data/ygofm_gamedata_decks.json: the 80 card ids of both shuffled decks read from emulator
  memory at duel start (player's deck first), with the RNG seeds confirmed in
  src/test/java/.../DeckTest.java (the player's deck was sorted by card id before the duel;
  Heishin's second seed differs only in bit 31).
* GenericMadScientist/FM-Deck-Check, tests/rng_unittest.cpp and
  tests/starter_deck_unittest.cpp: LCG steps, long jumps and starter decks by RNG index.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emucore import tables
from emucore.fm import deck
from emucore.hw import psyq_rand
from emucore.hw.psyq_rand import Rand

T = tables.load("fm")
VILLAGER1, VILLAGER3, HEISHIN = 4, 6, 8  # emucore duelist ids
DARK_HOLE = 336
DECKS_FILE = Path(__file__).parent / "data" / "ygofm_gamedata_decks.json"
DUMPS = json.loads(DECKS_FILE.read_text())["dumps"]


@pytest.mark.parametrize(("dump", "seed", "duelist"), [
    ("villager1", 1882591394, VILLAGER1),
    ("villager3", -1543541870, VILLAGER3),
    ("heishin1", -1060881141, HEISHIN),
    ("heishin1", 1086602507, HEISHIN),
])
def test_deal_matches_emulator_memory(dump, seed, duelist):
    """Duel_ShuffleBothDecks from the confirmed seed rebuilds both dumped decks: the player's
    (its cards sorted by id, then shuffled) and the CPU's (dealt from its pool, shuffled)."""
    player, cpu = DUMPS[dump][:40], DUMPS[dump][40:]
    dealt = deck.deal(Rand(seed & psyq_rand.MASK32), deck.sort_deck(player, "id", T), duelist, T)
    assert list(dealt.player.cards) == player
    assert list(dealt.cpu.cards) == cpu


def test_confirmed_seeds_are_reached_from_boot():
    """YGOFM-gamedata DeckTest.testSeeds: each confirmed seed occurs within the first
    5,000,000 rand() calls after the boot state (SeedSearch.DEFAULT_SEARCH_SPACE)."""
    for seed in (1882591394, -1543541870, -1060881141):
        assert psyq_rand.index_of(seed & psyq_rand.MASK32) < 5_000_000


def test_lcg_values():
    """FM-Deck-Check RngAdvanceTest and RngMultiAdvanceTest."""
    assert [int(psyq_rand.step(s)) for s in (0, 1, 2)] == [0x3039, 0x41C67EA6, 0x838CCD13]
    assert int(psyq_rand.jump(psyq_rand.BOOT_STATE, 1_000_000)) == 0xFF60ED15
    assert int(psyq_rand.jump(0, 1_000_000)) == 0xA4AFD2C0


def test_starter_decks_by_index():
    """FM-Deck-Check StarterDeckTest.LastFourCards: the last four cards of the starter deck
    dealt at RNG index 0 and at index -1199997605 (mod 2^32, the index of state 0)."""
    first = deck.starter_deck(Rand(int(psyq_rand.state_at(0))), T)
    assert first[36:] == [221, 337, 332, 309]
    index = -1199997605 & psyq_rand.MASK32
    assert int(psyq_rand.state_at(index)) == 0
    assert deck.starter_deck(Rand(0), T)[36:] == [115, 337, 334, 659]


def test_dark_hole_starter_decks():
    """FM-Deck-Check FilterTest.Matches: among indices 0-9 the decks holding Dark Hole are
    5, 6 and 7; among 1000-1009 they are 1006, 1007 and 1008."""
    def holding(first: int) -> list[int]:
        return [k for k in range(first, first + 10)
                if DARK_HOLE in deck.starter_deck(Rand(int(psyq_rand.state_at(k))), T)]
    assert holding(0) == [5, 6, 7]
    assert holding(1000) == [1006, 1007, 1008]
