"""What the DM1 screens say in words: card texts, the lines of a duel's log, refusals, why a
monster may not attack, and how a duel ended.

Every sentence is built from the engine's data (the effect column of magic.csv and its
amounts, the field table's boosted and weakened types, the equip lists) and the engine's names
(refusal rules, attack blocks, end reasons), never from a rule worked out here. A card the
player could not see in the original (a computer's face-down monster) is never named: the
lines read the shown :class:`~emucore.frontend.systems.dm1_board.Board`, which knows which
of the computer's monsters are face-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from emucore.dm1.actions import DIRECT
from emucore.duel.protocol import DRAW, Event, EventKind
from emucore.frontend.layout import fit
from emucore.tables.dm1_lookup import TYPE_NAMES

if TYPE_CHECKING:
    from emucore.frontend.systems.dm1_board import Board

# What each magic effect does, for the card's text; the fields come from the card's row of the
# tables (amount, lock_turns, the transform pair, the sealed type, the field's types).
EFFECT_TEXT = {
    "equip": "Levels up one of your monsters ({users} can use it).",
    "transform": "Turns your {transform_from} into {transform_to}.",
    "force_attack": "The opponent's monsters switch to attack and must attack next turn.",
    "seal_type": "{sealed_type} monsters on the field can no longer attack.",
    "field": "Field: stronger {boosted}{weakened}.",
    "destroy_all": "Destroys all monsters on the field.",
    "destroy_opponent": "Destroys all of the opponent's monsters.",
    "heal": "You gain {amount} LP.",
    "burn": "Deals {amount} damage to the opponent.",
    "lock": "Reveals the opponent's monsters; they cannot attack for {lock_turns} turns.",
    "level_down_all": "Lowers the level of all the opponent's monsters.",
    "reveal": "Turns every monster on the field face-up.",
}

# The engine's refusal names (IllegalAction.rule of emucore.dm1) as sentences.
REFUSALS = {
    "duel-over": "The duel is over.",
    "zone": "Choose one of your five zones.",
    "hand": "That card is no longer in your hand.",
    "card-kind": "Monsters are summoned and magic cards played: choose again.",
    "magic-target": "This card needs one of your monsters as its target.",
    "order": "This monster cannot take that order now.",
    "phase": "That cannot be done in this part of the turn.",
}

# Why a monster may not attack (Dm1Duel.attack_block names).
ATTACK_BLOCKS = {
    "first-turn": "No monster attacks on the first turn.",
    "locked": "Swords of Revealing Light: no attacks for now.",
    "sealed": "Sealed by Dragon Capture Jar: it cannot attack.",
}

LOG_NAME_W = 107  # pixels (18 letters) a card name may take in a log line, else shortened
WHO = ("You", "CPU")
WHOSE = ("Your", "CPU's")
TURN_OF = ("your", "CPU's")


def card_name(t: Any, card: int) -> str:
    """The card's whole name as a player knows it (the cartridge shortens names to 18
    letters; the tables keep the whole one)."""
    return str(t.raw["cards.csv"]["name_full"][card - 1])


def _types(joined: str) -> str:
    """``"Fish;Sea Serpent"`` as ``"Fish, Sea Serpent"``."""
    return ", ".join(joined.split(";"))


def effect_text(t: Any, card: int) -> str:
    """A player's sentence for magic card ``card``, with its amounts from the tables."""
    row = t.magic_rows[card]
    effect = str(row["effect"])
    fields: dict[str, object] = dict(row)
    if effect == "equip":
        fields["users"] = int(t.equip[card].sum())
    elif effect == "transform":
        fields["transform_from"] = card_name(t, int(row["transform_from"]))
        fields["transform_to"] = card_name(t, int(row["transform_to"]))
    elif effect == "seal_type":
        fields["sealed_type"] = TYPE_NAMES[int(row["sealed_type"])]
    elif effect == "field":
        table = t.raw["fields.csv"]
        i = list(table["field_card"]).index(card)
        weakened = str(table["weakened"][i])
        fields["boosted"] = _types(str(table["boosted"][i]))
        fields["weakened"] = f"; weaker {_types(weakened)}" if weakened else ""
    return EFFECT_TEXT[effect].format(**fields)


def card_details(t: Any, card: int) -> list[str]:
    """What a card panel says under the name: ATK/DEF and type of a monster, the effect
    sentence of a magic card."""
    info = t.card_info(card)
    if info["kind"] == "monster":
        return [f"ATK {info['atk']}  DEF {info['defense']}", str(info["type"])]
    return [effect_text(t, card)]


def log_name(t: Any, card: int) -> str:
    """A card's name for a log line: the whole name, shortened by the layout rule when it
    is wider than :data:`LOG_NAME_W`."""
    return fit(card_name(t, card), LOG_NAME_W)[0]


