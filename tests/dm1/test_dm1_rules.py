"""Every DM1 rule as a scenario with its exact outcome (issue 6, spec/dm1.md)."""

from __future__ import annotations

import pytest
from dm1_helpers import FILLER, put, start

from emucore.dm1.actions import DIRECT, NO_TARGET, Magic, Order, Pass, Summon
from emucore.dm1.decks import DeckError
from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import ATTACK, DEFEND, FUSION_EMPTY, ORDERS, OVER, PLAY
from emucore.duel.protocol import DRAW, IllegalAction
from emucore.hw import gameboy

BLUE_EYES, MYSTICAL_ELF, FLAME_SWORDSMAN, CELTIC, BATTLE_WARRIOR = 1, 2, 15, 41, 100
GREAT_MOTH, PETIT_MOTH, HARPIE, HARPIE_SISTERS, KURIBOH = 67, 278, 62, 63, 58
ANCIENT_TOOL = 124  # Machine 1700/1400
LEGENDARY_SWORD, EGOTIST, STOP_DEFENSE, JAR = 301, 318, 320, 329
FOREST, UMI, DARK_HOLE, RAIGEKI = 330, 334, 336, 337
SWORDS, SPELLBINDING, DARK_PIERCING = 348, 349, 350


# --- deck, LP, hands, draws -----------------------------------------------------------------

@pytest.mark.parametrize("size", [39, 41, 0])
def test_deck_must_have_exactly_40_cards(size):
    with pytest.raises(DeckError, match=f"{size} cards, a deck needs exactly 40"):
        Dm1Duel([FILLER] * size, opponent=0, seed=1)


def test_unknown_card_in_deck_is_refused():
    with pytest.raises(DeckError, match="card 40 .366. is not a card number"):
        Dm1Duel([FILLER] * 39 + [366], opponent=0, seed=1)


def test_any_number_of_copies_is_allowed():
    duel = Dm1Duel([BLUE_EYES] * 40, opponent=0, seed=1)
    assert duel.hand_cards(0) == [BLUE_EYES] * 5


def test_start_8000_lp_five_cards_no_draw_on_the_first_turn():
    duel = start([1, 2, 3, 4, 5], draws0=[6])
    assert (duel.lp(0), duel.lp(1)) == (8000, 8000)
    assert duel.hand_cards(0) == [1, 2, 3, 4, 5]  # turn 1: no draw
    assert duel.hand_cards(1) == [FILLER] * 5
    assert (duel.acting_side, duel.v.turn[0], duel.v.phase[0]) == (0, 1, PLAY)


def test_each_later_turn_draws_one_and_the_hand_is_not_refilled():
    duel = start([1, 2, 3, 4, 5], hand1=[7, 8, 9, 10, 11], draws0=[6], draws1=[12])
    duel.step(Summon(0, 0))
    duel.step(Order(0, False))  # the turn passes once every monster has an order
    assert duel.acting_side == 1 and duel.hand_cards(1) == [7, 8, 9, 10, 11, 12]
    duel.step(Summon(0, 0))
    duel.step(Order(0, False))
    assert duel.hand_cards(0) == [2, 3, 4, 5, 6]  # 4 left + 1 drawn: not refilled to 5+


# --- one card per turn, summons and fusions --------------------------------------------------

def test_a_side_may_play_one_card_or_pass():
    """Issue 6 rules: "One card per turn: summon a monster into one of the five zones, or
    activate a magic card"; issue 15 item 6: "may play one card" — playing none is a legal
    choice (Pass), offered in every play phase."""
    duel = start([FILLER, FILLER], draws1=[KURIBOH])
    assert duel.legal_actions()[-1] == Pass()
    events = duel.step(Pass())
    assert events[0].kind == "pass" and duel.hand_cards(0) == [FILLER] * 5
    assert duel.acting_side == 1  # no monster to order: the turn passes
    with pytest.raises(IllegalAction) as err:
        duel.step(Order(0, False))
    assert err.value.rule == "phase"


