"""Forbidden Memories tables: schemas, cross-checks and the arrays the engine indexes by id.

Arrays indexed by card id have 723 entries (index 0 unused, ids 1..722), like the game's
own tables. Pools are ``(40, 4, 723)`` weights: [duelist id][pool][card id], duelist 0 unused.
The schemas and constants live in :mod:`emucore.tables.fm_lookup` (no numpy), beside the
few columns a look-up reads; they are re-exported here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from emucore.hw import fm_stats
from emucore.tables.catalogue import CardCatalogue
from emucore.tables.fm_lookup import (
    CARD_COUNT,
    DUELIST_COUNT,
    ID_SLOTS,
    KINDS,
    MAGIC_CLASS_OF_KIND,
    MAGIC_CLASSES,
    POOL_SUM,
    POOLS,
    SCHEMAS,
    SORTS,
    STAR_NAMES,
    TERRAINS,
    TYPE_NAMES,
    card_info,
)
from emucore.tables.schema import Table, TableError, check_refs, read_table

__all__ = ["CARD_COUNT", "DUELIST_COUNT", "ID_SLOTS", "KINDS", "MAGIC_CLASS_OF_KIND",
           "MAGIC_CLASSES", "POOL_SUM", "POOLS", "SCHEMAS", "SORTS", "STAR_NAMES", "TERRAINS",
           "TYPE_NAMES", "FmTables", "load"]


@dataclass
class FmTables(CardCatalogue):
    """Every FM table, checked, plus id-indexed arrays for the engine."""

    raw: dict[str, Table]
    names: list[str]  # names[id]; names[0] = ""
    kind: NDArray[np.int8]  # KINDS index per id, -1 for id 0
    type_id: NDArray[np.int8]
    level: NDArray[np.int8]
    atk: NDArray[np.int16]
    def_: NDArray[np.int16]
    star_1: NDArray[np.int8]
    star_2: NDArray[np.int8]
    sort_keys: dict[str, NDArray[np.int16]]  # per sort order name -> ordinal per id
    fusion: NDArray[np.int16]  # [a, b] -> result id or 0, symmetric
    fusion_glitch: NDArray[np.bool_]  # [a, b] True for the 15 odd-count-tail pairs
    equip: NDArray[np.bool_]  # [equip id, monster id]
    rituals: dict[int, tuple[tuple[int, int, int], int]]  # ritual id -> (tributes, result)
    pools: NDArray[np.int32]  # [duelist, POOLS index, card id]
    starter_weights: NDArray[np.int32]  # [group 1..7, card id]
    starter_drawn: NDArray[np.int32]  # [group 1..7]
    terrain: NDArray[np.int16]  # [type 0..19, terrain 1..6 -> column 0..5], stat points
    rank_thresholds: NDArray[np.int32]  # [row, 5] exclusive upper bound per bracket
    rank_values: NDArray[np.int32]  # [row, 5]
    ranks: list[tuple[int, str, int, str]]  # (score_min, rank, starchips, pool), best first
    monster: NDArray[np.bool_]  # per id: emucore.hw.fm_stats.is_monster of the type
    magic_class: NDArray[np.int8]  # per id: the magic class byte (0..13), -1 for monsters
    magic_amount: NDArray[np.int16]  # per id: LP recovered / damage dealt / stat change
    removal_arg: NDArray[np.int16]  # per id (class 5): a card type, or an ATK floor / 10
    _by_name: dict[str, int] = field(default_factory=dict)
    card_count: int = CARD_COUNT

    def card_info(self, ident: int) -> dict[str, object]:
        """What ``emucore card fm ID`` shows (:func:`emucore.tables.fm_lookup.card_info`)."""
        return card_info(self._card_rows[ident])

    @functools.cached_property
    def _card_rows(self) -> dict[int, dict[str, object]]:
        return {int(row["id"]): row for row in self.raw["cards.csv"].rows()}

    def fusion_result(self, a: int, b: int) -> int | None:
        """The fusion of two cards (order-free), or None."""
        result = int(self.fusion[a, b])
        return result or None

    def kind_name(self, ident: int) -> str:
        return KINDS[int(self.kind[ident])]

    def is_monster(self, ident: int) -> bool:
        """emucore.hw.fm_stats.is_monster of the card's type (computed once at load, where
        it is checked against the kind column)."""
        return bool(self.monster[ident])

    def duelist_name(self, duelist: int) -> str:
        return str(self.raw["duelists.csv"]["name"][duelist - 1])

    def duelist_row(self, duelist: int) -> dict[str, object]:
        """One duelists.csv row as a dict (1-based id)."""
        table = self.raw["duelists.csv"]
        return {n: (v.item() if hasattr(v, "item") else v)
                for n, v in ((c.name, table[c.name][duelist - 1])
                             for c in table.schema.columns)}


def _id_array(table: Table, column: str, dtype: type) -> NDArray:
    out = np.zeros(ID_SLOTS, dtype=dtype)
    out[table["id"]] = table[column]
    return out


DEALT_IDS = 720  # a deck pool deals ids 1..720 only (Duel_ShuffleDeck's 720-id scan)
DEALABLE_MIN = 14  # 40 cards at 3 copies each need 14 different cards


def _check_deck_pools(pools: NDArray[np.int32], table: Table) -> None:
    """Every duelist's deck pool can deal a 40-card deck; else dealing would never end."""
    dealable = (pools[1:, POOLS.index("deck"), 1:DEALT_IDS + 1] > 0).sum(axis=1)
    short = np.flatnonzero(dealable < DEALABLE_MIN)
    if short.size:
        raise TableError(table.path, f"duelist {int(short[0]) + 1}'s deck pool has weight on "
                         f"{int(dealable[short[0]])} cards of ids 1..{DEALT_IDS}; a 40-card "
                         f"deck needs {DEALABLE_MIN}")


