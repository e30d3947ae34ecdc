"""Scenario tests: every 1999 Official Rules rule, with its exact outcome."""

from __future__ import annotations

import pytest
from paper_kit import board, duel, ids, names, refused, to_phase, zone_names

from emucore.duel.protocol import DRAW, IllegalAction
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.actions import (
    ATTACK,
    DEFENCE,
    DIRECT,
    Activate,
    ActivateSet,
    Attack,
    ChangePosition,
    Draw,
    Ended,
    EndTurn,
    Flipped,
    Fused,
    NextPhase,
    Pass,
    Set,
    Started,
    Summon,
)
from emucore.paper.cards import MONSTER, CardDef, catalogue_of
from emucore.paper.decks import DeckList
from emucore.paper.engine import PaperDuel


def _deck(main: int = 40, side: int = 10) -> DeckList:
    magician = OCG.decks["magician"]()
    return DeckList(magician.main[:main], magician.side[:side], magician.fusion)


# -- deck rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(("deck", "rule"), [
    (_deck(main=39), "deck-size"),
    (_deck(side=9), "side-deck-size"),
    (DeckList(_deck().main, _deck().side + (1,)), "side-deck-size"),
])
def test_deck_size_rules(deck: DeckList, rule: str) -> None:
    with pytest.raises(IllegalAction) as info:
        OCG.new_duel(1, (deck, "dragon"))
    assert info.value.rule == rule


def test_a_fourth_copy_across_deck_and_side_deck_is_refused() -> None:
    base = _deck()
    giant = OCG.card_id("Hitotsu-Me Giant")  # three in the deck already
    deck = DeckList(base.main, base.side[:9] + (giant,), base.fusion)
    with pytest.raises(IllegalAction, match="4 copies of Hitotsu-Me Giant") as info:
        OCG.new_duel(1, (deck, "dragon"))
    assert info.value.rule == "max-copies"


def test_fusion_monsters_live_in_the_fusion_deck() -> None:
    base = _deck()
    deck = DeckList(base.main[:-1] + (OCG.card_id("Flame Swordsman"),), base.side, base.fusion)
    with pytest.raises(IllegalAction) as info:
        OCG.new_duel(1, (deck, "dragon"))
    assert info.value.rule == "fusion-deck"


def test_forty_cards_and_no_side_deck_is_a_legal_deck() -> None:
    d = OCG.new_duel(1, (_deck(side=0), "dragon"))
    assert len(d.state.sides[0].deck) == 40 - 5


# -- setup and turn ------------------------------------------------------------------------


def test_setup_8000_lp_five_cards_rock_paper_scissors() -> None:
    d = OCG.new_duel(1)
    started = d.opening[0]
    assert isinstance(started, Started) and started.how == "rock_paper_scissors"
    assert started.hands == (1, 0)  # paper beats rock: player 1 goes first
    assert d.state.first == 0 and d.acting_side == 0
    assert [s.lp for s in d.state.sides] == [8000, 8000]
    assert [len(s.hand) for s in d.state.sides] == [5, 5]
    assert d.phase == "main" and d.state.turn == 1


def test_rock_paper_scissors_winner_always_goes_first() -> None:
    for seed in range(40):
        started = OCG.new_duel(seed).opening[0]
        rounds = list(zip(started.hands[::2], started.hands[1::2], strict=True))
        assert all(a == b for a, b in rounds[:-1])  # ties are played again
        a, b = rounds[-1]
        assert a != b
        assert started.first == (0 if (a - b) % 3 == 1 else 1)


def test_first_player_does_not_draw_on_turn_one_second_player_does() -> None:
    d = duel()
    assert len(d.state.sides[0].hand) == 5
    d.step(EndTurn())
    assert d.acting_side == 1 and d.state.turn == 2 and d.phase == "draw"
    d.step(Draw())
    assert len(d.state.sides[1].hand) == 6 and d.phase == "main"
    d.step(EndTurn())
    d.step(Draw())
    assert len(d.state.sides[0].hand) == 6


