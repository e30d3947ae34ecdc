"""The setup of a DM1 duel: everything its start depends on, one frozen value.

A replay stores it as its setup block (:meth:`Dm1Setup.to_json`: ``seed``, ``opponent``,
``shuffle`` and either ``deck``, 40 card numbers, or ``player_pool``, an opponent index
whose pool deals side 0's deck, and optionally ``opponent_deck``); :meth:`Dm1Setup.from_json`
reads one back with every field checked, and :meth:`Dm1Setup.new_duel` starts the duel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import DECK_SIZE
from emucore.duel.files import want_bool, want_int, want_int_list
from emucore.tables.dm1 import OPPONENT_COUNT

KEYS = ("seed", "opponent", "shuffle", "deck", "player_pool", "opponent_deck")  # file order
OPTIONAL = frozenset(("deck", "player_pool", "opponent_deck"))   # stored only when given


@dataclass(frozen=True)
class Dm1Setup:
    """One DM1 duel's start: the RNG ``seed``, the ROM ``opponent`` (0..15) on side 1,
    side 0's ``deck`` (or the ``player_pool`` that deals it), side 1's ``opponent_deck``
    (else dealt from the opponent's pool) and whether given decks are shuffled."""

    seed: int
    opponent: int = 0
    shuffle: bool = True
    deck: tuple[int, ...] | None = None
    player_pool: int | None = None
    opponent_deck: tuple[int, ...] | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dm1Setup:
        """A setup block read back (ValueError naming what is wrong)."""
        if not isinstance(data, dict):
            raise ValueError("a dm1 setup is a JSON object")
        unknown = set(data) - set(KEYS)
        if unknown:
            raise ValueError(f"unknown setup keys {', '.join(sorted(unknown))}")
        pool = data.get("player_pool")
        if pool is not None:
            want_int(pool, "setup player_pool", 0, OPPONENT_COUNT - 1)
        decks = [tuple(want_int_list(data[k], f"setup {k}", 0, 0xFFFF, DECK_SIZE))
                 if data.get(k) is not None else None for k in ("deck", "opponent_deck")]
        return cls(seed=want_int(data.get("seed"), "setup seed", 0, 0xFFFFFFFF),
                   opponent=want_int(data.get("opponent", 0), "setup opponent", 0,
                                     OPPONENT_COUNT - 1),
                   shuffle=want_bool(data.get("shuffle", True), "setup shuffle"),
                   deck=decks[0], player_pool=pool, opponent_deck=decks[1])

    def to_json(self) -> dict[str, Any]:
        """The setup block: every field, the optional ones only when given."""
        out: dict[str, Any] = {}
        for key in KEYS:
            value = getattr(self, key)
            if key not in OPTIONAL or value is not None:
                out[key] = list(value) if isinstance(value, tuple) else value
        return out

    def new_duel(self) -> Dm1Duel:
        """The duel this setup starts (ValueError for an unknown opponent or pool,
        :class:`~emucore.dm1.decks.DeckError` for a bad deck)."""
        try:
            return Dm1Duel(self.deck, opponent=self.opponent, seed=self.seed,
                           player_pool=self.player_pool, opponent_deck=self.opponent_deck,
                           shuffle=self.shuffle)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
