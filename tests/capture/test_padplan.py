"""The presses :mod:`emucore.fm.padplan` plans for each FM action, against what the
original's duel scene accepts (docs/fm-duel-input.md, read from krystalgamer/memories-decomp:
``DuelScene_UpdateHandActions``, ``DuelScene_UpdateFieldActions``, ``func_8001B938``,
``func_8001B170``, ``func_80020988``), and the replays the plan refuses.

Sources per test: the routine named in its docstring; the duels are dealt by emucore's
engine only to have hands holding the cards each rule is about."""

from __future__ import annotations

import dataclasses

import pytest

from emucore import tables as T
from emucore.fm import cards
from emucore.fm import padplan as P
from emucore.fm.actions import DIRECT, Activate, Attack, ChangePosition, EndTurn, Play
from emucore.fm.ai import choose_action
from emucore.fm.setup import FmSetup, new_duel

TABLES = T.load("fm")


def _deck() -> list[int]:
    """Monsters, magic, traps and equips, so that hands hold every kind."""
    kinds = TABLES.type_id
    picked: dict[str, list[int]] = {"monster": [], "magic": [], "trap": [], "equip": []}
    want = {"monster": 22, "magic": 6, "trap": 6, "equip": 6}
    for card in range(1, 723):
        kind = int(kinds[card])
        name = ("monster" if kind < cards.TYPE_MAGIC else "magic" if kind == cards.TYPE_MAGIC
                else "trap" if kind == cards.TYPE_TRAP else "equip"
                if kind == cards.TYPE_EQUIP else None)
        if name and len(picked[name]) < want[name] and TABLES.atk[card] < 1500:
            picked[name].append(card)
    return [c for group in picked.values() for c in group]


DECK = _deck()


def _setup(state: int) -> FmSetup:
    return FmSetup(deck=DECK, duelist=39, state=state, computer=[1])


def _duel_holding(*kinds: int):
    """A duel whose opening hand holds a card of each type in ``kinds`` (first found)."""
    for state in range(1, 5000):
        duel = new_duel(_setup(state), TABLES)
        types = [int(duel.facts.type[c]) for c in duel.hand(0)]
        slots = []
        for kind in kinds:
            match = [j for j, t in enumerate(types) if (t < cards.TYPE_MAGIC if kind < 0
                                                        else t == kind) and j not in slots]
            if not match:
                break
            slots.append(match[0])
        else:
            return duel, slots
    raise AssertionError(f"no hand holds {kinds}")


MONSTER = -1


def _buttons(items) -> list[tuple[str, ...]]:
    return [i.buttons for i in items if isinstance(i, P.Press)]


def test_a_single_card_is_never_raised():
    """DuelScene_UpdateHandActions step 1: Cross with exactly one card raised is ignored,
    with none it takes the card under the cursor; a monster turns itself face down in step
    3, so face up takes one flip; the zone cursor is on the monster row."""
    duel, (j,) = _duel_holding(MONSTER)
    items = P.action_items(duel, Play((j,), face_down=False))
    assert ("up",) not in _buttons(items)
    assert _buttons(items)[:3] == [("cross",), ("right",), ("cross",)]
    move = [i for i in items if isinstance(i, P.Move)]
    assert move[0].cursor == "hand" and move[0].goal == (j, 0)
    assert move[1].cursor == "field" and move[1].goal[1] == P.OWN_MONSTERS
    down = P.action_items(duel, Play((j,), face_down=True))
    assert ("right",) not in _buttons(down)  # it arrives face down


def test_a_fusion_raises_each_card_in_order_then_crosses():
    """Step 1: Up (alone) raises the card under the cursor; with two or more raised Cross
    goes straight to the zone cursor (step 4), no face choice."""
    duel, slots = _duel_holding(MONSTER, MONSTER)
    items = P.action_items(duel, Play(tuple(reversed(slots))))
    hand_moves = [i.goal[0] for i in items if isinstance(i, P.Move) and i.cursor == "hand"]
    assert hand_moves == list(reversed(slots))
    assert _buttons(items)[:3] == [("up",), ("up",), ("cross",)]
    assert not any(isinstance(i, P.Press) and i.gate.name == "the face choice" for i in items)


