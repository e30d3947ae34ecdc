"""Turn flow, plays and the combination chain (spec/fm-engine.md §2.3, §3)."""

from __future__ import annotations

import pytest
from fm_scenario import accounted, deck, duel, kinds, past_first_turn, place

from emucore.duel.protocol import IllegalAction
from emucore.fm import state as S
from emucore.fm.actions import DECK_PICK, Activate, Attack, ChangePosition, EndTurn, Play


def test_opening_draw_phase_of_the_player_only():
    """func_80018608 state 5 deals the first hand without func_8001898C, the only place
    the turn counter +0x01 rises: side 0's counter stays 0 (docs/fm-fidelity.md D2)."""
    d = duel(deck(1, 2, 8, 9, 22), deck(31, 72))
    assert d.hand(0) == [1, 2, 8, 9, 22] and d.hand(1) == [-1] * 5
    assert d.counters(0)["turns"] == 0 and d.counters(0)["draw_cursor"] == 5
    assert d.counters(1)["turns"] == 0 and d.acting_side == 0 and d.phase == S.PHASE_HAND
    assert kinds(d.opening_events) == ["turn"] + ["draw"] * 5
    assert d.lp(0) == d.lp(1) == 8000 and d.st.sides.max_lp[1] == 8000


def test_one_play_per_turn_then_field_phase_then_other_sides_draw():
    d = duel(deck(1, 2, 8, 9, 22), deck(31, 72))
    with pytest.raises(IllegalAction) as err:
        d.step(EndTurn())
    assert err.value.rule == "phase"
    d.step(Play((0,)))
    with pytest.raises(IllegalAction):
        d.step(Play((1,)))
    events = d.step(EndTurn())
    assert d.acting_side == 1 and d.hand(1)[:2] == [31, 72]
    assert kinds(events) == ["turn"] + ["draw"] * 5
    d.step(Play((0,)))
    events = d.step(EndTurn())
    # the player's hand is compacted (4 cards to the front) and one card is drawn
    assert d.hand(0)[:4] == [2, 8, 9, 22] and d.counters(0)["draw_cursor"] == 6
    assert kinds(events) == ["turn", "draw"] and events[1].hand_pos == 4
    accounted(d)


def test_single_monster_star_face_down_and_counter():
    d = duel(deck(1, 2, 8, 9, 22), deck())
    d.step(Play((0,), face_down=True, star=1))
    view = d.card(0, "monster", 0)
    assert view.card == 1 and view.face_down and not view.defending
    assert view.star == 1  # Blue-eyes: star 1 Sun (8), star 2 Mars (1)
    assert d.counters(0)["face_down_plays"] == 1 and d.counters(0)["multi_plays"] == 0
    assert d.hand(0)[0] == -1


def test_fusion_chain_counts_and_is_face_up():
    d = duel(deck(2, 8, 657, 9, 22), deck())
    calls = d.rng.calls
    events = d.step(Play((0, 1, 2), face_down=True))
    view = d.card(0, "monster", 0)
    assert view.card == 638 and not view.face_down
    assert d.st.cards.stat_modifier[d.rec(0, S.MONSTERS, 0)] == 1000  # Megamorph after the fusion
    c = d.counters(0)
    assert (c["fusions"], c["equips"], c["multi_plays"], c["face_down_plays"]) == (1, 1, 1, 0)
    # the fusion effect (func_80157794: the runners' FUSION row, 4552) follows the fusion,
    # the equip effect (func_80154688: func_8014EF2C(16), 6 calls each, 96) the equip
    assert kinds(events) == ["fusion", "animation", "equip", "animation", "placed"]
    assert [events[1].rand_calls, events[3].rand_calls] == [4552, 96]
    assert d.rng.calls == calls + 4552 + 96
    accounted(d)


def test_fusion_wipes_an_earlier_equip_bonus():
    d = duel(deck(2, 657, 8, 9, 22), deck())
    d.step(Play((0, 1, 2)))
    r = d.rec(0, S.MONSTERS, 0)
    assert d.card_at(r) == 638 and d.st.cards.stat_modifier[r] == 0
    assert d.counters(0)["equips"] == 1 and d.counters(0)["fusions"] == 1


