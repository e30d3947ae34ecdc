"""Stats, battles, traps, magic classes and rituals (spec/fm-engine.md §4-§8)."""

from __future__ import annotations

import pytest
from fm_scenario import accounted, deck, duel, kinds, place

from emucore.duel.protocol import IllegalAction
from emucore.fm import state as S
from emucore.fm.actions import Activate, Attack, EndTurn, Play
from emucore.fm.battle import compare

SET_CARD = 338  # hand card 0 of battle scenarios: set face-down to reach the field phase


def board(*cpu_monsters: int, hand: tuple[int, ...] = (SET_CARD,), cpu_magic=(), **kw):
    """Player to act in the field phase with Blue-eyes (col 0); the CPU's cards placed."""
    d = duel(deck(*hand), deck(), **kw)
    place(d, 0, "monster", 0, 1)
    for col, card in enumerate(cpu_monsters):
        if card:
            place(d, 1, "monster", col, card)
    for col, card in enumerate(cpu_magic):
        place(d, 1, "magic", col, card, S.F_FACE_DOWN)
    if hand[0] == SET_CARD:
        d.step(Play((0,), face_down=True))
    return d


def set_stats(d, r, atk=None, dfn=None, flags=None):
    if atk is not None:
        d.st.cards.attack[r] = atk
    if dfn is not None:
        d.st.cards.defense[r] = dfn
    if flags is not None:
        d.set_flags(r, S.F_OCCUPIED | flags)


def test_calc_card_stats_sums_modifiers_before_one_clamp():
    d = board(2)
    r = d.rec(1, S.MONSTERS, 0)
    cards = d.st.cards
    cards.stat_modifier[r], cards.terrain_modifier[r] = -1000, 500  # 800 - 1000 + 500 = 300
    assert d.stats(r) == (300, 1500)
    d.st.cards.stat_modifier[r] = 12000
    assert d.stats(r) == (9999, 9999)


def test_win_against_attack_position_deals_the_difference():
    d = board(2)  # Mystical Elf 800, star Sun vs Blue-eyes' Sun: no bonus
    events = d.step(Attack(0, 0))
    battle = [e for e in events if e.kind == "battle"][0]
    assert (battle.result, battle.outcome) == (2200, "win") and d.lp(1) == 5800
    c = d.counters(0)
    assert (c["effective_attacks"], c["attack_destroys"]) == (1, 1)
    assert d.card(1, "monster", 0) is None
    accounted(d)


def test_guardian_star_bonus_goes_to_the_attacker_only():
    d = board(9)  # Shadow Specter 500, star Moon: Sun is strong against Moon
    d.step(Attack(0, 0))
    assert d.lp(1) == 8000 - (3000 + 500 - 500)


def test_asymmetric_clamp_examples():
    d = board(9, 102)
    a, moon, mercury = d.rec(0, S.MONSTERS, 0), d.rec(1, S.MONSTERS, 0), d.rec(1, S.MONSTERS, 1)
    set_stats(d, a, atk=9999)
    set_stats(d, moon, atk=9900)
    assert compare(d, a, moon) == 99  # (9999, 9900, +500)
    set_stats(d, a, atk=100)
    set_stats(d, mercury, atk=0)
    assert compare(d, a, mercury) == -400  # (100, 0, -500): Mercury is strong against Sun
    d.step(Attack(0, 1))
    assert d.lp(0) == 7600 and d.card(0, "monster", 0) is None


def test_win_against_defence_position_no_damage():
    d = board(2)
    r = d.rec(1, S.MONSTERS, 0)
    set_stats(d, r, flags=S.F_DEFENCE | S.F_FACE_DOWN)
    events = d.step(Attack(0, 0))
    assert "flip" in kinds(events) and d.lp(1) == 8000
    assert d.counters(1)["defenders_lost"] == 1 and d.counters(0)["effective_attacks"] == 0


