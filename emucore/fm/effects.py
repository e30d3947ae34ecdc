"""Magic cards (14 classes, §6), effect-response traps (§7.2) and rituals (§8).

``func_80026BA4`` dispatches on a class byte per card (``gDuelEffect_abGroupByEffectId``,
0x80090AD4: cards 301-350, 651-700 and 721); each card's class, amount and removal argument
are the table columns of roms_tables/fm/magic.csv (built from the spec's §6.2, which lists
every magic, equip, trap and ritual id; its classes equal the decompiled table, tested),
read through the duel's card facts.
"""

from __future__ import annotations

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
from emucore.fm.board import BoardOps
from emucore.fm.cards import (
    BAD_REACTION,
    BOARD_DESTRUCTION,
    BURN,
    CURSEBREAKER,
    DARK_HOLE,
    DARK_PIERCING_LIGHT,
    EQUIP_OR_TRAP,
    FIELD,
    GOBLIN_FAN,
    HARPIE,
    HEAL,
    JAR_TARGET_TYPE,
    RAIGEKI,
    REMOVAL,
    REMOVAL_TYPE_LIMIT,
    REVERSE_TRAP,
    RITUAL,
    STAT_PENALTY,
    STOP_DEFENCE,
    SWORDS,
    TYPE_MAGIC,
)

HEAL_FIRST = 338  # the heal cards 338-342 take effect 5's records 0-4
CURSE_KEPT, CURSE_LIFTED = 3, 5  # DuelEffect_ApplyCursebreaker: effect 8's record per column
SWORDS_TURNS = 3 + 1  # DUEL_SWORDS_DURATION_TURNS + 1


def use_card(d: BoardOps, side: int, r: int, star: int = 0) -> None:
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


def opposing_walk(d: BoardOps, side: int) -> list[int]:
    """The opposing monsters in ``side``'s grid order (``D_800907D8`` entries 5-9: the
    opposing monster row from column 4 down), the order the handlers walk them."""
    return list(reversed(d.row_records(1 - side, S.MONSTERS)))


def _field(d: BoardOps, side: int, card: int) -> None:
    """``func_80024E58``: the terrain becomes ``card - 0x149``; side +0x0A counts it."""
    d.st.bump(side, "field_cards")
    d.st.globals.terrain[0] = card - 329
    d.recompute_terrain()
    d.events.append(TerrainChange(card - 329))
    d.show(d.timeline.field(card - 329))


