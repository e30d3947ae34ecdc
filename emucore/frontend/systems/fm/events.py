"""Turning the engine's duel events into the short messages and sounds the duel screen
plays after each step."""

from __future__ import annotations

from dataclasses import dataclass

from emucore.frontend.systems.fm.common import EVENT_SOUNDS, TERRAIN_NAMES
from emucore.frontend.systems.fm.session import FmGame

OUTCOMES = {"direct": "hits directly", "win": "destroys", "win_defense": "breaks",
            "standoff": "is stopped by", "double_ko": "trades with", "lose": "falls to",
            "lose_defense": "bounces off"}


@dataclass(frozen=True)
class Message:
    text: str
    sound: str | None = None
    lp_side: int | None = None
    lp_delta: int = 0
    focus: tuple[tuple[int, str, int], ...] = ()  # (side, row, zone) to flash while shown
    cards: tuple[int, ...] = ()  # cards to show big in the middle of the field
    joiner: str = ""  # what stands between them ("+", "VS") ; the last card follows "="


def describe(game: FmGame, event, humans: set[int]) -> Message | None:
    """The message for one event (None for events not worth a line, like draws)."""
    name = game.tables.names.__getitem__
    kind = event.kind
    sound = EVENT_SOUNDS.get(kind)
    who = _who(getattr(event, "side", 0), humans)
    if kind in ("draw", "animation"):
        return None
    if kind == "turn":
        return Message(f"Turn {event.turn}: {who}", "draw")
    if kind == "placed":
        hidden = event.face_down and event.side not in humans
        card = "a card" if hidden else name(event.card)
        return Message(f"{who}: {card} {'set' if event.face_down else 'placed'}", "confirm",
                       focus=((event.side, event.row, event.zone),))
    if kind == "fusion":
        return Message(f"Fusion! {name(event.a)} + {name(event.b)} = {name(event.result)}",
                       sound, cards=(event.a, event.b, event.result), joiner="+")
    if kind == "equip":
        return Message(f"{name(event.equip)} on {name(event.monster)} +{event.bonus}", sound,
                       cards=(event.equip, event.monster), joiner="+")
    if kind == "failure":
        return Message(f"{name(event.discarded)} fails to combine", sound)
    if kind == "flip":
        return Message(f"{name(event.card)} flips up", "move",
                       focus=((event.side, event.row, event.zone),))
    if kind == "position":
        position = "defence" if event.defense else "attack"
        return Message(f"{who}: {name(event.card)} to {position}", "move",
                       focus=((event.side, "monster", event.zone),))
    if kind == "battle":
        verb = OUTCOMES.get(event.outcome, event.outcome)
        attacker = (event.side, "monster", event.attacker_zone)
        if event.outcome == "direct":
            return Message(f"{name(event.attacker)} {verb}", sound, focus=(attacker,))
        defender = (1 - event.side, "monster", event.defender_zone)
        return Message(f"{name(event.attacker)} {verb} {name(event.defender)}", sound,
                       focus=(attacker, defender), cards=(event.attacker, event.defender),
                       joiner="VS")
    if kind == "trap":
        return Message(f"Trap! {name(event.card)}", sound, cards=(event.card,))
    if kind == "magic":
        return Message(f"{name(event.card)}: {event.effect.replace('_', ' ')}", sound,
                       cards=(event.card,))
    if kind == "terrain":
        return Message(f"Terrain: {TERRAIN_NAMES[event.terrain]}", sound)
    if kind == "stat":
        return Message(f"{name(event.card)} {event.stat_modifier:+d}", "magic")
    if kind == "life":
        return Message(f"{who} LP {event.delta:+d} = {event.lp}", sound, event.side,
                       event.delta)
    if kind == "destroyed":
        return Message(f"{name(event.card)} destroyed", "damage",
                       focus=((event.side, event.row, event.zone),))
    if kind == "ritual":
        if not event.result:
            return Message(f"{name(event.ritual)}: tributes missing", "error")
        return Message(f"Ritual! {name(event.result)}", sound,
                       cards=(event.ritual, event.result), joiner="=")
    if kind == "ended":
        if len(humans) == 2:
            return Message(f"Player {event.winner + 1} wins!", "win")
        return Message("You win!" if event.winner == 0 else "You lose...",
                       "win" if event.winner == 0 else "lose")
    return Message(kind, None)


def _who(side: int, humans: set[int]) -> str:
    if len(humans) == 2:
        return f"P{side + 1}"
    return "You" if side in humans else "Opp"
