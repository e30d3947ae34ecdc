"""Scenario tests of the embedded hand and field programs (spec/fm-ai.md §6-§7): a board and
an RNG state in, the exact selection record, decoded play and rand() count out."""

from __future__ import annotations

import pytest

from emucore.fm.ai import choices, embedded, executors
from emucore.fm.ai import data as ai_data
from emucore.fm.ai.helpers import Board
from emucore.fm.ai.vm import FIELD_ACTION, FIELD_DONE, HAND_DONE, Machine
from emucore.fm.snapshot import (
    DEFENCE,
    FACE_DOWN,
    USED,
    ExportSide,
    ExportView,
    FieldCard,
    Snapshot,
)
from emucore.hw.psyq_rand import BOOT_STATE, Rand

BLUE_EYES, MYSTICAL_ELF, DARK_MAGICIAN = 1, 2, 35
BABY_DRAGON, TIME_WIZARD = 4, 16
RYU_KISHIN, MUSHROOM_MAN, SHADOW_SPECTER = 5, 8, 9
BEAR_TRAP, HARPIES, OOKAZI, HINOTAMA, UMI = 683, 672, 346, 344, 334
ON = 0x8000


def card(cid: int, flags: int = 0) -> FieldCard:
    d = ai_data.load()
    return FieldCard(cid, d.cards.atk[cid], d.cards.dfn[cid], ON | flags)


def side(monsters=(), magic=(), hand=(), lp=8000, swords=0) -> ExportSide:
    return ExportSide(list(monsters) + [None] * (5 - len(monsters)),
                    list(magic) + [None] * (5 - len(magic)), list(hand), [MUSHROOM_MAN] * 30,
                    lp, swords, deck_first=45)


def run(program, duelist: int, cpu: ExportSide, player: ExportSide, terrain: int = 0,
        state: int = BOOT_STATE):
    d = ai_data.load()
    view = ExportView(cpu, player, terrain, duelist)
    snap = Snapshot()
    snap.export(view, d.cards.type, d.cards.star1, d.cards.star2, d.cards.atk, d.cards.dfn)
    rng = Rand(state)
    m = Machine(Board(snap, view, d, d.duelists[duelist].row[0]), rng.rand)
    return program(m), m, rng


def hand(duelist, cpu, player, **kw):
    code, m, rng = run(embedded.hand_program, duelist, cpu, player, **kw)
    assert code == HAND_DONE
    d = ai_data.load()
    return m.state.selection, executors.decode_hand(m.state.selection, m.board.ids,
                                                    d.cards.type), rng.calls


def field(duelist, cpu, player, **kw):
    code, m, rng = run(embedded.field_program, duelist, cpu, player, **kw)
    if code == FIELD_DONE:
        return None, rng.calls
    assert code == FIELD_ACTION
    others = sum(1 for c in player.monsters if c is not None)
    return executors.decode_field(m.state.selection, others, m.board.flags), rng.calls


FILLER = [MUSHROOM_MAN, SHADOW_SPECTER, RYU_KISHIN]


def test_lethal_burn_from_the_hand():
    cpu = side(hand=[*FILLER, HINOTAMA, OOKAZI])
    sel, play, calls = hand(1, cpu, side(lp=400))
    assert sel[:2] == [15, 0] and sel[8] == 0 and play.activate and calls == 0
    sel, play, _ = hand(1, cpu, side(lp=400, magic=[card(BEAR_TRAP, FACE_DOWN)]))
    assert sel[0] != 15 or not play.activate    # a set card on the player's row: no finisher


def test_ocean_mage_restores_umi():
    cpu = side(hand=[*FILLER, UMI, MUSHROOM_MAN])
    sel, play, calls = hand(21, cpu, side())
    assert sel[0] == 14 and play.activate and calls == 0
    sel, play, _ = hand(21, cpu, side(), terrain=5)
    assert not (sel[0] == 14 and play.activate)


def test_behind_plays_the_monster_that_outguns_the_player_face_down():
    cpu = side(hand=[*FILLER, BLUE_EYES, MUSHROOM_MAN])
    sel, play, calls = hand(1, cpu, side(monsters=[card(DARK_MAGICIAN)]))
    assert sel[:2] == [14, 0] and sel[6] == 1 and sel[8] == 1
    assert play == executors.HandPlay((14,), "monster", 0, True, False, 0)
    assert calls == 0                                    # a zero-RNG turn (G11)


