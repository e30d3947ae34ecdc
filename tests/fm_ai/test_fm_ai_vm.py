"""The AI machine: RNG opcodes (G1), control flow, loads, selection writers, PlayFieldCard
encoding and its field-executor decoding (G9), the assembler."""

from __future__ import annotations

import pytest
from fm_ai_util import board, machine

from emucore.fm.ai import data as ai_data
from emucore.fm.ai import executors
from emucore.fm.ai.asm import AsmError, assemble, disassemble
from emucore.fm.ai.opcodes import OPS
from emucore.fm.ai.vm import FIELD_ACTION, FIELD_DONE, HAND_DONE, VmError
from emucore.fm.snapshot import DEFENCE, ExportSide, ExportView


def run(source: str, b=None, state: int = 0x55555555):
    m, rng = machine(b or board({}))
    m.init(assemble(source))
    return m, rng, m.run()


def test_instruction_set_has_all_opcodes_with_spec_lengths():
    assert len(OPS) == 0x44
    assert OPS[0x07].name == "JumpRandom" and OPS[0x07].length == 4
    assert OPS[0x0A].name == "SetRandom" and OPS[0x0A].length == 6
    assert OPS[0x2A].name == "FindBestCombo" and OPS[0x2A].length == 4


def test_g1_jump_random_from_boot_state():
    m, rng, code = run("""
        Store 50, r1
        Store 60, r2
        JumpRandom r1, a      ; 27155 % 100 = 55: not taken
        JumpRandom r2, b      ; 4859 % 100 = 59: taken
        EndField
    a:
        EndField
    b:
        Store 1, r3
        EndHand
    """)
    assert code == HAND_DONE and m.regs[3] == 1
    assert rng.calls == 2 and rng.state == 0x92FB385B


def test_g1_set_random_sequences():
    m, rng, _ = run("\n".join(f"SetRandom 11, 15, r{i}" for i in range(5)) + "\nEndHand")
    assert m.regs[:5] == [11, 15, 14, 11, 12]
    m, rng, _ = run("\n".join(f"SetRandom 6, 10, r{i}" for i in range(5)) + "\nEndHand")
    assert m.regs[:5] == [6, 10, 9, 6, 7]


def test_g1_jump_random_zero_still_calls_rand():
    m, rng, _ = run("JumpRandom r0, x\nx:\nEndHand")
    assert rng.calls == 1 and rng.state == 0xEA136B6A


def test_registers_wrap_signed_32_bit():
    m, _, _ = run("Store 65535, r1\nStore 65535, r2\nAdd r1, r2, r3\nSubtract r0, r3, r4\n"
                  "EndHand")
    assert m.regs[3] == 131070 and m.regs[4] == -131070
    m.regs[5] = 0x7FFFFFFF
    m._op_Add(5, 5, 6)
    assert m.regs[6] == -2


def test_call_return_and_stack_limits():
    m, _, code = run("Call f\nEndField\nf:\nStore 7, r1\nReturn")
    assert code == FIELD_DONE and m.regs[1] == 7
    with pytest.raises(VmError, match="empty stack"):
        run("Return")
    with pytest.raises(VmError, match="8-entry"):
        run("f:\nCall f")
    with pytest.raises(VmError, match="0x00"):
        run("Null")
    with pytest.raises(VmError, match="FindBestAttack"):
        run("FindBestAttack r0, r1")


def test_loads_read_the_view_and_the_duelist_row():
    d = ai_data.load()
    cpu = ExportSide([None] * 5, [None] * 5, [], [], 1234, 2)
    player = ExportSide([None] * 5, [None] * 5, [], [], 4321, 0)
    b = board({}, data=d, view=ExportView(cpu, player, 5, 8))
    m, _, _ = run("""
        LoadLifePoint r0, r1
        Store 1, r9
        LoadLifePoint r9, r2
        TestPinned r0, r3      ; I = 0: the player
        TestPinned r9, r4      ; I = 1: the AI itself
        LoadOpponentID r5
        LoadTerrain r6
        Store 7, r8
        LoadOpponentData r5, r0, r10   ; field 0: byte 1 x 100
        Store 6, r8
        LoadOpponentData r5, r8, r11   ; field 6: byte 7
        EndHand
    """, b)
    assert m.regs[1:7] == [1234, 4321, 0, 1, 8, 5]
    assert m.regs[10] == 2000 and m.regs[11] == 75   # Heishin: LP 20 x 100, Harpie 75 %


