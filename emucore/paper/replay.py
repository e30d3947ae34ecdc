"""The replay adapter every paper rule system shares (emucore.duel.replay.SystemAdapter)."""

from __future__ import annotations

from typing import Any

from emucore.duel.protocol import Action
from emucore.paper import state
from emucore.paper.actions import decode_action
from emucore.paper.engine import PaperDuel
from emucore.paper.system import PaperSystem

ENGINE_VERSION = 3  # bump when a rule change alters the outcome of recorded actions
RNG_VERSION = 1  # the shuffle and first-player routines of emucore.paper.engine


class PaperAdapter:
    """Replays of one paper system: setup block -> duel, action JSON -> action."""

    engine_version = ENGINE_VERSION
    rng_version = RNG_VERSION

    def __init__(self, system: PaperSystem) -> None:
        self.paper = system
        self.system = system.name

    def new_duel(self, setup: dict[str, Any]) -> PaperDuel:
        return self.paper.duel_from_setup(setup)

    def decode_action(self, data: dict[str, Any]) -> Action:
        return decode_action(data)

    def fields_of(self, snapshot: bytes) -> dict[str, int]:
        return state.fields_of(snapshot)
