"""Scenario helpers for the paper-engine tests: start a duel, then lay out a board by name."""

from __future__ import annotations

import pytest

from emucore.duel.protocol import Action, IllegalAction
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.engine import PaperDuel
from emucore.paper.state import Monster, Spell
from emucore.paper.system import PaperSystem
from emucore.tcglite.system import SYSTEM as TCG


def ids(system: PaperSystem, *names: str) -> list[int]:
    return [system.card_id(n) for n in names]


def duel(system: PaperSystem = OCG, seed: int = 1, first: int = 0) -> PaperDuel:
    """A duel with the built-in decks, player 1 (side 0) to act in turn 1's main phase."""
    return system.new_duel(seed, first=first)


def board(d: PaperDuel, side: int, *, hand: list[str] | None = None,
          monsters: list[tuple[str, bool, bool] | None] | None = None,
          spells: list[tuple[str, bool] | None] | None = None, deck: list[str] | None = None,
          fusion: list[str] | None = None, lp: int | None = None) -> None:
    """Replace parts of one side's table. Monsters are (name, face_up, attack) and count as
    placed on turn 0 (so they may attack and change position); spells are (name, face_up),
    set on turn 0."""
    system = OCG if d.profile.name == "ocg1999" else TCG
    s = d.state.sides[side]
    if hand is not None:
        s.hand = ids(system, *hand)
    if deck is not None:
        s.deck = ids(system, *deck)
    if fusion is not None:
        s.fusion_deck = ids(system, *fusion)
    if lp is not None:
        s.lp = lp
    if monsters is not None:
        s.monsters = [Monster(system.card_id(m[0]), m[1], m[2], 0) if m else None
                      for m in monsters] + [None] * (5 - len(monsters))
    if spells is not None:
        s.spells = [Spell(system.card_id(c[0]), c[1], 0) if c else None
                    for c in spells] + [None] * (5 - len(spells))
    d._spells_changed()


def to_phase(d: PaperDuel, phase: str, turn: int | None = None) -> None:
    """Put the duel in ``phase`` (and ``turn``) of the acting side."""
    if turn is not None:
        d.state.turn = turn
    d.state.phase = d.profile.phases.index(phase)


def refused(d: PaperDuel, action: Action, rule: str) -> IllegalAction:
    """Assert the action is refused for ``rule`` and the state did not change at all."""
    before = d.snapshot()
    with pytest.raises(IllegalAction) as info:
        d.step(action)
    assert info.value.rule == rule, str(info.value)
    assert d.snapshot() == before
    return info.value


def names(system: PaperSystem, cards: list[int]) -> list[str]:
    return [system.catalogue.name(c) for c in cards]


def zone_names(d: PaperDuel, side: int) -> list[str | None]:
    system = OCG if d.profile.name == "ocg1999" else TCG
    return [system.catalogue.name(m.card) if m else None for m in d.state.sides[side].monsters]
