"""Damage calculation: one pure function over the numbers, shared by every paper profile.

Rows (spec/ocg1999-tcglite.md; the same table in the 1999 rulebook's damage pages and the
simplified TCG's rule list):

- attack vs attack: the lower ATK is destroyed and its controller loses the difference;
  equal ATK destroys both and nobody loses LP.
- attack vs defence: ATK > DEF destroys the defender, no damage; ATK == DEF nothing happens;
  ATK < DEF destroys nothing and the attacker's controller loses DEF - ATK.
- direct attack: the defending player loses the attacker's ATK.
"""

from __future__ import annotations

from typing import NamedTuple


class Outcome(NamedTuple):
    attacker_destroyed: bool
    defender_destroyed: bool
    attacker_damage: int  # LP the attacking player loses
    defender_damage: int  # LP the defending player loses


def versus_attack(atk: int, other_atk: int) -> Outcome:
    """An attack on a monster in attack position."""
    if atk > other_atk:
        return Outcome(False, True, 0, atk - other_atk)
    if atk < other_atk:
        return Outcome(True, False, other_atk - atk, 0)
    return Outcome(True, True, 0, 0)


def versus_defence(atk: int, defense: int) -> Outcome:
    """An attack on a monster in defence position (turned face-up first)."""
    if atk > defense:
        return Outcome(False, True, 0, 0)
    return Outcome(False, False, defense - atk, 0)


def direct(atk: int) -> Outcome:
    """An attack on a player with no monsters."""
    return Outcome(False, False, 0, atk)
