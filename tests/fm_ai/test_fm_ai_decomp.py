"""The AI machine and the computer's field executor against the decompiled handlers
(krystalgamer/memories-decomp): ``AiScript_TestHighStat``, ``AiScript_FindDefenseStopper``
and ``DuelScene_UpdateFieldActions`` (state 2, the scripted path of a computer side)."""

from __future__ import annotations

import pytest
from fm_ai_util import EMPTY_SIDE, board, machine

from emucore.fm.ai import data as ai_data
from emucore.fm.ai import executors
from emucore.fm.ai.asm import assemble
from emucore.fm.ai.vm import HAND_DONE
from emucore.fm.snapshot import FACE_DOWN, PL_MONSTERS, ExportView

UMI = 5
# Card 422: type 14, ATK 500 / DEF 400; type 14 loses 500 on Umi, so both clamp to 0.
WEAK_ON_UMI = 422


def run(source: str, b) -> list[int]:
    m, _ = machine(b)
    m.init(assemble(source))
    assert m.run() == HAND_DONE
    return m.regs


def test_test_high_stat_compares_terrain_boosted_clamped_stats():
    """AiScript_TestHighStat: for a monster, result = !(Duel_GetBaseCardStat(card, 1) <
    Duel_GetBaseCardStat(card, 0)); Duel_GetBaseCardStat is the table stat x 10 plus the
    terrain boost, 0 when negative. Card 422 (500 / 400, type 14) on Umi is 0 / 0: the
    result is 1 (the raw stats would give 0); on the normal terrain it is 0."""
    d = ai_data.load()
    assert (d.cards.atk[WEAK_ON_UMI], d.cards.dfn[WEAK_ON_UMI]) == (500, 400)
    assert (d.base_atk[UMI][WEAK_ON_UMI], d.base_def[UMI][WEAK_ON_UMI]) == (0, 0)
    program = f"Store {WEAK_ON_UMI}, r1\nTestHighStat r1, r9\nEndHand"
    for terrain, expected in ((UMI, 1), (0, 0)):
        view = ExportView(EMPTY_SIDE, EMPTY_SIDE, terrain, 1)
        assert run(program, board({}, data=d, view=view))[9] == expected, terrain


@pytest.mark.parametrize(("hide", "expected"), [(0, 1), (1, 0), (2, 0), (255, 0)])
def test_find_defense_stopper_hides_face_down_cards_for_any_non_zero_operand(hide, expected):
    """AiScript_FindDefenseStopper: the player's slots 56..60 skip a face-down card when
    ``hide_face_down != 0`` (not only 1). The AI's 1300-ATK monster against the player's one
    face-down 500-ATK monster: 1 when it is seen (a round won), 0 when it is hidden (no
    round)."""
    b = board({1: (905, 1300, 1100), 56: (907, 500, 500, FACE_DOWN)})
    regs = run(f"Store {hide}, r1\nFindDefenseStopper r1, r9\nEndHand", b)
    assert regs[9] == expected


@pytest.mark.parametrize("target", [0x38, 0x3A, 0x3C, 0x3D, 0xFF])
def test_any_row_one_target_attacks_directly_when_the_player_has_no_monster(target):
    """DuelScene_UpdateFieldActions state 5 maps byte 10 >= 0x38 to row 1 (the opposing
    monsters, column 0x3C - byte); the commit then attacks directly when the cursor is on
    row 1 and none of that row's five records is occupied, whatever the column."""
    sel = [0] * 9 + [2, target, 0]
    assert executors.decode_field(sel, 0, [0] * 111) == executors.FieldAction("direct", 1)


def test_row_one_targets_with_player_monsters_name_their_column():
    """State 5: byte 10 in 0x38..0x3C is the player's monster column byte - 0x38 (row 1,
    column 0x3C - byte of the computer's view); with monsters present the attack goes
    there."""
    for col in range(5):
        sel = [0] * 9 + [1, PL_MONSTERS + col, 0]
        assert executors.decode_field(sel, 1, [0] * 111) == executors.FieldAction(
            "attack", 0, col)