def test_a_main_phase_follows_the_battle_phase() -> None:
    """Rulebook p. 16: after the Battle Phase it remains the Main Phase until the End Phase.
    The reproduction: two NextPhase from turn 1's main phase give battle, then main."""
    d = duel()
    events = d.step(NextPhase())
    assert d.phase == "battle" and [e.phase for e in events] == ["battle"]
    events = d.step(NextPhase())
    assert d.phase == "main2" and d.acting_side == 0 and d.state.turn == 1
    assert [e.phase for e in events] == ["main2"]
    events = d.step(NextPhase())
    assert [e.phase for e in events if e.kind == "phase"] == ["end", "draw"]
    assert d.acting_side == 1


def test_a_monster_may_be_placed_after_attacking() -> None:
    """Rulebook p. 16: after battle it remains the Main Phase until the End Phase, so a
    monster not yet placed this turn may be placed after the attacks."""
    d = duel()
    board(d, 0, hand=["Haniwa"], monsters=[("Kurama", True, True)])
    to_phase(d, "battle", turn=3)
    d.step(Attack(0, DIRECT))
    d.step(NextPhase())
    d.step(Summon(0, DEFENCE))
    assert zone_names(d, 0)[:2] == ["Kurama", "Haniwa"] and d.phase == "main2"
    assert d.state.sides[1].lp == 8000 - 800


# -- main phase: placing cards ------------------------------------------------------------


def test_one_monster_per_turn_without_tributes() -> None:
    d = duel()
    board(d, 0, hand=["Blue-Eyes White Dragon", "Hitotsu-Me Giant"])
    d.step(Summon(0, ATTACK))  # level 8, no tribute in the Official Rules
    assert zone_names(d, 0)[0] == "Blue-Eyes White Dragon"
    m = d.state.sides[0].monsters[0]
    assert m.face_up and m.attack
    refused(d, Summon(0, ATTACK), "one-monster-per-turn")


def test_defence_means_set_face_down() -> None:
    d = duel()
    board(d, 0, hand=["Spiked Snail"])
    d.step(Summon(0, DEFENCE))
    m = d.state.sides[0].monsters[0]
    assert (m.face_up, m.attack) == (False, False)


def test_one_magic_and_one_trap_per_turn() -> None:
    d = duel()
    board(d, 0, hand=["Sparks", "Hinotama", "Trap Hole", "Two-Pronged Attack"])
    d.step(Activate(0))
    assert d.state.sides[1].lp == 7800
    refused(d, Activate(0), "one-magic-per-turn")
    d.step(Set(1))
    refused(d, Set(1), "one-trap-per-turn")
    assert names(OCG, d.state.sides[0].hand) == ["Hinotama", "Two-Pronged Attack"]


def test_five_monster_zones_and_five_magic_trap_zones() -> None:
    d = duel()
    five = [("Kurama", True, True)] * 5
    board(d, 0, hand=["Haniwa", "Trap Hole"], monsters=five, spells=[("Trap Hole", False)] * 5)
    refused(d, Summon(0, ATTACK), "monster-zones-full")
    refused(d, Set(1), "magic-zones-full")


def test_actions_outside_their_phase_are_refused_and_change_nothing() -> None:
    d = duel()
    board(d, 0, hand=["Haniwa"], monsters=[("Kurama", True, True)])
    refused(d, Attack(0, DIRECT), "phase")
    d.step(NextPhase())
    refused(d, Summon(0, ATTACK), "phase")
    refused(d, ChangePosition(0), "phase")


def test_bad_hand_index_and_wrong_card_kind() -> None:
    d = duel()
    board(d, 0, hand=["Sparks"])
    refused(d, Summon(3, ATTACK), "no-such-card")
    refused(d, Summon(0, ATTACK), "card-kind")


# -- battle --------------------------------------------------------------------------------


def test_no_attacks_on_turn_one() -> None:
    d = duel()
    board(d, 0, monsters=[("Kurama", True, True)])
    to_phase(d, "battle")
    refused(d, Attack(0, DIRECT), "first-turn-attack")


def _battle(mine: tuple[str, bool, bool], theirs: tuple[str, bool, bool] | None) -> PaperDuel:
    d = duel()
    board(d, 0, monsters=[mine])
    board(d, 1, monsters=[theirs] if theirs else [])
    to_phase(d, "battle", turn=3)
    return d


def test_each_monster_attacks_once_and_must_attack_monsters_first() -> None:
    d = _battle(("Dark Magician", True, True), ("Haniwa", True, True))
    refused(d, Attack(0, DIRECT), "direct-attack")
    d.step(Attack(0, 0))
    refused(d, Attack(0, DIRECT), "attack-once")