def _check_sums(table: Table, group_cols: tuple[str, ...], what: str) -> None:
    keys = np.stack([np.unique(table[c], return_inverse=True)[1] for c in group_cols], axis=1)
    groups, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    sums = np.bincount(inverse.reshape(-1), weights=table["weight"], minlength=len(groups))
    bad = np.flatnonzero(sums != POOL_SUM)
    if len(bad):
        i = int(first[bad[0]])
        key = "/".join(str(table[c][i]) for c in group_cols)
        raise table.fail(i, "weight", f"{what} {key} sums to {int(sums[bad[0]])}, not {POOL_SUM}")


def _fusion_arrays(table: Table) -> tuple[NDArray[np.int16], NDArray[np.bool_]]:
    lo, hi = table["material_low"], table["material_high"]
    if (lo > hi).any():
        i = int(np.flatnonzero(lo > hi)[0])
        raise table.fail(i, "material_low", "material_low is greater than material_high")
    fusion = np.zeros((ID_SLOTS, ID_SLOTS), dtype=np.int16)
    glitch = np.zeros((ID_SLOTS, ID_SLOTS), dtype=bool)
    fusion[lo, hi] = fusion[hi, lo] = table["result"]
    glitch[lo, hi] = glitch[hi, lo] = table["glitch"].astype(bool)
    return fusion, glitch


def _magic_arrays(table: Table, kind: NDArray) -> tuple[NDArray, NDArray, NDArray]:
    """Per-id magic class, amount and removal argument; every non-monster card has a row,
    no monster has one, and equips/traps/rituals have the class their kind implies."""
    check_refs(table, "id", kind > 0, "a non-monster card")
    magic_class = np.full(ID_SLOTS, -1, dtype=np.int8)
    amount = np.zeros(ID_SLOTS, dtype=np.int16)
    removal = np.zeros(ID_SLOTS, dtype=np.int16)
    ids = table["id"]
    magic_class[ids], amount[ids], removal[ids] = (table["class"], table["amount"],
                                                   table["removal_arg"])
    for i, ident in enumerate(ids.tolist()):
        fixed = MAGIC_CLASS_OF_KIND.get(KINDS[int(kind[ident])])
        if fixed is not None and int(magic_class[ident]) != fixed:
            raise table.fail(i, "class", f"{KINDS[int(kind[ident])]} cards have class {fixed}")
    return magic_class, amount, removal


def _rank_arrays(table: Table) -> tuple[NDArray, NDArray]:
    thresholds = np.zeros((10, 5), dtype=np.int32)
    values = np.zeros((10, 5), dtype=np.int32)
    slot = np.zeros(10, dtype=np.int32)
    for i in range(len(table)):
        row = int(table["row"][i])
        if slot[row] >= 5:
            raise table.fail(i, "row", f"row {row} has more than 5 brackets")
        top = int(table["max_count"][i])
        thresholds[row, slot[row]] = top + 1 if top >= 0 else 2**31 - 1
        values[row, slot[row]] = table["score_delta"][i]
        slot[row] += 1
    return thresholds, values


