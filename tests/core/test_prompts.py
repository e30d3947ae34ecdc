"""The protocol's prompts (``options(prefix)``, ``action_for(prefix)``) against the legal list.

Source: the protocol's own promise (emucore/duel/protocol.py, after ygopro-core's prompts):
every full path through ``options`` is a legal action and every legal action is reachable
through ``options``. The states are random positions of real duels (random legal play from a
seeded start), so the test covers summons, magic, attacks and the end of a turn.
"""

from __future__ import annotations

import random

import pytest

from emucore.dm1.duel import Dm1Duel
from emucore.duel.protocol import Duel, IllegalAction
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.tcglite.system import SYSTEM as TCG
from tests.dm1.dm1_helpers import deck


def paths(duel: Duel, prefix: tuple = ()) -> list:
    """Every whole action reachable from ``prefix`` by choosing each offered part."""
    action = duel.action_for(prefix)
    if action is not None:
        assert duel.options(prefix) == []
        return [action]
    out = []
    for part in duel.options(prefix):
        out.extend(paths(duel, (*prefix, part)))
    return out


def random_states(duel: Duel, seed: int, count: int) -> list[Duel]:
    """The duel after each of ``count`` random legal steps (stopping at its end)."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        if duel.over:
            break
        states.append(duel.snapshot())
        duel.step(rng.choice(list(duel.legal_actions())))
    return states


def dm1_duel(seed: int) -> Dm1Duel:
    rng = random.Random(seed)
    return Dm1Duel(deck([rng.randrange(1, 300) for _ in range(40)]),
                   opponent_deck=deck([rng.randrange(1, 300) for _ in range(40)]),
                   opponent=0, seed=seed)


@pytest.mark.parametrize("make", [dm1_duel, lambda s: OCG.new_duel(s), lambda s: TCG.new_duel(s)],
                         ids=["dm1", "ocg1999", "tcglite"])
def test_every_path_is_legal_and_every_legal_action_a_path(make) -> None:
    for seed in (1, 2, 3):
        duel = make(seed)
        for state in random_states(duel, seed, 60):
            duel.restore(state)
            legal = list(duel.legal_actions())
            reached = paths(duel)
            assert sorted(map(repr, reached)) == sorted(map(repr, legal))


def test_a_prefix_that_starts_no_legal_action_is_refused() -> None:
    duel = dm1_duel(1)
    with pytest.raises(IllegalAction) as err:
        duel.options((("kind", "no such kind"),))
    assert err.value.rule == "no-such-choice"


def test_a_paper_prefix_is_refused_with_the_rule_of_its_plainest_play() -> None:
    """Source: the 1999 rulebook (monsters attack in the Battle Phase; one monster is placed
    per turn), as the engine names those rules: a prefix that starts no legal action is
    refused with the rule that refuses the plainest action it starts, so a screen can say
    why (ygopro-core answers a bad choice with MSG_RETRY)."""
    duel = OCG.new_duel(3)
    assert ("kind", "attack") not in duel.options()
    with pytest.raises(IllegalAction) as err:
        duel.options((("kind", "attack"), ("zone", 0)))
    assert err.value.rule == "phase"
    summon = next(a for a in duel.legal_actions() if a.kind == "summon")
    duel.step(summon)
    while duel.acting_side != 0:  # a response window: let the summon stand
        duel.step(duel.action_for((("kind", "pass"),)))
    hand = duel.state.sides[0].hand
    monster = next(i for i, card in enumerate(hand) if OCG.catalogue[card].kind == "monster")
    with pytest.raises(IllegalAction) as err:
        duel.options((("kind", "summon"), ("hand", monster)))
    assert err.value.rule == "one-monster-per-turn"
    with pytest.raises(IllegalAction) as err:
        duel.options((("kind", "no such kind"),))
    assert err.value.rule == "no-such-choice"