def _seen(t: Any, board: Board, side: int, zone: int, hidden: str) -> str:
    """The name of the monster in the zone, or ``hidden`` when the player cannot see it."""
    slot = board.slot(side, zone)
    return log_name(t, slot.card) if board.visible(side, zone) else hidden


Said = tuple[str, str] | None  # (line, motion), or no line


def describe(t: Any, event: Event, board: Board) -> Said:
    """(line, motion) for an event, read against the board shown as it happens (None: no
    line). The motion names how the screen shows it ("" for a line that needs no wait)."""
    said = _LINES.get(event.kind)
    return said(t, event, board) if said is not None else None


def _turn(t: Any, event: Event, board: Board) -> Said:
    return f"Turn {event.turn}: {TURN_OF[event.side]} turn", ""


def _drew(t: Any, event: Event, board: Board) -> Said:
    return (f"You draw {log_name(t, event.card)}.", "") if event.side == 0 else \
        ("CPU draws a card.", "draw")


def _fused(t: Any, event: Event, board: Board) -> Said:
    made = log_name(t, event.result)
    if event.side == 1:
        return f"CPU fuses two cards: {made}!", "place"
    return (f"You fuse {log_name(t, event.material_a)} with "
            f"{log_name(t, event.material_b)}: {made}!", "place")


def _passed(t: Any, event: Event, board: Board) -> Said:
    side = event.side
    return f"{WHO[side]} play{'s' * side} no card.", "stance"


def _destroyed(t: Any, event: Event, board: Board) -> Said:
    side = event.side
    name = _seen(t, board, side, event.zone, "face-down card")
    return f"{WHOSE[side]} {name} is destroyed.", "destroy"


def _life(t: Any, event: Event, board: Board) -> Said:
    if not event.delta:
        return None
    return f"{WHOSE[event.side]} LP: {event.lp} ({event.delta:+d}).", "life"


def _ended(t: Any, event: Event, board: Board) -> Said:
    return "The duel is over.", "stance"


def _placed(t: Any, event: Event, board: Board) -> Said:
    side = event.side
    line = f"You summon {log_name(t, event.card)}" if side == 0 else \
        "CPU sets a card"
    if event.replaced:
        return f"{line} over {_seen(t, board, side, event.zone, 'a face-down card')}.", "place"
    return f"{line}.", "place"


def _magic(t: Any, event: Event, board: Board) -> Said:
    who, name = WHO[event.side], log_name(t, event.card)
    if event.kind == EventKind.EQUIP and event.target >= 0:
        on = _seen(t, board, event.side, event.target, "a face-down card")
        line = f"{who} equip{'s' * event.side} {name} to {on}."
    else:
        line = f"{who} play{'s' * event.side} {name}."
    return (line if event.took_effect else f"{line} It has no effect."), "magic"


def _order(t: Any, event: Event, board: Board) -> Said:
    """A line for a computer's monster that changes position (other orders say nothing)."""
    side, zone = event.side, event.zone
    if side == 0 or board.slot(side, zone).attacking == event.attack:
        return None
    name = _seen(t, board, side, zone, "face-down card")
    return f"CPU's {name} goes to {('defence', 'attack')[event.attack]}.", "stance"


def _battle(t: Any, event: Event, board: Board) -> Said:
    side = event.side
    attacker = _seen(t, board, side, event.zone, "monster")
    if event.target == DIRECT:
        return f"{WHOSE[side]} {attacker} attacks directly: {event.attack_value}.", "attack"
    target = _seen(t, board, 1 - side, event.target, "face-down card")
    guard = "ATK" if event.defender_attacking else "DEF"
    return (f"{WHOSE[side]} {attacker} ({event.attack_value}) attacks {target} "
            f"({event.defend_value} {guard})."), "attack"


# What each event kind says (its line and motion), by the event's kind.
_LINES: dict[str, Callable[[Any, Event, Board], Said]] = {
    EventKind.TURN: _turn, EventKind.DRAW: _drew, EventKind.PLACED: _placed,
    EventKind.FUSION: _fused, "pass": _passed, EventKind.MAGIC: _magic,
    EventKind.EQUIP: _magic, "order": _order, EventKind.BATTLE: _battle,
    EventKind.DESTROYED: _destroyed, EventKind.LIFE: _life, EventKind.ENDED: _ended,
}


def end_text(winner: int | None, reason: str | None, forfeited: bool = False) -> str:
    """Why the duel ended, as a sentence for the result screen."""
    if forfeited:
        return "You forfeited the duel."
    if reason == "lp":
        return ("The CPU's LP fell to 0.", "Your LP fell to 0.")[winner == 1]
    if reason == "exodia":
        return f"{('You', 'The CPU')[winner == 1]} held all five pieces of Exodia."
    if reason == "empty_hand":
        if winner == DRAW:
            return "A hand ran out of cards with both LP equal."
        return "A hand ran out of cards: the higher LP wins."
    return "The duel ended."
