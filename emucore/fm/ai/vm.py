"""The AI bytecode machine: ``AiScript_Init`` / ``AiScript_Run`` (spec/fm-ai.md §3).

20 signed 32-bit registers, a cursor, an 8-entry return stack and the helper scratch state.
``rand()`` is called only by JumpRandom and SetRandom, through the callable the caller passes
(the duel's own stream). The original's time slicing (return after ``VSync(1) >= 240`` and
resume next frame) changes how many frames the AI spends, never what it decides, so a run
here goes straight to its terminal instruction.
"""

from __future__ import annotations

from collections.abc import Callable

from emucore.fm.ai import choices, helpers
from emucore.fm.ai.data import MONSTER_TYPES
from emucore.fm.ai.helpers import Board, State
from emucore.fm.ai.opcodes import OPS
from emucore.fm.snapshot import FACE_DOWN

HAND_DONE, FIELD_ACTION, FIELD_DONE = 1, 2, 3   # Run()'s return codes (EndHand, Play, EndField)
REGISTERS = 20
STACK_DEPTH = 8


class VmError(RuntimeError):
    """The program did something the original would crash or hang on."""


def s32(value: int) -> int:
    """Wrap to a signed 32-bit register value."""
    value &= 0xFFFFFFFF
    return value - 0x1_0000_0000 if value & 0x8000_0000 else value