def test_standoff_double_ko_and_losses():
    def defended_board():
        d = board(2, 2, 2, 2)
        set_stats(d, defenders[0], dfn=3000, flags=S.F_DEFENCE)
        set_stats(d, defenders[1], atk=3000)
        set_stats(d, defenders[2], atk=3500)
        set_stats(d, defenders[3], dfn=3400, flags=S.F_DEFENCE)
        return d

    defenders = [S.RECORDS_PER_SIDE + S.MONSTERS + c for c in range(4)]
    d = defended_board()
    a = d.rec(0, S.MONSTERS, 0)
    assert defenders == [d.rec(1, S.MONSTERS, c) for c in range(4)]
    assert compare(d, a, defenders[0]) == 0 and compare(d, a, defenders[1]) == -1
    d.step(Attack(0, 0))  # standoff
    assert d.card(0, "monster", 0) and d.card(1, "monster", 0) and d.lp(0) == d.lp(1) == 8000
    for col, (attacker_lives, lp0, defensive) in {1: (False, 8000, 0), 2: (False, 7500, 0),
                                                  3: (True, 7600, 1)}.items():
        d2 = defended_board()
        d2.step(Attack(0, col))
        assert (d2.card(0, "monster", 0) is not None) == attacker_lives
        assert d2.lp(0) == lp0 and d2.counters(1)["defensive_wins"] == defensive
        if col == 1:
            assert d2.card(1, "monster", 1) is None  # double KO


def test_direct_attack_needs_an_empty_row_and_has_no_star_term():
    d = board(9)
    with pytest.raises(IllegalAction) as err:
        d.step(Attack(0))
    assert err.value.rule == "direct-attack"
    d = board()
    d.step(Attack(0))
    assert d.lp(1) == 5000


def test_lp_floor_and_win_by_lp_scores_plus_2():
    d = board(lp=(8000, 1000))
    events = d.step(Attack(0))
    assert d.lp(1) == 0 and d.over and d.winner == 0
    end = events[-1]
    assert end.kind == "ended" and end.reason == "lp" and d.st.sides.end_adjust[0] == 2


def test_terrain_field_card_recomputes_every_monster():
    d = board(1, 406, hand=(332,))  # Mountain: Dragon +500
    d.step(Play((0,)))
    assert d.terrain == 3 and d.card(0, "monster", 0).atk == 3500
    assert d.card(1, "monster", 0).atk == 3500 and d.counters(0)["pure_magic"] == 1
    d2 = board(406, hand=(334,))  # Umi: Machine -500
    d2.step(Play((0,)))
    assert d2.card(1, "monster", 0).atk == d2.tables.atk[406] - 500


def test_attack_trap_threshold_priority():
    d = board(cpu_magic=(682, 686, 683, 681))  # Eatgaboon 1000, Ruin, Bear Trap 1500, Tape
    r = d.rec(0, S.MONSTERS, 0)
    d.st.cards.attack[r] = 1200
    events = d.step(Attack(0))
    trap = [e for e in events if e.kind == "trap"][0]
    assert trap.card == 683 and d.card(0, "monster", 0) is None and d.lp(1) == 8000
    assert d.counters(1)["traps_triggered"] == 1 and d.card(1, "magic", 2) is None
    d2 = board(cpu_magic=(682, 686, 683))
    events = d2.step(Attack(0))  # 3000 ATK: only Widespread Ruin covers it
    assert [e.card for e in events if e.kind == "trap"] == [686]
    assert d2.card(1, "magic", 1) is None and d2.card(1, "magic", 0) is not None


def test_fake_trap_fallback_stops_the_attack_only():
    d = board(cpu_magic=(681, 690))
    events = d.step(Attack(0))
    assert [e.card for e in events if e.kind == "trap"] == [690]
    assert d.card(0, "monster", 0).used and d.lp(1) == 8000 and d.card(1, "magic", 0)


@pytest.mark.parametrize("card,amount", [(338, 200), (342, 5000)])
def test_heal_is_capped_and_bad_reaction_reverses_it(card, amount):
    d = duel(deck(card), deck(), lp=(8000, 8000))
    d.st.sides.lp[0] = 7000
    d.step(Play((0,)))
    assert d.lp(0) == min(7000 + amount, 8000)
    d = duel(deck(card), deck())
    place(d, 1, "magic", 3, 688)
    d.step(Play((0,)))
    assert d.lp(0) == 8000 - amount and d.counters(1)["traps_triggered"] == 1


def test_burn_and_goblin_fan():
    d = duel(deck(347), deck())
    d.step(Play((0,)))
    assert d.lp(1) == 7000 and d.counters(0)["pure_magic"] == 1
    d = duel(deck(343), deck())
    place(d, 1, "magic", 0, 687)
    d.step(Play((0,)))
    assert d.lp(0) == 7950 and d.lp(1) == 8000