def test_strategy_roll_simon_muran_empty_boards_rolls_c_and_sets_the_trap():
    assert choices.strategy_chain((40, 30, 30)) == (("A", 40), ("B", 50), ("C", 100))
    cpu = side(hand=[MUSHROOM_MAN, SHADOW_SPECTER, BEAR_TRAP, RYU_KISHIN, MUSHROOM_MAN])
    sel, play, calls = hand(1, cpu, side())          # rand 27155 -> 55, 4859 -> 59: C
    assert calls == 2
    assert sel[:2] == [13, 0] and sel[6] == 6 and sel[8] == 1
    assert play == executors.HandPlay((13,), "magic", 0, True, False, 0)


def test_strategy_a_fuses_two_hand_cards_into_a_free_slot():
    cpu = side(hand=[MUSHROOM_MAN, BABY_DRAGON, SHADOW_SPECTER, TIME_WIZARD, RYU_KISHIN])
    sel, play, calls = hand(3, cpu, side())          # Jono: A70 first, 55 < 70
    assert calls == 1
    assert sel[:3] == [12, 14, 0] and sel[6] == 1
    assert play.slots == (12, 14) and play.row == "monster"


@pytest.mark.parametrize("split", sorted({s for d in ai_data.load().duelists.values()
                                          for s in (d.ahead, d.behind)}))
def test_every_strategy_chain_reproduces_its_split(split):
    chain = choices.strategy_chain(split)
    left, got = 100 * 100, {}
    for name, percent in chain:
        got[name] = left * percent // 100
        left -= got[name]
    assert [got["A"], got["B"], got["C"]] == [100 * p for p in split]


def test_field_wall_goes_to_defence():
    act, calls = field(1, side(monsters=[card(MYSTICAL_ELF)]), side())
    assert act == executors.FieldAction("defend", 0) and calls == 0


def test_field_weakest_killer_attacks_the_strongest_target():
    cpu = side(monsters=[card(BLUE_EYES), card(RYU_KISHIN)])
    act, calls = field(1, cpu, side(monsters=[card(SHADOW_SPECTER), card(MUSHROOM_MAN)]))
    # target: the player's strongest attack-position monster (Mushroom Man 800, slot 57).
    # Ryu-kishin (1000, Saturn) would be the weakest winner, but Jupiter beats Saturn:
    # 1000 - 800 - 500 < 0, so the killer is Blue-eyes.
    assert act == executors.FieldAction("attack", 0, 1) and calls == 0
    cpu = side(monsters=[card(BLUE_EYES), card(RYU_KISHIN)])
    act, _ = field(1, cpu, side(monsters=[card(SHADOW_SPECTER)]))   # Saturn vs Saturn: 0
    assert act == executors.FieldAction("attack", 1, 0)


def test_field_direct_attack_and_end():
    act, _ = field(1, side(monsters=[card(RYU_KISHIN)]), side())
    assert act == executors.FieldAction("direct", 0)
    act, calls = field(1, side(monsters=[card(RYU_KISHIN, USED)]), side())
    assert act is None and calls == 0


def test_field_blind_attack_roll_only_for_duelists_that_cannot_see():
    player = side(monsters=[card(SHADOW_SPECTER, FACE_DOWN | DEFENCE)])
    act, calls = field(11, side(monsters=[card(BLUE_EYES)]), player)   # Mai: 55 >= 25
    assert calls == 1 and act == executors.FieldAction("done", 0)     # Blue-eyes stays
    act, calls = field(8, side(monsters=[card(BLUE_EYES)]), player)    # Heishin sees it
    assert calls == 0 and act == executors.FieldAction("attack", 0, 0)


def test_field_harpies_roll_against_the_players_row():
    cpu = side(magic=[card(HARPIES, FACE_DOWN)])
    act, calls = field(8, cpu, side(magic=[card(BEAR_TRAP, FACE_DOWN)]))   # 55 < 75
    assert calls == 1 and act == executors.FieldAction("activate", 0)
    act, calls = field(1, cpu, side(magic=[card(BEAR_TRAP, FACE_DOWN)]))   # 55 >= 25: keep
    assert calls == 1 and act == executors.FieldAction("done", 0)


def test_an_equip_with_no_monster_and_a_full_row_overwrites_a_random_slot():
    legendary_sword = 301
    cpu = side(magic=[card(BEAR_TRAP, FACE_DOWN)] * 5,
               hand=[legendary_sword, OOKAZI, HINOTAMA, OOKAZI, HINOTAMA])
    sel, play, calls = hand(1, cpu, side())     # C (55, 59), then SetRandom 6,10: 20868 -> 9
    assert calls == 3
    assert sel[:2] == [11, 0] and sel[6] == 9 and sel[8] == 1
    assert play == executors.HandPlay((11,), "magic", 3, True, False, 0)