def test_equip_both_argument_orders():
    d = duel(deck(657, 2, 9, 22, 1), deck())
    d.step(Play((0, 1)))  # A = Megamorph fits B = Mystical Elf: B stays as the monster
    r = d.rec(0, S.MONSTERS, 0)
    assert d.card_at(r) == 2 and d.card(0, "monster", 0).atk == 1800
    d2 = duel(deck(12, 301, 9, 22, 1), deck())
    d2.step(Play((0, 1)))  # B = Legendary Sword fits A = Swamp Battleguard: +500
    assert d2.card(0, "monster", 0).atk == 2300


def test_fusion_beats_equip_for_a_pair_with_both():
    d = duel(deck(62, 318, 9, 22, 1), deck())
    d.step(Play((0, 1)))
    assert d.card(0, "monster", 0).card == 63 and d.counters(0)["equips"] == 0


def test_glitch_fusion_is_live():
    d = duel(deck(22, 31, 9, 2, 1), deck())
    d.step(Play((0, 1)))
    assert d.card(0, "monster", 0).card == 72  # Summoned Skull + Koumori Dragon


def test_failure_discards_the_earlier_card_and_costs_one_rand():
    d = duel(deck(2, 22, 343, 9, 1), deck())
    assert d.tables.fusion_result(2, 22) is None
    calls = d.rng.calls
    events = d.step(Play((0, 1)))
    assert d.rng.calls == calls + 1
    assert (events[0].kind, events[0].name, events[0].rand_calls) == ("animation", "failure", 1)
    assert events[1].kind == "failure" and (events[1].discarded, events[1].kept) == (2, 22)
    assert d.card(0, "monster", 0).card == 22
    accounted(d)


def test_failure_of_a_non_monster_onto_a_monster_discards_the_non_monster():
    d = duel(deck(2, 343, 9, 22, 1), deck())
    d.step(Play((0, 1)))
    assert d.card(0, "monster", 0).card == 2 and d.lp(1) == 8000


def test_play_onto_a_field_monster_starts_the_chain_with_it():
    d = duel(deck(8, 9, 22, 1, 100), deck())
    r = place(d, 0, "monster", 2, 2, S.F_DEFENCE | S.F_FACE_DOWN)
    d.step(Play((0,), zone=2, star=1))
    assert d.card_at(r) == 638 and d.flags(r) & S.F_STAR2 and not d.flags(r) & S.F_DEFENCE
    # +0x07 rises at the placement entry whenever a second slot exists (docs/fm-fidelity.md
    # D10): a single card onto an occupied zone counts
    assert d.counters(0)["fusions"] == 1 and d.counters(0)["multi_plays"] == 1
    accounted(d)


def test_monster_onto_a_monster_without_fusion_replaces_it():
    d = duel(deck(9, 22, 1, 100, 101), deck())
    place(d, 0, "monster", 0, 1)
    d.step(Play((0,), zone=0))
    assert d.card(0, "monster", 0).card == 9
    accounted(d)


def test_zone_rules():
    d = duel(deck(301, 343, 681, 9, 22), deck())
    with pytest.raises(IllegalAction) as err:
        d.step(Play((0,)))
    assert err.value.rule == "equip-needs-monster"
    with pytest.raises(IllegalAction):
        d.step(Play((1,), zone=2))  # a face-up magic card is activated, not placed
    d.step(Play((2,), face_down=True))
    assert d.card(0, "magic", 0).card == 681 and d.card(0, "magic", 0).face_down


def test_full_row_needs_an_explicit_column():
    d = duel(deck(9, 22, 1, 100, 101), deck())
    for col in range(5):
        place(d, 0, "monster", col, 2)
    with pytest.raises(IllegalAction) as err:
        d.step(Play((0,)))
    assert err.value.rule == "zone-full"