def test_passing_keeps_the_last_card_and_the_duel_goes_on():
    """Issue 6 rules: "a player whose hand is empty -> the higher LP wins" — a side that
    passes with one card left still holds a card, so nothing ends."""
    duel = start([KURIBOH])
    duel.v.hand_count[0] = 1
    duel.v.draw_cursor[0] = 40
    duel.v.lp[0] = 100
    duel.step(Pass())
    assert not duel.over and duel.hand_cards(0) == [KURIBOH]


def test_a_draw_into_a_full_hand_is_skipped():
    """[choice] (docs/dm1.md): a hand holds at most six cards (five dealt + the one drawn); a
    side that passed with six draws nothing and its next card stays on the deck."""
    duel = start([FILLER] * 5, draws0=[KURIBOH, BLUE_EYES])
    duel.step(Pass())
    duel.step(Pass())  # side 1
    assert duel.hand_cards(0)[-1] == KURIBOH and len(duel.hand_cards(0)) == 6
    duel.step(Pass())
    duel.step(Pass())
    assert len(duel.hand_cards(0)) == 6 and duel.v.draw_cursor[0] == 6
    duel.step(Summon(5, 0))
    duel.step(Order(0, False))
    duel.step(Pass())
    assert duel.hand_cards(0)[-1] == BLUE_EYES


def test_one_card_per_turn():
    duel = start([FILLER, FILLER])
    duel.step(Summon(0, 0))
    assert duel.v.phase[0] == ORDERS
    with pytest.raises(IllegalAction) as err:
        duel.step(Summon(0, 1))
    assert err.value.rule == "phase"
    assert duel.zone_card(0, 1) == 0


def test_summon_onto_own_monster_with_a_recipe_fuses():
    duel = start([BATTLE_WARRIOR])
    put(duel, 0, 2, MYSTICAL_ELF)
    events = duel.step(Summon(0, 2))
    assert duel.zone_card(0, 2) == CELTIC  # Mystical Elf + Battle Warrior -> Celtic Guardian
    assert events[0].kind == "fusion" and events[0].result == CELTIC
    # WRAM $CECB-$CED0 mirror: ROM indices (number - 1) of A, B and the result
    assert list(duel.v.fusion_block) == [BATTLE_WARRIOR - 1, MYSTICAL_ELF - 1, CELTIC - 1]


def test_summon_onto_own_monster_without_a_recipe_replaces_it():
    duel = start([KURIBOH])
    put(duel, 0, 1, BLUE_EYES, level=2)
    events = duel.step(Summon(0, 1))
    assert duel.zone_card(0, 1) == KURIBOH and duel.zone_level(0, 1) == 0
    assert events[0].kind == "placed" and events[0].replaced == BLUE_EYES
    assert list(duel.v.fusion_block) == [KURIBOH - 1, BLUE_EYES - 1, FUSION_EMPTY]


def test_a_monster_cannot_be_activated_as_magic_nor_magic_summoned():
    duel = start([SPELLBINDING, FILLER])
    with pytest.raises(IllegalAction) as err:
        duel.step(Summon(0, 0))
    assert err.value.rule == "card-kind"
    with pytest.raises(IllegalAction):
        duel.step(Magic(1))


# --- levels ---------------------------------------------------------------------------------

def test_equip_raises_an_eligible_monster_one_level_x1_6():
    duel = start([LEGENDARY_SWORD])
    put(duel, 0, 0, FLAME_SWORDSMAN)  # Warrior, 1800/1600
    duel.step(Magic(0, 0))
    assert duel.zone_level(0, 0) == 1
    assert (duel.zone_attack(0, 0), duel.zone_defense(0, 0)) == (2880, 2560)


def test_level_two_is_256_percent_and_the_level_stops_at_two():
    duel = start([LEGENDARY_SWORD])
    put(duel, 0, 0, FLAME_SWORDSMAN, level=2)
    assert duel.zone_attack(0, 0) == 4608  # 1800 x 1.6 x 1.6
    events = duel.step(Magic(0, 0))
    assert duel.zone_level(0, 0) == 2 and events[0].took_effect is False


