"""The Forbidden Memories tables' schemas and constants, and what a drop look-up reads of
them, without numpy.

:mod:`emucore.tables.fm` reads every table into numpy arrays and cross-checks them (a duel,
``tables check``). ``emucore fm drop`` answers from two files alone, card names and one
drop pool, so :func:`drop_pool` reads just those as lists (through
:func:`emucore.tables.csvfile.read_columns`, the same rows, cells and messages as the numpy
reader) and checks what a roll rests on: the ids are exactly 1..722, and the pool holds
weights summing to 2048.
"""

from __future__ import annotations

import functools
import re
from collections import namedtuple
from pathlib import Path

from emucore.tables.catalogue import CardLookup
from emucore.tables.csvfile import (
    Column,
    Schema,
    TableError,
    read_columns,
    read_records,
    table_text,
)

CARD_COUNT = 722
ID_SLOTS = CARD_COUNT + 1
DUELIST_COUNT = 39
POOL_SUM = 2048
KINDS = ("monster", "magic", "field", "equip", "ritual", "trap")
MAGIC_CLASSES = 14  # fm-engine.md §6.2; class 0 = equips and traps, 12 = rituals
MAGIC_CLASS_OF_KIND = {"equip": 0, "trap": 0, "ritual": 12}  # classes fixed by the kind
POOLS = ("deck", "sa_pow", "bcd", "sa_tec")  # drop pool index = POOLS.index(name) - 1
SORTS = ("abc", "max", "atk", "def", "type", "ai")
# The Build Deck sorts a deal may follow (``fm deal --sort``, emucore.fm.deck.sort_deck):
# "none" keeps the given order, "id" sorts by id, the others by the cards.csv ordinals.
SORT_ORDERS = ("none", "id", *SORTS)
TERRAINS = ("forest", "wasteland", "mountain", "sogen", "umi", "yami")
TYPE_NAMES = ("Dragon", "Spellcaster", "Zombie", "Warrior", "Beast-Warrior", "Beast",
              "Winged Beast", "Fiend", "Fairy", "Insect", "Dinosaur", "Reptile", "Fish",
              "Sea Serpent", "Machine", "Thunder", "Aqua", "Pyro", "Rock", "Plant", "Magic",
              "Trap", "Ritual", "Equip")
STAR_NAMES = ("", "Mars", "Jupiter", "Saturn", "Uranus", "Pluto", "Neptune", "Mercury", "Sun",
              "Moon", "Venus")


def _ids(name: str, **kw: object) -> Column:
    return Column(name, lo=1, hi=CARD_COUNT, **kw)  # type: ignore[arg-type]