def test_attack_once_and_no_position_change_after_attacking():
    d = duel(deck(1, 2, 8, 9, 22), deck())
    d.step(Play((0,)))
    past_first_turn(d)
    d.step(Attack(0))
    assert d.lp(1) == 5000
    for act in (Attack(0), ChangePosition(0)):
        with pytest.raises(IllegalAction) as err:
            d.step(act)
        assert err.value.rule == "used"


def test_player_position_change_leaves_the_monster_ready():
    """func_8001D240 toggles 0x800 and never sets the used flag 0x4000; the player's attack
    needs (flags & 0xC800) == 0x8000 (docs/fm-fidelity.md D13)."""
    d = duel(deck(1, 2, 8, 9, 22), deck())
    d.step(Play((0,)))
    past_first_turn(d)
    d.step(ChangePosition(0))
    assert d.card(0, "monster", 0).defending and not d.card(0, "monster", 0).used
    with pytest.raises(IllegalAction) as err:
        d.step(Attack(0))
    assert err.value.rule == "defence"
    d.step(ChangePosition(0))
    d.step(Attack(0))
    assert d.lp(1) == 5000 and d.card(0, "monster", 0).used
    d.step(EndTurn())
    assert not d.card(0, "monster", 0).used


def test_illegal_action_leaves_state_unchanged():
    d = duel(deck(1, 2, 8, 9, 22), deck())
    before = d.snapshot()
    for act in (Play((7,)), Play((0, 0)), Play((0,), zone=9), Attack(0), Activate(0)):
        with pytest.raises(IllegalAction):
            d.step(act)
        assert d.snapshot() == before


def test_rng_calls_advance_the_stream_first():
    d = duel(deck(1, 2, 8, 9, 22), deck())
    state = d.rng.state
    d.step(Play((0,), rng_calls=3))
    from emucore.hw.psyq_rand import jump
    assert d.rng.state == int(jump(state, 3))


def test_deck_pick_swaps_with_the_lowest_unselected_hand_card():
    d = duel(deck(), deck(31, 72, 9, 22, 1, 100, 2, 8))
    d.step(Play((0,)))
    d.step(EndTurn())  # CPU hand: 31 72 9 22 1; deck from position 5: 100 2 8 ...
    d.step(Play((DECK_PICK + 6, DECK_PICK + 7)))  # Mystical Elf + Mushroom Man
    assert d.card(1, "monster", 0).card == 638
    # the two lowest hand cards went into the deck where the picks were
    assert [c for c, _ in d.deck_remaining(1)][:3] == [100, 31, 72]
    accounted(d)


def test_deck_out_loses_with_minus_40():
    d = duel(deck(1, 2, 8, 9, 22), deck())
    d.st.sides.draw_cursor[1] = 40
    events = d.step(Play((0,))) + d.step(EndTurn())
    end = events[-1]
    assert end.kind == "ended" and end.winner == 0 and end.reason == "deckout"
    assert d.st.sides.end_adjust[0] == -40 and d.over


def test_exodia_in_hand_wins_with_plus_40():
    d = duel(deck(17, 18, 19, 20, 21), deck())
    assert d.over and d.winner == 0 and d.lp(1) == 0
    assert d.st.sides.end_adjust[0] == 40
    assert d.opening_events[-1].reason == "exodia"


def test_done_marks_a_card_used_for_the_cpu_field_executor():
    from emucore.fm.actions import Done
    d = duel(deck(1, 2, 8, 9, 22), deck())
    d.step(Play((0,)))
    d.step(Done(0))
    assert d.card(0, "monster", 0).used
    with pytest.raises(IllegalAction):
        d.step(Done(3))
    assert all(a.kind != "done" for a in d.legal_actions())


def test_many_rng_calls_jump_exactly():
    from emucore.hw.psyq_rand import jump
    d = duel(deck(1, 2, 8, 9, 22), deck())
    state, calls = d.rng.state, d.rng.calls
    d.step(Play((0,), rng_calls=10**6))
    assert d.rng.state == int(jump(state, 10**6)) and d.rng.calls == calls + 10**6
