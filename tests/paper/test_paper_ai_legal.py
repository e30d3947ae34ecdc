"""The computer opponent only ever chooses an action that legal_actions() lists."""

from __future__ import annotations

import pytest

from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.ai import choose
from emucore.tcglite.system import SYSTEM as TCG


@pytest.mark.parametrize("system", [OCG, TCG], ids=["ocg1999", "tcglite"])
def test_every_computer_choice_is_a_listed_legal_action(system):
    for seed in range(25):
        duel = system.new_duel(seed)
        steps = 0
        while not duel.over:
            action = choose(duel)
            assert action in list(duel.legal_actions()), (seed, steps, action)
            duel.step(action)
            steps += 1
            assert steps < 2000