# ATK/DEF are stored as value/10 in 9 bits: multiples of 10 up to 5110.
_STAT = {"lo": 0, "hi": 5110, "multiple_of": 10}
SCHEMAS = (
    Schema("cards.csv", (
        _ids("id", unique=True), Column("name", "str", unique=True),
        Column("kind", "choice", choices=KINDS), Column("type_id", lo=0, hi=23),
        Column("attribute_id", lo=0, hi=7), Column("level", lo=0, hi=12),
        Column("atk", **_STAT), Column("def", **_STAT),  # type: ignore[arg-type]
        Column("star_1", lo=0, hi=10), Column("star_2", lo=0, hi=10),
        Column("password", "str", optional=True), Column("starchip_cost", lo=0, hi=999999),
        *(Column(f"{s}_sort", lo=1, hi=CARD_COUNT) for s in SORTS)), rows=CARD_COUNT),
    Schema("fusions.csv", (_ids("material_low"), _ids("material_high"), _ids("result"),
                           Column("glitch", lo=0, hi=1)),
           rows=25146, key=("material_low", "material_high")),
    Schema("equips.csv", (_ids("equip_id"), _ids("monster_id")), rows=4041,
           key=("equip_id", "monster_id")),
    Schema("rituals.csv", (_ids("ritual_id", unique=True), _ids("tribute_1"), _ids("tribute_2"),
                           _ids("tribute_3"), _ids("result_id")), rows=24),
    Schema("duelists.csv", (
        Column("id", lo=1, hi=DUELIST_COUNT, unique=True), Column("name", "str"),
        Column("hand_size", lo=5, hi=20), Column("lp_threshold", lo=0, hi=255),
        Column("deck_threshold", lo=0, hi=40), Column("combo_depth", lo=0, hi=5),
        Column("evaluate_limit", lo=0, hi=5), Column("unused_5", lo=0, hi=255),
        Column("unused_6", lo=0, hi=255), Column("hold_chance", lo=0, hi=100),
        Column("blind_attack_chance", lo=0, hi=100), Column("sees_face_down", lo=0, hi=1),
        *(Column(f"{s}_{x}", lo=0, hi=100) for s in ("ahead", "behind") for x in "abc"),
        Column("field_ai", lo=0, hi=1), Column("home_field_card", lo=0, hi=CARD_COUNT),
        Column("wa_mrg_block_offset", lo=0)), rows=DUELIST_COUNT),
    Schema("pools.csv", (Column("duelist_id", lo=1, hi=DUELIST_COUNT),
                         Column("pool", "choice", choices=POOLS), _ids("card_id"),
                         Column("weight", lo=1, hi=POOL_SUM)),
           key=("duelist_id", "pool", "card_id")),
    Schema("starter_pools.csv", (Column("group_id", lo=1, hi=7), Column("cards_drawn", lo=1,
                                                                        hi=40),
                                 _ids("card_id"), Column("weight", lo=1, hi=POOL_SUM)),
           key=("group_id", "card_id")),
    Schema("terrain.csv", (Column("type_id", lo=0, hi=19, unique=True),
                           *(Column(t, lo=-500, hi=500, multiple_of=10) for t in TERRAINS)),
           rows=20),
    Schema("guardian_stars.csv", (Column("star_id", lo=1, hi=10, unique=True),
                                  Column("name", "str"), Column("strong_against", lo=1, hi=10),
                                  Column("weak_against", lo=1, hi=10)), rows=10),
    Schema("rank_table.csv", (Column("row", lo=0, hi=9), Column("counter_offset", lo=0,
                                                                  hi=0x1F),
                              Column("category", "str"), Column("min_count", lo=0),
                              Column("max_count", lo=0, optional=True, default=-1),
                              Column("score_delta", lo=-128, hi=127)), rows=50),
    Schema("magic.csv", (_ids("id", unique=True), Column("class", lo=0, hi=MAGIC_CLASSES - 1),
                         Column("amount", lo=-5000, hi=5000),
                         Column("removal_arg", lo=0, hi=255)), rows=101),
    Schema("ranks.csv", (Column("score_min", optional=True, default=-(2**31)),
                         Column("rank", "str", unique=True), Column("starchips", lo=1, hi=5),
                         Column("pool", "choice", choices=POOLS[1:])), rows=10),
)


SCHEMA = {s.file: s for s in SCHEMAS}
POOL_COUNT = DUELIST_COUNT * len(POOLS)  # every duelist has every pool


class DropPool(namedtuple("DropPool", "names weights")):
    """What a drop look-up needs: each card's name (``names[id]``, ``names[0] = ""``) and one
    pool's weight per id 0..722 (a collections.namedtuple: see
    :mod:`emucore.tables.csvfile`)."""

    __slots__ = ()


# A pools.csv whose every row starts with a plain duelist id and pool name and holds four
# plain decimal cells: one pool's rows are then exactly the lines that start with its key.
_PLAIN_POOLS = re.compile(r"duelist_id,pool,card_id,weight\n"
                          r"(?:[1-9][0-9]{0,2},[a-z_]{1,8},[0-9]{1,4},[0-9]{1,4}\n)*")


@functools.cache
def drop_pool(folder: Path, duelist: int, pool: str) -> DropPool:
    """The card names and ``duelist``'s ``pool`` of the FM tables in ``folder`` (read once
    per folder and pool). A look-up checks what it answers from: the names, and the rows of
    its pool (their cells, no card twice, weights summing to 2048); ``tables check`` checks
    every pool. A pool whose rows are not all plain, or hold a problem, is looked up by
    reading the whole file (:func:`pool_weights`), which names the file's first problem as
    the numpy reader does."""
    names = card_names(folder)
    path = folder / SCHEMA["pools.csv"].file
    weights = _plain_pool(table_text(path), duelist, pool)
    if weights is None:
        weights = pool_weights(folder)[duelist, pool]
    return DropPool(names, weights)


def _plain_pool(text: str, duelist: int, pool: str) -> list[int] | None:
    """One pool's weights cut from a plain pools.csv text (:data:`_PLAIN_POOLS`) by its key;
    None for any other text, or when the pool's rows are missing or not sound."""
    if not text.endswith("\n"):
        text += "\n"
    if not _PLAIN_POOLS.fullmatch(text):
        return None
    weights = [0] * ID_SLOTS
    key = f"\n{duelist},{pool},"
    at = text.find(key)
    while at >= 0:
        end = text.index("\n", at + 1)
        card, weight = map(int, text[at + len(key):end].split(","))
        if not (1 <= card <= CARD_COUNT and 1 <= weight <= POOL_SUM) or weights[card]:
            return None
        weights[card] = weight
        at = text.find(key, end)
    return weights if sum(weights) == POOL_SUM else None


