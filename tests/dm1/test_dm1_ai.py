"""The DM1 computer player's decision rule (emucore/dm1/ai.py), case by case."""

from __future__ import annotations

from dm1_helpers import FILLER, put, start

from emucore.dm1 import ai
from emucore.dm1.actions import DIRECT, NO_TARGET, Magic, Order, Pass, Summon
from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import DEFEND
from emucore.duel.protocol import DRAW

BLUE_EYES, MYSTICAL_ELF, FLAME_SWORDSMAN, CELTIC, BATTLE_WARRIOR, KURIBOH = 1, 2, 15, 41, 100, 58


def test_fusion_first_when_the_result_beats_both_materials():
    duel = start([KURIBOH, BATTLE_WARRIOR, BLUE_EYES])
    put(duel, 0, 2, MYSTICAL_ELF)
    assert ai.choose_action(duel) == Summon(1, 2)


def test_otherwise_the_strongest_monster_into_the_lowest_free_zone():
    duel = start([KURIBOH, BLUE_EYES, CELTIC])
    put(duel, 0, 0, KURIBOH)
    assert ai.choose_action(duel) == Summon(1, 1)


def test_full_field_replaces_the_weakest_monster_when_stronger():
    duel = start([KURIBOH, CELTIC])
    for z, card in enumerate((BLUE_EYES, BLUE_EYES, KURIBOH, BLUE_EYES, BLUE_EYES)):
        put(duel, 0, z, card)
    assert ai.choose_action(duel) == Summon(1, 2)


def test_full_field_of_stronger_monsters_passes_while_cards_remain_to_draw():
    """Issue 15 item 6: "may play one card" — the computer declines a play that only loses a
    stronger monster, while it can still draw."""
    duel = start([CELTIC, KURIBOH, FLAME_SWORDSMAN] + [CELTIC] * 2)
    for z in range(5):
        put(duel, 0, z, BLUE_EYES)
    assert ai.choose_action(duel) == Pass()


def test_full_field_of_stronger_monsters_gives_up_the_weakest_card_once_the_deck_is_spent():
    duel = start([CELTIC, KURIBOH, FLAME_SWORDSMAN] + [CELTIC] * 2)
    duel.v.draw_cursor[0] = 40
    for z in range(5):
        put(duel, 0, z, BLUE_EYES)
    assert ai.choose_action(duel) == Summon(1, 0)


def test_keeps_its_last_card_when_playing_it_would_lose_on_lp():
    """Issue 6 rules: "a player whose hand is empty -> the higher LP wins": with the deck
    spent and fewer LP, the computer passes rather than empty its hand; with more LP it plays
    the last card and wins."""
    duel = start([KURIBOH])
    duel.v.draw_cursor[0] = 40
    duel.v.hand_count[0] = 1
    duel.v.lp[0] = 1000
    assert ai.choose_action(duel) == Pass()
    duel.v.lp[0] = 9000
    action = ai.choose_action(duel)
    assert isinstance(action, Summon)
    duel.step(action)
    assert duel.winner == 0 and duel.end_reason == "empty_hand"


def test_magic_only_when_no_monster_is_in_hand():
    duel = start([343, 343, 343, 343, 343])  # five Sparks
    assert ai.choose_action(duel) == Magic(0, NO_TARGET)
    duel = start([343, KURIBOH])
    assert isinstance(ai.choose_action(duel), Summon)


def test_attacks_directly_when_the_opponent_has_no_monster():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, KURIBOH)
    duel.step(Summon(0, 4))
    assert ai.choose_action(duel) == Order(0, True, DIRECT)


def test_attacks_the_strongest_monster_it_beats():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, FLAME_SWORDSMAN)  # 1800
    put(duel, 1, 0, KURIBOH)
    put(duel, 1, 1, CELTIC, stance=DEFEND)  # DEF 1200: beaten, ATK 1400 the best prize
    put(duel, 1, 2, BLUE_EYES)
    duel.step(Summon(0, 4))
    assert ai.choose_action(duel) == Order(0, True, 1)


def test_defends_when_it_beats_nothing():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, KURIBOH)
    put(duel, 1, 0, BLUE_EYES)
    duel.step(Summon(0, 4))
    assert ai.choose_action(duel) == Order(0, False, NO_TARGET)


def test_first_turn_holds_attack_position_unless_threatened_or_defence_is_higher():
    duel = start([FLAME_SWORDSMAN])
    duel.step(Summon(0, 0))
    assert ai.choose_action(duel) == Order(0, True, NO_TARGET)  # 1800 >= 1600
    duel = start([MYSTICAL_ELF])
    duel.step(Summon(0, 0))
    assert ai.choose_action(duel) == Order(0, False, NO_TARGET)  # DEF 2000 > ATK 800


def test_forced_to_attack_picks_the_cheapest_target():
    duel = start([FILLER], turn=3)
    put(duel, 0, 0, KURIBOH)
    put(duel, 1, 0, BLUE_EYES)
    put(duel, 1, 1, CELTIC)
    duel.v.forced_attack[0] = 1
    duel.step(Summon(0, 4))
    assert ai.choose_action(duel) == Order(0, True, 1)


def test_computer_duels_end_and_repeat_exactly_for_a_seed():
    results = set()
    for _ in range(2):
        duel = Dm1Duel(opponent=3, seed=1234, player_pool=9)
        steps = ai.play_out(duel)
        assert duel.over and steps < 500
        results.add((duel.digest(), duel.winner, steps))
    assert len(results) == 1
    other = Dm1Duel(opponent=3, seed=1235, player_pool=9)
    ai.play_out(other)
    assert other.digest() not in {r[0] for r in results}


def test_every_opponent_plays_a_legal_duel_to_the_end():
    for opponent in range(16):
        duel = Dm1Duel(opponent=opponent, seed=opponent, player_pool=15 - opponent)
        while not duel.over:
            action = ai.choose_action(duel)
            assert action in duel.legal_actions()
            duel.step(action)
        assert duel.winner in (0, 1, DRAW) and duel.end_reason