def test_equip_on_a_monster_not_on_its_list_has_no_effect():
    duel = start([LEGENDARY_SWORD])
    put(duel, 0, 0, BLUE_EYES)  # a Dragon: not on the Legendary Sword list
    events = duel.step(Magic(0, 0))
    assert duel.zone_level(0, 0) == 0 and events[0].took_effect is False


def test_level_down_hits_the_opponent_only_and_stops_at_minus_one():
    duel = start([SPELLBINDING])
    put(duel, 0, 0, BLUE_EYES)
    put(duel, 1, 0, BLUE_EYES)
    put(duel, 1, 1, CELTIC, level=-1)
    duel.step(Magic(0))
    assert duel.zone_level(0, 0) == 0
    assert duel.zone_level(1, 0) == -1 and duel.zone_attack(1, 0) == 1800  # 60% of 3000
    assert duel.zone_level(1, 1) == -1


def test_equip_targets_only_own_monsters():
    duel = start([LEGENDARY_SWORD])
    put(duel, 0, 0, FLAME_SWORDSMAN)
    with pytest.raises(IllegalAction) as err:
        duel.step(Magic(0, 3))
    assert err.value.rule == "magic-target"


# --- fields -----------------------------------------------------------------------------------

def test_field_boost_x1_3_on_both_sides_and_not_a_level():
    duel = start([FOREST])
    put(duel, 0, 0, GREAT_MOTH)  # Insect 3500/3000
    put(duel, 1, 0, GREAT_MOTH)
    duel.step(Magic(0))
    assert duel.v.field[0] == 1
    assert duel.zone_attack(0, 0) == duel.zone_attack(1, 0) == 4550
    assert duel.zone_level(0, 0) == 0


def test_field_weakens_x0_7():
    duel = start([UMI])
    put(duel, 1, 0, ANCIENT_TOOL)  # Machine 1700/1400 on Umi
    duel.step(Magic(0))
    assert (duel.zone_attack(1, 0), duel.zone_defense(1, 0)) == (1190, 980)


def test_named_exception_does_not_follow_its_type():
    duel = start([FOREST])
    put(duel, 0, 0, PETIT_MOTH)  # an Insect, but not boosted by Forest
    duel.step(Magic(0))
    assert duel.zone_attack(0, 0) == 300


# --- the 9999 glitch --------------------------------------------------------------------------

def test_bcd_glitch_great_moth_forest_level_two_fights_with_1648():
    duel = start([FOREST], turn=3)
    put(duel, 0, 0, GREAT_MOTH, level=2)
    put(duel, 1, 0, FLAME_SWORDSMAN)  # Warrior: not boosted by Forest, 1800 ATK
    duel.step(Magic(0))
    assert gameboy.scaled_stat_raw(4550, 2) == 11648
    assert duel.zone_attack(0, 0) == 1648  # quirk: only the last four digits remain
    duel.step(Order(0, True, 0))
    assert duel.zone_card(0, 0) == 0 and duel.zone_card(1, 0) == FLAME_SWORDSMAN
    assert duel.lp(0) == 8000 - 152


# --- battle -------------------------------------------------------------------------------------

def _battle(attacker: int, defender: int, stance: int):
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, attacker)
    put(duel, 1, 0, defender, stance=stance)
    duel.step(Summon(0, 4))
    events = duel.step(Order(0, True, 0))
    return duel, events


def test_attack_vs_attack_lower_is_destroyed_and_its_controller_takes_the_difference():
    duel, events = _battle(FLAME_SWORDSMAN, CELTIC, ATTACK)  # 1800 vs 1400
    assert duel.zone_card(1, 0) == 0 and duel.zone_card(0, 0) == FLAME_SWORDSMAN
    assert (duel.lp(0), duel.lp(1)) == (8000, 7600)
    assert events[1].kind == "battle" and (events[1].attack_value, events[1].defend_value) == \
        (1800, 1400)


def test_attack_vs_stronger_attacker_loses_and_pays():
    duel, _ = _battle(CELTIC, FLAME_SWORDSMAN, ATTACK)
    assert duel.zone_card(0, 0) == 0 and duel.zone_card(1, 0) == FLAME_SWORDSMAN
    assert (duel.lp(0), duel.lp(1)) == (7600, 8000)