def test_defence_position_monsters_do_not_attack() -> None:
    d = _battle(("Dark Magician", True, False), None)
    refused(d, Attack(0, DIRECT), "attack-position")


@pytest.mark.parametrize(("mine", "theirs", "lp", "left", "right"), [
    # attack vs attack: the lower is destroyed, its controller takes the difference
    ("Dark Magician", ("Hitotsu-Me Giant", True, True), (8000, 6700), "Dark Magician", None),
    ("Hitotsu-Me Giant", ("Dark Magician", True, True), (6700, 8000), None, "Dark Magician"),
    # equal ATK: both destroyed, no damage
    ("Mammoth Graveyard", ("Silver Fang", True, True), (8000, 8000), None, None),
    # attack vs defence: higher ATK destroys without damage; equal: nothing; lower: the
    # attacker's controller takes DEF - ATK
    ("Dark Magician", ("Spiked Snail", True, False), (8000, 8000), "Dark Magician", None),
    ("Ray & Temperature", ("Ray & Temperature", True, False), (8000, 8000),
     "Ray & Temperature", "Ray & Temperature"),
    ("Kurama", ("Green Phantom King", True, False), (7200, 8000), "Kurama",
     "Green Phantom King"),
])
def test_damage_calculation(mine: str, theirs: tuple[str, bool, bool], lp: tuple[int, int],
                            left: str | None, right: str | None) -> None:
    d = _battle((mine, True, True), theirs)
    d.step(Attack(0, 0))
    assert (d.state.sides[0].lp, d.state.sides[1].lp) == lp
    assert (zone_names(d, 0)[0], zone_names(d, 1)[0]) == (left, right)


def test_direct_attack_deals_full_atk() -> None:
    d = _battle(("Dark Magician", True, True), None)
    d.step(Attack(0, DIRECT))
    assert d.state.sides[1].lp == 5500


def test_face_down_defender_is_turned_face_up() -> None:
    d = _battle(("Hitotsu-Me Giant", True, True), ("Spiked Snail", False, False))
    events = d.step(Attack(0, 0))
    assert any(isinstance(e, Flipped) and e.side == 1 for e in events)
    assert d.state.sides[1].monsters[0].face_up
    assert d.state.sides[0].lp == 8000 - 100  # DEF 1300 vs ATK 1200


# -- end of the duel -----------------------------------------------------------------------


def test_lp_zero_loses() -> None:
    d = _battle(("Dark Magician", True, True), None)
    board(d, 1, lp=2500)
    events = d.step(Attack(0, DIRECT))
    assert events[-1] == Ended(0, "lp") and d.over and d.winner == 0
    refused(d, EndTurn(), "duel-over")
    assert d.legal_actions() == []


def test_both_players_at_zero_together_is_a_draw() -> None:
    d = duel()
    board(d, 0, lp=0)
    board(d, 1, lp=0)
    events = d.step(EndTurn())
    assert events[-1] == Ended(DRAW, "both_lp") and d.winner == DRAW


@pytest.mark.parametrize(("lps", "winner"), [((3000, 5000), 1), ((6000, 500), 0),
                                             ((4000, 4000), DRAW)])
def test_deck_out_more_lp_wins_the_moment_a_deck_runs_out(lps: tuple[int, int],
                                                          winner: int) -> None:
    d = duel()
    board(d, 0, lp=lps[0])
    board(d, 1, lp=lps[1], deck=["Haniwa"])
    d.step(EndTurn())
    events = d.step(Draw())  # player 2 draws the last card
    assert events[-1] == Ended(winner, "deck_out")
    assert OCG.catalogue.name(d.state.sides[1].hand[-1]) == "Haniwa"


def test_exodia_in_hand_wins() -> None:
    pieces = [CardDef(100 + i, f"Piece {i}", MONSTER, "spellcaster", 1, 100, 100,
                      "exodia_piece") for i in range(5)]
    filler = [CardDef(1, "Filler", MONSTER, "rock", 1, 100, 100)]
    cat = catalogue_of(filler + pieces)
    main = (1,) * 3 + (100, 101, 102, 103) + (1,) * 30 + (104,) + (1,) * 2
    d = PaperDuel(OCG.profile, cat, [DeckList(main), DeckList((1,) * 40)], 7, first=1,
                  check_decks=False)
    # the deal gave player 1 five cards from the top; put four pieces in hand, the last on top
    d.state.sides[0].hand = [100, 101, 102, 103, 1]
    d.state.sides[0].deck = [1, 1, 104]
    d.step(EndTurn())
    events = d.step(Draw())
    assert events[-1] == Ended(0, "exodia")


