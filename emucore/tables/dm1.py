"""Duel Monsters (Game Boy, 1998) tables: schemas, cross-checks and id-indexed arrays.

Arrays indexed by card number have 366 entries (index 0 unused, numbers 1..365); the cartridge
itself indexes by number - 1. ``stat[terrain, id]`` holds the stored ATK/DEF per terrain
(0 = no field, 1..6 = Forest..Yami), mirroring the seven ROM stat tables of bank 9.
The schemas and constants live in :mod:`emucore.tables.dm1_lookup` (no numpy), beside what
a one-card look-up reads.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from emucore.tables.catalogue import CardCatalogue
from emucore.tables.dm1_lookup import (
    CARD_COUNT,
    EFFECTS,
    ID_SLOTS,
    KINDS,
    MAX_STAT,
    MONSTERS,
    OPPONENT_COUNT,
    POOL_STATUS,
    POOL_SUM,
    REWARD_WINS,
    SCHEMAS,
    STARTER_MAGIC_CARDS,
    STARTER_POOL_SIZE,
    TERRAINS,
    TYPE_NAMES,
    card_info,
)
from emucore.tables.schema import Table, TableError, check_refs, read_table

__all__ = ["CARD_COUNT", "EFFECTS", "ID_SLOTS", "KINDS", "MAX_STAT", "MONSTERS", "OPPONENT_COUNT",
           "POOL_STATUS", "POOL_SUM", "REWARD_WINS", "SCHEMAS", "STARTER_MAGIC_CARDS",
           "STARTER_POOL_SIZE", "TERRAINS", "TYPE_NAMES", "Dm1Tables", "load"]


@dataclass
class Dm1Tables(CardCatalogue):
    """Every DM1 table, checked, plus the arrays the engine indexes by card number."""

    raw: dict[str, Table]
    names: list[str]  # names[id]; names[0] = ""
    kind: NDArray[np.int8]  # 0 monster, 1 magic, -1 for id 0
    type_id: NDArray[np.int8]
    stat: NDArray[np.int16]  # [terrain 0..6, id, 0 ATK / 1 DEF]
    fusion: NDArray[np.int16]  # [a, b] -> result or 0, symmetric
    equip: NDArray[np.bool_]  # [equip id, monster id]
    effect: NDArray[np.int8]  # EFFECTS index per magic id, -1 otherwise
    amount: NDArray[np.int16]  # heal/burn LP per magic id
    terrain_of: NDArray[np.int8]  # terrain slot per field card id
    magic_rows: dict[int, dict[str, object]]
    pools: NDArray[np.int32]  # [opponent, id] deck weights (sum 2048 each)
    drops: NDArray[np.int32]  # [opponent, id] drop weights (sum 2048 each)
    rewards: NDArray[np.int16]  # [opponent, milestone 0..9] card won at 10, 20 ... 100 wins
    starter_pool: list[int]  # the 100 monsters a new game's deck is dealt from
    starter_magic: list[int]  # the seven magic cards of a new game's deck (copies repeated)
    opponents: list[dict[str, object]]
    _by_name: dict[str, int] = field(default_factory=dict)
    card_count: int = CARD_COUNT

    @functools.cached_property
    def kind_list(self) -> list[int]:
        """``kind`` as a Python list (scalar look-ups in the duel's hot path)."""
        return self.kind.tolist()

    @functools.cached_property
    def fusion_list(self) -> list[list[int]]:
        """``fusion`` as nested Python lists (scalar look-ups in the duel's hot path)."""
        return self.fusion.tolist()

    def card_info(self, ident: int | str) -> dict[str, object]:
        """What ``emucore card dm1 ID`` shows."""
        ident = self.card_id(str(ident))
        return card_info(self._card_rows[ident - 1], self.magic_rows.get(ident))

    @functools.cached_property
    def _card_rows(self) -> list[dict[str, object]]:
        return list(self.raw["cards.csv"].rows())

    def counts(self) -> dict[str, int]:
        """Rows per table, plus what the fusion table covers: distinct results and materials
        (the ROM has 52 and 263) and the fusions made by a magic card (Elegant Egotist)."""
        out = super().counts()
        fus = self.raw["fusions.csv"]
        out["fusion_results"] = len(np.unique(fus["result"]))
        out["fusion_materials"] = len(np.unique(np.concatenate(
            (fus["material_low"], fus["material_high"]))))
        out["fusion_by_magic"] = int((self.effect == EFFECTS.index("transform")).sum())
        return out

    def fusion_result(self, a: int, b: int) -> int | None:
        """The fusion of two cards (order-free), or None."""
        return int(self.fusion[a, b]) or None

    def is_monster(self, ident: int) -> bool:
        return int(self.kind[ident]) == 0

    def opponent(self, index: int) -> dict[str, object]:
        """One opponents.csv row (ROM duelist index 0..15)."""
        if not 0 <= index < OPPONENT_COUNT:
            raise KeyError(f"opponent {index} outside 0..{OPPONENT_COUNT - 1}")
        return self.opponents[index]


def _stat_table(cards: Table, stats: Table) -> NDArray[np.int16]:
    stat = np.zeros((TERRAINS, ID_SLOTS, 2), dtype=np.int16)
    stat[:, cards["id"], 0] = cards["atk"]
    stat[:, cards["id"], 1] = cards["def"]
    stat[stats["terrain"], stats["card_id"], 0] = stats["atk"]
    stat[stats["terrain"], stats["card_id"], 1] = stats["def"]
    return stat


def _weights(table: Table, distinct: NDArray) -> NDArray[np.int32]:
    """``[opponent, id]`` weights of a pool table, after checking that each opponent's weights
    sum to 2048 over exactly ``distinct[opponent]`` cards (opponents.csv)."""
    owner = table["opponent_id"]
    sums = np.bincount(owner, weights=table["weight"], minlength=OPPONENT_COUNT)
    cards = np.bincount(owner, minlength=OPPONENT_COUNT)
    for opp in range(OPPONENT_COUNT):
        rows = np.flatnonzero(owner == opp)
        first = int(rows[0]) if len(rows) else 0
        if int(sums[opp]) != POOL_SUM:
            raise table.fail(first, "weight",
                             f"pool of opponent {opp} sums to {int(sums[opp])}, not {POOL_SUM}")
        if int(cards[opp]) != int(distinct[opp]):
            raise table.fail(first, "card_id", f"opponent {opp} has {int(cards[opp])} cards, "
                                               f"opponents.csv says {int(distinct[opp])}")
    weights = np.zeros((OPPONENT_COUNT, ID_SLOTS), dtype=np.int32)
    weights[owner, table["card_id"]] = table["weight"]
    return weights


def _rewards(table: Table) -> NDArray[np.int16]:
    """``[opponent, milestone]`` reward cards; every opponent needs all ten milestones."""
    rewards = np.zeros((OPPONENT_COUNT, len(REWARD_WINS)), dtype=np.int16)
    rewards[table["opponent_id"], table["wins"] // REWARD_WINS[0] - 1] = table["card_id"]
    missing = np.argwhere(rewards == 0)
    if len(missing):
        opp, i = (int(v) for v in missing[0])
        raise TableError(table.path, f"opponent {opp} has no reward at {REWARD_WINS[i]} wins")
    return rewards


def _starter_magic(table: Table) -> list[int]:
    cards = [int(c) for c, n in zip(table["card_id"], table["copies"], strict=True)
             for _ in range(int(n))]
    if len(cards) != STARTER_MAGIC_CARDS:
        raise TableError(table.path, f"{len(cards)} magic cards, a new deck has "
                                     f"{STARTER_MAGIC_CARDS}")
    return cards


def _check_kinds(cards: Table) -> NDArray[np.int8]:
    if cards["id"].tolist() != list(range(1, ID_SLOTS)):
        raise TableError(cards.path, f"ids must be exactly 1..{CARD_COUNT} in order")
    kind = np.full(ID_SLOTS, -1, dtype=np.int8)
    kind[cards["id"]] = [KINDS.index(k) for k in cards["kind"]]
    if int((kind == 0).sum()) != MONSTERS:
        raise TableError(cards.path, f"{int((kind == 0).sum())} monsters, expected {MONSTERS}")
    for i, k in enumerate(cards["kind"]):
        magic = k == "magic"
        if magic != (int(cards["type_id"][i]) == 20):
            raise cards.fail(i, "type_id", "type 20 (Magic) is for magic cards only")
    return kind


def load(folder: Path) -> Dm1Tables:
    """Read, check and index the DM1 tables in ``folder``."""
    raw = {s.file: read_table(folder, s) for s in SCHEMAS}
    cards = raw["cards.csv"]
    kind = _check_kinds(cards)
    monster, magic = kind == 0, kind == 1
    for col in ("material_low", "material_high", "result"):
        check_refs(raw["fusions.csv"], col, monster, "a monster")
    check_refs(raw["magic.csv"], "id", magic, "a magic card")
    check_refs(raw["fields.csv"], "field_card", magic, "a magic card")
    check_refs(raw["field_stats.csv"], "card_id", monster, "a monster")
    check_refs(raw["equips.csv"], "monster_id", monster, "a monster")
    check_refs(raw["opponent_pools.csv"], "card_id", monster, "a monster")
    check_refs(raw["starter_pool.csv"], "card_id", monster, "a monster")
    check_refs(raw["starter_magic.csv"], "card_id", magic, "a magic card")
    magic_t = raw["magic.csv"]
    effect = np.full(ID_SLOTS, -1, dtype=np.int8)
    effect[magic_t["id"]] = [EFFECTS.index(e) for e in magic_t["effect"]]
    check_refs(raw["equips.csv"], "equip_id", effect == EFFECTS.index("equip"),
               "an equip card")
    opp_t = raw["opponents.csv"]
    order = np.argsort(opp_t["id"])  # rows by opponent id
    fus = raw["fusions.csv"]
    fusion = np.zeros((ID_SLOTS, ID_SLOTS), dtype=np.int16)  # as dm1_lookup.fusion_pairs
    fusion[fus["material_low"], fus["material_high"]] = fus["result"]
    fusion[fus["material_high"], fus["material_low"]] = fus["result"]
    eq = raw["equips.csv"]
    equip = np.zeros((ID_SLOTS, ID_SLOTS), dtype=bool)
    equip[eq["equip_id"], eq["monster_id"]] = True
    amount = np.zeros(ID_SLOTS, dtype=np.int16)
    amount[magic_t["id"]] = magic_t["amount"]
    terrain_of = np.zeros(ID_SLOTS, dtype=np.int8)
    terrain_of[magic_t["id"]] = magic_t["terrain"]
    names = [""] + [str(n) for n in cards["name"]]
    return Dm1Tables(
        raw=raw, names=names, kind=kind,
        type_id=np.concatenate(([0], cards["type_id"])).astype(np.int8),
        stat=_stat_table(cards, raw["field_stats.csv"]), fusion=fusion, equip=equip,
        effect=effect, amount=amount, terrain_of=terrain_of,
        magic_rows={int(r["id"]): r for r in magic_t.rows()},
        pools=_weights(raw["opponent_pools.csv"], opp_t["deck_cards"][order]),
        drops=_weights(raw["drops.csv"], opp_t["drop_cards"][order]),
        rewards=_rewards(raw["rewards.csv"]),
        starter_pool=[int(c) for c in raw["starter_pool.csv"]["card_id"]],
        starter_magic=_starter_magic(raw["starter_magic.csv"]),
        opponents=sorted(opp_t.rows(), key=lambda r: r["id"]),
        _by_name={n.casefold(): i for i, n in enumerate(names) if n})