def card_info(row: dict[str, object]) -> dict[str, object]:
    """What ``emucore card fm ID`` shows of the cards.csv row ``row`` (its columns by name):
    a monster's type, level, ATK, DEF and guardian stars; every card's password and price."""
    info: dict[str, object] = {"id": row["id"], "name": row["name"], "kind": row["kind"]}
    if row["kind"] == "monster":
        info.update(type=TYPE_NAMES[row["type_id"]], level=row["level"], atk=row["atk"],
                    defense=row["def"],
                    guardian_stars=[STAR_NAMES[row["star_1"]], STAR_NAMES[row["star_2"]]])
    info["password"] = str(row["password"])
    info["starchip_cost"] = row["starchip_cost"]
    return info


def lookup(folder: Path) -> CardLookup:
    """The FM cards of ``folder`` for ``card`` and ``fusion`` (cards.csv; fusions.csv when a
    fusion is asked), each file checked as the numpy reader checks it."""
    rows = _card_rows(folder)
    return CardLookup(CARD_COUNT, {str(r["name"]).casefold(): i for i, r in rows.items()},
                      lambda ident: card_info(rows[ident]), lambda: _fusion_pairs(folder))


def _card_rows(folder: Path) -> dict[int, dict[str, object]]:
    """cards.csv's rows by id (ids exactly 1..722)."""
    rows = {int(row["id"]): row for row in read_records(folder, SCHEMA["cards.csv"])}
    if sorted(rows) != list(range(1, ID_SLOTS)):
        raise TableError(folder / "cards.csv", f"ids must be exactly 1..{CARD_COUNT}")
    return rows


def _fusion_pairs(folder: Path) -> dict[tuple[int, int], int]:
    """fusions.csv as (a, b) -> result, both orders, as the numpy reader's matrix holds it
    (``material_low`` may not be above ``material_high``)."""
    schema = SCHEMA["fusions.csv"]
    fus = read_columns(folder, schema, ("material_low", "material_high", "result"))
    pairs: dict[tuple[int, int], int] = {}
    for i, (low, high, result) in enumerate(zip(fus["material_low"], fus["material_high"],
                                                fus["result"], strict=True)):
        if low > high:
            raise TableError(folder / schema.file, "material_low is greater than "
                             "material_high", line=i + 2, column="material_low")
        pairs[low, high] = pairs[high, low] = result
    return pairs


@functools.cache
def card_names(folder: Path) -> list[str]:
    """Every card's name by id (``names[0] = ""``) from cards.csv in ``folder``, whose ids
    must be exactly 1..722."""
    cards = read_columns(folder, SCHEMA["cards.csv"], ("id", "name"))
    if sorted(cards["id"]) != list(range(1, ID_SLOTS)):
        raise TableError(folder / "cards.csv", f"ids must be exactly 1..{CARD_COUNT}")
    names = [""] * ID_SLOTS
    for ident, name in zip(cards["id"], cards["name"], strict=True):
        names[ident] = name
    return names


@functools.cache
def pool_weights(folder: Path) -> dict[tuple[int, str], list[int]]:
    """Every pool of pools.csv in ``folder`` as (duelist, pool) -> weight per id 0..722,
    the whole file checked as the numpy reader checks it."""
    schema = SCHEMA["pools.csv"]
    pools = read_columns(folder, schema, tuple(c.name for c in schema.columns))
    weights: dict[tuple[int, str], list[int]] = {}
    first: dict[tuple[int, str], int] = {}
    for row, (duelist, pool, card, weight) in enumerate(zip(
            pools["duelist_id"], pools["pool"], pools["card_id"], pools["weight"], strict=True)):
        key = (duelist, pool)
        if key not in weights:
            weights[key], first[key] = [0] * ID_SLOTS, row
        weights[key][card] += weight
    _check_pools(folder / schema.file, weights, first)
    return weights


def _check_pools(path: Path, weights: dict[tuple[int, str], list[int]],
                 first: dict[tuple[int, str], int]) -> None:
    """Every pool's weights sum to 2048 (the first bad pool in (duelist, pool name) order,
    as :func:`emucore.tables.fm.load` names it) and every duelist has every pool."""
    bad = sorted(key for key, row in weights.items() if sum(row) != POOL_SUM)
    if bad:
        duelist, pool = bad[0]
        raise TableError(path, f"pool {duelist}/{pool} sums to {sum(weights[bad[0]])}, not "
                         f"{POOL_SUM}", line=first[bad[0]] + 2, column="weight")
    if len(weights) != POOL_COUNT:
        raise TableError(path, f"expected {POOL_COUNT} pools ({DUELIST_COUNT} duelists x "
                         f"{len(POOLS)})")
