"""The combination chain: ``DuelScene_UpdateCardPlacement`` (spec/fm-engine.md §3.1).

Slot 0 of the working list is the accumulating card A (the first raised hand card, or the
field card the play lands on); each next card B is tested in this order: fusion
(``Duel_CheckFusion(A, B)``), equip B onto A, equip A onto B, else failure. Fusion therefore
wins over equip for any pair that has both.
"""

from __future__ import annotations

from emucore.fm import choices
from emucore.fm import state as S
from emucore.fm.actions import Equip, Failure, Fusion
from emucore.fm.board import BoardOps, s16
from emucore.fm.timeline import SWORD_EQUIPS


def run_chain(d: BoardOps, side: int, records: list[int]) -> tuple[int, bool]:
    """Combine the cards in ``records`` (card-record indices, working-slot order).

    Returns the record of the card left at the end and whether its guardian star is asked
    (``D_8009B218 != 0`` at state 8: the chain began with a hand card, or a fusion (1) or a
    failure (-1) happened in it).
    """
    a = records[0]
    from_field = a % S.RECORDS_PER_SIDE >= S.MONSTERS
    ask_star = not from_field
    ids, events = d.st.cards.card_id, d.events
    fusion_of, equip_fits, is_monster = d.fusion_of, d.equip_fits, d.is_monster
    for b in records[1:]:
        a_id, b_id = ids[a], ids[b]
        result = fusion_of(a_id, b_id)
        if result:
            # Fusion: A's record is rebuilt for the result (Duel_SetupCardRecord), so any
            # equip bonus A carried is lost; B is consumed.
            d.discard(b)
            k = d.deck_index_of(a)
            d.st.deck_cards.card_id[k] = result  # state 4: the deck-card record's id too
            d.setup_record(a, result, k, S.F_OCCUPIED)
            d.st.globals.equip_bonus[0] = 0  # state 3: D_8009B154 = 0 (no Reverse Trap)
            if choices.FIELD_FUSIONS_COUNT or not from_field:
                d.st.bump(side, "fusions")
            events.append(Fusion(side, a_id, b_id, result))
            # state 6: effect 1, record 1 when a non-monster takes part
            d.show(d.timeline.fusion(not (is_monster(a_id) and is_monster(b_id))))
            ask_star = True
        elif equip_fits(b_id, a_id):
            apply_equip(d, side, monster=a, equip=b)
        elif equip_fits(a_id, b_id):
            apply_equip(d, side, monster=b, equip=a)
            a = b
        else:
            # Failure: one cosmetic rand() for the discarded card's fly-off speed,
            # (rand() & 255) + 768 in state 7; it shares the stream with the rules.
            d.show(d.timeline.failure)
            ask_star = True  # state 7: D_8009B218 = -1
            if not is_monster(b_id) and is_monster(a_id):
                d.discard(b)
                events.append(Failure(side, b_id, a_id))
            else:
                d.discard(a)
                events.append(Failure(side, a_id, b_id))
                a = b
    return a, ask_star


def apply_equip(d: BoardOps, side: int, monster: int, equip: int) -> None:
    """The equip card is consumed; the monster's stat_modifier grows by its bonus; equips
    (+0x09) rises and D_8009B154 accumulates the bonus for Reverse Trap; the equip effect
    (state 5) follows."""
    equip_id, monster_id = d.card_at(equip), d.card_at(monster)
    bonus = d.equip_bonus(equip_id)
    d.discard(equip)
    d.add_modifier(monster, bonus)
    d.st.bump(side, "equips")
    d.st.globals.equip_bonus[0] = s16(d.st.globals.equip_bonus[0] + bonus)  # D_8009B154
    d.events.append(Equip(side, equip_id, monster_id, bonus))
    # state 5: effect 4 for the two swords, effect 0 for every other equip
    d.show(d.timeline.sword_equip if equip_id in SWORD_EQUIPS else d.timeline.equip)