def test_dark_hole_hits_both_sides_and_jar_only_opposing_dragons():
    d = duel(deck(336), deck())
    place(d, 0, "monster", 0, 1)
    place(d, 1, "monster", 0, 2)
    d.step(Play((0,)))
    assert d.card(0, "monster", 0) is None and d.card(1, "monster", 0) is None
    d = duel(deck(329), deck())
    place(d, 0, "monster", 0, 1)
    place(d, 1, "monster", 0, 1)
    place(d, 1, "monster", 1, 2)
    d.step(Play((0,)))
    assert d.card(0, "monster", 0) and d.card(1, "monster", 0) is None and d.card(1, "monster", 1)
    accounted(d)


def test_removal_by_type_and_crush_card_by_atk():
    d = duel(deck(661), deck())
    for col, card in enumerate((1, 2, 15)):  # 3000, 800, 1800
        place(d, 1, "monster", col, card)
    d.step(Play((0,)))
    assert [d.card(1, "monster", c) is None for c in range(3)] == [True, False, True]
    d = duel(deck(653), deck())  # Warrior Elimination
    place(d, 1, "monster", 0, 15)
    place(d, 1, "monster", 1, 2)
    d.step(Play((0,)))
    assert d.card(1, "monster", 0) is None and d.card(1, "monster", 1)


def test_stop_defense_raigeki_and_penalties():
    d = duel(deck(320), deck())
    for col in range(2):
        place(d, 1, "monster", col, 2, S.F_DEFENCE)
    d.step(Play((0,)))
    assert not d.card(1, "monster", 0).defending and not d.card(1, "monster", 1).defending
    d = duel(deck(337), deck())
    place(d, 1, "monster", 0, 2)
    place(d, 0, "monster", 0, 2)
    d.step(Play((0,)))
    assert d.card(1, "monster", 0) is None and d.card(0, "monster", 0)
    d = duel(deck(669), deck())
    place(d, 1, "monster", 0, 2)
    d.step(Play((0,)))
    assert (d.card(1, "monster", 0).atk, d.card(1, "monster", 0).defense) == (0, 1000)


def test_dark_piercing_light_reveals_monsters_not_set_cards():
    """DuelEffect_ApplyDarkPiercingLight walks grid entries 5-14 (both monster rows): the set
    trap stays face-down (docs/fm-fidelity.md D5)."""
    d = duel(deck(350), deck())
    place(d, 1, "monster", 0, 2, S.F_FACE_DOWN)
    place(d, 1, "magic", 0, 681, S.F_FACE_DOWN)
    d.step(Play((0,)))
    assert not d.card(1, "monster", 0).face_down and d.card(1, "magic", 0).face_down


def test_swords_counter_blocks_three_turns_of_the_opponent():
    d = duel(deck(348, 9, 22, 100, 101, 102, 103), deck(1, 2, 8, 9, 22, 100, 101))
    d.step(Play((0,)))
    assert d.swords(1) == 4
    for expected in (3, 2, 1):
        d.step(EndTurn())  # the CPU's draw phase decrements its own counter
        assert d.swords(1) == expected
        d.step(Play((0,)))
        with pytest.raises(IllegalAction) as err:
            d.step(Attack(0, -1) if not d.row_records(0, S.MONSTERS) else Attack(0, 0))
        assert err.value.rule == "swords"
        d.step(EndTurn())
        d.step(Play((0,), face_down=True, zone=-1 if d.first_free(0, S.MAGIC) >= 0 else 0))
    d.step(EndTurn())
    assert d.swords(1) == 0


def test_cursebreaker_and_harpie():
    d = duel(deck(655), deck())
    r = place(d, 0, "monster", 0, 2)
    d.st.cards.stat_modifier[r] = -500
    d.step(Play((0,)))
    assert d.st.cards.stat_modifier[r] == 0
    d = duel(deck(672), deck())
    place(d, 1, "magic", 0, 681)
    place(d, 1, "magic", 4, 339)
    d.step(Play((0,)))
    assert d.row_records(1, S.MAGIC) == [] and d.counters(1)["traps_triggered"] == 0


def test_reverse_trap_turns_the_equip_gain_into_a_loss():
    d = duel(deck(657), deck())
    r = place(d, 0, "monster", 0, 2)
    place(d, 1, "magic", 0, 689)
    d.step(Play((0,), zone=0))
    assert d.st.cards.stat_modifier[r] == -1000 and d.card(0, "monster", 0).atk == 0
    assert d.counters(1)["traps_triggered"] == 1 and d.counters(0)["equips"] == 1


