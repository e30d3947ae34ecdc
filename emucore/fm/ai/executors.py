"""What the engine does with the AI's selection record (spec/fm-ai.md §5, §2.4).

The hand executor (``duel_scene_hand_actions.c`` with ``func_8001BAF0``) turns bytes 0-8 into
one play; the field executor (``duel_scene_field_actions.c``) turns bytes 9-11 of a
PlayFieldCard into one field action. Both are pure functions of the record and the board
here; :mod:`emucore.fm.ai.adapter` maps their results onto the engine's actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from emucore.fm.cards import TYPE_EQUIP, TYPE_TRAP
from emucore.fm.snapshot import AI_HAND, DEFENCE, PL_MONSTERS

HAND_SLOTS = 5
# DuelScene_UpdateFieldActions state 5: a byte 10 of 0x38 (slot 56) and above is row 1, the
# opposing monsters (PlayFieldCard writes 0x3A for a category >= 255)
ROW_ONE = PL_MONSTERS


class HandPlay(NamedTuple):
    """One hand-phase play decoded from the selection record.

    ``slots`` are snapshot slots in raise order (11..15 real hand, 16.. deep window cards);
    ``row``/``column`` the placement ("monster"/"magic"; column -1 = the original's byte 6 was
    out of range); ``activate`` a magic card used straight from the hand.
    """

    slots: tuple[int, ...]
    row: str
    column: int
    face_down: bool
    activate: bool
    star: int


class FieldAction(NamedTuple):
    """One field-phase action: ``kind`` is "done", "defend", "attack", "direct" or "activate".

    ``zone`` is the acting card's column; ``target`` the player's monster column (attack) or
    the AI monster column an equip goes onto (activate; -1 = none).
    """

    kind: str
    zone: int
    target: int = -1


def selected_slots(selection: Sequence[int]) -> tuple[int, ...]:
    """Selection bytes 0-4 up to the first 0 (the play's cards, in raise order)."""
    out = []
    for v in selection[:HAND_SLOTS]:
        if v == 0:
            break
        out.append(v)
    return tuple(out)


def decode_hand(selection: Sequence[int], card_of_slot: Sequence[int],
                card_type: Sequence[int]) -> HandPlay:
    """``duel_scene_hand_actions.c``: multi-card play, single monster, or single magic-class
    card (activated from the hand when the face-down flag is clear and it is neither an
    equip nor a trap)."""
    slots = selected_slots(selection)
    if not slots:
        slots = (AI_HAND,)   # an empty list acts on hand position 0 [derived]
    dest = selection[6]
    column = (dest - 1) % 5 if 1 <= dest <= 10 else -1
    face_down = selection[8] != 0
    star = selection[7] & 1
    if len(slots) > 1:
        return HandPlay(slots, "monster" if dest <= 5 else "magic", column, False, False, star)
    ctype = card_type[card_of_slot[slots[0]]]
    if ctype < 20:
        return HandPlay(slots, "monster", column, face_down, False, star)
    if not face_down and ctype not in (TYPE_EQUIP, TYPE_TRAP):
        return HandPlay(slots, "magic", column, False, True, star)
    row = "magic" if face_down or ctype == TYPE_TRAP else "monster"
    return HandPlay(slots, row, column, face_down, False, star)


def deep_card_swap(hand: Sequence[int], selection: Sequence[int],
                   deck_index_of_slot: Sequence[int]) -> tuple[list[int], list[tuple[int, int]]]:
    """``func_8001BAF0``: bring window cards beyond the real hand into it (§2.4).

    ``hand`` holds the side's 5 deck-record indices (-1 empty). Returns the rewritten
    selection bytes 0-4 and the record exchanges ``(hand record, deck record)`` in order; each
    exchange swaps the two records' contents (each keeps its own index byte), so the former
    hand card lands at the position the chosen card occupied in the deck.
    """
    free = list(hand)
    sel = list(selection[:HAND_SLOTS])
    chosen = selected_slots(sel)
    for v in chosen:
        if v < AI_HAND + HAND_SLOTS:
            free[v - AI_HAND] = -1
    swaps = []
    for i, v in enumerate(chosen):
        if v >= AI_HAND + HAND_SLOTS:
            j = next(k for k, rec in enumerate(free) if rec >= 0)
            swaps.append((free[j], deck_index_of_slot[v]))
            sel[i] = AI_HAND + j
            free[j] = -1
    return sel, swaps


def decode_field(selection: Sequence[int], player_monsters: int,
                 flags_of_slot: Sequence[int]) -> FieldAction:
    """``duel_scene_field_actions.c`` for bytes 9 (slot), 10 (target/category), 11.

    ``player_monsters`` is how many monsters the other side has: with none, any byte 10
    of 0x38 and above (row 1 of state 5) is a direct attack.
    """
    slot, target, third = selection[9], selection[10], selection[11]
    zone = (slot - 1) % 5
    if not 1 <= slot <= 10 or (target == 0 and third == 0):
        return FieldAction("done", zone)
    if third != 0 and slot < 6:
        kind = "done" if flags_of_slot[slot] & DEFENCE else "defend"
        return FieldAction(kind, zone)
    if slot >= 6:
        return FieldAction("activate", zone, target - 1 if 1 <= target <= 5 else -1)
    if target >= ROW_ONE and player_monsters == 0:
        # state 5 puts every byte >= 0x38 on row 1 (the opposing monsters); the commit
        # attacks directly when none of that row's records is occupied, whatever the column
        return FieldAction("direct", zone)
    if PL_MONSTERS <= target < PL_MONSTERS + 5:
        return FieldAction("attack", zone, target - PL_MONSTERS)
    return FieldAction("done", zone)   # choices: any other byte 10 on a monster does nothing
