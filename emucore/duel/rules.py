"""The one dispatch pattern of every engine: a table from action class to :class:`Rule`.

Each engine's ``step()`` looks the action's class up in its ``_RULES`` :class:`RuleTable` (FM
``emucore.fm.engine``, DM1 ``emucore.dm1.duel``, paper ``emucore.paper.engine``), refuses
what has no rule in the current phase, runs the rule's checks (which raise
:class:`~emucore.duel.protocol.IllegalAction` and change nothing) and then its effect. A new
kind of action is one new row, never a new branch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rule:
    """How an engine takes one kind of action: the phase it belongs to (``None``: its checks
    test the phase themselves), its checks (raise IllegalAction, or return what ``apply``
    needs, as a play's landing or an activation's target) and its effect. The engine names
    the arguments both take."""

    phase: Any
    check: Callable[..., Any]
    apply: Callable[..., None]


class RuleTable(dict):
    """Action class -> :class:`Rule`. ``table[type(action)]`` is the kind's rule, or for a
    class derived from a kind that kind's rule (found once, then kept), else ``None``: the
    engine refuses the action."""

    def __missing__(self, cls: type) -> Rule | None:
        rule = next((r for kind, r in list(self.items()) if issubclass(cls, kind)), None)
        if rule is not None:
            self[cls] = rule
        return rule
