"""The starter search's compiled kernel against the numpy lanes and the scalar
NameEntry_BuildStarterDeck (emucore.fm.deck.starter_deck, derived from the decompiled
routine): the same indices on random card sets and random index ranges."""

from __future__ import annotations

import importlib.util

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from emucore import compiled, tables
from emucore.fm.deck import starter_deck
from emucore.hw import psyq_rand
from emucore.planning import starter

FM = tables.load("fm")
PLAN = starter.plan(FM)


def _pure_kernel():
    """The kernel module run as Python from its source, whatever the install built."""
    spec = importlib.util.spec_from_file_location("starter_kernel_as_python",
                                                  compiled.source_of(starter.KERNEL))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PURE = _pure_kernel()


def scalar_matches(start: int, count: int, cards: list[int]) -> list[int]:
    """The indices whose scalar starter deck holds ``cards`` (with multiplicity)."""
    found = []
    for index in range(start, start + count):
        deck = starter_deck(psyq_rand.Rand(int(psyq_rand.state_at(index))), FM)
        if all(deck.count(c) >= cards.count(c) for c in set(cards)):
            found.append(index)
    return found


def wish_from(index: int, picks: list[int]) -> list[int]:
    """Cards of the deck at ``index`` chosen by ``picks`` (positions): a wish that matches
    at least there."""
    deck = starter_deck(psyq_rand.Rand(int(psyq_rand.state_at(index))), FM)
    return [deck[p % len(deck)] for p in dict.fromkeys(picks)]


def kernel(start: int, count: int, cards: list[int], module=None) -> list[int]:
    counted = starter.kernel_want(FM, starter.Want.of(cards, PLAN).key())
    assert counted is not None
    return starter.search_kernel(start, count, counted, module).tolist()


def test_the_kernel_runs_compiled_exactly_when_built():
    """The search takes the kernel when the install compiled it for its current source."""
    built = not compiled.pure() and compiled.compiled_path(starter.KERNEL) is not None
    assert starter.kernel_compiled() == built


def test_the_speedrun_query_through_the_kernel():
    """{100, 100, 8, 337}: the first matching index is 329,877 (tests/planning/
    test_plan_starter.py, from brute force over the exact decks), 20 below 332,000."""
    found = kernel(0, 332_000, [100, 100, 8, 337])
    assert found[0] == 329_877 and len(found) == 20
    assert found == starter.search_lanes(0, 332_000, starter.Want.of(
        [100, 100, 8, 337], PLAN), FM).tolist()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 600), st.integers(1, 600), st.integers(0, 599),
       st.lists(st.integers(0, 39), min_size=1, max_size=5))
def test_kernel_equals_lanes_and_scalar_decks(start: int, count: int, at: int,
                                              picks: list[int]) -> None:
    """Random ranges, a wish drawn from a deck inside the range: kernel (as this process
    loads it) == numpy lanes == the scalar generator."""
    cards = wish_from(start + at % count, picks)
    want = starter.Want.of(cards, PLAN)
    expected = scalar_matches(start, count, cards)
    assert start + at % count in expected
    assert kernel(start, count, cards) == expected
    assert starter.search_lanes(start, count, want, FM).tolist() == expected


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1000), st.integers(1, 1000), st.integers(0, 999),
       st.lists(st.integers(0, 39), min_size=1, max_size=4))
def test_python_kernel_equals_compiled_kernel(start: int, count: int, at: int,
                                              picks: list[int]) -> None:
    """The kernel's source run as Python computes what the compiled kernel does (and what
    the lanes do, when it is not built)."""
    cards = wish_from(start + at % count, picks)
    expected = starter.search_lanes(start, count, starter.Want.of(cards, PLAN), FM).tolist()
    assert kernel(start, count, cards, PURE) == expected
    assert kernel(start, count, cards) == expected


def fourth_copy_indices(start: int, count: int) -> list[int]:
    """Indices whose group-1 picks, all kept, hold some card four times or more: there the
    game repeats a pick, and so must the kernel."""
    group = PLAN.groups[0]
    u = starter.lanes_from(start, count)
    slots = np.empty((group.drawn, count), dtype=np.uint8)
    with np.errstate(over="ignore"):
        for row in slots:
            starter._pick(u, group, np.empty_like(u), row)
    most = np.zeros(count, dtype=np.int64)
    for slot in range(1, len(group.cards_by_slot)):
        most = np.maximum(most, (slots == slot).sum(axis=0))
    return (np.flatnonzero(most > 3) + start).tolist()


def test_fourth_copies_are_redrawn():
    """Where group 1 repeats a pick (about 2% of indices), the later groups start from the
    state after the repeat: wishes from those decks' groups 2 and 3 find their index, like
    the scalar generator."""
    repeats = fourth_copy_indices(7_000_000, 2000)
    assert len(repeats) > 10
    for index in repeats[:6]:
        cards = wish_from(index, [16, 17, 32, 33])
        expected = scalar_matches(index - 40, 80, cards)
        assert index in expected
        assert kernel(index - 40, 80, cards) == expected
        assert kernel(index - 40, 80, cards, PURE) == expected


def test_more_wanted_cards_than_fields_take_the_lanes():
    """Eleven distinct group-2 cards do not fit ``held``'s ten 6-bit fields: no kernel
    tables, and the search (the lanes) still answers like the scalar decks."""
    cards = sorted(PLAN.groups[1].cards)[:11]
    assert starter.kernel_want(FM, starter.Want.of(cards, PLAN).key()) is None
    assert starter.search(0, 500, starter.Want.of(cards, PLAN), FM).tolist() == \
        scalar_matches(0, 500, cards)
