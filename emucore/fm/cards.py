"""The card facts every FM layer reads: one object per tables, built once from the tables.

:class:`CardFacts` holds the per-id table columns as Python lists (a ``step()`` reads single
cards, where numpy's per-call overhead would dominate), the combination tables as a lookup
list and a pair set, and the guardian-star matchup and terrain boosts computed once from
``emucore.hw.fm_stats`` (the vectorised reference). The engine, the exporter, the computer
opponent, planning and screens read the same object (``FmDuel.cards``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from emucore.fm import legal
from emucore.hw import fm_stats
from emucore.tables.derived import per_tables
from emucore.tables.fm import FmTables

TYPE_MAGIC, TYPE_TRAP, TYPE_RITUAL, TYPE_EQUIP = 20, 21, 22, 23  # card types 0..19: monsters

# Magic classes: the class byte ``func_80026BA4`` dispatches on (fm-engine.md §6.2); each
# card's class, amount and removal argument are columns of roms_tables/fm/magic.csv.
EQUIP_OR_TRAP, FIELD, HEAL, BURN, BOARD_DESTRUCTION, REMOVAL, STOP_DEFENCE, RAIGEKI = range(8)
DARK_PIERCING_LIGHT, STAT_PENALTY, SWORDS, CURSEBREAKER, RITUAL, HARPIE = range(8, 14)
REMOVAL_TYPE_LIMIT = 21  # a removal argument below this is a card type, else an ATK floor / 10
DRAGON_CAPTURE_JAR, JAR_TARGET_TYPE = 329, 0  # DuelEffect_ApplyBoardDestruction: Dragons

# Card ids the rules name (fm-engine.md §6.2, §7): defined here once, read by the engine and
# the computer opponent alike.
DARK_HOLE = 336
MEGAMORPH = 657
ATTACK_TRAPS = (681, 682, 683, 684, 685, 686)  # House of Adhesive Tape .. Widespread Ruin
GOBLIN_FAN, BAD_REACTION, REVERSE_TRAP, FAKE_TRAP = 687, 688, 689, 690
EQUIP_BONUS, MEGAMORPH_BONUS = 500, 1000  # an equip's power-up (0x8001A7F8 / 0x8001A820)


@dataclass(frozen=True)
class CardFacts:
    """Per-id columns of one :class:`FmTables` (index 0 unused)."""

    type: list[int]              # type_id; 20 magic, 21 trap, 22 ritual, 23 equip
    atk: list[int]               # table ATK (already x10), no terrain
    dfn: list[int]
    star1: list[int]
    star2: list[int]
    kind: list[str]              # legal.kind_of per id
    fusion: list[list[int]]      # [a][b] -> result or 0, symmetric
    equip: frozenset[tuple[int, int]]   # (equip id, monster id) pairs that fit
    matchup: list[list[int]]     # [star][star] -> +500 bonus side (fm_stats)
    boost: list[list[int]]       # [terrain 0..6][id] -> terrain stat points
    magic_class: list[int]       # the magic class (above), -1 for monsters
    magic_amount: list[int]      # LP recovered (HEAL), damage (BURN), stat change (PENALTY)
    removal_arg: list[int]       # REMOVAL: a card type, or an ATK floor / 10

    monster: list[bool]          # emucore.hw.fm_stats.is_monster of the type

    def is_monster(self, card: int) -> bool:
        return self.monster[card]


@per_tables
def card_facts(tables: FmTables) -> CardFacts:
    """The facts of ``tables``, built on first use and shared by every duel on them."""
    equip_ids, monster_ids = np.nonzero(tables.equip)
    facts = facts_of(tables.type_id, tables.atk, tables.def_, tables.star_1, tables.star_2,
                     tables.terrain, tables.fusion.tolist(),
                     zip(equip_ids.tolist(), monster_ids.tolist(), strict=True),
                     (tables.magic_class, tables.magic_amount, tables.removal_arg))
    return facts


def facts_of(card_type: ArrayLike, atk: ArrayLike, dfn: ArrayLike, star1: ArrayLike,
             star2: ArrayLike, terrain_table: ArrayLike, fusion: list[list[int]],
             equip: Iterable[tuple[int, int]],
             magic: tuple[ArrayLike, ArrayLike, ArrayLike] | None = None) -> CardFacts:
    """:class:`CardFacts` from per-id columns: the tables' (:func:`card_facts`), or a test's
    synthetic cards. ``fusion`` is the symmetric [a][b] result matrix, ``equip`` the
    (equip, monster) pairs that fit, ``magic`` the (class, amount, removal argument)
    columns (none: no card has a magic class)."""
    types = np.asarray(card_type, np.int64)
    n = len(types)
    if magic is None:
        magic = ([-1] * n, [0] * n, [0] * n)
    stars = np.arange(16)
    matchup = fm_stats.guardian_star_matchup(stars[:, None], stars[None, :])
    boost = [[0] * n]  # terrain 0: no boost
    for terrain in range(1, 7):
        boost.append(fm_stats.terrain_boost(terrain_table, types, terrain).astype(int).tolist())
    type_list = types.tolist()
    classes, amounts, removal = (np.asarray(column).astype(int).tolist() for column in magic)
    return CardFacts(
        type=type_list, atk=np.asarray(atk).astype(int).tolist(),
        dfn=np.asarray(dfn).astype(int).tolist(), star1=np.asarray(star1).astype(int).tolist(),
        star2=np.asarray(star2).astype(int).tolist(),
        kind=[legal.kind_of(t) for t in type_list], fusion=fusion, equip=frozenset(equip),
        matchup=matchup.astype(int).tolist(), boost=boost, magic_class=classes,
        magic_amount=amounts, removal_arg=removal, monster=fm_stats.is_monster(types).tolist())
