"""Route search's opening-hand filter: the player's shuffles of every frame choice at once
(``route.openings``) keep exactly the frames the one-state shuffle keeps.

Source: the plain path, one ``deck.shuffle_deck`` per frame count from the state that many
frames later (``psyq_rand.jump``), whose first five cards are the opening draws
(fm-engine.md §2.3; tests/planning/test_plan_seed.py checks them against the engine's
draws). The example spec examples/routes/simon-drop.json asks for Leghul in the opening.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from emucore import tables
from emucore.fm import deck
from emucore.hw import psyq_rand
from emucore.planning import route, route_spec

FM = tables.load("fm")
SPEC = Path(__file__).resolve().parents[2] / "examples" / "routes" / "simon-drop.json"


def test_openings_keep_the_frames_the_one_state_shuffle_keeps():
    link = route_spec.load(SPEC, FM).links[1]
    rng = random.Random(5)
    for _ in range(3):
        starter = deck.starter_deck(psyq_rand.Rand(rng.getrandbits(32)), FM)
        sorted_deck = deck.sort_deck(starter, link.sort, FM)
        state = rng.getrandbits(32)
        waits = range(link.frames[0], link.frames[1] + 1)
        states = route.wait_states(state, waits)
        kept = route.openings(link, states, sorted_deck)
        expected = []
        for frames in waits:
            at = int(psyq_rand.jump(state, frames * route.CALLS_PER_FRAME))
            hand = deck.shuffle_deck(psyq_rand.Rand(at), sorted_deck).cards[:5]
            expected.append(all(hand.count(c) >= link.opening.count(c) for c in link.opening))
            assert int(states[frames - waits.start]) == at
        assert kept == expected
    free = dataclasses.replace(link, opening=())
    assert route.openings(free, states, sorted_deck) == [True] * len(waits)
