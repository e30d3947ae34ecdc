"""Duel Monsters (Game Boy, 1998) tables' schemas and constants, and what a one-card look-up
reads of them, without numpy.

:mod:`emucore.tables.dm1` reads every table into numpy arrays and cross-checks them (a duel,
``tables check``); ``emucore card dm1`` and ``emucore fusion dm1`` answer from cards.csv,
magic.csv and fusions.csv alone (:func:`lookup`, :class:`emucore.tables.catalogue.CardLookup`).
"""

from __future__ import annotations

from pathlib import Path

from emucore.tables.catalogue import CardLookup
from emucore.tables.csvfile import Column, Schema, TableError, read_columns, read_records

CARD_COUNT = 365
ID_SLOTS = CARD_COUNT + 1
MONSTERS = 315
OPPONENT_COUNT = 16
TERRAINS = 7  # 0 none, 1 Forest, 2 Wasteland, 3 Mountain, 4 Sogen, 5 Umi, 6 Yami
POOL_SUM = 2048
KINDS = ("monster", "magic")
TYPE_NAMES = ("Dragon", "Spellcaster", "Zombie", "Warrior", "Beast-Warrior", "Beast",
              "Winged Beast", "Fiend", "Fairy", "Insect", "Dinosaur", "Reptile", "Fish",
              "Sea Serpent", "Machine", "Thunder", "Aqua", "Pyro", "Rock", "Plant", "Magic")
EFFECTS = ("equip", "transform", "force_attack", "seal_type", "field", "destroy_all",
           "destroy_opponent", "heal", "burn", "lock", "level_down_all", "reveal")
MAX_STAT = 9999  # four BCD digits
POOL_STATUS = ("exact", "estimated", "approximate")  # how far an opponent's deck pool is known
REWARD_WINS = tuple(range(10, 101, 10))  # the milestone wins (BCD thresholds at 0x36F02)
STARTER_POOL_SIZE = 100
STARTER_MAGIC_CARDS = 7


def _ids(name: str, **kw: object) -> Column:
    return Column(name, lo=1, hi=CARD_COUNT, **kw)  # type: ignore[arg-type]


_STAT = {"lo": 0, "hi": MAX_STAT}
_APPROX = Column("approximate", lo=0, hi=1)
SCHEMAS = (
    Schema("cards.csv", (
        _ids("id", unique=True), Column("name", "str", unique=True),
        Column("kind", "choice", choices=KINDS), Column("type_id", lo=0, hi=20),
        Column("atk", optional=True, multiple_of=10, **_STAT),  # type: ignore[arg-type]
        Column("def", optional=True, multiple_of=10, **_STAT),  # type: ignore[arg-type]
        Column("rarity", "choice", choices=("S", "A", "B", "C", "D")),
        Column("password", "str", optional=True), Column("name_full", "str")),
        rows=CARD_COUNT),
    Schema("fusions.csv", (_ids("material_low"), _ids("material_high"), _ids("result")),
           key=("material_low", "material_high")),
    Schema("magic.csv", (
        _ids("id", unique=True), Column("name", "str"),
        Column("effect", "choice", choices=EFFECTS), Column("amount", lo=0, hi=MAX_STAT),
        Column("terrain", lo=0, hi=TERRAINS - 1),
        Column("sealed_type", lo=0, hi=19, optional=True, default=-1),
        Column("transform_from", lo=1, hi=CARD_COUNT, optional=True),
        Column("transform_to", lo=1, hi=CARD_COUNT, optional=True),
        Column("lock_turns", lo=1, hi=99, optional=True)), rows=CARD_COUNT - MONSTERS),
    Schema("fields.csv", (_ids("field_card", unique=True),
                          Column("terrain", lo=1, hi=TERRAINS - 1, unique=True),
                          Column("name", "str"), Column("boosted", "str", optional=True),
                          Column("weakened", "str", optional=True)), rows=TERRAINS - 1),
    Schema("field_stats.csv", (_ids("card_id"), Column("terrain", lo=1, hi=TERRAINS - 1),
                               Column("atk", **_STAT), Column("def", **_STAT),  # type: ignore
                               _APPROX), rows=MONSTERS * (TERRAINS - 1),
           key=("card_id", "terrain")),
    Schema("equips.csv", (_ids("equip_id"), _ids("monster_id"), _APPROX),
           key=("equip_id", "monster_id")),
    Schema("opponents.csv", (Column("id", lo=0, hi=OPPONENT_COUNT - 1, unique=True),
                             Column("name", "str"), Column("rom_name", "str"),
                             Column("pool_id", lo=0, hi=16), Column("stage", lo=1, hi=5),
                             Column("deck_cards", lo=1, hi=CARD_COUNT),
                             Column("drop_cards", lo=1, hi=CARD_COUNT),
                             Column("pool", "choice", choices=POOL_STATUS)),
           rows=OPPONENT_COUNT),
    Schema("opponent_pools.csv", (Column("opponent_id", lo=0, hi=OPPONENT_COUNT - 1),
                                  _ids("card_id"), Column("weight", lo=1, hi=POOL_SUM),
                                  _APPROX), key=("opponent_id", "card_id")),
    Schema("drops.csv", (Column("opponent_id", lo=0, hi=OPPONENT_COUNT - 1), _ids("card_id"),
                         Column("weight", lo=1, hi=POOL_SUM), _APPROX),
           key=("opponent_id", "card_id")),
    Schema("rewards.csv", (Column("opponent_id", lo=0, hi=OPPONENT_COUNT - 1),
                           Column("wins", lo=REWARD_WINS[0], hi=REWARD_WINS[-1],
                                  multiple_of=REWARD_WINS[0]),
                           _ids("card_id"), _APPROX),
           rows=OPPONENT_COUNT * len(REWARD_WINS), key=("opponent_id", "wins")),
    Schema("starter_pool.csv", (_ids("card_id", unique=True), _APPROX), rows=STARTER_POOL_SIZE),
    Schema("starter_magic.csv", (_ids("card_id", unique=True), Column("copies", lo=1, hi=7),
                                 _APPROX)),
)