def test_selection_writers():
    b = board({11: (900, 1000, 800), 12: (901, 1200, 1000)})
    m, _, code = run("""
        Store 11, r1
        Store 12, r2
        PlayFaceUp r1, r2, r0, r0, r0
        Store 3, r3
        SetPosition r3
        SetSelectionRandom
        EndHand
    """, b)
    assert code == HAND_DONE
    assert m.state.selection[:9] == [11, 12, 0, 0, 0, 0, 3, 0, 1]


@pytest.mark.parametrize(("operands", "flags", "bytes_", "action"), [
    ((7, 1, 0, 0), 0, (7, 7, 0), executors.FieldAction("activate", 1, -1)),
    ((3, 0, 1, 0), 0, (3, 0, 1), executors.FieldAction("defend", 2)),
    ((3, 0, 1, 0), DEFENCE, (3, 0, 1), executors.FieldAction("done", 2)),
    ((2, 0, 0, 57), 0, (2, 57, 0), executors.FieldAction("attack", 1, 1)),
    ((1, 0, 0, 255), 0, (1, 58, 0), executors.FieldAction("direct", 0)),
    ((4, 0, 0, 0), 0, (4, 0, 0), executors.FieldAction("done", 3)),
    ((8, 0, 0, 2), 0, (8, 2, 0), executors.FieldAction("activate", 2, 1)),
])
def test_g9_play_field_card_encoding_and_executor(operands, flags, bytes_, action):
    b = board({operands[0]: (1, 1000, 1000, flags)})
    regs = "\n".join(f"Store {v}, r{i + 1}" for i, v in enumerate(operands))
    m, _, code = run(regs + "\nPlayFieldCard r1, r2, r3, r4", b)
    assert code == FIELD_ACTION
    assert tuple(m.state.selection[9:12]) == bytes_
    # an attack on a column needs a player monster: with none, any row-1 byte is direct
    player_monsters = int(action.kind == "attack")
    assert executors.decode_field(m.state.selection, player_monsters, b.flags) == action


def test_byte_58_with_player_monsters_attacks_the_middle_one():
    sel = [0] * 9 + [1, 58, 0]
    assert executors.decode_field(sel, 2, [0] * 111) == executors.FieldAction("attack", 0, 2)


def test_assembler_round_trip_and_errors():
    source = "start:\nStore 300, r2\nFindStrongest r1, r2, r3, r4, r5\nJump start\nEndHand"
    program = assemble(source)
    listing = disassemble(program)
    assert [t for _, t in listing] == ["Store 300, r2", "FindStrongest r1, r2, r3, r4, r5",
                                       "Jump 0x0000", "EndHand"]
    with pytest.raises(AsmError, match="line 1"):
        assemble("Bogus r1")
    with pytest.raises(AsmError, match="operands"):
        assemble("Store 1")




def g4_board():
    from fm_ai_util import SYNTH_STATS

    from emucore.fm.snapshot import FACE_DOWN as DOWN
    records = {1: (905, *SYNTH_STATS[905], 0, 0, 1), 56: (907, 500, 500, DOWN, 0, 1)}
    records.update({11 + i: (c, *SYNTH_STATS[c]) for i, c in enumerate([900, 901, 903, 907,
                                                                        908])})
    return board(records)