# -- magic and traps -----------------------------------------------------------------------


def test_polymerization_needs_both_named_materials_on_the_field() -> None:
    d = duel()
    board(d, 0, hand=["Polymerization", "Masaki the Legendary Swordsman"],
          monsters=[("Flame Manipulator", True, True), ("Kurama", True, True)],
          fusion=["Flame Swordsman"])
    refused(d, Activate(0, (0, 1)), "fusion-materials")  # Kurama is not a material
    refused(d, Activate(0, (0, 0)), "fusion-materials")
    d.step(Summon(1, DEFENCE))  # the hand material must be on the field first
    board(d, 0, fusion=[])
    refused(d, Activate(0, (0, 2)), "fusion-deck")
    board(d, 0, fusion=["Flame Swordsman"])
    events = d.step(Activate(0, (2, 0)))
    fused = [e for e in events if isinstance(e, Fused)][0]
    assert (fused.zone, OCG.catalogue.name(fused.card)) == (0, "Flame Swordsman")
    assert zone_names(d, 0)[:3] == ["Flame Swordsman", "Kurama", None]
    m = d.state.sides[0].monsters[0]
    assert m.face_up and m.attack
    assert sorted(names(OCG, d.state.sides[0].grave)) == [
        "Flame Manipulator", "Masaki the Legendary Swordsman", "Polymerization"]
    assert d.state.sides[0].fusion_deck == []


def test_field_cards_flat_200_only_the_newest_counts() -> None:
    d = duel()
    board(d, 0, hand=["Yami", "Sogen"], monsters=[("Dark Magician", True, True),
                                                   ("Petit Angel", True, True)])
    board(d, 1, monsters=[("Nemuriko", True, True)])
    d.step(Activate(0))
    assert (d.atk(0, 0), d.defense(0, 0), d.atk(0, 1), d.atk(1, 0)) == (2700, 2300, 400, 1000)
    d.state.sides[0].magic = 0  # a new turn's quota
    d.step(Activate(0))  # Sogen replaces Yami
    assert names(OCG, d.state.sides[0].grave) == ["Yami"]
    assert OCG.catalogue.name(d.field_card()) == "Sogen"
    assert (d.atk(0, 0), d.atk(1, 0)) == (2500, 800)


def test_umi_lowers_machine_and_pyro() -> None:
    d = duel()
    board(d, 0, monsters=[("Hinotama Soul", True, True)], spells=[("Umi", True)])
    assert d.atk(0, 0) == 600 - 200


def test_power_up_magic_type_restricted_plus_300_stacked() -> None:
    d = duel()
    board(d, 0, hand=["Book of Secret Arts", "Legendary Sword", "Book of Secret Arts"],
          monsters=[("Dark Magician", True, True), ("Spiked Snail", False, False)])
    refused(d, Activate(1, (0, 0)), "equip-type")  # a sword for a spellcaster
    refused(d, Activate(0, (0, 1)), "equip-type")  # face-down
    refused(d, Activate(0, (0, 3)), "no-target")
    d.step(Activate(0, (0, 0)))
    d.state.sides[0].magic = 0
    d.step(Activate(1, (0, 0)))
    assert (d.atk(0, 0), d.defense(0, 0)) == (3100, 2700)
    assert [OCG.catalogue.name(s.card) if s else None for s in d.state.sides[0].spells][:2] \
        == ["Book of Secret Arts", "Book of Secret Arts"]
    d.destroy_monster(0, 0, [])
    assert d.state.sides[0].spells == [None] * 5
    assert names(OCG, d.state.sides[0].grave) == ["Dark Magician", "Book of Secret Arts",
                                                  "Book of Secret Arts"]


@pytest.mark.parametrize(("card", "lp"), [("Red Medicine", (8500, 8000)),
                                          ("Mooyan Curry", (8200, 8000)),
                                          ("Sparks", (8000, 7800)), ("Hinotama", (8000, 7500))])