SCHEMA = {s.file: s for s in SCHEMAS}


def card_info(row: dict[str, object], magic: dict[str, object] | None) -> dict[str, object]:
    """What ``emucore card dm1 ID`` shows of the cards.csv row ``row`` and, for a magic card,
    its magic.csv row ``magic``."""
    info: dict[str, object] = {"id": row["id"], "name": row["name"],
                               "name_full": str(row["name_full"]), "kind": row["kind"],
                               "type": TYPE_NAMES[row["type_id"]], "rarity": str(row["rarity"])}
    if row["kind"] == "monster":
        info.update(atk=row["atk"], defense=row["def"])
    elif magic is not None:
        info.update({k: v for k, v in magic.items()
                     if k in ("effect", "amount", "terrain") and v})
    if row["password"]:
        info["password"] = str(row["password"])
    return info


def fusion_pairs(lows: list[int], highs: list[int], results: list[int]
                 ) -> dict[tuple[int, int], int]:
    """fusions.csv's columns as (a, b) -> result, both orders; a pair listed both ways
    takes its (high, low) row, as the numpy reader's matrix is written."""
    pairs = dict(zip(zip(lows, highs, strict=True), results, strict=True))
    pairs.update(zip(zip(highs, lows, strict=True), results, strict=True))
    return pairs


def lookup(folder: Path) -> CardLookup:
    """The DM1 cards of ``folder`` for ``card`` and ``fusion`` (cards.csv and magic.csv;
    fusions.csv when a fusion is asked), each file checked as the numpy reader checks it."""
    cards = read_records(folder, SCHEMA["cards.csv"])
    if [r["id"] for r in cards] != list(range(1, ID_SLOTS)):
        raise TableError(folder / "cards.csv", f"ids must be exactly 1..{CARD_COUNT} in order")
    magic = {int(r["id"]): r for r in read_records(folder, SCHEMA["magic.csv"])}
    fusions = SCHEMA["fusions.csv"]

    def pairs() -> dict[tuple[int, int], int]:
        fus = read_columns(folder, fusions, tuple(c.name for c in fusions.columns))
        return fusion_pairs(fus["material_low"], fus["material_high"], fus["result"])

    return CardLookup(CARD_COUNT, {str(r["name"]).casefold(): int(r["id"]) for r in cards},
                      lambda ident: card_info(cards[ident - 1], magic.get(ident)), pairs)

