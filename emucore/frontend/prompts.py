"""The screens' side of the engines' prompts: a choice on screen is the next part of a legal
action, asked of ``Duel.options(prefix)`` and ``Duel.action_for(prefix)`` (the protocol,
after ygopro-core's prompts), never worked out from the rules.

A screen often picks a card before it knows the action's kind (a hand card is summoned or
activated, as the card is): :func:`prefixes` finds the kinds whose next part may be that
card, :func:`completions` every whole action that starts with a prefix, in the engine's
order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from emucore.duel.protocol import Action, Duel, IllegalAction, Part


def offered(duel: Duel, prefix: Sequence[Part] = ()) -> list[Part]:
    """The parts that may follow ``prefix``; none when the rules refuse the prefix."""
    try:
        return duel.options(prefix)
    except IllegalAction:
        return []


def prefixes(duel: Duel, part: Part, kinds: Iterable[str] | None = None) -> list[tuple[Part, ...]]:
    """Every ``(("kind", k), part)`` that starts a legal action, for the kinds ``kinds`` in
    that order (default: the kinds the duel offers, in its order)."""
    if kinds is None:
        kinds = [value for _, value in offered(duel)]
    return [(("kind", kind), part) for kind in kinds
            if part in offered(duel, (("kind", kind),))]


def completions(duel: Duel, prefix: Sequence[Part]) -> list[Action]:
    """Every legal action that starts with ``prefix``, choosing each offered part in turn."""
    prefix = tuple(prefix)
    action = duel.action_for(prefix)
    if action is not None:
        return [action]
    out: list[Action] = []
    for part in offered(duel, prefix):
        out.extend(completions(duel, (*prefix, part)))
    return out
