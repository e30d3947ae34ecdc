"""Replay adapter for DM1 (``ADAPTER``), used by ``emucore.duel.replay`` record/verify.

A DM1 replay's setup block is :meth:`emucore.dm1.setup.Dm1Setup.to_json`.
"""

from __future__ import annotations

from typing import Any

from emucore.dm1.actions import decode_action
from emucore.dm1.duel import Dm1Duel
from emucore.dm1.setup import Dm1Setup
from emucore.dm1.state import fields_of
from emucore.duel.protocol import Action

# The versions a replay records, in this one place.
# 2: a side may pass its play; the empty-hand win is checked when the hand empties; a draw
# into a six-card hand is skipped; the real equip lists; weighted picks take two draws.
ENGINE_VERSION = 2
RNG_VERSION = 2  # 2: weighted picks take two draws (the drop picker)


class Dm1Adapter:
    """What replay recording and verification need from DM1."""

    system = "dm1"
    engine_version = ENGINE_VERSION
    rng_version = RNG_VERSION

    def new_duel(self, setup: dict[str, Any]) -> Dm1Duel:
        return Dm1Setup.from_json(setup).new_duel()

    def decode_action(self, data: dict[str, Any]) -> Action:
        return decode_action(data)

    def fields_of(self, snapshot: bytes) -> dict[str, int]:
        return fields_of(snapshot)


ADAPTER = Dm1Adapter()