def test_heal_and_burn_amounts(card: str, lp: tuple[int, int]) -> None:
    d = duel()
    board(d, 0, hand=[card])
    d.step(Activate(0))
    assert (d.state.sides[0].lp, d.state.sides[1].lp) == lp
    assert names(OCG, d.state.sides[0].grave) == [card]


def test_dark_hole_raigeki_fissure() -> None:
    d = duel()
    board(d, 0, hand=["Fissure", "Raigeki", "Dark Hole", "Dark Hole"],
          monsters=[("Kurama", True, True)])
    board(d, 1, monsters=[("Dark Magician", True, True), ("Haniwa", False, False),
                          ("Tomozaurus", True, True)])
    d.step(Activate(0))  # Fissure: lowest ATK, face-down included (Haniwa 500 vs Tomozaurus
    assert zone_names(d, 1)[:3] == ["Dark Magician", None, "Tomozaurus"]  # 500: lower zone)
    d.state.sides[0].magic = 0
    d.step(Activate(0))  # Raigeki: all of the opponent's
    assert zone_names(d, 1) == [None] * 5 and zone_names(d, 0)[0] == "Kurama"
    d.state.sides[0].magic = 0
    d.step(Activate(0))  # Dark Hole: everything
    assert zone_names(d, 0) == [None] * 5
    d.state.sides[0].magic = 0
    refused(d, Activate(0), "no-target")  # nothing left to destroy


def test_trap_hole_answers_a_summon_of_1000_atk_and_stays_on_the_field() -> None:
    d = duel()
    board(d, 0, hand=["Flame Manipulator", "Hitotsu-Me Giant"])
    board(d, 1, spells=[("Trap Hole", False)])
    d.step(Summon(0, ATTACK))  # 900 ATK: not enough; the window still opens (a set card)
    assert d.acting_side == 1 and d.legal_actions() == [Pass()]
    refused(d, ActivateSet(0), "trap-condition")
    d.step(Pass())
    assert zone_names(d, 0)[0] == "Flame Manipulator" and d.acting_side == 0
    d.state.sides[0].summons = 0
    d.step(Summon(0, ATTACK))  # 1200 ATK
    assert d.legal_actions() == [ActivateSet(0), Pass()]
    d.step(ActivateSet(0))
    assert zone_names(d, 0)[1] is None and d.acting_side == 0
    trap = d.state.sides[1].spells[0]
    assert trap.face_up and trap.spent  # stays, used up
    assert names(OCG, d.state.sides[0].grave) == ["Hitotsu-Me Giant"]


def test_trap_hole_cannot_be_activated_by_hand_and_remove_trap_clears_it() -> None:
    d = duel()
    board(d, 0, hand=["Remove Trap"], spells=[("Trap Hole", False)])
    to_phase(d, "main", turn=3)
    refused(d, ActivateSet(0), "trap-condition")
    refused(d, Activate(0, (0, 0)), "no-target")  # face-down: not removable
    d.state.sides[0].spells[0].face_up = True
    d.step(Activate(0, (0, 0)))
    assert d.state.sides[0].spells[0] is None
    assert names(OCG, d.state.sides[0].grave) == ["Trap Hole", "Remove Trap"]


def test_two_pronged_attack() -> None:
    d = duel()
    board(d, 0, hand=["Two-Pronged Attack"], monsters=[("Haniwa", True, True),
                                                       ("Kurama", True, True),
                                                       ("Nemuriko", True, True)])
    board(d, 1, monsters=[("Blue-Eyes White Dragon", True, True)])
    d.step(Set(0))
    refused(d, ActivateSet(0, (0, 0, 0)), "no-target")
    d.step(ActivateSet(0, (0, 1, 0)))
    assert zone_names(d, 0)[:3] == [None, None, "Nemuriko"] and zone_names(d, 1)[0] is None
    assert d.state.sides[0].spells[0].spent  # stays on the field