def load(folder: Path) -> FmTables:
    """Read, check and index the FM tables in ``folder``."""
    raw = {s.file: read_table(folder, s) for s in SCHEMAS}
    cards = raw["cards.csv"]
    if sorted(cards["id"].tolist()) != list(range(1, ID_SLOTS)):
        raise TableError(cards.path, f"ids must be exactly 1..{CARD_COUNT}")
    kind = np.full(ID_SLOTS, -1, dtype=np.int8)
    kind[cards["id"]] = [KINDS.index(k) for k in cards["kind"]]
    exists = kind >= 0
    monster = kind == 0
    by_type = np.zeros(ID_SLOTS, dtype=bool)
    by_type[cards["id"]] = fm_stats.is_monster(cards["type_id"])
    if (by_type != monster).any():
        ident = int(np.flatnonzero(by_type != monster)[0])
        row = int(np.flatnonzero(cards["id"] == ident)[0])
        raise cards.fail(row, "kind", "a monster's type_id is below 20, and only a monster's")
    for name in ("fusions.csv", "equips.csv", "rituals.csv", "pools.csv", "starter_pools.csv"):
        table = raw[name]
        for col in table.schema.columns:
            if col.hi == CARD_COUNT and col.lo == 1:
                check_refs(table, col.name, exists, "a card id")
    check_refs(raw["equips.csv"], "monster_id", monster, "a monster")
    check_refs(raw["equips.csv"], "equip_id", kind == KINDS.index("equip"), "an equip card")
    for col in ("tribute_1", "tribute_2", "tribute_3", "result_id"):
        check_refs(raw["rituals.csv"], col, monster, "a monster")
    check_refs(raw["rituals.csv"], "ritual_id", kind == KINDS.index("ritual"), "a ritual card")
    _check_sums(raw["pools.csv"], ("duelist_id", "pool"), "pool")
    _check_sums(raw["starter_pools.csv"], ("group_id",), "starter group")
    pools_t = raw["pools.csv"]
    if len({(d, p) for d, p in zip(pools_t["duelist_id"], pools_t["pool"], strict=True)}) != 156:
        raise TableError(pools_t.path, "expected 156 pools (39 duelists x 4)")
    pools = np.zeros((DUELIST_COUNT + 1, len(POOLS), ID_SLOTS), dtype=np.int32)
    pool_idx = np.array([POOLS.index(p) for p in pools_t["pool"]])
    pools[pools_t["duelist_id"], pool_idx, pools_t["card_id"]] = pools_t["weight"]
    _check_deck_pools(pools, pools_t)
    st = raw["starter_pools.csv"]
    starter = np.zeros((8, ID_SLOTS), dtype=np.int32)
    starter[st["group_id"], st["card_id"]] = st["weight"]
    drawn = np.zeros(8, dtype=np.int32)
    drawn[st["group_id"]] = st["cards_drawn"]
    if int(drawn.sum()) != 40:
        raise TableError(st.path, f"starter groups draw {int(drawn.sum())} cards, not 40")
    terrain_t = raw["terrain.csv"]
    terrain = np.zeros((20, len(TERRAINS)), dtype=np.int16)
    terrain[terrain_t["type_id"]] = np.stack([terrain_t[t] for t in TERRAINS], axis=1)
    fusion, glitch = _fusion_arrays(raw["fusions.csv"])
    equip = np.zeros((ID_SLOTS, ID_SLOTS), dtype=bool)
    equip[raw["equips.csv"]["equip_id"], raw["equips.csv"]["monster_id"]] = True
    rt = raw["rituals.csv"]
    rituals = {int(rt["ritual_id"][i]): ((int(rt["tribute_1"][i]), int(rt["tribute_2"][i]),
                                          int(rt["tribute_3"][i])), int(rt["result_id"][i]))
               for i in range(len(rt))}
    magic_class, magic_amount, removal_arg = _magic_arrays(raw["magic.csv"], kind)
    thresholds, values = _rank_arrays(raw["rank_table.csv"])
    rk = raw["ranks.csv"]
    ranks = [(int(rk["score_min"][i]), str(rk["rank"][i]), int(rk["starchips"][i]),
              str(rk["pool"][i])) for i in range(len(rk))]
    names = [""] * ID_SLOTS
    for ident, name in zip(cards["id"].tolist(), cards["name"], strict=True):
        names[ident] = str(name)
    return FmTables(
        raw=raw, names=names, kind=kind,
        type_id=_id_array(cards, "type_id", np.int8), level=_id_array(cards, "level", np.int8),
        atk=_id_array(cards, "atk", np.int16), def_=_id_array(cards, "def", np.int16),
        star_1=_id_array(cards, "star_1", np.int8), star_2=_id_array(cards, "star_2", np.int8),
        sort_keys={s: _id_array(cards, f"{s}_sort", np.int16) for s in SORTS},
        fusion=fusion, fusion_glitch=glitch, equip=equip, rituals=rituals, pools=pools,
        starter_weights=starter, starter_drawn=drawn, terrain=terrain,
        rank_thresholds=thresholds, rank_values=values, ranks=ranks,
        monster=by_type, magic_class=magic_class, magic_amount=magic_amount,
        removal_arg=removal_arg,
        _by_name={n.casefold(): i for i, n in enumerate(names) if n},
    )
