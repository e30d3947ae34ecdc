"""The drop kernel (emucore/fm/drop_kernel.py) and ``rank.drops_at`` built on it, against an
independent plain reading of ``Duel_SelectCardDrop``.

Source of the expected values: docs/fm-engine.md §9 and the decompiled
``Duel_SelectCardDrop`` (0x80021810) as transcribed in krystalgamer/memories-decomp: one
roll ``(rand() & 0x7FF) + 1``, walked over the pool's weights in id order, the first id
whose running sum reaches it, 0 when none does. Psy-Q ``rand``:
``s = s * 1103515245 + 12345 (mod 2^32)``, output bits 16..30. The pool weights are read
from roms_tables/fm/pools.csv with the csv module, not emucore's loader.
"""

from __future__ import annotations

import csv
from array import array
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pure_child import json_child

from emucore import compiled
from emucore.fm import drop_kernel, rank

POOLS_CSV = Path(__file__).resolve().parents[2] / "roms_tables" / "fm" / "pools.csv"
POOL_NAMES = ("deck", "sa_pow", "bcd", "sa_tec")


def _pools() -> dict[tuple[int, str], list[int]]:
    """(duelist, pool) -> the 723 weights (index = card id, 0 unused), from the CSV."""
    out = {(d, p): [0] * 723 for d in range(1, 40) for p in POOL_NAMES}
    with POOLS_CSV.open(newline="") as f:
        for row in csv.DictReader(f):
            out[int(row["duelist_id"]), row["pool"]][int(row["card_id"])] = int(row["weight"])
    return out


POOLS = _pools()


def _drop(state: int, weights: list[int]) -> int:
    """``Duel_SelectCardDrop`` by hand from the state before the roll."""
    roll = ((((state * 1103515245 + 12345) & 0xFFFFFFFF) >> 16) & 0x7FFF & 0x7FF) + 1
    total = 0
    for card in range(1, len(weights)):
        total += weights[card]
        if total >= roll:
            return card
    return 0


def _kernel_drops(states: list[int], weights: list[int]) -> list[int]:
    """The kernel's drops over plain buffers (run compiled or as Python)."""
    out = array("q", bytes(8 * len(states)))
    drop_kernel.drops(len(states), array("I", states), array("i", weights),
                      array("q", bytes(8 * 2048)), out)
    return out.tolist()


STATES = np.random.default_rng(29).integers(0, 2**32, 300, dtype=np.uint64).tolist()


def test_every_pool_drops_what_the_plain_roll_gives():
    """Every duelist's four pools, 300 random states: the kernel, ``drops_at`` and the
    plain-int ``drops_from`` all give the hand-written roll's card."""
    states = np.array(STATES, dtype=np.uint32)
    for weights in POOLS.values():
        expected = [_drop(s, weights) for s in STATES]
        assert _kernel_drops(STATES, weights) == expected
        assert rank.drops_at(states, np.array(weights)).tolist() == expected
        assert rank.drops_from(STATES, rank.drop_table(weights)) == expected


def test_the_kernel_table_is_drop_table():
    """``fill_table`` makes :func:`emucore.fm.rank.drop_table` for every pool."""
    for weights in POOLS.values():
        table = array("q", bytes(8 * 2048))
        drop_kernel.fill_table(array("i", weights), table)
        assert table.tolist() == rank.drop_table(weights)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=1, max_size=40),
       st.lists(st.integers(0, 2**32 - 1), min_size=0, max_size=50))
def test_any_weights_short_or_long_of_2048(weights: list[int], states: list[int]):
    """Weights summing below 2048 (rolls past the sum give 0) or above it (the walk stops
    at the roll): the kernel and ``drops_at`` give the hand-written roll's card, and the
    numpy path the same."""
    weights = [0, *weights]
    expected = [_drop(s, weights) for s in states]
    assert _kernel_drops(states, weights) == expected
    as_array = np.array(states, dtype=np.uint32)
    assert rank.drops_at(as_array, np.array(weights)).tolist() == expected
    assert rank._numpy_drops(as_array, np.array(weights)).tolist() == expected


def test_drops_at_keeps_the_shape_of_the_states():
    """A (3, 100) array of states gives a (3, 100) array of cards, row by row the drops."""
    weights = np.array(POOLS[1, "sa_pow"])
    grid = np.array(STATES, dtype=np.uint32).reshape(3, 100)
    out = rank.drops_at(grid, weights)
    assert out.shape == (3, 100) and out.dtype == np.int64
    assert out.reshape(-1).tolist() == [_drop(s, POOLS[1, "sa_pow"]) for s in STATES]


def test_bad_buffers_are_refused():
    """A negative weight, a table not of 2048 entries or buffers short of the count are
    ValueErrors, not unchecked reads (the compiled loops check no index)."""
    with pytest.raises(ValueError, match="negative"):
        drop_kernel.fill_table(array("i", [0, 5, -1]), array("q", bytes(8 * 2048)))
    with pytest.raises(ValueError, match="2048"):
        drop_kernel.fill_table(array("i", [0, 5]), array("q", bytes(8 * 2047)))
    with pytest.raises(ValueError, match="too short"):
        drop_kernel.drops(3, array("I", [1, 2]), array("i", [0, 5]),
                          array("q", bytes(8 * 2048)), array("q", bytes(24)))


_DROPS = """
import json, numpy as np
from emucore import tables
from emucore.fm import drop_kernel, rank
t = tables.load("fm")
states = np.random.default_rng(5).integers(0, 2**32, 2000, dtype=np.uint64).astype(np.uint32)
out = {"file": drop_kernel.__file__, "drops": [rank.drops_at(states, t.pools[d, p]).tolist()
                                               for d in (1, 7, 26, 39) for p in range(4)]}
print(json.dumps(out))
"""


def _drops(pure: bool) -> dict:
    return json_child(_DROPS, pure)


def test_compiled_drops_are_the_pure_drops():
    """2,000 states over 16 pools through ``drops_at``: the compiled kernel, when it is
    built, and the numpy path under EMUCORE_PURE=1 give identical cards."""
    fast, pure = _drops(pure=False), _drops(pure=True)
    assert pure["file"].endswith(".py")
    built = compiled.compiled_path("emucore.fm.drop_kernel") is not None
    assert fast["file"].endswith(".py") != built
    assert fast["drops"] == pure["drops"]
