"""Turning the engine's duel events into the short messages and sounds the duel screen
plays after each step.

A message never names a face-down card its reader cannot see: the opponent's set cards (in a
two-player duel, either side's, since both players read the same log) are "a set card"
until they flip."""

from __future__ import annotations

from dataclasses import dataclass

from emucore.fm.engine import turns_played
from emucore.fm.view import BoardView
from emucore.frontend.systems.fm.common import EVENT_SOUNDS, TERRAIN_NAMES
from emucore.frontend.systems.fm.session import FmGame

SET_CARD = "a set card"  # how the log names a face-down card its reader cannot see

OUTCOMES = {"direct": "hits directly", "win": "destroys", "win_defense": "breaks",
            "standoff": "is stopped by", "double_ko": "trades with", "lose": "falls to",
            "lose_defense": "bounces off"}


@dataclass(frozen=True)
class Message:
    text: str
    sound: str | None = None
    focus: tuple[tuple[int, str, int], ...] = ()  # (side, row, zone) to flash while shown
    cards: tuple[int, ...] = ()  # cards to show big in the middle of the field
    joiner: str = ""  # what stands between them ("+", "VS") ; the last card follows "="


def describe(game: FmGame, event, humans: set[int], shown: BoardView) -> Message | None:
    """The message for one event (None for events not worth a line, like draws), read
    against the board as shown just before the event."""
    name = game.tables.names.__getitem__

    def seen(side: int, row: str, zone: int, card: int) -> str:
        """The card's name, or SET_CARD while it lies face down out of the reader's sight."""
        here = shown.sides[side].row(row)[zone] if 0 <= zone < 5 else None
        if here is not None and here.face_down and not _sees(side, humans):
            return SET_CARD
        return name(card)

    kind = event.kind
    sound = EVENT_SOUNDS.get(kind)
    who = _who(getattr(event, "side", 0), humans)
    if kind in ("draw", "animation"):
        return None
    if kind == "turn":
        return Message(f"Turn {turns_played(event.side, event.turn)}: {who}", "draw")
    if kind == "placed":
        hidden = event.face_down and not _sees(event.side, humans)
        card = "a card" if hidden else name(event.card)
        return Message(f"{who}: {card} {'set' if event.face_down else 'placed'}", "confirm",
                       focus=((event.side, event.row, event.zone),))
    if kind == "fusion":
        return Message(f"Fusion! {name(event.a)} + {name(event.b)} = {name(event.result)}",
                       sound, cards=(event.a, event.b, event.result), joiner="+")
    if kind == "equip":
        monsters = shown.sides[event.side].monsters
        zone = next((z for z, c in enumerate(monsters) if c and c.card == event.monster), -1)
        target = seen(event.side, "monster", zone, event.monster)
        cards = (event.equip, event.monster) if target != SET_CARD else (event.equip,)
        return Message(f"{name(event.equip)} on {target} +{event.bonus}", sound, cards=cards,
                       joiner="+")
    if kind == "failure":
        return Message(f"{name(event.discarded)} fails to combine", sound)
    if kind == "flip":
        return Message(f"{name(event.card)} flips up", "move",
                       focus=((event.side, event.row, event.zone),))
    if kind == "position":
        position = "defence" if event.defense else "attack"
        card = seen(event.side, "monster", event.zone, event.card)
        return Message(f"{who}: {card} to {position}", "move",
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
        card = seen(event.side, "monster", event.zone, event.card)
        return Message(_capital(f"{card} {event.stat_modifier:+d}"), "magic")
    if kind == "life":
        return Message(f"{who} LP {event.delta:+d} = {event.lp}", sound)
    if kind == "destroyed":
        card = seen(event.side, event.row, event.zone, event.card)
        return Message(_capital(f"{card} destroyed"), "damage",
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
    return None  # kinds this screen does not know (yet) play no message


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sees(side: int, humans: set[int]) -> bool:
    """Whether the log's reader may see ``side``'s face-down cards: only their own, in a
    duel against the computer."""
    return len(humans) == 1 and side in humans


def _who(side: int, humans: set[int]) -> str:
    if len(humans) == 2:
        return f"P{side + 1}"
    return "You" if side in humans else "Opp"
