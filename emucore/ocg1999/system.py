"""ocg1999: the Starter Box "Official Rules" (1999) as switches of the paper engine, with the
90 Vol.1 + Starter Box cards (roms_tables/ocg1999) and two built-in decks made from them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from emucore import tables
from emucore.paper.cards import FUSION, MAGIC, MONSTER, TRAP, CardDef, Catalogue, catalogue_of
from emucore.paper.decks import DeckList
from emucore.paper.profile import MORE_LP_WHEN_EMPTY, ROCK_PAPER_SCISSORS, Profile
from emucore.paper.system import PaperSystem

PROFILE = Profile(
    name="ocg1999",
    # p. 16: after the Battle Phase it remains the Main Phase until the End Phase
    phases=("draw", "standby", "main", "battle", "main2", "end"),
    start_lp=8000,
    hand_size=5,
    deck_min=40,
    deck_max=None,
    side_size=10,
    max_copies=3,
    first_player_draws=False,
    draw_optional=True,  # "may draw 1"
    first_turn_attacks=False,
    monsters_per_turn=1,
    magic_per_turn=1,
    traps_per_turn=1,
    position_change=True,  # the rulebook: once per turn, not on the turn placed or attacked
    deck_out=MORE_LP_WHEN_EMPTY,
    traps_stay=True,
    first_player=ROCK_PAPER_SCISSORS,
    exodia_wins=True,
)

_KINDS = {"monster": MONSTER, "magic": MAGIC, "trap": TRAP}


def load_catalogue() -> Catalogue:
    """The 90 cards, the fusions they can make and the six Field cards' bonuses."""
    data = tables.load("ocg1999")
    cards = []
    for row in data.cards:
        kind = FUSION if row["monster_kind"] == "fusion" else _KINDS[row["card_type"]]
        cards.append(CardDef(int(row["id"]), str(row["name"]), kind, str(row["monster_type"]),
                             int(row["level"]), int(row["atk"]), int(row["def"]),
                             str(row["effect"]), int(row["amount"]), str(row["effect_type"])))
    pairs = {pair: result for pair, result in data._fusion_pairs.items()}
    return catalogue_of(cards, pairs, data.field_bonus)


def card_id(token: str) -> int:
    return tables.load("ocg1999").card_id(token)


def _deck(main: Iterable[tuple[int, str]], side: Iterable[tuple[int, str]],
          fusion: Iterable[str]) -> DeckList:
    def ids(part: Iterable[tuple[int, str]]) -> tuple[int, ...]:
        return tuple(card_id(name) for count, name in part for _ in range(count))

    return DeckList(ids(main), ids(side), tuple(card_id(n) for n in fusion))


@functools.cache
def magician_deck() -> DeckList:
    """Built-in deck "magician": Dark Magician, fire fusions, Yami."""
    return _deck(
        [(2, "Dark Magician"), (3, "Hitotsu-Me Giant"), (2, "Mammoth Graveyard"),
         (2, "Silver Fang"), (2, "Flame Manipulator"), (2, "Masaki the Legendary Swordsman"),
         (2, "Firegrass"), (2, "Petit Dragon"), (2, "Fiend Reflection #2"), (2, "King Fog"),
         (2, "Ray & Temperature"), (2, "Dissolverock"), (1, "Skull Servant"),
         (2, "Book of Secret Arts"), (1, "Legendary Sword"), (2, "Polymerization"),
         (1, "Sparks"), (1, "Hinotama"), (1, "Red Medicine"), (1, "Fissure"), (1, "Yami"),
         (2, "Trap Hole"), (1, "Two-Pronged Attack"), (1, "Dragon Capture Jar")],
        [(1, "Raigeki"), (1, "Dark Hole"), (2, "Remove Trap"), (1, "Mooyan Curry"),
         (1, "Sogen"), (1, "Umi"), (1, "Dark Gray"), (1, "Nemuriko"), (1, "Kurama")],
        ["Flame Swordsman", "Darkfire Dragon", "Flame Ghost"])


@functools.cache
def dragon_deck() -> DeckList:
    """Built-in deck "dragon": Blue-Eyes, Gaia, walls and the Starter Box fusions."""
    return _deck(
        [(2, "Blue-Eyes White Dragon"), (2, "Gaia The Fierce Knight"), (2, "Monster Egg"),
         (2, "Hinotama Soul"), (2, "Petit Angel"), (2, "Mystical Sheep #2"),
         (2, "Mountain Warrior"), (2, "Spiked Snail"), (2, "Rock Ogre Grotto #2"),
         (2, "Ancient Tree of Enlightenment"), (1, "Green Phantom King"),
         (2, "Lunar Queen Elzaim"), (2, "Kagemusha of the Blue Flame"), (1, "Root Water"),
         (2, "Legendary Sword"), (1, "Beast Fangs"), (2, "Polymerization"), (1, "Mountain"),
         (1, "Raigeki"), (1, "Hinotama"), (1, "Mooyan Curry"), (1, "Remove Trap"),
         (2, "Trap Hole"), (1, "Dragon Capture Jar"), (1, "Two-Pronged Attack")],
        [(1, "Dark Hole"), (1, "Fissure"), (1, "Red Medicine"), (1, "Sparks"), (1, "Forest"),
         (1, "Wasteland"), (1, "Silver Fang"), (1, "Meotoko"), (1, "The Furious Sea King"),
         (1, "Monsturtle")],
        ["Charubin the Fire Knight", "Fusionist"])


SYSTEM = PaperSystem("ocg1999", PROFILE, load_catalogue, card_id,
                     {"magician": magician_deck, "dragon": dragon_deck}, ("magician", "dragon"))