def test_set_equip_activates_onto_a_fitting_monster():
    d = duel(deck(301), deck())
    place(d, 0, "monster", 1, 12)
    d.step(Play((0,), face_down=True))
    with pytest.raises(IllegalAction):
        d.step(Activate(0, 0))
    d.step(Activate(0, 1))
    assert d.card(0, "monster", 1).atk == 2300 and d.counters(0)["equips"] == 1


def test_ritual_summons_and_missing_tributes_consume_the_card():
    d = duel(deck(670), deck())
    for col, card in ((1, 27), (3, 38), (4, 58)):
        place(d, 0, "monster", col, card, S.F_DEFENCE | S.F_FACE_DOWN)
    place(d, 0, "monster", 0, 2)
    d.step(Play((0,)))
    # the recipe is (27, 38, 58): the result takes the second tribute's column (38 in 3)
    assert d.card(0, "monster", 3).card == 364 and d.card(0, "monster", 1) is None
    assert d.card(0, "monster", 0).card == 2 and d.counters(0)["pure_magic"] == 0
    accounted(d)
    d = duel(deck(670), deck())
    events = d.step(Play((0,)))
    assert events[-1].kind == "ritual" and events[-1].result == 0 and d.hand(0)[0] == -1


@pytest.mark.parametrize("trap,threshold", [(681, 500), (682, 1000), (683, 1500), (684, 2000),
                                            (685, 3000), (686, 25500)])
def test_each_attack_trap_covers_up_to_its_threshold(trap, threshold):
    for atk, fires in ((min(threshold, 9990), True), (threshold + 10, trap == 686)):
        d = board(cpu_magic=(trap,))
        d.st.cards.attack[d.rec(0, S.MONSTERS, 0)] = min(atk, 9999)
        events = d.step(Attack(0))
        assert ("trap" in kinds(events)) == fires, (trap, atk)
        assert (d.card(0, "monster", 0) is None) == fires


def test_spellbinding_circle_lowers_every_opposing_monster_by_500():
    d = duel(deck(349), deck())
    place(d, 1, "monster", 0, 2)
    place(d, 1, "monster", 3, 1)
    place(d, 0, "monster", 0, 15)
    d.step(Play((0,)))
    assert (d.card(1, "monster", 0).atk, d.card(1, "monster", 3).defense) == (300, 2000)
    assert d.card(0, "monster", 0).atk == 1800


def test_choices_switch_the_open_rules(monkeypatch):
    from emucore.fm import choices
    monkeypatch.setattr(choices, "FAKE_TRAP_DESTROYS_ATTACKER", True)
    d = board(cpu_magic=(690,))
    d.step(Attack(0))
    assert d.card(0, "monster", 0) is None
    monkeypatch.setattr(choices, "REVERSE_TRAP_FACTOR", 1)
    d = duel(deck(657), deck())
    r = place(d, 0, "monster", 0, 2)
    place(d, 1, "magic", 0, 689)
    d.step(Play((0,), zone=0))
    assert d.st.cards.stat_modifier[r] == 0


def test_starting_terrain_applies_to_every_record_from_the_first_draw():
    d = duel(deck(1, 406, 2), deck(), terrain=3)  # Mountain: Dragon +500, Machine 0
    assert d.card(0, "hand", 0).atk == 3500 and d.card(0, "hand", 2).atk == 800
    d.step(Play((0,)))
    assert d.card(0, "monster", 0).atk == 3500


def test_ritual_result_lives_on_the_second_tributes_deck_record():
    """DuelEffect_ApplyRitual: the result takes record slots[3] (the second tribute, here
    column 2) and its deck-card record, whose id becomes the result (docs/fm-fidelity.md
    D6, D11); the ritual card's own record is used up."""
    d = duel(deck(675), deck())
    tributes = [place(d, 0, "monster", col, 1) for col in (0, 2, 4)]
    tribute_decks = [d.deck_index_of(r) for r in tributes]
    d.step(Play((0,)))
    r = d.rec(0, S.MONSTERS, 2)
    assert d.card_at(r) == 380 and d.deck_index_of(r) == tribute_decks[1]
    assert d.st.deck_cards.card_id[tribute_decks[1]] == 380
    assert d.deck_flags(0) == S.GONE  # 675 was the first card drawn
    assert [d.deck_flags(k) for k in tribute_decks] == [S.GONE, S.ON_FIELD, S.GONE]
    accounted(d)
