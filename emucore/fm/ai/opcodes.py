"""The AI bytecode's instruction set: number, name, operand shape (spec/fm-ai.md §3.3).

Operand kinds: ``r`` a register whose value is read, ``d`` a destination register, ``L`` a u16
little-endian target (offset from the program start), ``i`` a u16 immediate (unsigned),
``b`` a raw byte. The length of an instruction is 1 + its operand bytes. Shared by the
machine, the assembler and the disassembler so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

_WIDTH = {"r": 1, "d": 1, "b": 1, "L": 2, "i": 2}


@dataclass(frozen=True)
class Op:
    code: int
    name: str
    operands: str

    @property
    def length(self) -> int:
        return 1 + sum(_WIDTH[k] for k in self.operands)


_TABLE = (
    (0x00, "Null", ""), (0x01, "Jump", "L"), (0x02, "JumpGreaterEqual", "rrL"),
    (0x03, "JumpGreater", "rrL"), (0x04, "JumpEqual", "rrL"), (0x05, "JumpNotEqual", "rrL"),
    (0x06, "JumpBetween", "rrrL"), (0x07, "JumpRandom", "rL"), (0x08, "Call", "L"),
    (0x09, "Return", ""), (0x0A, "SetRandom", "iid"), (0x0B, "Subtract", "rrd"),
    (0x0C, "PlayFieldCard", "rrrr"), (0x0D, "EndHand", ""), (0x0E, "EndField", ""),
    (0x0F, "CalcCardPower", "rrd"), (0x10, "TestHighStat", "rd"), (0x11, "LoadCardType", "rd"),
    (0x12, "LoadCardID", "rd"), (0x13, "SetFaceDown", "rd"), (0x14, "LoadLifePoint", "rd"),
    (0x15, "LoadOpponentID", "d"), (0x16, "LoadTerrain", "d"), (0x17, "LoadDeckSize", "d"),
    (0x18, "LoadSelectionRandom", "d"), (0x19, "TestPinned", "rd"), (0x1A, "StartCombo", "d"),
    (0x1B, "LoadBestDifference", "d"), (0x1C, "LoadBestAttacker", "d"),
    (0x1D, "LoadBestTarget", "d"), (0x1E, "FindStrongest", "rrrrd"),
    (0x1F, "FindWeakest", "rrrrd"), (0x20, "FindKiller", "rrd"),
    (0x21, "FindDefenseStopper", "rd"), (0x22, "CountCards", "rd"),
    (0x23, "FindFirstCard", "rrd"), (0x24, "FindCard", "rrrd"), (0x25, "MatchType", "rrrrd"),
    (0x26, "FindEquipTarget", "rrrd"), (0x27, "CheckRitual", "rd"),
    (0x28, "FindFirstMonster", "d"), (0x29, "FindFirstType", "rd"),
    (0x2A, "FindBestCombo", "rrd"), (0x2B, "EvaluateFusion", "rrrd"),
    (0x2C, "SkipHand", "bbbb"), (0x2D, "SkipField", "bbbb"), (0x2E, "PlayFaceUp", "rrrrr"),
    (0x2F, "SetPosition", "r"), (0x30, "FindBestAttack", "rd"), (0x31, "PushComboCard", ""),
    (0x32, "PushComboEmpty", ""), (0x33, "HandNop", ""), (0x34, "FieldNop", ""),
    (0x35, "AddCard", "r"), (0x36, "ClearCards", ""), (0x37, "AddType", "r"),
    (0x38, "ClearTypes", ""), (0x39, "SetSelectionRandom", ""),
    (0x3A, "ClearSelectionRandom", ""), (0x3B, "SetFlag97", ""), (0x3C, "ClearFlag97", ""),
    (0x3D, "MoveCard", "r"), (0x3E, "LoadOpponentData", "rrd"), (0x3F, "Store", "id"),
    (0x40, "SetRegister", "rd"), (0x41, "Add", "rrd"), (0x42, "LoadGuardianStarChoice", "r"),
    (0x43, "Print", "b"),
)

OPS: tuple[Op, ...] = tuple(Op(c, n, o) for c, n, o in _TABLE)
BY_NAME = {op.name: op for op in OPS}
assert [op.code for op in OPS] == list(range(len(OPS)))

# Lengths pinned by the spec's table (guards the operand shapes above).
assert [op.length for op in OPS] == [
    1, 3, 5, 5, 5, 5, 6, 4, 3, 1, 6, 4, 5, 1, 1, 4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 3, 2, 2, 2, 2,
    6, 6, 4, 3, 3, 4, 5, 6, 5, 3, 2, 3, 4, 5, 5, 5, 6, 2, 3, 1, 1, 1, 1, 2, 1, 2, 1, 1, 1, 1,
    1, 2, 4, 4, 3, 4, 2, 2]
