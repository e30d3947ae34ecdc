"""The FM replay adapter for :mod:`emucore.duel.replay` (record / verify).

A replay's setup block is :meth:`emucore.fm.setup.FmSetup.to_json`; its state images are
``FmDuel.snapshot()`` (the RAM records and globals), decoded field by field for diffs.
"""

from __future__ import annotations

from typing import Any

from emucore.duel.protocol import Action, action_from_json
from emucore.fm.actions import ACTION_KINDS
from emucore.fm.engine import FmDuel
from emucore.fm.machine import fields_of
from emucore.fm.setup import FmSetup, new_duel

# The versions a replay records, in this one place: bump ENGINE_VERSION when a rule change
# alters results or the state image changes layout, RNG_VERSION when an RNG-consuming routine
# changes in a way that alters results (DESIGN.md, rule 2).
RNG_VERSION = 1
# 2: the AI's snapshot arrays (gDuel_aActiveCards) joined the state image.
# 3: the decompilation reconciled (docs/fm-fidelity.md): first-turn counter and attack lock,
#    result outro, equip effect and ritual star calls, Dark Hole, Dark-piercing Light, ...
# 4: every animation's rand() calls charged (emucore.fm.timeline), the attack's view, the
#    last rule differences of the decompiled code (docs/fm-fidelity.md, E1-E10).
ENGINE_VERSION = 4
# Files written before the duel knew its computer sides mark each computer action with this
# key; ``false`` means nothing and is ignored, ``true`` needs the setup's ``computer`` list.
LEGACY_EXPORT_KEY = "ai_export"


class FmAdapter:
    system = "fm"
    engine_version = ENGINE_VERSION
    rng_version = RNG_VERSION

    def new_duel(self, setup: dict[str, Any]) -> FmDuel:
        return new_duel(FmSetup.from_json(setup))

    def decode_action(self, data: dict[str, Any]) -> Action:
        if not isinstance(data, dict):
            raise ValueError("an action is a JSON object")
        if data.get(LEGACY_EXPORT_KEY) is True:
            raise ValueError(f"{LEGACY_EXPORT_KEY!r} is no longer an action field: the "
                             "setup's 'computer' list names the computer-played sides")
        return action_from_json(data, ACTION_KINDS)

    def fields_of(self, snapshot: bytes) -> dict[str, int]:
        return fields_of(snapshot)


ADAPTER = FmAdapter()
