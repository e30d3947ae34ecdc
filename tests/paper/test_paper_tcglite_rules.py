"""Scenario tests: every simplified-TCG rule, with its exact outcome."""

from __future__ import annotations

import pytest
from paper_kit import board, duel, refused, to_phase, zone_names

from emucore.duel.protocol import IllegalAction
from emucore.paper.actions import (
    ATTACK,
    DEFENCE,
    DIRECT,
    Activate,
    Attack,
    ChangePosition,
    Ended,
    EndTurn,
    NextPhase,
    Set,
    Started,
    Summon,
)
from emucore.paper.decks import DeckList
from emucore.tcglite.system import SYSTEM as TCG


def test_starter_decks_and_setup() -> None:
    d = TCG.new_duel(3)
    started = d.opening[0]
    assert isinstance(started, Started) and started.how == "coin"
    assert [len(s.deck) + len(s.hand) for s in d.state.sides] == [19, 25]
    assert [s.lp for s in d.state.sides] == [8000, 8000]
    assert d.phase == "main1" and d.acting_side == started.first


def test_phases_draw_main1_battle_main2_end() -> None:
    d = duel(TCG)
    seen = [d.phase]
    for _ in range(3):
        events = d.step(NextPhase())
        seen += [e.phase for e in events if e.kind == "phase"]
    assert seen == ["main1", "battle", "main2", "end", "draw", "main1"]
    assert d.acting_side == 1


def test_first_player_neither_draws_nor_attacks_on_turn_one() -> None:
    d = duel(TCG)
    assert [len(s.hand) for s in d.state.sides] == [5, 5]
    board(d, 0, monsters=[("Dark Magician", True, True)])
    to_phase(d, "battle")
    refused(d, Attack(0, DIRECT), "first-turn-attack")
    d.step(EndTurn())
    assert len(d.state.sides[1].hand) == 6


def test_one_monster_summoned_per_turn_into_five_zones() -> None:
    d = duel(TCG)
    board(d, 0, hand=["Dark Magician", "Mystical Elf"])
    d.step(Summon(0, ATTACK))
    refused(d, Summon(0, DEFENCE), "one-monster-per-turn")
    board(d, 0, monsters=[("Feral Imp", True, True)] * 5)
    d.state.sides[0].summons = 0
    refused(d, Summon(0, DEFENCE), "monster-zones-full")


def test_no_magic_or_traps_in_tcglite() -> None:
    d = duel(TCG)
    board(d, 0, hand=["Dark Magician"])
    refused(d, Activate(0), "card-kind")
    refused(d, Set(0), "card-kind")


def test_position_change_once_per_turn_in_a_main_phase() -> None:
    d = duel(TCG)
    board(d, 0, hand=["Mystical Elf"], monsters=[("Celtic Guardian", True, True),
                                                 ("Feral Imp", False, False)])
    d.step(ChangePosition(0))
    assert not d.state.sides[0].monsters[0].attack
    refused(d, ChangePosition(0), "position-once-per-turn")
    d.step(ChangePosition(1))  # a set monster flips face-up into attack position
    assert (d.state.sides[0].monsters[1].face_up, d.state.sides[0].monsters[1].attack) == (
        True, True)
    d.step(Summon(0, DEFENCE))
    refused(d, ChangePosition(2), "position-summoned-turn")
    d.step(NextPhase())
    refused(d, ChangePosition(0), "phase")  # battle phase
    d.step(NextPhase())
    assert d.phase == "main2"
    refused(d, ChangePosition(0), "position-once-per-turn")


def test_no_position_change_after_attacking() -> None:
    d = duel(TCG)
    board(d, 0, monsters=[("Summoned Skull", True, True)])
    to_phase(d, "battle", turn=3)
    d.step(Attack(0, DIRECT))
    d.step(NextPhase())
    refused(d, ChangePosition(0), "position-after-attack")


def test_attacks_only_in_battle_once_direct_only_without_monsters() -> None:
    d = duel(TCG)
    board(d, 0, monsters=[("Summoned Skull", True, True), ("Feral Imp", True, True)])
    board(d, 1, monsters=[("Mystical Elf", True, False)])
    to_phase(d, "main1", turn=3)
    refused(d, Attack(0, 0), "phase")
    d.step(NextPhase())
    refused(d, Attack(0, DIRECT), "direct-attack")
    d.step(Attack(0, 0))  # 2500 vs DEF 2000: destroyed, no damage
    assert zone_names(d, 1)[0] is None and d.state.sides[1].lp == 8000
    refused(d, Attack(0, DIRECT), "attack-once")
    d.step(Attack(1, DIRECT))
    assert d.state.sides[1].lp == 8000 - 1300


@pytest.mark.parametrize(("mine", "theirs", "lp", "left", "right"), [
    ("Dark Magician", ("Summoned Skull", True, True), (8000, 8000), None, None),  # 2500 = 2500
    ("Celtic Guardian", ("Mystical Elf", True, False), (7400, 8000), "Celtic Guardian",
     "Mystical Elf"),  # ATK 1400 < DEF 2000: the attacker's controller takes 600
    ("Great White", ("Ancient Elf", True, True), (8000, 7850), "Great White", None),
])
def test_damage_calculation_tcglite(mine: str, theirs: tuple[str, bool, bool],
                                    lp: tuple[int, int], left: str | None,
                                    right: str | None) -> None:
    d = duel(TCG)
    board(d, 0, monsters=[(mine, True, True)])
    board(d, 1, monsters=[theirs])
    to_phase(d, "battle", turn=3)
    d.step(Attack(0, 0))
    assert (d.state.sides[0].lp, d.state.sides[1].lp) == lp
    assert (zone_names(d, 0)[0], zone_names(d, 1)[0]) == (left, right)


def test_short_deck_runs_out_the_player_who_must_draw_loses() -> None:
    d = duel(TCG)
    board(d, 1, deck=[], lp=8000)
    board(d, 0, lp=100)
    events = d.step(EndTurn())
    assert events[-1] == Ended(0, "deck_out")  # LP do not matter in tcglite


def test_an_empty_deck_alone_ends_nothing_in_tcglite() -> None:
    d = duel(TCG)
    board(d, 1, deck=["Feral Imp"])
    d.step(EndTurn())  # player 2 draws the last card: play goes on
    assert not d.over and d.state.sides[1].deck == []


def test_tcglite_deck_rules() -> None:
    with pytest.raises(IllegalAction) as info:
        TCG.new_duel(1, (DeckList((1, 2, 3, 4, 5)), "kaiba"))
    assert info.value.rule == "deck-size"
    with pytest.raises(IllegalAction) as info:
        TCG.new_duel(1, (DeckList((1,) * 4 + (2,) * 3), "kaiba"))
    assert info.value.rule == "max-copies"
    with pytest.raises(IllegalAction) as info:
        TCG.new_duel(1, (DeckList((1, 2, 3, 4, 5, 6), side=(7,) * 10), "kaiba"))
    assert info.value.rule == "side-deck-size"