# (instruction using r1 = 905, r2 = 1, r3 = 2, r4 = 56, r5 = 3, r6 = 4; result register r9)
HANDLERS = [
    ("CalcCardPower r1, r0, r9", 1300),
    ("TestHighStat r1, r9", 0),                 # DEF 1100 < ATK 1300
    ("LoadCardType r1, r9", 0),
    ("LoadCardID r2, r9", 905),
    ("SetFaceDown r4, r9", 2),
    ("LoadDeckSize r9", 0),                     # five window cards, no deck
    ("FindWeakest r3, r0, r0, r0, r9", 1),
    ("FindStrongest r3, r5, r0, r0, r9", 56),   # zone 3, hide 0: the face-down card
    ("FindStrongest r3, r5, r2, r0, r9", 0),    # hide 1
    ("FindKiller r4, r0, r9", 1),
    ("FindDefenseStopper r0, r9", 1),
    ("FindDefenseStopper r2, r9", 0),           # the only player monster is hidden
    ("CountCards r6, r9", 5),
    ("FindFirstCard r0, r0, r9", 2),
    ("FindCard r1, r0, r2, r9", 1),
    ("MatchType r0, r6, r2, r0, r9", 11),
    ("FindEquipTarget r1, r0, r0, r9", 0),
    ("CheckRitual r1, r9", 0),
    ("FindBestCombo r2, r0, r9", 1),
    ("EvaluateFusion r1, r2, r0, r9", 0),      # 905+901 -> 906, +903 -> 910: two cards
    ("FindBestCombo r2, r0, r8\nStartCombo r9", 1),
    ("PlayFaceUp r5, r0, r0, r0, r0\nFindFirstMonster r9", 3),   # empty slot 3 reads type 0
    ("PlayFaceUp r3, r0, r0, r0, r0\nFindFirstType r0, r9", 2),
    ("SetSelectionRandom\nLoadSelectionRandom r9", 1),
    ("SetSelectionRandom\nClearSelectionRandom\nLoadSelectionRandom r9", 0),
    ("TestPinned r0, r9", 0),
    ("LoadOpponentID r9", 1),
    ("LoadTerrain r9", 0),
    ("LoadBestDifference r9", 0),
    ("JumpBetween r4, r4, r2, t\nEndHand\nt:\nStore 7, r9", 7),
    ("JumpBetween r2, r4, r4, t\nStore 8, r9\nEndHand\nt:\nStore 7, r9", 8),
    ("JumpGreaterEqual r2, r2, t\nEndHand\nt:\nStore 7, r9", 7),
    ("JumpGreater r2, r2, t\nStore 8, r9\nEndHand\nt:\nStore 7, r9", 8),
    ("Jump t\nStore 8, r9\nt:\nStore 7, r9", 7),
    ("SkipHand 1, 2, 3, 4\nSkipField 1, 2, 3, 4\nPrint 9\nHandNop\nFieldNop\nSetFlag97\n"
     "ClearFlag97\nStore 7, r9", 7),
]


@pytest.mark.parametrize(("code", "expected"), HANDLERS)
def test_handlers(code, expected):
    prelude = "Store 905, r1\nStore 1, r2\nStore 2, r3\nStore 56, r4\nStore 3, r5\nStore 4, r6\n"
    m, _, result = run(prelude + code + "\nEndHand", g4_board())
    assert result == HAND_DONE and m.regs[9] == expected


def test_set_edits_and_move_card():
    b = g4_board()
    m, _, _ = run("""
        Store 907, r1
        AddCard r1
        AddCard r1
        Store 5, r2
        AddType r2
        Store 56, r3
        MoveCard r3
        EndHand
    """, b)
    assert m.state.card_set[:2] == [907, 0] and m.state.type_set[:2] == [6, 0]
    assert b.flags[56] & 0x4000 and b.snapshot.flags[56] & 0x4000
    m._op_ClearCards()
    m._op_ClearTypes()
    assert not any(m.state.card_set) and not any(m.state.type_set)


def test_push_combo_empty_keeps_earlier_bytes():
    m, _, _ = run("""
        Store 1, r2
        Store 15, r3
        PlayFaceUp r3, r3, r3, r3, r3
        FindBestCombo r2, r0, r9
        PushComboEmpty
        Store 1, r4
        LoadGuardianStarChoice r4
        EndHand
    """, g4_board())
    assert m.state.selection[:8] == [12, 15, 15, 15, 15, 0, 0, 1]


def test_every_opcode_has_a_test_program():
    from emucore.fm.ai.opcodes import BY_NAME
    names = {line.split()[0] for code, _ in HANDLERS for line in code.split("\n")}
    covered = names | {"Store", "EndHand", "AddCard", "AddType", "MoveCard", "ClearCards",
                       "ClearTypes", "PushComboEmpty", "LoadGuardianStarChoice", "PlayFieldCard",
                       "JumpRandom", "SetRandom", "Call", "Return", "EndField", "Add",
                       "Subtract", "SetRegister", "LoadLifePoint", "LoadOpponentData",
                       "SetPosition", "PushComboCard", "JumpEqual", "JumpNotEqual",
                       "LoadBestAttacker", "LoadBestTarget", "Null", "FindBestAttack"}
    assert set(BY_NAME) - covered == set()
