"""FM's prompts (``options``/``action_for``/``preview``, emucore/fm/prompts.py) against the
legal list and ``step()``.

Source: the protocol's promise (emucore/duel/protocol.py, after ygopro-core's prompts):
every full path through ``options`` is an action ``step()`` accepts and, with a free column
listed as AUTO as ``legal_actions()`` lists it, a legal action; every legal action, its AUTO
column resolved to the lowest free one, is a path, and ``step()`` takes both alike. The
preview's card is checked against the events ``step()`` then reports for the chain
(``DuelScene_UpdateCardPlacement``, spec/fm-engine.md §3.1, which emucore/fm/combine.py
follows). The states are random positions of real duels: random legal play from seeded
starts (emucore.fm.setup.new_duel).
"""

from __future__ import annotations

import random

import pytest

from emucore.duel.protocol import IllegalAction
from emucore.fm.actions import AUTO, Attack, Play
from emucore.fm.engine import FmDuel
from emucore.fm.prompts import resolved
from emucore.fm.setup import FmSetup, new_duel
from tests.core.test_prompts import paths, random_states

PLAY = ("kind", "play")
SEEDS = ((1, 11), (7, 23), (30, 5))  # (duelist, RNG state) of each seeded start
CHAINS_SAMPLED = 12  # legal chains of two or more cards checked per hand phase
WALKS = 12  # random paths through the options per hand phase


def duels():
    for duelist, state in SEEDS:
        duel = new_duel(FmSetup(deck=list(range(1, 41)), duelist=duelist, state=state))
        for snapshot in random_states(duel, state, 30):
            duel.restore(snapshot)
            yield duel, snapshot


def listed(duel: FmDuel, action):
    """``action`` as the legal list lists it: a play onto a free column as AUTO."""
    if isinstance(action, Play) and action.zone != AUTO:
        prefix = action.parts()[:len(action.cards) + 2]
        row = duel.preview(prefix).row
        if duel.card(duel.acting_side, row, action.zone) is None:
            return Play(action.cards, AUTO, action.face_down, action.star)
    return action


def walk(duel: FmDuel, rng: random.Random) -> tuple:
    prefix: tuple = ()
    while duel.action_for(prefix) is None:
        prefix = (*prefix, rng.choice(duel.options(prefix)))
    return prefix


def stepped(duel: FmDuel, snapshot: bytes, action) -> tuple[list, str]:
    duel.restore(snapshot)
    events = duel.step(action)
    out = [e.to_json() for e in events], duel.digest()
    duel.restore(snapshot)
    return out


def reachable(duel: FmDuel, action) -> None:
    parts = action.parts()
    for i in range(len(parts)):
        assert parts[i] in duel.options(parts[:i]), (parts, i)
    assert duel.options(parts) == [] and duel.action_for(parts) == action


def test_every_path_is_legal_and_every_legal_action_a_path() -> None:
    rng = random.Random(25)
    hand_phases = field_phases = 0
    for duel, snapshot in duels():
        legal = list(duel.legal_actions())
        if duel.phase == 1:  # field phase: the whole tree both ways
            field_phases += 1
            reached = paths(duel)
            assert sorted(map(repr, reached)) == sorted(map(repr, legal))
            for action in reached:
                stepped(duel, snapshot, action)  # step() takes it
            continue
        hand_phases += 1
        listing = set(legal)
        reached = [action for j in range(5)
                   if ("card", j) in duel.options((PLAY,))
                   for face in duel.options((PLAY, ("card", j))) if face[0] == "face_down"
                   for action in paths(duel, (PLAY, ("card", j), face))]  # every single play
        reached += [duel.action_for(walk(duel, rng)) for _ in range(WALKS)]
        for action in reached:
            assert listed(duel, action) in listing, action
            stepped(duel, snapshot, action)  # step() takes it
        singles = [a for a in legal if len(a.cards) == 1]
        chains = [a for a in legal if len(a.cards) > 1]
        for action in singles + rng.sample(chains, min(CHAINS_SAMPLED, len(chains))):
            exact = resolved(duel, action)
            reachable(duel, exact)
            if exact != action:
                assert exact.zone == duel.preview(exact.parts()[:len(exact.cards) + 2]).auto
                assert stepped(duel, snapshot, exact) == stepped(duel, snapshot, action)
    assert hand_phases > 10 and field_phases > 10


def test_the_preview_is_the_card_the_play_leaves() -> None:
    """The preview's card is the last card the chain's events bring to the landing zone:
    the last ``placed`` card or fusion result (``DuelScene_UpdateCardPlacement`` states 4
    and 8), or the field card itself when the chain left it standing."""
    rng = random.Random(3)
    checked = 0
    for duel, snapshot in duels():
        if duel.phase != 0:
            continue
        for _ in range(6):
            prefix = walk(duel, rng)
            preview = duel.preview(prefix[:-1])
            if preview.row != "monster":
                continue
            side = duel.acting_side
            before = duel.card(side, "monster", preview.column)
            events = duel.step(duel.action_for(prefix))
            made = [e.result if e.kind == "fusion" else e.card for e in events
                    if e.kind in ("fusion", "placed") and e.side == side]
            left = duel.card(side, "monster", preview.column)
            expected = made[-1] if made and left is not None else (
                before.card if before is not None and left is not None else 0)
            assert preview.card == expected, (prefix, events)
            duel.restore(snapshot)
            checked += 1
    assert checked > 30


def test_a_refused_prefix_says_the_engines_reason() -> None:
    """Source: the engine's refusal names (emucore/fm/engine.py ``_check_attack``,
    ``_own_monster``): no attack before the first end of turn (``func_800179F4``'s lock)."""
    duel = new_duel(FmSetup(deck=list(range(1, 41)), duelist=1, state=11))
    play = resolved(duel, next(a for a in duel.legal_actions() if a.cards == (0,)))
    duel.step(play)
    with pytest.raises(IllegalAction) as err:
        duel.options((("kind", "attack"), ("attacker", play.zone)))
    assert err.value.rule == "first-turn"
    empty = next(c for c in range(5) if duel.card(0, "monster", c) is None)
    with pytest.raises(IllegalAction) as err:
        duel.options((("kind", "position"), ("zone", empty)))
    assert err.value.rule == "empty-zone"
    with pytest.raises(IllegalAction) as err:  # a column outside the row, after a whole face
        new_duel(FmSetup(deck=list(range(1, 41)), duelist=1, state=11)).options(
            (("kind", "play"), ("card", 0), ("face_down", False), ("zone", 9)))
    assert err.value.rule == "zone"
    with pytest.raises(IllegalAction) as err:
        duel.options((("kind", "play"), ("card", 0)))
    assert err.value.rule == "phase"
    assert Attack(play.zone) not in duel.legal_actions()
