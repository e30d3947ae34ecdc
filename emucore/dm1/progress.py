"""What a DM1 campaign gains between duels: the drop after a win, the win counter and its
milestone rewards, and a new game's deck.

* Drop: after a win, one card from the opponent's drop table (roms_tables/dm1/drops.csv)
  rolled the cartridge's way on the duel's stream (:func:`emucore.dm1.decks.roll`: two
  draws, 0..2047, the first cumulative weight above it). Only a win gives a drop (choices D11):
  the award gate ($23F7) "returns non-zero when the player won" (memory_map_added.csv); the
  Yugipedia note of a drop after a draw is not followed.
* Win counter: four BCD digits per opponent, stopping at 9999 (``WIN_CAP``). At exactly 10,
  20 ... 100 wins the opponent's reward for that milestone (rewards.csv) is given as well,
  after the drop; it calls no RNG.
* New game: 33 monsters picked from the 100-card starter pool plus the seven starter magic
  cards (spec/dm1.md §3). Each monster is ``pool[rand(0..99)]`` (choices D11) (with repeats), on
  the menu's stream (:func:`emucore.dm1.rng.ranged`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from emucore.dm1 import decks
from emucore.dm1.rng import ranged
from emucore.tables.dm1 import REWARD_WINS

if TYPE_CHECKING:
    from emucore.dm1.duel import Dm1Duel

WIN_CAP = 9999  # win counters are four BCD digits ($CF70, BCD adder 0x2867 caps at 9999)
STARTER_MONSTERS = 33  # + 7 magic cards = 40


@dataclass(frozen=True)
class Winnings:
    """What one win brought: the opponent's new win count, the drop and any reward."""

    wins: int
    drop: int
    reward: int | None


def reward(t: Any, opponent: int, wins: int) -> int | None:
    """The reward card for reaching exactly ``wins`` wins against ``opponent``, or None."""
    if wins not in REWARD_WINS:
        return None
    return int(t.rewards[opponent, REWARD_WINS.index(wins)])


def after_win(t: Any, wins: list[int], opponent: int, rand: decks.Rand) -> Winnings:
    """Count a win against ``opponent`` in ``wins`` and roll its drop with ``rand``."""
    wins[opponent] = min(WIN_CAP, wins[opponent] + 1)
    card = decks.pick(t.drops[opponent], rand)[0]
    return Winnings(wins[opponent], card, reward(t, opponent, wins[opponent]))


def after_duel(t: Any, wins: list[int], opponent: int, duel: Dm1Duel,
               won: bool) -> tuple[Winnings | None, int]:
    """What a finished duel brings (:func:`after_win` on the duel's own stream when ``won``,
    else nothing) and the stream's state after it, where the menu's stream goes on."""
    winnings = after_win(t, wins, opponent, duel.draw_random) if won else None
    return winnings, duel.v.rng_state[0]


def starter_deck(t: Any, rand: decks.Rand) -> list[int]:
    """A new game's 40 cards: 33 picks from the starter pool, then the seven magic cards."""
    pool = t.starter_pool
    return [pool[ranged(rand(), 0, len(pool) - 1)] for _ in range(STARTER_MONSTERS)] + list(
        t.starter_magic)
