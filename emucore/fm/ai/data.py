"""The data the AI reads: the duel's card facts (:class:`emucore.fm.cards.CardFacts`, the
same object the engine reads) and the lookups the programs need on top of them, as plain
Python lists for fast scalar lookups.

Built once per tables object (:func:`of`: the chooser reads the duel's own ``tables``); tests
may build their own (a synthetic fusion table for the golden cases of spec/fm-ai.md §11).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from emucore.fm import cards
from emucore.fm.cards import CardFacts
from emucore.hw import fm_stats
from emucore.tables.derived import per_tables
from emucore.tables.fm import FmTables

STAT_MAX, MONSTER_TYPES = fm_stats.STAT_MAX, fm_stats.MONSTER_TYPES
OPPONENT_BYTES = 9  # gDuel_aOpponentData row width
DUELIST_BYTE_COLUMNS = ("hand_size", "lp_threshold", "deck_threshold", "combo_depth",
                        "evaluate_limit", "unused_5", "unused_6", "hold_chance",
                        "blind_attack_chance")


@dataclass(frozen=True)
class Duelist:
    """The per-duelist facts the programs branch on (spec/fm-ai.md §6.3-§6.4)."""

    ident: int
    name: str
    row: tuple[int, ...]            # the 9 bytes of gDuel_aOpponentData
    sees_face_down: bool            # r14 = 0
    ahead: tuple[int, int, int]     # A/B/C percentages
    behind: tuple[int, int, int]
    home_field_card: int            # 0 = none

    @property
    def home_terrain(self) -> int:
        """The terrain the duelist's field card sets (0 = normal when it has none)."""
        return self.home_field_card - 329 if self.home_field_card else 0


@dataclass(frozen=True)
class AiData:
    """What the AI reads beyond the duel's card facts: combination lookups shaped for the
    fusion search, base stats per terrain, rituals and duelist rows."""

    cards: CardFacts                # the duel's card facts (emucore.fm.cards)
    base_atk: list[list[int]]   # [terrain][id]: Duel_GetBaseCardStat (raw + terrain, 0..9999)
    base_def: list[list[int]]
    base_max: list[list[int]]   # [terrain][id]: the greater of base_atk and base_def
    terrain_boost: list[list[int]]  # [terrain][type]
    fusion: list[dict[int, int]]    # fusion[a][b] = result (symmetric)
    equips: list[frozenset[int]]    # equips[equip id] = monsters it fits
    combines: list[frozenset[int]]  # combines[a] = every card a fuses with or equips
    rituals: tuple[tuple[int, tuple[int, int, int], int], ...]  # (ritual, tributes, result)
    opponent_bytes: list[int]       # 40 rows x 9 bytes, row 0 = copy of row 1
    duelists: dict[int, Duelist]
    burns: tuple[int, ...]          # BURN cards in id order (Sparks .. Tremendous Fire)
    heals: tuple[int, ...]          # HEAL cards in id order
    type_removal: dict[int, int]    # card -> the card type it removes (Jar, then class 5)

    def check_equip(self, equip: int, monster: int) -> int:
        """``Duel_CheckEquip(equip, monster)``: the monster if the equip fits it, else 0."""
        return monster if monster in self.equips[equip] else 0


def build(card_type: Iterable[int], atk: Iterable[int], dfn: Iterable[int],
          star_1: Iterable[int], star_2: Iterable[int], terrain_table: Iterable[Iterable[int]],
          fusions: Iterable[tuple[int, int, int]], equips: Iterable[tuple[int, int]],
          rituals: Mapping[int, tuple[tuple[int, int, int], int]],
          duelists: Mapping[int, Duelist],
          magic: tuple[Iterable[int], Iterable[int], Iterable[int]] | None = None) -> AiData:
    """:class:`AiData` over synthetic cards (tests): plain sequences indexed by id, the
    combinations as (a, b, result) and (equip, monster); ``magic`` as in
    :func:`emucore.fm.cards.facts_of`."""
    ctype = list(card_type)
    fusion = [[0] * len(ctype) for _ in ctype]
    for a, b, r in fusions:
        fusion[a][b] = fusion[b][a] = r
    table = [list(r) for r in terrain_table]
    facts = cards.facts_of(ctype, list(atk), list(dfn), list(star_1), list(star_2), table,
                           fusion, equips, magic)
    return assemble(facts, table, rituals, duelists)


