"""Why the paper rules refuse a partial choice: the protocol's prompts
(``Duel.options(prefix)``) name the rule, as ygopro-core's ``MSG_RETRY`` tells a client its
answer was wrong, so a screen can say why a card has no play now.

A prefix that starts no legal action is refused with the rule that refuses the plainest
action it starts: its missing fields filled with what a player tries first (a monster
summoned in attack position, a card activated without targets, an attack on the opponent's
first monster, else directly).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, fields
from typing import Any

from emucore.duel.protocol import Action, Part
from emucore.paper.actions import ACTION_KINDS, ATTACK

_BY_KIND = {cls.kind: cls for cls in ACTION_KINDS}


def plainest(prefix: Sequence[Part], first_target: int) -> Action | None:
    """The plainest action ``prefix`` starts (an attack goes to ``first_target``, the first
    place the rules let it go), or None when it names no kind or leaves out a card or
    zone."""
    chosen = dict(prefix[1:])
    cls = _BY_KIND.get(prefix[0][1]) if prefix and prefix[0][0] == "kind" else None
    if cls is None:
        return None
    plain: dict[str, Any] = {"position": ATTACK, "target": first_target}
    args = {}
    for f in fields(cls):
        if f.name in chosen:
            args[f.name] = chosen[f.name]
        elif f.default is MISSING and f.name not in plain:
            return None
        elif f.default is MISSING:
            args[f.name] = plain[f.name]
    return cls(**args)