def test_equal_attack_destroys_both_without_damage():
    duel, _ = _battle(CELTIC, CELTIC, ATTACK)
    assert duel.zone_card(0, 0) == duel.zone_card(1, 0) == 0
    assert (duel.lp(0), duel.lp(1)) == (8000, 8000)


def test_attack_above_defence_destroys_the_defender_without_damage():
    duel, _ = _battle(FLAME_SWORDSMAN, CELTIC, DEFEND)  # 1800 vs DEF 1200
    assert duel.zone_card(1, 0) == 0 and (duel.lp(0), duel.lp(1)) == (8000, 8000)


def test_attack_at_or_below_defence_costs_the_attacker_and_destroys_nothing():
    duel, _ = _battle(CELTIC, MYSTICAL_ELF, DEFEND)  # 1400 vs DEF 2000
    assert duel.zone_card(0, 0) == CELTIC and duel.zone_card(1, 0) == MYSTICAL_ELF
    assert (duel.lp(0), duel.lp(1)) == (7400, 8000)
    duel, _ = _battle(BATTLE_WARRIOR, BATTLE_WARRIOR, DEFEND)  # 700 vs DEF 1000
    assert duel.lp(0) == 7700 and duel.zone_card(1, 0) == BATTLE_WARRIOR


def test_equal_attack_and_defence_is_no_damage_nothing_destroyed():
    duel, _ = _battle(MYSTICAL_ELF, MYSTICAL_ELF, ATTACK)  # both attack: equal, both destroyed
    assert duel.zone_card(0, 0) == 0
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, 29)  # Mountain Warrior 600/1000
    put(duel, 1, 0, 16, stance=DEFEND)  # Time Wizard 500/400 -> attack 600 vs DEF 400
    duel.step(Summon(0, 4))
    duel.step(Order(0, True, 0))
    assert duel.zone_card(1, 0) == 0


def test_direct_attack_takes_the_full_atk():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, BLUE_EYES)
    duel.step(Summon(0, 4))
    duel.step(Order(0, True, DIRECT))
    assert duel.lp(1) == 5000


def test_attack_position_must_attack_a_monster_when_the_opponent_has_one():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, BLUE_EYES)
    put(duel, 1, 3, KURIBOH)
    duel.step(Summon(0, 4))
    legal = duel.legal_actions()
    assert legal == [Order(0, False, NO_TARGET), Order(0, True, 3)]
    for bad in (Order(0, True, NO_TARGET), Order(0, True, DIRECT), Order(0, True, 2)):
        with pytest.raises(IllegalAction):
            duel.step(bad)


def test_direct_attack_only_when_the_opponent_has_no_monster():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, BLUE_EYES)
    duel.step(Summon(0, 4))
    assert duel.legal_actions() == [Order(0, False, NO_TARGET), Order(0, True, DIRECT)]


def test_no_attacks_on_the_first_turn():
    duel = start([BLUE_EYES])
    duel.step(Summon(0, 0))
    assert duel.legal_actions() == [Order(0, False, NO_TARGET), Order(0, True, NO_TARGET)]
    duel.step(Order(0, True, NO_TARGET))
    assert duel.zone_stance(0, 0) == ATTACK and duel.lp(1) == 8000


def test_each_monster_gets_one_order_in_zone_order_then_the_turn_passes():
    duel = start([FILLER], turn=3)
    put(duel, 0, 1, KURIBOH)
    put(duel, 0, 3, KURIBOH)
    duel.step(Summon(0, 0))
    assert duel.next_to_order() == 0
    with pytest.raises(IllegalAction):
        duel.step(Order(1, False))
    duel.step(Order(0, False))
    duel.step(Order(1, False))
    assert duel.acting_side == 0 and duel.next_to_order() == 3
    duel.step(Order(3, False))
    assert duel.acting_side == 1 and duel.v.phase[0] == PLAY


def test_a_turn_without_monsters_passes_right_after_the_play():
    duel = start([SPELLBINDING])
    duel.step(Magic(0))
    assert duel.acting_side == 1


# --- winning --------------------------------------------------------------------------------------

