"""What an FM magic, trap, equip, ritual or field card does, in one short line of our own words
and an emblem for its class, read from the engine's own card facts (roms_tables/fm/magic.csv;
never any card text).

The line says what ``emucore.fm`` does with the card, so it stays true to the engine: heal and
burn amounts, the terrain a field card sets, the ATK an attack trap covers, the bonus of an
equip. Each line fits the large card's three lines whole (a test checks it).
"""

from __future__ import annotations

from emucore.fm import battle
from emucore.fm import cards as C
from emucore.fm.cards import card_facts
from emucore.tables.fm import TERRAINS, TYPE_NAMES, FmTables

# The emblem of each effect class: one character of our font, drawn in a corner of the art.
EMBLEMS = {"heal": "\u2665", "burn": "*", "destroy": "\u00d7", "terrain": "^",
           "reveal": "o", "weaken": "\u25bc", "strengthen": "\u25b2", "stop": "!",
           "ritual": "\u2605", "counter": "<", "none": "-"}
_CLASS_EMBLEM = {C.HEAL: "heal", C.BURN: "burn", C.BOARD_DESTRUCTION: "destroy",
                 C.REMOVAL: "destroy", C.RAIGEKI: "destroy", C.HARPIE: "destroy",
                 C.FIELD: "terrain", C.DARK_PIERCING_LIGHT: "reveal", C.SWORDS: "stop",
                 C.STOP_DEFENCE: "stop", C.STAT_PENALTY: "weaken", C.CURSEBREAKER: "strengthen",
                 C.RITUAL: "ritual"}
FIRST_FIELD_CARD = 330  # the field cards 330..335 set terrains 1..6 (emucore.fm.effects)


def effect_class(t: FmTables, card: int) -> str:
    """The emblem key of a non-monster card (``none`` for monsters and inert cards)."""
    kind = t.kind_name(card)
    if kind == "monster":
        return "none"
    if kind == "equip":
        return "strengthen"
    if kind == "trap":
        attack_trap = card in battle.ATTACK_TRAPS or card == battle.FAKE_TRAP
        return "stop" if attack_trap else "counter"
    return _CLASS_EMBLEM.get(card_facts(t).magic_class[card], "none")


def effect_line(t: FmTables, card: int) -> str:
    """One short line on what the engine does with the card ("" for monsters)."""
    kind = t.kind_name(card)
    if kind == "monster":
        return ""
    if kind == "equip":
        bonus = C.MEGAMORPH_BONUS if card == C.MEGAMORPH else C.EQUIP_BONUS
        return f"+{bonus} ATK/DEF to a monster it suits"
    if kind == "trap":
        return _trap_line(card)
    if kind == "ritual":
        return "3 tributes make a ritual monster"
    return _magic_line(t, card)


def _trap_line(card: int) -> str:
    if card in battle.ATTACK_TRAPS:
        limit = battle.TRAP_THRESHOLDS[battle.ATTACK_TRAPS.index(card)] * battle.THRESHOLD_SCALE
        return ("Destroys any attacker" if limit > 9999
                else f"Destroys an attacker up to {limit} ATK")
    if card == battle.FAKE_TRAP:
        return "Stops one attack"
    if card == C.GOBLIN_FAN:
        return "Sends burn damage back"
    if card == C.BAD_REACTION:
        return "Turns the foe's healing into damage"
    if card == C.REVERSE_TRAP:
        return "Foe's equip bonus becomes a loss"
    return "Waits face down; does nothing"


def _magic_line(t: FmTables, card: int) -> str:
    facts = card_facts(t)
    cls, amount = facts.magic_class[card], facts.magic_amount[card]
    if cls == C.HEAL:
        return f"You gain {amount} LP"
    if cls == C.BURN:
        return f"The foe loses {amount} LP"
    if cls == C.FIELD:
        return f"The field becomes {TERRAINS[card - FIRST_FIELD_CARD].capitalize()}"
    if cls == C.BOARD_DESTRUCTION:
        return ("Destroys every monster on the field" if card == C.DARK_HOLE
                else "Destroys the foe's Dragons")
    if cls == C.REMOVAL:
        arg = facts.removal_arg[card]
        if arg < C.REMOVAL_TYPE_LIMIT:
            return f"Destroys the foe's {TYPE_NAMES[arg]} monsters"
        return f"Destroys foe monsters with ATK {arg * 10}+"
    lines = {C.RAIGEKI: "Destroys all the foe's monsters",
             C.HARPIE: "Destroys all foe magic/traps",
             C.STOP_DEFENCE: "Foe defenders switch to attack",
             C.DARK_PIERCING_LIGHT: "Turns the foe's set cards face up",
             C.SWORDS: "Foe cannot attack for 3 turns",
             C.CURSEBREAKER: "Clears the penalties on your monsters"}
    if cls == C.STAT_PENALTY:
        return f"The foe's monsters lose {-amount} ATK/DEF"
    return lines.get(cls, "Does nothing when played")


def emblem(t: FmTables, card: int) -> str:
    """The emblem character of the card's effect class ("" for monsters)."""
    cls = effect_class(t, card)
    return "" if t.kind_name(card) == "monster" else EMBLEMS[cls]
