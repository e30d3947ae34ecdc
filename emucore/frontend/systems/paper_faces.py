"""Card faces for the paper rule systems (ocg1999, tcglite), drawn with the same frames and
pictures as FM's (:mod:`emucore.frontend.cards`, :mod:`emucore.frontend.cardart`): a
monster's silhouette is its type's, magic and trap cards their kind's, and the one line on a
magic or trap card says in our own words what the engine does with it (read from the card's
``effect`` and ``amount`` in the system's table).

Choices where the table says nothing: a monster without a type (tcglite lists none) shows no
type name and takes one neutral figure (:data:`NO_TYPE_SHAPE`, the silhouette of no monster
type, composed with parts like any monster), so its picture claims no type it does not have;
the figure and ground colours are the star ramps picked by the card number (``id % 10``,
``id // 10 % 10``), as the paper cards have no guardian stars.
"""

from __future__ import annotations

from emucore.frontend.cardart import ArtFacts
from emucore.frontend.cards import CardFace
from emucore.paper.cards import CardDef, Catalogue

TYPES = ("Dragon", "Spellcaster", "Zombie", "Warrior", "Beast-Warrior", "Beast", "Winged Beast",
         "Fiend", "Fairy", "Insect", "Dinosaur", "Reptile", "Fish", "Sea Serpent", "Machine",
         "Thunder", "Aqua", "Pyro", "Rock", "Plant")
RAMPS = ("mars", "jupiter", "saturn", "uranus", "pluto", "neptune", "mercury", "sun", "moon",
         "venus")
_BY_KEY = {t.lower().replace("-", "").replace(" ", ""): t for t in TYPES}
NO_TYPE_SHAPE = "Monster"  # a plain standing figure, the silhouette of no monster type


def effect_line(card: CardDef) -> str:
    """What a magic or trap card does, in our words, from its effect kind and amount."""
    n, kind = card.amount, card.effect_type.capitalize() or "Some"
    return {
        "burn": f"The foe loses {n} LP",
        "heal": f"You gain {n} LP",
        "equip": f"A {kind.lower()} gains {n}" if card.effect_type else
        f"One monster gains {n}",
        "field": "Powers up some types",
        "polymerization": "Fuses two of your monsters",
        "destroy_all_monsters": "Destroys every monster",
        "destroy_opponent_monsters": "Destroys all the foe's monsters",
        "destroy_weakest_opponent": "Destroys the foe's weakest monster",
        "destroy_face_up_trap": "Destroys one face-up trap",
        "trap_destroy_summoned": f"Destroys a new monster of {n}+ ATK",
        "trap_destroy_two_and_one": "Two of yours go, one of theirs",
        "trap_lock_type": f"{kind} monsters stay in defence",
    }.get(card.effect, "")


def monster_type(card: CardDef) -> str:
    """The monster type the card data gives, as printed ("Beast-Warrior"), or "" when the
    data has none (never one made up)."""
    key = card.monster_type.lower().replace("-", "").replace(" ", "")
    return _BY_KEY.get(key, card.monster_type.title()) if key else ""


def paper_face(catalogue: Catalogue, card_id: int) -> CardFace:
    """The face of a paper card."""
    card = catalogue[card_id]
    if card.is_monster:
        type_name = monster_type(card)
        shape = type_name if type_name in TYPES else NO_TYPE_SHAPE
        art = ArtFacts(shape, RAMPS[card_id % 10], RAMPS[card_id // 10 % 10], card_id)
        label = " ".join(part for part in (type_name, "Fusion" if card.kind == "fusion"
                                           else "") if part)
        return CardFace(card.name, "monster", card.atk, card.defense, card.level, card_id, art,
                        label)
    kind = {"equip": "equip", "field": "field"}.get(card.effect, card.kind)
    art = ArtFacts(kind.capitalize(), kind, kind, card_id)
    return CardFace(card.name, kind, number=card_id, art=art, type_name=card.kind,
                    emblem="" if kind == card.kind else kind[0].upper(),
                    line=effect_line(card))