def test_lp_zero_wins():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, BLUE_EYES)
    duel.v.lp[1] = 2500
    duel.step(Summon(0, 4))
    events = duel.step(Order(0, True, DIRECT))
    assert duel.over and duel.winner == 0 and duel.end_reason == "lp" and duel.lp(1) == 0
    assert events[-1].kind == "ended" and events[-1].winner == 0
    assert duel.legal_actions() == []
    with pytest.raises(IllegalAction):
        duel.step(Order(4, False))


@pytest.mark.parametrize("lp0,lp1,winner", [(5000, 4000, 0), (3000, 4000, 1),
                                            (4000, 4000, DRAW)])
def test_playing_the_last_card_ends_the_duel_at_once_higher_lp_wins(lp0, lp1, winner):
    """Issue 6 rules: "Wins: LP 0; a player whose hand is empty -> the higher LP wins".
    Issue 15 item 9: checked when the hand empties, not at the start of the player's next
    turn: the duel ends on the play itself, before any order or the opponent's turn."""
    duel = start([KURIBOH], turn=3)
    duel.v.draw_cursor[0] = 40  # side 0's deck is spent
    duel.v.hand_count[0] = 1
    duel.v.lp[0], duel.v.lp[1] = lp0, lp1
    events = duel.step(Summon(0, 0))
    assert duel.over and duel.winner == winner and duel.end_reason == "empty_hand"
    assert events[-1].kind == "ended" and events[-1].winner == winner
    assert duel.acting_side == 0 and duel.v.phase[0] == OVER


def test_an_empty_deck_alone_does_not_end_the_duel():
    """Issue 6 rules: only an empty hand (not an empty deck) decides; a side with cards in
    hand and no deck plays on."""
    duel = start([KURIBOH, KURIBOH])
    duel.v.draw_cursor[1] = 40
    duel.step(Summon(0, 0))
    duel.step(Order(0, False))
    assert not duel.over and duel.acting_side == 1 and len(duel.hand_cards(1)) == 5


def test_five_exodia_pieces_in_hand_win():
    duel = start([17, 18, 19, 20], hand1=[FILLER], draws1=[FILLER], draws0=[21])
    assert not duel.over
    duel.step(Summon(4, 0))
    duel.step(Order(0, False))
    duel.step(Summon(0, 0))
    duel.step(Order(0, False))
    assert duel.over and duel.winner == 0 and duel.end_reason == "exodia"


# --- heal and burn, and the other magic cards -------------------------------------------------

@pytest.mark.parametrize("card,amount", [(338, 200), (339, 500), (340, 1000), (341, 2000),
                                         (342, 5000)])
def test_heal_amounts(card, amount):
    duel = start([card])
    duel.v.lp[0] = 1000
    duel.step(Magic(0))
    assert duel.lp(0) == 1000 + amount


def test_heal_stops_at_9999():
    duel = start([342])
    duel.step(Magic(0))
    assert duel.lp(0) == 9999


@pytest.mark.parametrize("card,amount", [(343, 200), (344, 500), (345, 1000), (346, 2000),
                                         (347, 5000)])
def test_burn_amounts(card, amount):
    duel = start([card])
    duel.step(Magic(0))
    assert duel.lp(1) == 8000 - amount and duel.lp(0) == 8000


def test_burn_to_zero_wins():
    duel = start([347])
    duel.v.lp[1] = 4000
    duel.step(Magic(0))
    assert duel.lp(1) == 0 and duel.winner == 0 and duel.over


def test_dark_hole_destroys_both_sides_raigeki_only_the_opponent():
    duel = start([DARK_HOLE])
    put(duel, 0, 0, BLUE_EYES)
    put(duel, 1, 4, BLUE_EYES)
    duel.step(Magic(0))
    assert duel.occupied(0) == [] and duel.occupied(1) == []
    duel = start([RAIGEKI])
    put(duel, 0, 0, BLUE_EYES)
    put(duel, 1, 4, BLUE_EYES)
    put(duel, 1, 2, KURIBOH)
    duel.step(Magic(0))
    assert duel.occupied(0) == [0] and duel.occupied(1) == []


