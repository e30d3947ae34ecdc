"""The AI's persistent state lives in the duel: a snapshot taken mid-duel and restored into a
fresh duel continues, under the AI on both sides, exactly as the uninterrupted duel."""

from __future__ import annotations

import pytest
from test_fm_ai_duels import player_deck

from emucore.fm import machine as M
from emucore.fm import state as S
from emucore.fm.actions import Done
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
                                                 (26, 3, 30), (39, 4, 17)])
def test_restore_mid_duel_then_ai_play_equals_the_uninterrupted_duel(duelist, seed, steps):
    setup = FmSetup(deck=player_deck(duelist + seed), duelist=duelist,
                    state=int(jump(BOOT_STATE, 500 * seed + duelist)), computer=[0, 1])
    duel = new_duel(setup)
    for _ in range(steps):
        duel.step(choose_action(duel))
    assert not duel.over
    saved = duel.snapshot()
    uninterrupted = _continue(duel)
    fresh = new_duel(setup)
    fresh.restore(saved)
    assert _continue(fresh) == uninterrupted


def test_field_done_is_the_engines_done_and_sets_the_used_flag_in_the_state():
    """fm-ai §5.2: PlayFieldCard slot,0,0,0 sets the card record's used flag; the AI returns
    the engine's Done, and the export at its next decision carries 0x4000 into its array."""
    seen = 0
    for duelist, seed in ((7, 0), (8, 1), (15, 2), (26, 3)):
        duel = new_duel(FmSetup(deck=player_deck(duelist + seed), duelist=duelist,
                                state=int(jump(BOOT_STATE, 500 * seed + duelist)),
                                computer=[0, 1]))
        while not duel.over and seen < 3:
            action = choose_action(duel)
            side = duel.acting_side
            duel.step(action)
            if not isinstance(action, Done) or duel.over:
                continue
            seen += 1
            row = S.MAGIC if action.magic else S.MONSTERS
            assert duel.flags(duel.rec(side, row, action.zone)) & S.F_USED
            if duel.acting_side == side:   # same field phase: the next decision exports it
                duel.step(choose_action(duel))
                slot = (6 if action.magic else 1) + action.zone
                flags = duel.st.ai_snapshot[side].view(M.AI_RECORD_DTYPE)["flags"]
                assert flags[slot] & S.F_USED
    assert seen == 3
