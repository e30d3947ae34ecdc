"""Magic handlers and the class table, read from the decompilation
(krystalgamer/memories-decomp): ``DuelEffect_ApplyCursebreaker``,
``DuelEffect_ApplyHarpiesFeatherDuster`` and ``gDuelEffect_abGroupByEffectId``
(src/game/duel_effect_tables.c, 0x80090AD4), which ``func_80026BA4`` indexes by card
(cards 301-350 -> 0-49, 651-700 -> 50-99, Dark Magic Ritual 721 -> 100).
"""

from __future__ import annotations

import csv
from pathlib import Path

from oracle_duel import T, new_duel, turn

from emucore.fm.actions import EndTurn, Play
from emucore.fm.cards import card_facts

MAGIC_CSV = Path(__file__).resolve().parents[2] / "roms_tables" / "fm" / "magic.csv"

STRONG, WEAK, OTHER = 39, 13, 62
SPELLBINDING, CURSEBREAKER, HARPIE = 349, 655, 672
GOBLIN_FAN, RAIGEKI, WIDESPREAD_RUIN = 687, 337, 686

# gDuelEffect_abGroupByEffectId as read from the C (our transcription): the cards of each
# group; every other card of 301-350 and 651-700 is group 0 (no effect).
C_GROUPS = {
    1: range(330, 336),                       # terrain
    2: range(338, 343),                       # life point recovery
    3: range(343, 348),                       # direct damage
    4: (329, 336),                            # board destruction
    5: (653, 656, 660, 661, 662, 663, 664),   # monster removal
    6: (320,),                                # stop defense
    7: (337,),                                # raigeki
    8: (350,),                                # dark-piercing light
    9: (349, 669),                            # stat penalty
    10: (348,),                               # swords
    11: (655,),                               # cursebreaker
    12: (665, 666, 667, 670, 671, *range(673, 681), *range(691, 701), 721),   # ritual
    13: (672,),                               # harpie's feather duster
}
C_BLOCKS = (*range(301, 351), *range(651, 701), 721)   # the ids func_80026BA4 accepts


def c_class(card: int) -> int:
    return next((g for g, cards in C_GROUPS.items() if card in cards), 0)


def test_magic_csv_classes_equal_the_decompiled_group_table():
    """gDuelEffect_abGroupByEffectId (104 bytes, groups 0-13 in the handler table's order):
    roms_tables/fm/magic.csv lists exactly the ids func_80026BA4 dispatches (the 101
    non-monster cards) and gives each the C table's group as its class."""
    with open(MAGIC_CSV, newline="") as f:
        table = {int(row["id"]): int(row["class"]) for row in csv.DictReader(f)}
    assert sorted(table) == list(C_BLOCKS)
    assert {c for c in C_BLOCKS if not T.is_monster(c)} == set(C_BLOCKS)
    assert sum(len(cards) for cards in C_GROUPS.values()) == 57
    assert {card: table[card] for card in C_BLOCKS} == {card: c_class(card) for card in C_BLOCKS}
    facts = card_facts(T)
    assert [facts.magic_class[c] for c in C_BLOCKS] == [c_class(c) for c in C_BLOCKS]


def test_cursebreaker_clears_only_the_casters_negative_modifiers():
    """DuelEffect_ApplyCursebreaker: five steps over grid entries 10-14 of the caster's view
    (its own monsters, columns 0-4); an occupied record with stat_modifier < 0 is set to 0.
    Side 1's Spellbinding Circle left -500 on side 0's Strong (column 0); side 0's left
    -500 on side 1's Weak; Other (column 1) has 0. After side 0's Cursebreaker: Strong 0,
    Other 0, side 1's Weak still -500; one stat change, column 0."""
    d = new_duel((STRONG, SPELLBINDING, OTHER, CURSEBREAKER), (WEAK, SPELLBINDING, WEAK))
    for _ in range(6):
        turn(d)
    assert d.card(0, "monster", 0).atk == T.atk[STRONG] - 500
    assert d.card(1, "monster", 0).atk == T.atk[WEAK] - 500
    events = turn(d)
    assert [(e.side, e.zone, e.card, e.stat_modifier) for e in events if e.kind == "stat"] == [
        (0, 0, STRONG, 0)]
    assert (d.card(0, "monster", 0).atk, d.card(0, "monster", 0).defense) == (
        T.atk[STRONG], T.def_[STRONG])
    assert d.card(0, "monster", 1).atk == T.atk[OTHER]
    assert d.card(1, "monster", 0).atk == T.atk[WEAK] - 500


def test_harpies_feather_duster_removes_the_row_from_column_four_down():
    """DuelEffect_ApplyHarpiesFeatherDuster, second handler: i = 0..4 over
    D_800907D8[acting * 20 + i] (the opposing magic/trap row, column 4 first), each occupied
    record removed with func_80024954; no trap springs. Side 1's cards in columns 1, 3 and 4
    go in the order 4, 3, 1 and its traps-triggered count stays 0."""
    d = new_duel((WEAK, WEAK, WEAK, HARPIE), (GOBLIN_FAN, RAIGEKI, WIDESPREAD_RUIN))
    for col in (1, 3, 4):
        turn(d)
        d.step(Play((0,), zone=col, face_down=True))
        d.step(EndTurn())
    events = d.step(Play((0,)))
    gone = [(e.side, e.row, e.zone) for e in events if e.kind == "destroyed"]
    assert gone == [(1, "magic", 4), (1, "magic", 3), (1, "magic", 1)]
    assert not [e for e in events if e.kind == "trap"]
    assert d.counters(1)["traps_triggered"] == 0
    assert all(d.card(1, "magic", c) is None for c in range(5))