def test_elegant_egotist_turns_harpie_lady_into_the_sisters():
    duel = start([EGOTIST])
    put(duel, 0, 1, HARPIE)
    duel.step(Magic(0, 1))
    assert duel.zone_card(0, 1) == HARPIE_SISTERS
    duel = start([EGOTIST])
    put(duel, 0, 1, KURIBOH)
    events = duel.step(Magic(0, 1))
    assert duel.zone_card(0, 1) == KURIBOH and events[0].took_effect is False


def test_stop_defense_switches_defenders_to_attack_and_forces_their_next_attack():
    duel = start([STOP_DEFENSE], turn=3)
    put(duel, 1, 0, MYSTICAL_ELF, stance=DEFEND)
    duel.step(Magic(0))
    assert duel.zone_stance(1, 0) == ATTACK and duel.acting_side == 1
    duel.step(Summon(0, 1))
    assert Order(0, False) not in duel.legal_actions()
    with pytest.raises(IllegalAction):
        duel.step(Order(0, False))
    duel.step(Order(0, True, DIRECT))
    duel.step(Order(1, True, DIRECT))
    duel.step(Summon(0, 0))  # side 0's turn
    duel.step(Order(0, False))
    duel.step(Summon(0, 2))  # side 1 again: defending is allowed, Stop Defense lasted one turn
    assert Order(0, False) in duel.legal_actions()


def test_swords_of_revealing_light_stops_the_opponent_attacking_for_three_turns():
    duel = start([SWORDS] + [FILLER] * 4, turn=3)
    put(duel, 1, 0, BLUE_EYES)
    duel.step(Magic(0))
    for _ in range(3):  # the opponent's next three turns: attack position cannot attack
        assert duel.acting_side == 1
        duel.step(Summon(0, 4))
        assert duel.legal_actions() == [Order(0, False), Order(0, True, NO_TARGET)]
        duel.step(Order(0, True, NO_TARGET))
        duel.step(Order(4, False))
        duel.step(Summon(0, 4))
        duel.step(Order(4, False))
    assert duel.acting_side == 1
    duel.step(Summon(0, 4))
    assert Order(0, True, 4) in duel.legal_actions()  # the fourth turn may attack again


def test_dragon_capture_jar_seals_dragons_on_both_sides():
    duel = start([JAR], turn=3)
    put(duel, 0, 0, BLUE_EYES)
    put(duel, 0, 1, KURIBOH)
    put(duel, 1, 0, BLUE_EYES)
    duel.step(Magic(0))
    assert duel.legal_actions() == [Order(0, False), Order(0, True, NO_TARGET)]
    duel.step(Order(0, False))
    assert Order(1, True, 0) in duel.legal_actions()  # Kuriboh is no Dragon


def test_dark_piercing_light_reveals_every_monster():
    duel = start([DARK_PIERCING])
    put(duel, 0, 0, KURIBOH)
    put(duel, 1, 0, KURIBOH)
    duel.step(Magic(0))
    assert duel.v.zone_flags[0] & 1 and duel.v.zone_flags[5] & 1


def test_equip_with_no_own_monster_is_spent_without_effect():
    duel = start([LEGENDARY_SWORD])
    assert Magic(0, NO_TARGET) in duel.legal_actions()
    events = duel.step(Magic(0, NO_TARGET))
    assert events[0].took_effect is False and duel.acting_side == 1


def test_rejected_action_leaves_the_state_unchanged():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, BLUE_EYES)
    before = duel.snapshot()
    for bad in (Summon(7, 0), Summon(0, 5), Order(0, False), Magic(0)):
        with pytest.raises(IllegalAction):
            duel.step(bad)
        assert duel.snapshot() == before
    assert duel.v.phase[0] != OVER


def test_the_rounding_rule_is_swappable_and_changes_the_fight_values():
    castle = 83  # Castle of D. Magic, Fiend 920: 1196 on Yami, then level 2
    duel = start([335])
    put(duel, 0, 0, castle, level=2)
    duel.step(Magic(0))
    assert duel.zone_attack(0, 0) == 3060  # default, floor at each step: 1196 -> 1913 -> 3060
    gameboy.set_rounding("round_once")
    try:
        other = start([335])
        put(other, 0, 0, castle, level=2)
        other.step(Magic(0))
        assert other.zone_attack(0, 0) == 3062  # 1196 x 2.56 = 3061.76 rounded
    finally:
        gameboy.set_rounding("floor_each")