def test_dragon_capture_jar_holds_dragons_in_defence() -> None:
    d = duel()
    board(d, 0, spells=[("Dragon Capture Jar", False)], hand=["Petit Dragon"])
    board(d, 1, monsters=[("Blue-Eyes White Dragon", True, True)])
    to_phase(d, "main", turn=3)
    d.step(ActivateSet(0))
    assert not d.state.sides[1].monsters[0].attack
    d.step(Summon(0, ATTACK))  # a dragon placed in attack goes to defence
    assert not d.state.sides[0].monsters[0].attack and d.state.sides[0].monsters[0].face_up
    d.step(EndTurn())
    d.step(Draw())
    d.step(EndTurn())
    d.step(Draw())
    refused(d, ChangePosition(0), "position-locked")


def test_monster_position_change_rules_ocg1999() -> None:
    d = duel()
    board(d, 0, hand=["Haniwa"], monsters=[("Kurama", False, False)])
    d.step(Summon(0, ATTACK))
    refused(d, ChangePosition(1), "position-summoned-turn")
    events = d.step(ChangePosition(0))
    assert [e.kind for e in events] == ["flip", "position"]
    m = d.state.sides[0].monsters[0]
    assert m.face_up and m.attack
    refused(d, ChangePosition(0), "position-once-per-turn")


def test_ids_helper_matches_tables() -> None:
    assert ids(OCG, "Dark Magician", "Raigeki") == [2, 84]


def test_battle_uses_field_and_equip_bonuses_and_clears_equips() -> None:
    d = _battle(("Dark Magician", True, True), ("Blue-Eyes White Dragon", True, True))
    board(d, 0, spells=[("Yami", True), ("Book of Secret Arts", True)])
    d.state.sides[0].spells[1].target_side, d.state.sides[0].spells[1].target_zone = 0, 0
    d.state.sides[0].monsters[0].bonus = 300
    assert d.atk(0, 0) == 2500 + 200 + 300
    d.step(Attack(0, 0))  # 3000 vs 3000: both destroyed, no damage
    assert zone_names(d, 0)[0] is None and zone_names(d, 1)[0] is None
    assert [s.lp for s in d.state.sides] == [8000, 8000]
    assert OCG.catalogue.name(d.state.sides[0].spells[0].card) == "Yami"
    assert d.state.sides[0].spells[1] is None  # the equip followed its monster
    assert names(OCG, d.state.sides[0].grave) == ["Dark Magician", "Book of Secret Arts"]


# -- the rulebook's placement, battle-phase and draw rules ----------------------------------


def test_magic_may_be_set_face_down_and_played_later() -> None:
    """Rulebook p. 14: magic and trap cards "can be placed face-up or face-down". A set magic
    card counts as the turn's magic card and is played from its zone in a later main phase."""
    d = duel()
    board(d, 0, hand=["Sparks", "Hinotama"])
    assert Set(0) in d.legal_actions()
    events = d.step(Set(0))
    assert [e.kind for e in events] == ["placed"] and not events[0].face_up
    spell = d.state.sides[0].spells[0]
    assert OCG.catalogue.name(spell.card) == "Sparks" and not spell.face_up
    refused(d, Activate(0), "one-magic-per-turn")
    refused(d, Set(0), "one-magic-per-turn")
    d.step(EndTurn())
    d.step(Draw())
    d.step(EndTurn())
    d.step(Draw())
    events = d.step(ActivateSet(0))
    assert [e.kind for e in events] == ["magic", "life", "destroyed"]
    assert d.state.sides[1].lp == 7800 and d.state.sides[0].spells[0] is None


def test_a_trap_may_be_played_face_up_from_the_hand() -> None:
    """Rulebook p. 14: magic and trap cards "can be placed face-up or face-down": a trap
    played face-up from the hand takes effect at once (and counts as the turn's trap)."""
    d = duel()
    board(d, 0, hand=["Two-Pronged Attack", "Dragon Capture Jar"],
          monsters=[("Haniwa", True, True), ("Kurama", True, True)])
    board(d, 1, monsters=[("Blue-Eyes White Dragon", True, True)])
    assert Activate(0, (0, 1, 0)) in d.legal_actions()
    events = d.step(Activate(0, (0, 1, 0)))
    assert events[0].kind == "placed" and events[1].kind == "trap"
    assert zone_names(d, 0)[:2] == [None, None] and zone_names(d, 1)[0] is None
    refused(d, Activate(0), "one-trap-per-turn")