def assemble(facts: CardFacts, terrain_table: Iterable[Iterable[int]],
             rituals: Mapping[int, tuple[tuple[int, int, int], int]],
             duelists: Mapping[int, Duelist]) -> AiData:
    """The AI's lookups derived from the card facts, plus rituals and duelist rows."""
    classes, removal = facts.magic_class, facts.removal_arg
    type_removal = {cards.DRAGON_CAPTURE_JAR: cards.JAR_TARGET_TYPE} if (
        len(classes) > cards.DRAGON_CAPTURE_JAR
        and classes[cards.DRAGON_CAPTURE_JAR] == cards.BOARD_DESTRUCTION) else {}
    type_removal.update((c, removal[c]) for c, k in enumerate(classes)
                        if k == cards.REMOVAL and removal[c] < cards.REMOVAL_TYPE_LIMIT)
    n = len(facts.type)
    table = [list(r) for r in terrain_table]
    boost = [[0] * 24]
    for col in zip(*table, strict=True):
        boost.append([int(v) for v in col] + [0] * 4)   # types 20..23 never boosted

    def base(stat: list[int], terrain: int) -> list[int]:
        """``Duel_GetBaseCardStat``: the stat with the terrain boost, one clamp."""
        return fm_stats.card_stat(stat, 0, fm_stats.terrain_boost(table, facts.type,
                                                                  terrain)).tolist()

    fits: list[set[int]] = [set() for _ in range(n)]
    for e, m in facts.equip:
        fits[e].add(m)
    fusion = [{b: r for b, r in enumerate(row) if r} for row in facts.fusion]
    equips = [frozenset(s) for s in fits]
    rows = sorted(duelists)
    opponent = list(duelists[rows[0]].row) if rows else [0] * OPPONENT_BYTES
    for d in range(1, 40):
        opponent += list(duelists[d].row) if d in duelists else [0] * OPPONENT_BYTES
    base_atk = [base(facts.atk, t) for t in range(7)]
    base_def = [base(facts.dfn, t) for t in range(7)]
    return AiData(
        cards=facts, base_atk=base_atk, base_def=base_def,
        base_max=[list(map(max, a, d)) for a, d in zip(base_atk, base_def, strict=True)],
        terrain_boost=boost,
        fusion=fusion, equips=equips,
        combines=[frozenset(f) | e for f, e in zip(fusion, equips, strict=True)],
        rituals=tuple((r, tuple(t), res) for r, (t, res) in sorted(rituals.items())),
        opponent_bytes=opponent, duelists=dict(duelists),
        burns=tuple(c for c, k in enumerate(classes) if k == cards.BURN),
        heals=tuple(c for c, k in enumerate(classes) if k == cards.HEAL),
        type_removal=type_removal)


@per_tables
def of(tables: FmTables) -> AiData:
    """The AI data of ``tables``, built on first use."""
    return _from_tables(tables)


def load() -> AiData:
    """The AI data of the shipped FM tables."""
    from emucore import tables

    return of(tables.load("fm"))


def _from_tables(t: FmTables) -> AiData:
    duel_t = t.raw["duelists.csv"]
    duelists = {}
    for i in range(len(duel_t)):
        row = t.duelist_row(int(duel_t["id"][i]))
        duelists[int(row["id"])] = Duelist(
            ident=int(row["id"]), name=str(row["name"]),
            row=tuple(int(row[c]) for c in DUELIST_BYTE_COLUMNS),
            sees_face_down=bool(row["sees_face_down"]),
            ahead=(int(row["ahead_a"]), int(row["ahead_b"]), int(row["ahead_c"])),
            behind=(int(row["behind_a"]), int(row["behind_b"]), int(row["behind_c"])),
            home_field_card=int(row["home_field_card"]))
    return assemble(cards.card_facts(t), t.terrain.tolist(), t.rituals, duelists)