def _heal(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyLifePointRecovery``: effect 5 with the card's record, then the LP;
    Bad Reaction to Simochi turns it into a loss: effect 5 with record +5, the trap, effect
    9 (the heal reversed), then the loss."""
    amount, k = d.facts.magic_amount[card], card - HEAL_FIRST
    tl = d.timeline
    answered = d.find_trap(1 - side, BAD_REACTION) >= 0
    d.show(tl.heal(k, reversed_=answered))
    if _respond(d, 1 - side, BAD_REACTION, card):
        d.show(tl.bad_reaction(k))
        d.damage(side, amount)
    else:
        d.heal(side, amount)


def _burn(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyDirectDamage``: effect 6, then the damage; Goblin Fan sends it back
    to the caster: effect 6, the trap, effect 7, then the caster's loss."""
    amount = d.facts.magic_amount[card]
    d.show(d.timeline.burn)
    if _respond(d, 1 - side, GOBLIN_FAN, card):
        d.show(d.timeline.goblin_fan)
        d.damage(side, amount)
    else:
        d.damage(1 - side, amount)


def _respond(d: BoardOps, owner: int, trap_id: int, against: int) -> bool:
    """An effect-response trap of ``owner`` fires if set: removed, counted, shown
    (``Duel_UpdateTrapPresentation``: effect 8)."""
    r = d.find_trap(owner, trap_id)
    if r < 0:
        return False
    col = r - d.rec(owner, S.MAGIC, 0)
    d.discard(r)
    d.st.bump(owner, "traps_triggered")
    d.events.append(Trap(owner, trap_id, col, against))
    d.show(d.timeline.trap())
    return True


def _board_destruction(d: BoardOps, side: int, card: int) -> None:
    """``func_800257A0``: Dark Hole walks records 5-14 and 20-29, every monster and
    magic/trap card of both sides (the caster's own set cards too); Dragon Capture Jar
    takes the opposing Dragons."""
    if card == DARK_HOLE:
        targets = [r for s in (0, 1) for row in (S.MONSTERS, S.MAGIC)
                   for r in d.row_records(s, row)]
    else:
        targets = [r for r in d.row_records(1 - side, S.MONSTERS)
                   if d.card_type(d.card_at(r)) == JAR_TARGET_TYPE]
    d.show(d.timeline.board_destruction(card != DARK_HOLE, len(targets)))  # effect 17 first
    for r in targets:
        d.destroy(r)


def _removal(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyMonsterRemoval``: arg < 21 a type, else CalcCardStats ATK >= arg*10.
    Effect 15 flashes the zones, then each card that matches, in the caster's grid order
    (the opposing monster row from column 4 down), is removed and breaks up (effect 11,
    blocking: one after the other)."""
    arg = d.facts.removal_arg[card]
    tl = d.timeline
    d.show(tl.removal_flash)
    for r in opposing_walk(d, side):
        if arg < REMOVAL_TYPE_LIMIT:
            hit = d.card_type(d.card_at(r)) == arg
        else:
            hit = d.stats(r)[0] >= arg * 10
        if hit:
            d.destroy(r)
            d.show(tl.card_removed)


def _stop_defense(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyStopDefense``: every opposing defender switches to attack. Effect
    12 plays on each of the five opposing columns in turn (occupied or not), and the card
    there, if it defends, turns round while it plays."""
    first = d.rec(1 - side, S.MONSTERS, 0)
    for col in range(4, -1, -1):
        d.show(d.timeline.stop_defense)
        r = first + col
        if d.occupied(r) and d.flags(r) & S.F_DEFENCE:
            d.set_flags(r, d.flags(r) & ~S.F_DEFENCE)
            d.events.append(PositionChange(1 - side, col, d.card_at(r), False))


def _raigeki(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyRaigeki``: five bolts (effect 16) strike the opposing columns in the
    caster's grid order (column 4 down); each monster struck is removed and breaks up
    (effect 11) while the bolts go on."""
    first = d.rec(1 - side, S.MONSTERS, 0)
    struck = [d.occupied(first + col) for col in range(4, -1, -1)]
    for r in opposing_walk(d, side):
        d.destroy(r)
    d.show(d.timeline.raigeki(struck))


def _reveal(d: BoardOps, side: int) -> None:
    """Turn ``side``'s face-down monsters face-up."""
    for r in d.row_records(side, S.MONSTERS):
        if d.flags(r) & S.F_FACE_DOWN:
            d.set_flags(r, d.flags(r) & ~S.F_FACE_DOWN)
            d.events.append(Flip(side, "monster", r % 5, d.card_at(r)))


def _dark_piercing_light(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyDarkPiercingLight``: grid entries 5-14 of the caster's view
    (``D_800907D8``) are the opposing monsters and its own monsters; no magic/trap card."""
    d.show(d.timeline.reveal)  # effect 19; the cards turn at its 57th frame
    _reveal(d, 1 - side)
    _reveal(d, side)


def _stat_penalty(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyStatPenalty``: permanent stat_modifier penalty on every opposing
    monster (ATK and DEF), each shown with effect 13 (16 frames apart)."""
    for r in opposing_walk(d, side):
        d.add_modifier(r, d.facts.magic_amount[card])
        d.events.append(StatChange(1 - side, r % 5, d.card_at(r), d.st.cards.stat_modifier[r]))
        d.show(d.timeline.stat_change)


def _swords(d: BoardOps, side: int, card: int) -> None:
    """Reveal the opposing monsters; the opponent's side +0x19 = 4. It is decremented at
    that side's own draw phase (func_8001898C), so it blocks its next three turns. Its
    opening (effect 18, record 1) plays first, then the swords come down (effect 21)."""
    d.show(d.timeline.opening)
    d.show(d.timeline.swords)
    _reveal(d, 1 - side)
    d.st.sides.swords[1 - side] = SWORDS_TURNS


def _cursebreaker(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyCursebreaker``: one step per 16 frames over grid entries 10-14 of
    the caster's view (``D_800907D8``: its own monster row, columns 0-4); an occupied record
    with a negative stat_modifier gets 0 (its ATK and DEF penalty together). Positive
    modifiers and the opposing monsters are left alone. Each of the five steps shows effect
    8 on the column, with record 5 where a penalty was lifted and 3 elsewhere."""
    mods = d.st.cards.stat_modifier
    first = d.rec(side, S.MONSTERS, 0)
    for col in range(S.ROW_WIDTH):
        r = first + col
        lifted = d.occupied(r) and mods[r] < 0
        if lifted:
            mods[r] = 0
            d.events.append(StatChange(side, col, d.card_at(r), 0))
        d.show(d.timeline.trap(CURSE_LIFTED if lifted else CURSE_KEPT))


def _harpie(d: BoardOps, side: int, card: int) -> None:
    """``DuelEffect_ApplyHarpiesFeatherDuster``: grid entries 0-4 of the caster's view (the
    opposing magic/trap row, column 4 down to 0); each occupied record is removed
    (``func_80024954``) once the sweep (effect 23) has played. No trap springs and nothing
    is counted."""
    first = d.rec(1 - side, S.MAGIC, 0)
    swept = [first + c for c in reversed(d.columns(first))]
    d.show(d.timeline.duster(len(swept)))
    for r in swept:
        d.destroy(r)


def _nothing(d: BoardOps, side: int, card: int) -> None:
    """Class 0 used as magic: no effect."""


_HANDLERS = {EQUIP_OR_TRAP: _nothing, FIELD: _field, HEAL: _heal, BURN: _burn,
             BOARD_DESTRUCTION: _board_destruction, REMOVAL: _removal,
             STOP_DEFENCE: _stop_defense, RAIGEKI: _raigeki,
             DARK_PIERCING_LIGHT: _dark_piercing_light, STAT_PENALTY: _stat_penalty,
             SWORDS: _swords, CURSEBREAKER: _cursebreaker, HARPIE: _harpie}
_EFFECT_NAMES = {EQUIP_OR_TRAP: "none", FIELD: "terrain", HEAL: "heal", BURN: "burn",
                 BOARD_DESTRUCTION: "destruction", REMOVAL: "removal",
                 STOP_DEFENCE: "stop_defense", RAIGEKI: "raigeki",
                 DARK_PIERCING_LIGHT: "reveal", STAT_PENALTY: "penalty", SWORDS: "swords",
                 CURSEBREAKER: "cursebreaker", RITUAL: "ritual", HARPIE: "harpie"}


def check_ritual(d: BoardOps, side: int, ritual: int) -> tuple[list[int], int]:
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


def _ritual(d: BoardOps, side: int, ritual: int, star: int) -> None:
    """``DuelEffect_ApplyRitual``: the three tributes leave; the result takes the second
    tribute's record (``slots[3]``, recipe order) and that tribute's deck-card record, whose
    id becomes the result; face-up in attack position. A computer-played side picks the
    star with ``rand() & 1`` (one call), the player answers the dialog (``star``). Without
    the tributes the ritual card is simply used up. ``DuelEffect_StartRitual`` opens with
    effect 18 (record 1) either way; a summon plays effect 22, whose calls all come before
    the computer's star roll (the roll waits for the result card to settle, ~90 frames
    after the tributes leave, by which time the effect has ended)."""
    d.show(d.timeline.opening)
    tributes, result = check_ritual(d, side, ritual)
    if not result:
        d.events.append(RitualSummon(side, ritual, 0, -1))
        return
    d.show(d.timeline.ritual)
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


def reverse_trap(d: BoardOps, side: int, monster: int) -> None:
    """Reverse Trap (689): after a play that gave an equip bonus (D_8009B154 != 0) the
    opponent's trap turns the gain into a loss: stat_modifier -= REVERSE_TRAP_FACTOR x bonus
    (choices.REVERSE_TRAP_FACTOR)."""
    bonus = d.st.globals.equip_bonus[0]
    if not bonus or monster < 0 or not d.occupied(monster):
        return
    if _respond(d, 1 - side, REVERSE_TRAP, d.card_at(monster)):
        d.show(d.timeline.stat_change)  # func_8001B170 state 6: effect 13 showing -bonus
        d.add_modifier(monster, -choices.REVERSE_TRAP_FACTOR * bonus)
        d.events.append(StatChange(side, monster % 5, d.card_at(monster),
                                   d.st.cards.stat_modifier[monster]))
