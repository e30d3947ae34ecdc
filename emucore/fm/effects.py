"""Magic cards (14 classes, §6), effect-response traps (§7.2) and rituals (§8).

``func_80026BA4`` dispatches on a class byte per card (``gDuelEffect_abGroupByEffectId``,
0x80090AD4: cards 301-350, 651-700 and 721); each card's class, amount and removal argument
are the table columns of roms_tables/fm/magic.csv (built from the spec's §6.2, which lists
every magic, equip, trap and ritual id; its classes equal the decompiled table, tested),
read through the duel's card facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emucore.fm import choices
from emucore.fm import state as S
from emucore.fm.actions import (
    Flip,
    Magic,
    PositionChange,
    RitualSummon,
    StatChange,
    TerrainChange,
    Trap,
)
from emucore.fm.cards import (
    BOARD_DESTRUCTION,
    BURN,
    CURSEBREAKER,
    DARK_PIERCING_LIGHT,
    EQUIP_OR_TRAP,
    FIELD,
    HARPIE,
    HEAL,
    JAR_TARGET_TYPE,
    RAIGEKI,
    REMOVAL,
    REMOVAL_TYPE_LIMIT,
    RITUAL,
    STAT_PENALTY,
    STOP_DEFENSE,
    SWORDS,
    TYPE_MAGIC,
)

if TYPE_CHECKING:
    from emucore.fm.engine import FmDuel

DARK_HOLE = 336
GOBLIN_FAN, BAD_REACTION, REVERSE_TRAP = 687, 688, 689
SWORDS_TURNS = 3 + 1  # DUEL_SWORDS_DURATION_TURNS + 1


def use_card(d: FmDuel, side: int, r: int, star: int = 0) -> None:
    """The use sequence ``func_80019608``: a non-monster (from the hand, the magic/trap row
    or the end of a chain) takes effect and leaves play; an equip or trap has none (class
    0). Pure magic (+0x05) counts type 20. ``star`` is the player's answer to a ritual's
    star dialog."""
    card = d.card_at(r)
    ctype = d.card_type(card)
    if ctype == TYPE_MAGIC:
        d.st.bump(side, "pure_magic")
    cls = d.facts.magic_class[card]
    if cls == RITUAL:
        d.discard(r)
        _ritual(d, side, card, star)
        return
    d.discard(r)
    d.events.append(Magic(side, card, _EFFECT_NAMES[cls]))
    _HANDLERS[cls](d, side, card)


def _field(d: FmDuel, side: int, card: int) -> None:
    """``func_80024E58``: the terrain becomes ``card - 0x149``; side +0x0A counts it."""
    d.st.bump(side, "field_cards")
    d.st.globals.terrain[0] = card - 329
    d.recompute_terrain()
    d.events.append(TerrainChange(card - 329))


def _heal(d: FmDuel, side: int, card: int) -> None:
    """``DuelEffect_ApplyLifePointRecovery``; Bad Reaction to Simochi turns it into a loss."""
    amount = d.facts.magic_amount[card]
    if _respond(d, 1 - side, BAD_REACTION, card):
        d.damage(side, amount)
    else:
        d.heal(side, amount)


def _burn(d: FmDuel, side: int, card: int) -> None:
    """``DuelEffect_ApplyDirectDamage``; Goblin Fan sends the damage back to the caster."""
    amount = d.facts.magic_amount[card]
    if _respond(d, 1 - side, GOBLIN_FAN, card):
        d.damage(side, amount)
    else:
        d.damage(1 - side, amount)


def _respond(d: FmDuel, owner: int, trap_id: int, against: int) -> bool:
    """An effect-response trap of ``owner`` fires if set: removed, counted, shown."""
    r = d.find_trap(owner, trap_id)
    if r < 0:
        return False
    col = r - d.rec(owner, S.MAGIC, 0)
    d.discard(r)
    d.st.bump(owner, "traps_triggered")
    d.events.append(Trap(owner, trap_id, col, against))
    return True


def _board_destruction(d: FmDuel, side: int, card: int) -> None:
    """``func_800257A0``: Dark Hole walks records 5-14 and 20-29, every monster and
    magic/trap card of both sides (the caster's own set cards too); Dragon Capture Jar
    takes the opposing Dragons."""
    if card == DARK_HOLE:
        targets = [r for s in (0, 1) for row in (S.MONSTERS, S.MAGIC)
                   for r in d.row_records(s, row)]
    else:
        targets = [r for r in d.row_records(1 - side, S.MONSTERS)
                   if d.card_type(d.card_at(r)) == JAR_TARGET_TYPE]
    for r in targets:
        d.destroy(r)


def _removal(d: FmDuel, side: int, card: int) -> None:
    """``DuelEffect_ApplyMonsterRemoval``: arg < 21 a type, else CalcCardStats ATK >= arg*10."""
    arg = d.facts.removal_arg[card]
    for r in d.row_records(1 - side, S.MONSTERS):
        if arg < REMOVAL_TYPE_LIMIT:
            hit = d.card_type(d.card_at(r)) == arg
        else:
            hit = d.stats(r)[0] >= arg * 10
        if hit:
            d.destroy(r)


def _stop_defense(d: FmDuel, side: int, card: int) -> None:
    """``DuelEffect_ApplyStopDefense``: every opposing defender switches to attack."""
    for r in d.row_records(1 - side, S.MONSTERS):
        if d.flags(r) & S.F_DEFENSE:
            d.set_flags(r, d.flags(r) & ~S.F_DEFENSE)
            d.events.append(PositionChange(1 - side, r % 5, d.card_at(r), False))


def _raigeki(d: FmDuel, side: int, card: int) -> None:
    for r in d.row_records(1 - side, S.MONSTERS):
        d.destroy(r)


def _reveal(d: FmDuel, side: int) -> None:
    """Turn ``side``'s face-down monsters face-up."""
    for r in d.row_records(side, S.MONSTERS):
        if d.flags(r) & S.F_FACE_DOWN:
            d.set_flags(r, d.flags(r) & ~S.F_FACE_DOWN)
            d.events.append(Flip(side, "monster", r % 5, d.card_at(r)))


def _dark_piercing_light(d: FmDuel, side: int, card: int) -> None:
    """``DuelEffect_ApplyDarkPiercingLight``: grid entries 5-14 of the caster's view
    (``D_800907D8``) are the opposing monsters and its own monsters; no magic/trap card."""
    _reveal(d, 1 - side)
    _reveal(d, side)


def _stat_penalty(d: FmDuel, side: int, card: int) -> None:
    """``DuelEffect_ApplyStatPenalty``: permanent stat_modifier penalty on every opposing
    monster (ATK and DEF)."""
    for r in d.row_records(1 - side, S.MONSTERS):
        d.add_modifier(r, d.facts.magic_amount[card])
        d.events.append(StatChange(1 - side, r % 5, d.card_at(r), d.st.cards.stat_modifier[r]))


def _swords(d: FmDuel, side: int, card: int) -> None:
    """Reveal the opposing monsters; the opponent's side +0x19 = 4. It is decremented at
    that side's own draw phase (func_8001898C), so it blocks its next three turns."""
    _reveal(d, 1 - side)
    d.st.sides.swords[1 - side] = SWORDS_TURNS


def _cursebreaker(d: FmDuel, side: int, card: int) -> None:
    """``DuelEffect_ApplyCursebreaker``: one step per 16 frames over grid entries 10-14 of
    the caster's view (``D_800907D8``: its own monster row, columns 0-4); an occupied record
    with a negative stat_modifier gets 0 (its ATK and DEF penalty together). Positive
    modifiers and the opposing monsters are left alone."""
    mods = d.st.cards.stat_modifier
    for r in d.row_records(side, S.MONSTERS):
        if mods[r] < 0:
            mods[r] = 0
            d.events.append(StatChange(side, r % 5, d.card_at(r), 0))


def _harpie(d: FmDuel, side: int, card: int) -> None:
    """``DuelEffect_ApplyHarpiesFeatherDuster``: grid entries 0-4 of the caster's view (the
    opposing magic/trap row, column 4 down to 0); each occupied record is removed
    (``func_80024954``). No trap springs and nothing is counted."""
    first = d.rec(1 - side, S.MAGIC, 0)
    for c in reversed(d.columns(first)):
        d.destroy(first + c)


def _nothing(d: FmDuel, side: int, card: int) -> None:
    """Class 0 used as magic: no effect."""


_HANDLERS = {EQUIP_OR_TRAP: _nothing, FIELD: _field, HEAL: _heal, BURN: _burn,
             BOARD_DESTRUCTION: _board_destruction, REMOVAL: _removal,
             STOP_DEFENSE: _stop_defense, RAIGEKI: _raigeki,
             DARK_PIERCING_LIGHT: _dark_piercing_light, STAT_PENALTY: _stat_penalty,
             SWORDS: _swords, CURSEBREAKER: _cursebreaker, HARPIE: _harpie}
_EFFECT_NAMES = {EQUIP_OR_TRAP: "none", FIELD: "terrain", HEAL: "heal", BURN: "burn",
                 BOARD_DESTRUCTION: "destruction", REMOVAL: "removal",
                 STOP_DEFENSE: "stop_defense", RAIGEKI: "raigeki",
                 DARK_PIERCING_LIGHT: "reveal", STAT_PENALTY: "penalty", SWORDS: "swords",
                 CURSEBREAKER: "cursebreaker", RITUAL: "ritual", HARPIE: "harpie"}


def check_ritual(d: FmDuel, side: int, ritual: int) -> tuple[list[int], int]:
    """``Duel_CheckRitual``: three distinct occupied monster records of ``side`` holding the
    three tribute ids (position and face-down do not matter); ([], 0) when missing."""
    entry = d.t.rituals.get(ritual)
    if entry is None:
        return [], 0
    tributes, result = entry
    free = d.row_records(side, S.MONSTERS)
    chosen = []
    for want in tributes:
        hit = next((r for r in free if d.card_at(r) == want), -1)
        if hit < 0:
            return [], 0
        chosen.append(hit)
        free.remove(hit)
    return chosen, result


def _ritual(d: FmDuel, side: int, ritual: int, star: int) -> None:
    """``DuelEffect_ApplyRitual``: the three tributes leave; the result takes the second
    tribute's record (``slots[3]``, recipe order) and that tribute's deck-card record, whose
    id becomes the result; face-up in attack position. A computer-played side picks the
    star with ``rand() & 1`` (one call), the player answers the dialog (``star``). Without
    the tributes the ritual card is simply used up."""
    tributes, result = check_ritual(d, side, ritual)
    if not result:
        d.events.append(RitualSummon(side, ritual, 0, -1))
        return
    target = tributes[1]
    deck_index = d.deck_index_of(target)
    for r in tributes:
        d.destroy(r)
    calls = 0
    if side in d.computer_sides:
        star, calls = d.rng.rand() & 1, 1
    d.st.deck_cards.card_id[deck_index] = result
    d.set_deck(deck_index, S.ON_FIELD, target)
    d.setup_record(target, result, deck_index, S.F_OCCUPIED | (S.F_STAR2 if star else 0))
    d.events.append(RitualSummon(side, ritual, result, target % 5, rand_calls=calls))


def reverse_trap(d: FmDuel, side: int, monster: int) -> None:
    """Reverse Trap (689): after a play that gave an equip bonus (D_8009B154 != 0) the
    opponent's trap turns the gain into a loss: stat_modifier -= REVERSE_TRAP_FACTOR x bonus
    (choices.REVERSE_TRAP_FACTOR)."""
    bonus = d.st.globals.equip_bonus[0]
    if not bonus or monster < 0 or not d.occupied(monster):
        return
    if _respond(d, 1 - side, REVERSE_TRAP, d.card_at(monster)):
        d.add_modifier(monster, -choices.REVERSE_TRAP_FACTOR * bonus)
        d.events.append(StatChange(side, monster % 5, d.card_at(monster),
                                   d.st.cards.stat_modifier[monster]))
