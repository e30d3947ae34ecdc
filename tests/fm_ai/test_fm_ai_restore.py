"""The AI's persistent state lives in the duel: a snapshot taken mid-duel and restored into a
fresh duel continues, under the AI on both sides, exactly as the uninterrupted duel."""

from __future__ import annotations

import pytest
from test_fm_ai_duels import player_deck

from emucore.fm.ai import choose_action
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw.psyq_rand import BOOT_STATE, jump

MAX_STEPS = 2000


def _continue(duel) -> list[str]:
    """Play the duel to its end under the AI; the digest after every step."""
    digests = []
    while not duel.over:
        duel.step(choose_action(duel))
        digests.append(duel.digest())
        assert len(digests) < MAX_STEPS
    return digests


@pytest.mark.parametrize("duelist, seed, steps", [(7, 0, 9), (8, 1, 14), (15, 2, 23),
                                                 (26, 3, 30), (39, 4, 41)])
def test_restore_mid_duel_then_ai_play_equals_the_uninterrupted_duel(duelist, seed, steps):
    setup = FmSetup(deck=player_deck(duelist + seed), duelist=duelist,
                    state=int(jump(BOOT_STATE, 500 * seed + duelist)))
    duel = new_duel(setup)
    for _ in range(steps):
        duel.step(choose_action(duel))
    assert not duel.over
    saved = duel.snapshot()
    uninterrupted = _continue(duel)
    fresh = new_duel(setup)
    fresh.restore(saved)
    assert _continue(fresh) == uninterrupted
