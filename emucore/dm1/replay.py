"""Replay adapter for DM1 (``ADAPTER``), used by ``emucore.duel.replay`` record/verify.

A DM1 replay's setup holds everything the duel's start depends on: ``seed``, ``opponent``,
``shuffle`` and either ``deck`` (40 card numbers) or ``player_pool`` (an opponent index whose
pool deals side 0's deck), and optionally ``opponent_deck``.
"""

from __future__ import annotations

from typing import Any

from emucore.dm1 import rng
from emucore.dm1.actions import decode_action
from emucore.dm1.duel import ENGINE_VERSION, Dm1Duel
from emucore.dm1.state import DECK_SIZE, fields_of
from emucore.duel.files import want_bool, want_int, want_int_list
from emucore.duel.protocol import Action
from emucore.tables.dm1 import OPPONENT_COUNT

SETUP_KEYS = frozenset(("seed", "opponent", "deck", "player_pool", "opponent_deck", "shuffle"))


class Dm1Adapter:
    """What replay recording and verification need from DM1."""

    system = "dm1"
    engine_version = ENGINE_VERSION
    rng_version = rng.RNG_VERSION

    def new_duel(self, setup: dict[str, Any]) -> Dm1Duel:
        unknown = set(setup) - SETUP_KEYS
        if unknown:
            raise ValueError(f"unknown setup keys {', '.join(sorted(unknown))}")
        seed = want_int(setup.get("seed"), "setup seed", 0, 0xFFFFFFFF)
        opponent = want_int(setup.get("opponent", 0), "setup opponent", 0, OPPONENT_COUNT - 1)
        shuffle = want_bool(setup.get("shuffle", True), "setup shuffle")
        pool = setup.get("player_pool")
        if pool is not None:
            want_int(pool, "setup player_pool", 0, OPPONENT_COUNT - 1)
        decks = [want_int_list(setup[k], f"setup {k}", 0, 0xFFFF, DECK_SIZE)
                 if setup.get(k) is not None else None for k in ("deck", "opponent_deck")]
        try:
            return Dm1Duel(decks[0], opponent=opponent, seed=seed, player_pool=pool,
                           opponent_deck=decks[1], shuffle=shuffle)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None

    def decode_action(self, data: dict[str, Any]) -> Action:
        return decode_action(data)

    def fields_of(self, snapshot: bytes) -> dict[str, int]:
        return fields_of(snapshot)


ADAPTER = Dm1Adapter()