def test_a_trap_may_be_activated_on_the_turn_it_is_set() -> None:
    """Rulebook p. 15: only cards other than traps are barred in the Battle Phase; no rule
    keeps a set trap waiting for a later turn or for its owner's main phase."""
    d = duel()
    board(d, 0, hand=["Two-Pronged Attack"], monsters=[("Haniwa", True, True),
                                                       ("Kurama", True, True)])
    board(d, 1, monsters=[("Blue-Eyes White Dragon", True, True)])
    to_phase(d, "main", turn=3)
    d.step(Set(0))
    d.step(NextPhase())
    assert d.phase == "battle" and ActivateSet(0, (0, 1, 0)) in d.legal_actions()
    d.step(ActivateSet(0, (0, 1, 0)))
    assert zone_names(d, 1)[0] is None


def test_in_the_battle_phase_only_traps_may_be_played() -> None:
    """Rulebook p. 15: in the Battle Phase, cards other than traps cannot be played."""
    d = duel()
    board(d, 0, spells=[("Sparks", False), ("Dragon Capture Jar", False)])
    board(d, 1, monsters=[("Blue-Eyes White Dragon", True, True)])
    to_phase(d, "battle", turn=3)
    refused(d, ActivateSet(0), "phase")
    assert ActivateSet(1) in d.legal_actions() and ActivateSet(0) not in d.legal_actions()
    d.step(ActivateSet(1))
    assert not d.state.sides[1].monsters[0].attack


def _attack_into_a_set_trap(trap: str, attacker: str) -> PaperDuel:
    d = duel()
    board(d, 0, monsters=[(attacker, True, True)])
    board(d, 1, spells=[(trap, False)], monsters=[("Haniwa", True, True),
                                                  ("Kurama", True, True)])
    to_phase(d, "battle", turn=3)
    return d


def test_the_defender_may_answer_an_attack_with_a_set_trap() -> None:
    """Rulebook p. 15: traps are not barred in the Battle Phase, so the attacked player may
    spring a set trap when an attack is declared (here Two-Pronged Attack takes the
    attacker; the attack is then called off)."""
    d = _attack_into_a_set_trap("Two-Pronged Attack", "Gaia The Fierce Knight")
    events = d.step(Attack(0, 0))
    assert [e.kind for e in events] == ["attack", "response"]
    assert d.acting_side == 1 and d.legal_actions() == [ActivateSet(0, (0, 1, 0)), Pass()]
    refused(d, EndTurn(), "response-window")
    events = d.step(ActivateSet(0, (0, 1, 0)))
    assert d.acting_side == 0 and d.phase == "battle"
    assert [e.kind for e in events] == ["trap", "destroyed", "destroyed", "destroyed"]
    assert [s.lp for s in d.state.sides] == [8000, 8000]
    assert d.state.sides[0].monsters[0] is None


def test_dragon_capture_jar_answering_a_dragon_calls_the_attack_off() -> None:
    """Rulebook p. 15 (traps in the Battle Phase): a Dragon sent to defence by the Jar no
    longer attacks (emucore's choice for an attacker that left attack position)."""
    d = _attack_into_a_set_trap("Dragon Capture Jar", "Blue-Eyes White Dragon")
    d.step(Attack(0, 0))
    d.step(ActivateSet(0))
    assert zone_names(d, 1)[0] == "Haniwa" and not d.state.sides[0].monsters[0].attack
    assert d.state.sides[0].monsters[0].attacked_turn == 3


def test_passing_lets_the_attack_go_ahead() -> None:
    d = _attack_into_a_set_trap("Two-Pronged Attack", "Gaia The Fierce Knight")
    d.step(Attack(0, 0))
    d.step(Pass())
    assert zone_names(d, 1)[0] is None and d.state.sides[1].lp == 8000 - (2300 - 500)
    refused(d, Pass(), "no-window")


def test_the_draw_is_a_choice() -> None:
    """The 1999 rules: in the Draw Phase the player "may draw 1": Draw, or go on without."""
    d = duel()
    d.step(EndTurn())
    assert d.phase == "draw" and d.legal_actions() == [Draw(), NextPhase(), EndTurn()]
    hand, deck = list(d.state.sides[1].hand), len(d.state.sides[1].deck)
    events = d.step(NextPhase())
    assert [e.phase for e in events] == ["standby", "main"]
    assert d.state.sides[1].hand == hand and len(d.state.sides[1].deck) == deck
    refused(d, Draw(), "phase")
