"""The placement chain (docs/fm-fidelity.md D3, D7, D8, D9, D10, D11), read from
``DuelScene_UpdateCardPlacement`` (krystalgamer/memories-decomp): its entry (+0x07 when a
second slot exists, ``D_8009B154 = 0``), state 3 (fusion sets ``D_8009B154 = 0`` and
``D_8009B218 = 1``; equip adds its bonus), state 4 (the fused card's deck-card record takes
the result id), state 7 (failure: one ``rand() & 255`` fly-off, ``D_8009B218 = -1``) and
state 8 (a non-monster left goes to scene 6, card use; the star is asked while
``D_8009B218 != 0``); and ``DuelScene_UpdateFieldActions`` state 3 (a row equip goes to
target selection with no fit test, then runs the chain as slot 0 with the monster as
slot 1)."""

from __future__ import annotations

from oracle_duel import T, deck, new_duel, play, turn

from emucore.fm import state as S
from emucore.fm.actions import Activate, EndTurn

MYSTICAL_ELF, MUSHROOM_MAN, MEGAMORPH, QUEEN = 2, 8, 657, 638  # 2 + 8 fuse into 638
STRONG, REVERSE_TRAP, SPARKS, HINOTAMA, LEGENDARY_SWORD = 39, 689, 343, 344, 301
TAPE, EATGABOON = 681, 682


def test_preconditions():
    assert T.equip[MEGAMORPH, MYSTICAL_ELF] and T.fusion[MYSTICAL_ELF, MUSHROOM_MAN] == QUEEN
    assert not T.equip[LEGENDARY_SWORD, STRONG] and not T.fusion[LEGENDARY_SWORD, STRONG]


def test_a_fusion_clears_the_equip_bonus_so_reverse_trap_stays_set():
    """State 3 sets D_8009B154 = 0 on a fusion: after monster + equip + a monster that fuses
    with it, func_8001B170 finds D_8009B154 == 0 and does not arm Reverse Trap; the fusion
    rebuilt the record, so the result has no stat modifier."""
    d = new_duel((STRONG, MYSTICAL_ELF, MEGAMORPH, MUSHROOM_MAN), (REVERSE_TRAP,))
    turn(d)
    turn(d, face_down=True)
    events = play(d, (0, 1, 2))
    assert [e.kind for e in events if e.kind in ("equip", "fusion", "trap")] == [
        "equip", "fusion"]
    assert d.card(1, "magic", 0).card == REVERSE_TRAP
    result = d.rec(0, S.MONSTERS, 1)
    assert d.card_at(result) == QUEEN and d.st.cards.stat_modifier[result] == 0


def test_the_fused_cards_deck_record_takes_the_result_id():
    """State 4 writes the result id into the fused card's deck-card record (D11)."""
    d = new_duel((MYSTICAL_ELF, MUSHROOM_MAN), (STRONG,))
    play(d, (0, 1))
    r = d.rec(0, S.MONSTERS, 0)
    assert d.card_at(r) == QUEEN
    assert d.st.deck_cards.card_id[d.deck_index_of(r)] == QUEEN
    assert d.deck_index_of(r) == 0  # Mystical Elf was the first card drawn


def test_a_trap_set_on_an_occupied_column_discards_the_old_and_uses_the_new():
    """A single card onto an occupied zone enters the chain with the field card as A (+0x07
    rises); two non-monsters fail (one call, A flies off) and B, a non-monster left at the
    end, is used (scene 6), so the column is empty."""
    d = new_duel((TAPE, STRONG, EATGABOON), (STRONG,))
    turn(d, face_down=True)
    turn(d)
    calls = d.rng.calls
    events = play(d, (1,), zone=0)  # Eatgaboon (hand 1 after the draw) onto column 0
    assert d.card(0, "magic", 0) is None
    assert d.rng.calls - calls == 1
    assert [(e.discarded, e.kept) for e in events if e.kind == "failure"] == [(TAPE, EATGABOON)]
    assert d.counters(0)["multi_plays"] == 1


def test_a_magic_card_left_at_the_end_of_a_chain_takes_effect():
    """State 8: scene 6 (card use) unless the final card is a monster. Sparks + Sparks fuse
    into Hinotama (the fusion table), which is used at once and burns 100 (spec §6.2)."""
    assert T.fusion[SPARKS, SPARKS] == HINOTAMA
    d = new_duel((SPARKS, SPARKS), (STRONG,))
    events = play(d, (0, 1))
    assert [e.kind for e in events if e.kind != "animation"][:2] == ["fusion", "magic"]
    assert d.lp(1) == 8000 - 100 and d.counters(0)["pure_magic"] == 1
    assert all(d.card(0, "magic", c) is None for c in range(5))


def test_the_star_is_asked_again_after_a_failure_onto_a_field_monster():
    """State 7 sets D_8009B218 = -1, so state 8 asks the field monster's star (D8): a
    Legendary Sword that does not fit Curse of Dragon flies off and the dragon takes the
    play's star (star 1 here, 0x200 set)."""
    d = new_duel((STRONG, LEGENDARY_SWORD), (STRONG,))
    turn(d)
    turn(d)
    calls = d.rng.calls
    play(d, (0,), zone=0, star=1)
    r = d.rec(0, S.MONSTERS, 0)
    assert d.card_at(r) == STRONG and d.flags(r) & S.F_STAR2
    assert d.rng.calls - calls == 1 and d.counters(0)["equips"] == 0


def test_an_equip_from_the_row_onto_a_monster_it_does_not_fit_fails():
    """Field-actions state 3 offers any own monster to a row equip (D9): the chain fails,
    one call, the equip (slot 0) flies off, the monster stays and takes the star; +0x07
    counts the two-slot placement."""
    d = new_duel((LEGENDARY_SWORD, STRONG), (STRONG,))
    turn(d, face_down=True)
    turn(d)
    play(d)
    assert Activate(0, 0) in list(d.legal_actions())
    calls, plays = d.rng.calls, d.counters(0)["multi_plays"]
    d.step(Activate(0, 0, star=1))
    r = d.rec(0, S.MONSTERS, 0)
    assert d.card(0, "magic", 0) is None and d.card_at(r) == STRONG
    assert d.flags(r) & S.F_STAR2 and d.st.cards.stat_modifier[r] == 0
    assert d.rng.calls - calls == 1 and d.counters(0)["multi_plays"] == plays + 1
    d.step(EndTurn())


def test_display_counters_field_cards_and_deck_averages():
    """D10: func_80024E58 counts each field card used in side +0x0A; func_80018608 state 4
    stores each deck's average base ATK and DEF (sum of the 40 cards / 40) in +0x0E/+0x10."""
    forest = 330  # a field card: terrain 1
    d = new_duel((forest,), (STRONG,))
    cards = deck(forest)
    assert d.counters(0)["avg_atk"] == sum(int(T.atk[c]) for c in cards) // 40
    assert d.counters(0)["avg_def"] == sum(int(T.def_[c]) for c in cards) // 40
    play(d)
    assert d.terrain == 1 and d.counters(0)["field_cards"] == 1