# --- the facts added to reference/dm1 in 2026-12 (its README, last section) ------------------

BATTLE_OX, MYSTIC_HORSEMAN, RABID_HORSEMAN = 26, 91, 92
ZOMBIE_WARRIOR, GRAVEYARD_HAND, DRAGON_ZOMBIE, SNAKE_HAIR, PUMPKING = 30, 108, 97, 36, 99
SUMMONED_SKULL, HORN_OF_LIGHT, HORN_OF_UNICORN = 22, 313, 314


def _play(duel: Dm1Duel, action) -> list:
    """Step one action after checking the engine offers it."""
    assert action in duel.legal_actions()
    return duel.step(action)


def _end_turn(duel: Dm1Duel) -> None:
    """Defend with every own monster, then let side 1 pass its whole turn."""
    while duel.acting_side == 0 and not duel.over:
        _play(duel, Order(duel.next_to_order(), False))
    _play(duel, Pass())
    while duel.acting_side == 1:
        _play(duel, Order(duel.next_to_order(), False))


def test_rabid_horseman_dragon_zombie_and_pumpking_are_made_in_a_duel():
    """reference/dm1/fusion_pairs_added.csv: "26,Battle Ox,91,Mystic Horseman,92,Rabid
    Horseman", "30,Zombie Warrior,108,Graveyard & Hand,97,Dragon Zombie" and "97,Dragon
    Zombie,108,Graveyard & Hand,99,Pumpking the King" — the three results the old list could
    not make (README: "Results tagged "Fusion Summon" but without any recipe here: #92 Rabid
    Horseman, #97 Dragon Zombie, #99 Pumpking")."""
    duel = start([BATTLE_OX, MYSTIC_HORSEMAN, ZOMBIE_WARRIOR, GRAVEYARD_HAND, GRAVEYARD_HAND])
    made = []
    for action in (Summon(0, 0), Summon(0, 0), Summon(0, 1), Summon(0, 1), Summon(0, 1)):
        made += [e.result for e in _play(duel, action) if e.kind == "fusion"]
        _end_turn(duel)
    assert made == [RABID_HORSEMAN, DRAGON_ZOMBIE, PUMPKING]
    assert (duel.zone_card(0, 0), duel.zone_card(0, 1)) == (RABID_HORSEMAN, PUMPKING)


def test_pumpking_from_the_snake_hair_and_graveyard_and_hand():
    """reference/dm1/fusion_pairs_added.csv: "36,The Snake Hair,108,Graveyard & Hand,99,
    Pumpking the King", in either order (the ROM's scan tries both)."""
    duel = start([GRAVEYARD_HAND])
    put(duel, 0, 3, SNAKE_HAIR)
    events = _play(duel, Summon(0, 3))
    assert events[0].kind == "fusion" and duel.zone_card(0, 3) == PUMPKING


@pytest.mark.parametrize("horn,monster,levels", [
    (HORN_OF_LIGHT, BATTLE_OX, 1), (HORN_OF_LIGHT, SUMMONED_SKULL, 0),
    (HORN_OF_UNICORN, SUMMONED_SKULL, 1), (HORN_OF_UNICORN, BATTLE_OX, 0)])
def test_horn_of_light_and_horn_of_the_unicorn_fit_different_monsters(horn, monster, levels):
    """Issue 15 item 9: "Horn of Light and Horn of the Unicorn have identical equip lists
    although the reference distinguishes non-dark and dark horned monsters";
    reference/dm1/equips_inferred_from_fm.csv lists Battle Ox (#26) for Horn of Light only and
    Summoned Skull (#22) for Horn of the Unicorn only."""
    duel = start([horn])
    put(duel, 0, 0, monster)
    events = _play(duel, Magic(0, 0))
    assert events[0].kind == "equip" and events[0].took_effect is bool(levels)
    assert duel.zone_level(0, 0) == levels
