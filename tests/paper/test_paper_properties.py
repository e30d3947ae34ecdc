"""Property tests: random legal play never breaks the table; golden replays still verify."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emucore.duel import replay
from emucore.ocg1999.replay import ADAPTER as OCG_ADAPTER
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.ai import choose
from emucore.paper.engine import PaperDuel
from emucore.paper.system import PaperSystem
from emucore.tcglite.replay import ADAPTER as TCG_ADAPTER
from emucore.tcglite.system import SYSTEM as TCG

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_SEEDS = {"ocg1999": 30, "tcglite": 7}  # seed 30: sets, windows, passes


def _cards_in_play(duel: PaperDuel) -> int:
    return sum(len(s.deck) + len(s.hand) + len(s.grave) + len(s.ante) + len(s.fusion_deck)
               + sum(1 for m in s.monsters if m) + sum(1 for x in s.spells if x)
               for s in duel.state.sides)


def _check_invariants(duel: PaperDuel, total: int) -> None:
    assert _cards_in_play(duel) == total
    for side in duel.state.sides:
        assert side.lp >= 0
        assert side.summons <= duel.profile.monsters_per_turn
        assert side.magic <= duel.profile.magic_per_turn
        assert side.traps <= duel.profile.traps_per_turn
        for z, spell in enumerate(side.spells):
            if spell and spell.target_side >= 0:  # an equip still has its monster
                assert duel.state.sides[spell.target_side].monsters[spell.target_zone], z


@pytest.mark.parametrize("system", [OCG, TCG], ids=["ocg1999", "tcglite"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), chooser=st.randoms(use_true_random=False),
       ante=st.booleans())
def test_random_legal_play_keeps_every_card_and_ends(system: PaperSystem, seed: int, chooser,
                                                    ante: bool) -> None:
    duel = system.new_duel(seed, ante=ante and system is OCG)
    total = _cards_in_play(duel)
    for _ in range(4000):
        if duel.over:
            break
        actions = duel.legal_actions()
        assert actions
        duel.step(actions[chooser.randrange(len(actions))])
        _check_invariants(duel, total)
    assert duel.over


def _golden(adapter) -> replay.Replay:
    path = GOLDEN / f"{adapter.system}.json"
    if os.environ.get("EMUCORE_UPDATE_GOLDEN") == "1":
        seed = GOLDEN_SEEDS[adapter.system]
        replay.record(adapter, adapter.paper.setup(seed), choose).save(path)
    return replay.load(path)


@pytest.mark.parametrize("adapter", [OCG_ADAPTER, TCG_ADAPTER], ids=["ocg1999", "tcglite"])
def test_golden_replays_verify(adapter) -> None:
    """A recorded computer-vs-computer duel per system; regenerate only with
    EMUCORE_UPDATE_GOLDEN=1 after a deliberate rule change (and bump ENGINE_VERSION)."""
    recorded = _golden(adapter)
    assert recorded.steps and replay.verify(adapter, recorded) is None
    duel = adapter.new_duel(recorded.setup)
    for step in recorded.steps:
        assert choose(duel).to_json() == step.action  # the computer still decides the same
        duel.step(adapter.decode_action(step.action))
    assert duel.over