def test_a_magic_card_is_used_from_the_hand_and_a_trap_is_set():
    """Step 3: a face-up magic card goes to step 5 (used from the hand): no zone cursor; a
    trap turns itself face down and is set on the magic row (func_8001B938: row 3)."""
    duel, (magic, trap) = _duel_holding(cards.TYPE_MAGIC, cards.TYPE_TRAP)
    used = P.action_items(duel, Play((magic,)))
    assert not any(isinstance(i, P.Move) and i.cursor == "field" for i in used)
    assert ("right",) not in _buttons(used)
    set_trap = P.action_items(duel, Play((trap,), face_down=True))
    zone = [i for i in set_trap if isinstance(i, P.Move) and i.cursor == "field"]
    assert zone[0].goal[1] == P.OWN_MAGIC and ("right",) not in _buttons(set_trap)


def test_the_star_dialog_is_optional_and_down_picks_the_second():
    """func_8001B170 step 3 (Dialog_ReadChoiceInput): the choice starts on the first star;
    Down then Cross for the second. The dialog opens only for a monster a play leaves, so
    its presses give way to the next gate."""
    duel, (j,) = _duel_holding(MONSTER)
    star = [i for i in P.action_items(duel, Play((j,), star=1)) if i.gate.name == "the star "
            "dialog"]
    assert [i.buttons for i in star] == [("down",), ("cross",)] and all(
        i.optional for i in star)
    assert star[-1].leaves and not star[0].leaves


def _on_field(duel, *plays):
    for action in plays:
        duel.step(action)
    return duel


def test_field_actions():
    """DuelScene_UpdateFieldActions step 3: Cross on an own monster opens the target step
    (6) where Cross is a 2-D battle and Square a 3-D one, a direct attack moves no target
    cursor; L1 turns a monster; Start ends the turn; a set card is shown (step 7) and
    activates only face up (func_80020988), so it is turned first."""
    duel, (monster,) = _duel_holding(MONSTER)
    duel = _on_field(duel, Play((monster,), zone=2), EndTurn())
    while duel.acting_side == 1:  # the computer's turn, as its AI plays it
        duel.step(choose_action(duel))
    theirs = [c for c in range(5) if duel.card(1, "monster", c) is not None]
    target = theirs[0] if theirs else DIRECT
    attack = P.action_items(duel, Attack(2, target, "3d"))
    moves = [i.goal for i in attack if isinstance(i, P.Move)]
    assert moves[0] == (2, P.OWN_MONSTERS)
    assert moves[1:] == ([(target, P.THEIR_MONSTERS)] if theirs else [])
    assert _buttons(attack) == [("cross",), ("square",)]
    assert _buttons(P.action_items(duel, Attack(2, target)))[-1] == ("cross",)
    turn = P.action_items(duel, ChangePosition(2))
    assert _buttons(turn)[0] == ("l1",)
    assert _buttons(P.action_items(duel, EndTurn())) == [("start",)]


def test_a_set_magic_card_is_turned_before_it_activates():
    """func_80020988: Cross activates only a card showing its face; a set card starts
    showing its back, so one Right (a flip) comes first."""
    duel, (magic,) = _duel_holding(cards.TYPE_MAGIC)
    duel.step(Play((magic,), face_down=True))
    column = next(c for c in range(5) if duel.card(0, "magic", c) is not None)
    items = P.action_items(duel, Activate(column))
    assert _buttons(items)[:3] == [("cross",), ("right",), ("cross",)]
    assert [i.goal for i in items if isinstance(i, P.Move)][0] == (column, P.OWN_MAGIC)


@pytest.mark.parametrize("change, words", [
    ({"duelist": 0, "deck2": DECK}, "two-player"),
    ({"computer": []}, "computer sides"),
    ({"terrain": 3}, "normal field"),
    ({"lp": [4000, 8000]}, "8000 life points"),
])
def test_duels_the_title_cannot_start_are_refused(change, words):
    """A Free Duel (func_80024DC8: terrain 0, the starting life points) against the CPU,
    whose computer plays side 1 (D_8009B360[0] < 0: the pad's side is 0)."""
    setup = dataclasses.replace(_setup(1), **change)
    with pytest.raises(P.PlanError, match=words):
        P.check_reachable(setup)


def test_gates_wait_for_the_words():
    """A gate holds when every word has its value under its mask and no excluded one does;
    the hand phase's is scene 0x8004 with step 1 (either entry bit), as
    DuelScene_UpdateHandActions reads the pad."""
    look = {"main_mode": 0xC3, "scene": 0x8004, "step": 0x81, "card_effect": 0,
            "effect_state": 0, "quit_dialog": 0, "effect_request": 0x80}
    assert P.HAND_BROWSE.holds(look)
    assert not P.HAND_BROWSE.holds({**look, "effect_request": 0x81})
    assert not P.HAND_BROWSE.holds({**look, "scene": 0x4004 | 0x8000})
    assert not P.HAND_BROWSE.holds({**look, "main_mode": 0xC6})