class Machine:
    """One ``AiScript_Init`` + ``AiScript_Run`` over a board. A plain class with slots: one
    is set up for every decision. The program, cursor, stack and flag 97 are set by
    :meth:`init`, which a bytecode program runs first; the embedded programs use none of
    them."""

    __slots__ = ("board", "rand", "program", "cursor", "stack", "regs", "state", "flag97")

    program: bytes
    cursor: int
    stack: list[int]
    flag97: int

    def __init__(self, board: Board, rand: Callable[[], int]) -> None:
        self.board = board
        self.rand = rand
        self.regs = [0] * REGISTERS
        self.state = State()

    def init(self, program: bytes) -> None:
        """``AiScript_Init``: zero registers, state and selection; cursor to the start."""
        self.program = bytes(program)
        self.cursor = 0
        self.stack = []
        self.regs = [0] * REGISTERS
        self.state = State()
        self.flag97 = 0

    def run(self) -> int:
        """``AiScript_Run`` until EndHand (1), PlayFieldCard (2) or EndField (3)."""
        for _ in range(choices.VM_INSTRUCTION_BUDGET):
            at = self.cursor
            if at >= len(self.program):
                raise VmError(f"cursor 0x{at:04X} ran past the end of the program")
            op = OPS[self.program[at]] if self.program[at] < len(OPS) else None
            if op is None:
                raise VmError(f"unknown opcode 0x{self.program[at]:02X} at 0x{at:04X}")
            raw = self.program[at + 1: at + op.length]
            if len(raw) != op.length - 1:
                raise VmError(f"{op.name} at 0x{at:04X} is cut off by the end of the program")
            self.cursor = at + op.length
            result = _HANDLERS[op.code](self, *_decode(op.operands, raw))
            if result:
                return result
        raise VmError("the program did not finish (instruction budget exhausted)")

    # -- operand access -------------------------------------------------------------------

    def r(self, index: int) -> int:
        if index >= REGISTERS:
            raise VmError(f"register r{index} does not exist")
        return self.regs[index]

    def set(self, index: int, value: int) -> None:
        if index >= REGISTERS:
            raise VmError(f"register r{index} does not exist")
        self.regs[index] = s32(value)

    def _jump(self, target: int) -> None:
        self.cursor = target

    # -- control flow and RNG (ai_script_control_flow.c) ----------------------------------

    def _op_Null(self) -> None:
        raise VmError("opcode 0x00 executed (the original crashes)")

    def _op_Jump(self, target: int) -> None:
        self._jump(target)

    def _op_JumpGreaterEqual(self, a: int, b: int, target: int) -> None:
        if self.r(a) >= self.r(b):
            self._jump(target)

    def _op_JumpGreater(self, a: int, b: int, target: int) -> None:
        if self.r(a) > self.r(b):
            self._jump(target)

    def _op_JumpEqual(self, a: int, b: int, target: int) -> None:
        if self.r(a) == self.r(b):
            self._jump(target)

    def _op_JumpNotEqual(self, a: int, b: int, target: int) -> None:
        if self.r(a) != self.r(b):
            self._jump(target)

    def _op_JumpBetween(self, v: int, hi: int, lo: int, target: int) -> None:
        if self.r(lo) <= self.r(v) <= self.r(hi):
            self._jump(target)

    def _op_JumpRandom(self, p: int, target: int) -> None:
        # One rand() even when P <= 0 or P >= 100.
        if self.rand() % 100 < self.r(p):
            self._jump(target)

    def _op_Call(self, target: int) -> None:
        if len(self.stack) >= STACK_DEPTH:
            raise VmError("Call overflows the 8-entry stack (H_mctrl1.c assert)")
        self.stack.append(self.cursor)
        self._jump(target)

    def _op_Return(self) -> None:
        if not self.stack:
            raise VmError("Return with an empty stack (H_mctrl1.c assert)")
        self.cursor = self.stack.pop()

    def _op_SetRandom(self, lo: int, hi: int, dest: int) -> None:
        span = hi - lo + 1
        if span == 0:
            raise VmError("SetRandom with an empty range (division by zero)")
        value = self.rand()
        rem = value % abs(span)   # C remainder of a non-negative dividend
        self.set(dest, rem + lo)

    def _op_Subtract(self, a: int, b: int, dest: int) -> None:
        self.set(dest, self.r(a) - self.r(b))

    def _op_Add(self, a: int, b: int, dest: int) -> None:
        self.set(dest, self.r(a) + self.r(b))

    def _op_Store(self, imm: int, dest: int) -> None:
        self.set(dest, imm)

    def _op_SetRegister(self, src: int, dest: int) -> None:
        self.set(dest, self.r(src))

    # -- terminals and selection writers --------------------------------------------------

    def _op_PlayFieldCard(self, slot: int, a: int, b: int, cat: int) -> int:
        helpers.play_field_card(self.state, self.r(slot), self.r(a), self.r(b), self.r(cat))
        return FIELD_ACTION

    def _op_EndHand(self) -> int:
        return HAND_DONE

    def _op_EndField(self) -> int:
        return FIELD_DONE

    def _op_PlayFaceUp(self, *regs: int) -> None:
        sel = self.state.selection
        for i, reg in enumerate(regs):
            sel[i] = self.r(reg) & 0xFF
        sel[5] = 0

    def _op_SetPosition(self, src: int) -> None:
        self.state.selection[6] = self.r(src) & 0xFF

    def _op_LoadGuardianStarChoice(self, src: int) -> None:
        self.state.selection[7] = self.r(src) & 0xFF

    def _op_SetSelectionRandom(self) -> None:
        self.state.selection[8] = 1

    def _op_ClearSelectionRandom(self) -> None:
        self.state.selection[8] = 0

    def _op_LoadSelectionRandom(self, dest: int) -> None:
        self.set(dest, self.state.selection[8])

    def _op_PushComboCard(self) -> None:
        helpers.push_combo(self.state, clear=True)

    def _op_PushComboEmpty(self) -> None:
        helpers.push_combo(self.state, clear=False)

    def _op_StartCombo(self, dest: int) -> None:
        self.set(dest, helpers.start_combo(self.state))

    # -- loads (ai_script_query_commands.c, AiScript_LoadOpponentData.c) ------------------

    def _card(self, reg: int) -> int:
        return self.r(reg) & 0xFFFF if 0 <= self.r(reg) < len(self.board.data.cards.type) else 0

    def _slot(self, reg: int) -> int:
        slot = self.r(reg)
        if not 0 <= slot < len(self.board.ids):
            raise VmError(f"slot {slot} is outside the snapshot")
        return slot

    def _op_CalcCardPower(self, card: int, mode: int, dest: int) -> None:
        self.set(dest, helpers.calc_card_power(self.board, self._card(card), self.r(mode)))

    def _op_TestHighStat(self, card: int, dest: int) -> None:
        """``AiScript_TestHighStat``: 1 for a monster whose ``Duel_GetBaseCardStat`` DEF is
        not below its ATK (both with the terrain boost, clamped: a weakened card can read
        0 / 0 and count as high-DEF), else 0."""
        c, b = self._card(card), self.board
        monster = b.data.cards.type[c] < MONSTER_TYPES
        self.set(dest, int(monster and b.base(c, 1) >= b.base(c, 0)))

    def _op_LoadCardType(self, card: int, dest: int) -> None:
        c = self._card(card)
        self.set(dest, self.board.data.cards.type[c] if c else choices.CARD_ZERO_TYPE)

    def _op_LoadCardID(self, slot: int, dest: int) -> None:
        self.set(dest, self.board.ids[self._slot(slot)])

    def _op_SetFaceDown(self, slot: int, dest: int) -> None:
        i = self._slot(slot)
        b = self.board
        self.set(dest, 0 if b.ids[i] == 0 else 2 if b.flags[i] & FACE_DOWN else 1)

    def _op_LoadLifePoint(self, which: int, dest: int) -> None:
        """LP of side record ``1 - I`` (I = 0: the CPU), or relative to the acting side."""
        view = self.board.view
        if choices.LIFE_POINTS_RELATIVE:
            mine = self.r(which) == 0
        else:
            mine = 1 - self.r(which) == view.acting_side
        self.set(dest, s16((view.acting if mine else view.other).lp))

    def _op_LoadOpponentID(self, dest: int) -> None:
        self.set(dest, self.board.view.opponent_id)

    def _op_LoadTerrain(self, dest: int) -> None:
        self.set(dest, self.board.terrain)

    def _op_LoadDeckSize(self, dest: int) -> None:
        self.set(dest, helpers.load_deck_size(self.board))

    def _op_TestPinned(self, which: int, dest: int) -> None:
        side = self.board.view.other if self.r(which) & 1 == 0 else self.board.view.acting
        self.set(dest, int(side.swords != 0))

    def _op_LoadOpponentData(self, ident: int, fld: int, dest: int) -> None:
        rows = self.board.data.opponent_bytes
        f = self.r(fld)
        at = self.r(ident) * 9 + (1 if f == 0 else f + 1)
        value = rows[at] if 0 <= at < len(rows) else 0
        self.set(dest, value * 100 if f == 0 else value)

    # FindBestAttack never runs (choices: VmError), so its three results read 0.
    def _op_LoadBestDifference(self, dest: int) -> None:
        self.set(dest, 0)

    def _op_LoadBestAttacker(self, dest: int) -> None:
        self.set(dest, 0)

    def _op_LoadBestTarget(self, dest: int) -> None:
        self.set(dest, 0)

    # -- searches (§4) --------------------------------------------------------------------

    def _op_FindStrongest(self, stat: int, zone: int, hide: int, sets: int, dest: int) -> None:
        self.set(dest, helpers.find_strongest(self.board, self.state, self.r(stat),
                                              self.r(zone), self.r(hide), self.r(sets)))

    def _op_FindWeakest(self, stat: int, zone: int, hide: int, sets: int, dest: int) -> None:
        self.set(dest, helpers.find_weakest(self.board, self.state, self.r(stat),
                                            self.r(zone), self.r(hide), self.r(sets)))

    def _op_FindKiller(self, target: int, mode: int, dest: int) -> None:
        self.set(dest, helpers.find_killer(self.board, self._slot(target), self.r(mode)))

    def _op_FindDefenseStopper(self, hide: int, dest: int) -> None:
        self.set(dest, helpers.find_defense_stopper(self.board, self.r(hide)))

    def _op_CountCards(self, zone: int, dest: int) -> None:
        self.set(dest, helpers.count_cards(self.board, self.r(zone)))

    def _op_FindFirstCard(self, state: int, zone: int, dest: int) -> None:
        self.set(dest, helpers.find_first_card(self.board, self.r(state), self.r(zone)))

    def _op_FindCard(self, card: int, zone: int, hide: int, dest: int) -> None:
        self.set(dest, helpers.find_card(self.board, self.r(card), self.r(zone), self.r(hide)))

    def _op_MatchType(self, ctype: int, zone: int, hide: int, sets: int, dest: int) -> None:
        self.set(dest, helpers.match_type(self.board, self.state, self.r(ctype), self.r(zone),
                                          self.r(hide), self.r(sets)))

    def _op_FindEquipTarget(self, card: int, mode: int, sets: int, dest: int) -> None:
        self.set(dest, helpers.find_equip_target(self.board, self.state, self._card(card),
                                                 self.r(mode), self.r(sets)))

    def _op_CheckRitual(self, card: int, dest: int) -> None:
        self.set(dest, int(helpers.check_ritual(self.board, self.r(card)) != 0))

    def _op_FindFirstMonster(self, dest: int) -> None:
        self.set(dest, self._first_selected(lambda t: t < MONSTER_TYPES))

    def _op_FindFirstType(self, ctype: int, dest: int) -> None:
        wanted = self.r(ctype)
        self.set(dest, self._first_selected(lambda t: t == wanted))

    def _first_selected(self, test: Callable[[int], bool]) -> int:
        for v in self.state.selection[:5]:
            if v and test(self.board.ctype[v]):
                return v
        return 0

    def _op_FindBestCombo(self, depth: int, sets: int, dest: int) -> None:
        self.set(dest, helpers.find_best_combo(self.board, self.state, self.r(depth),
                                               self.r(sets)))

    def _op_EvaluateFusion(self, card: int, depth: int, sets: int, dest: int) -> None:
        self.set(dest, helpers.evaluate_fusion(self.board, self.state, self._card(card),
                                               self.r(depth), self.r(sets)))

    def _op_FindBestAttack(self, hide: int, dest: int) -> None:
        raise VmError("FindBestAttack (0x30) is unused in retail and not modelled")

    # -- sets and marks -------------------------------------------------------------------

    def _op_AddCard(self, card: int) -> None:
        helpers.add_card(self.state, self.r(card) & 0xFFFF)

    def _op_ClearCards(self) -> None:
        self.state.card_set = [0] * 32

    def _op_AddType(self, ctype: int) -> None:
        helpers.add_type(self.state, self.r(ctype))

    def _op_ClearTypes(self) -> None:
        self.state.type_set = [0] * 25

    def _op_MoveCard(self, slot: int) -> None:
        self.board.mark(self._slot(slot))

    # -- no effect ------------------------------------------------------------------------

    def _op_SkipHand(self, *raw: int) -> None:
        pass

    _op_SkipField = _op_SkipHand

    def _op_HandNop(self) -> None:
        pass

    _op_FieldNop = _op_HandNop

    def _op_SetFlag97(self) -> None:
        self.flag97 = 1

    def _op_ClearFlag97(self) -> None:
        self.flag97 = 0

    def _op_Print(self, raw: int) -> None:
        pass


def s16(value: int) -> int:
    value &= 0xFFFF
    return value - 0x10000 if value & 0x8000 else value


def _decode(kinds: str, raw: bytes) -> list[int]:
    out, at = [], 0
    for k in kinds:
        if k in "Li":
            out.append(raw[at] | raw[at + 1] << 8)
            at += 2
        else:
            out.append(raw[at])
            at += 1
    return out


_HANDLERS = [getattr(Machine, "_op_" + op.name) for op in OPS]
