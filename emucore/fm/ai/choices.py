"""Every point spec/fm-ai.md leaves [unknown], decided here and only here.

Each constant names one decision; docs/fm-ai.md lists them with the reasoning. Interpreting
the original programs from the user's disc (emucore.fm.ai.disc) makes the program-level ones
moot; the machine-level ones apply to both paths.
"""

from __future__ import annotations

import functools

# --- the machine (VM, helpers, snapshot) ---------------------------------------------------

#: CalcCardPower with a mode other than 0/1/2 on a monster leaves the result undefined: 0.
CALC_POWER_BAD_MODE = 0
#: LoadCardType/TestHighStat of card 0 read the word before the stat table: type 0, stats 0.
CARD_ZERO_TYPE = 0
#: The fusion path holds 6 entries; deeper recursion would overwrite the used flags. Stop at 5.
MAX_FUSION_DEPTH = 5
# FindBestAttack (0x30) is unused in retail and its decompiled loop is suspect: the machine
# stops with VmError if a program reaches it (LoadBest* then read the zeroed results).
#: LoadLifePoint I reads side record ``1 - I`` (the CPU is side 1). For an AI driving side 0
#: (AI-vs-AI) it is read relative to the acting side, which equals the original for side 1.
LIFE_POINTS_RELATIVE = True
#: Instructions one run may execute before we call it a hang (the original would spin).
VM_INSTRUCTION_BUDGET = 200_000

# §2.5, not switchable: a hand play picking a stale window slot whose deck record has left
# the deck (an untraced glitch in the original) is refused by the engine; the adapter then
# plays the engine's first legal action and reports it (adapter.Decision.refused = STALE_SLOT).

# §5.2, not switchable: a PlayFieldCard whose acting slot is outside 1..10 (no retail program
# does this) ends the field phase.

# --- the embedded hand program (§6) --------------------------------------------------------

#: §6.1.2 lethal burn: damage >= the player's LP (the note says "≥").
LETHAL_BURN_INCLUSIVE = True
#: §6.1.4 only the player's side empty (AI has a monster): counts as ahead.
AHEAD_WHEN_PLAYER_EMPTY = True
#: §6.1.5 Harpie's Feather Duster: the two presence tests come before the roll.
HARPIE_ROLL_AFTER_TESTS = True
#: §6.1.6 which table: the AI's weakest monster (FindWeakest mode 2) compared with the
#: player's strongest by CalcCardPower mode 2; ">=" means the "ahead" table.
TABLE_AHEAD_INCLUSIVE = True
#: §6.1.9.1 "at least as strong": CalcCardPower(mode 2) >= the player's best.
BEHIND_PLAY_INCLUSIVE = True
#: A single monster placed over an occupied AI slot (no free slot): face-down flag cleared.
FACE_DOWN_OVER_OCCUPIED = False
#: §6.1.7 B: FindWeakest stat mode (the notes say "by the higher of ATK and DEF").
B_WEAKEST_STAT = 2
#: §6.1.7 B: when no AI monster is left to try, continue with strategy A.
B_EXHAUSTED_STRATEGY = "A"
#: §6.1.7 A result 2: field cards tried in id order 330..335 (Forest .. Yami).
RESULT2_FIELD_CARDS = (330, 331, 332, 333, 334, 335)
#: §6.1.7 C: a magic or ritual with no free magic/trap slot overwrites a random slot like a
#: trap does (``SetRandom 6, 10``).
MAGIC_NO_SLOT_RANDOM = True
# §6.1.7 C/§6.1.8, not switchable: an equip with no free magic/trap slot and no AI monster,
# and a window without any monster when a monster is wanted, set the card face-down over
# SetRandom 6, 10 (embedded._overwrite); anything else could recurse without end.
#: FindEquipTarget mode used by the programs (0 = any AI monster, 1 = unused ones only).
EQUIP_TARGET_MODE = 0
#: §6.1.9.3 Crush Card's "ATK >= 1500" reads the target's snapshot ATK.
CRUSH_CARD_MIN_ATK = 1500


@functools.cache
def strategy_chain(split: tuple[int, int, int]) -> tuple[tuple[str, int], ...]:
    """§6.5: the JumpRandom chain for an A/B/C split, as ``((strategy, percent), ...)``.

    Decision: test the largest share first (ties: A, B, C order) at its percentage, then the
    earlier-lettered of the other two at its share of the rest; the last strategy is the
    fall-through. Every split of the retail table decomposes into integer operands this way.
    """
    names = "ABC"
    order = sorted(range(3), key=lambda i: (-split[i], i))
    first = order[0]
    rest = sorted(order[1:])
    chain = [(names[first], split[first])]
    remaining = 100 - split[first]
    if remaining > 0:
        chain.append((names[rest[0]], split[rest[0]] * 100 // remaining))
    chain.append((names[rest[1]], 100))
    return tuple(chain)


# --- the embedded field program (§7) -------------------------------------------------------

#: §7.2 the AI magic/trap row is walked in slot order 6..10.
ROW_ORDER = (6, 7, 8, 9, 10)
#: §7.2 a "kept" card is retired with PlayFieldCard slot,0,0,0 (real used flag: one hold roll
#: per turn), not with MoveCard (which would repeat the roll in every later run).
KEEP_RETIRES_WITH_DONE = True
#: §7.4.1 lethal attack: ">=" and no target (no attack-position player monster) -> skip.
LETHAL_INCLUSIVE = True
#: §7.4.2/3 FindStrongest stat modes for attack-position / defence-position targets.
ATTACK_TARGET_STAT = 0
DEFENCE_TARGET_STAT = 1
#: §7.4.4 the blind-attack roll is made only when an unused AI monster can attack.
BLIND_ROLL_NEEDS_ATTACKER = True
#: §7.5 the eight big monsters "kept as they are" are retired with PlayFieldCard slot,0,0,0.
KEPT_MONSTERS_RETIRE_WITH_DONE = True

# --- AI-vs-AI ------------------------------------------------------------------------------

#: The duelist row and branches of an AI-driven player side when the caller names none:
#: None = the opponent's own (a mirror match).
PLAYER_SIDE_PERSONA: int | None = None
#: The duelist row the AI uses in a two-player duel (no opponent id).
TWO_PLAYER_PERSONA = 1
