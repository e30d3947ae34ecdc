"""The Forbidden Memories machine, declared once: the RAM records the duel state mirrors.

Every region of the state image is declared here with its RAM address (``None`` for emucore's
own), its record layout (a numpy dtype) and its record count (spec/fm-engine.md §11.2,
spec/fm-ai.md §2), as regions of one :class:`emucore.duel.records.Layout`. Everything else is
generated from this declaration by that shared mechanism:

* the image layout: :data:`OFFSET`, :data:`LENGTH`, :data:`SIZE`, :data:`REGIONS`
  (name, address, length) in ``snapshot()`` order;
* the field names of ``state_fields()`` and their byte spans (:data:`SPANS`, :func:`fields_of`)
  that replay diffs and the capture verifier use;
* the named strided views the rules read and write (:func:`views`): ``cards.flags[r]``,
  ``sides.lp[s]``, ``deck_cards.card_id[k]``, ``globals.phase[0]`` - memoryviews over the one
  buffer, one per field, so no rule spells an offset or a stride.
"""

from __future__ import annotations

import numpy as np

from emucore.duel.records import Layout, Records, RecordWriter, Region, Span

SIDE_DTYPE = np.dtype({
    "names": ["end_adjust", "turns", "effective_attacks", "defensive_wins", "face_down_plays",
              "pure_magic", "traps_triggered", "multi_plays", "fusions", "equips", "field_cards",
              "attack_destroys", "defenders_lost", "avg_atk", "avg_def", "lp_display", "lp",
              "max_lp", "draw_cursor", "swords", "hand", "view_mode"],
    "formats": ["i1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1", "u1",
                "<i2", "<i2", "<i2", "<u2", "<i2", "i1", "i1", ("i1", (5,)), "i1"],
    "offsets": [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
                0x0E, 0x10, 0x12, 0x14, 0x16, 0x18, 0x19, 0x1A, 0x1F],
    "itemsize": 0x20,
})

CARD_DTYPE = np.dtype({
    "names": ["display", "deck_ptr", "unknown_08", "card_id", "attack", "defense",
              "stat_modifier", "terrain_modifier", "flags", "table_index"],
    "formats": ["<u4", "<u4", "<u4", "<i2", "<i2", "<i2", "<i2", "<i2", "<u2", "u1"],
    "offsets": [0x00, 0x04, 0x08, 0x0C, 0x0E, 0x10, 0x12, 0x14, 0x16, 0x18],
    "itemsize": 0x1C,
})

DECK_DTYPE = np.dtype({
    "names": ["card_id", "index", "record", "flags"],
    "formats": ["<i2", "u1", "u1", "<u2"],
    "offsets": [0, 2, 3, 4],
    "itemsize": 6,
})

# emucore's record of duel globals; each field names the original's variable where known.
GLOBALS_DTYPE = np.dtype([
    ("rng_state", "<u4"),      # gRand_dwSeed 0x800FE6F8
    ("rng_calls", "<u4"),      # emucore: rand() calls since the duel's setup began
    ("acting_side", "u1"),     # 0x8009B1D5
    ("winner", "i1"),          # gDuel_bWinnerSide 0x8009B165 (-1 while the duel runs)
    ("opponent", "i1"),        # gDuel_bOpponentID 0x8009B361 (negative = two players)
    ("terrain", "u1"),         # gDuel_bTerrain 0x8009B364
    ("phase", "u1"),           # emucore: 0 hand phase, 1 field phase, 2 over
    ("end_reason", "u1"),      # emucore: 0 none, 1 LP, 2 deck-out, 3 Exodia
    ("equip_bonus", "<i2"),    # D_8009B154: equip bonus of the last placement (Reverse Trap)
    ("score", "<i2", (2,)),    # Duel_CalcRankScore per side, once over
    ("drop", "<i2"),           # Duel_SelectCardDrop result (0 none)
    ("starchips", "u1"),       # prize of the result screen
    ("rank_tier", "i1"),       # 0 D .. 4 S, -1 none
    ("rank_tec", "u1"),
    ("attack_lock", "u1"),     # D_8009B16C & 0x1000: no monster attack before the first end
                               #   of turn (set by func_800179F4)
    ("estimated", "u1"),       # emucore: 1 once an animation was charged from an estimated
                               #   overlay table (every later count is then not exact)
    ("pad", "u1"),
])

# One gDuel_aActiveCards record (spec/fm-ai.md §2); the AI's exporter writes only some fields.
AI_RECORD_DTYPE = np.dtype([
    ("card_id", "<i2"),         # +0 s16, 0 = empty
    ("attack", "<i2"),          # +2 s16
    ("defense", "<i2"),         # +4 s16
    ("flags", "<u2"),           # +6 u16 (field cards only)
    ("card_type", "i1"),        # +8 s8
    ("guardian_star", "u1"),    # +9 active star (field) / star 1 (hand, deck)
    ("guardian_star_2", "u1"),  # +A hand and deck only
    ("deck_index", "u1"),       # +B deck entries only: the deck-card record's own index
])
AI_SLOTS = 111  # slots 0..110: the other side starts at 56 and runs on with its deck

DECK_SIZE = 40
ROW_WIDTH = 5        # card records per row: the hand, the monster zones, the magic/trap zones
CARD_RECORDS = 30    # 15 per side: 0-4 hand, 5-9 monsters, 10-14 magic/trap
DECK_RECORD_BASE = 0x801A7E20


_SHUFFLED = np.dtype("<u2")
_PERM = np.dtype("u1")

# The state image, in snapshot() order.
MACHINE = (
    Region("side", 0x800E9FF0, SIDE_DTYPE, 2, "side{i}"),
    Region("card", 0x801A7AD8, CARD_DTYPE, CARD_RECORDS, "card[{i}]"),
    Region("deck_card", DECK_RECORD_BASE, DECK_DTYPE, 2 * DECK_SIZE, "deck_card[{i}]"),
    Region("shuffled_player", 0x80177FE8, _SHUFFLED, DECK_SIZE, "shuffled_player[{i}]"),
    Region("shuffled_cpu", 0x80178038, _SHUFFLED, DECK_SIZE, "shuffled_cpu[{i}]"),
    Region("perm_player", 0x80177F94, _PERM, DECK_SIZE, "perm_player[{i}]"),
    Region("perm_cpu", 0x80177FBC, _PERM, DECK_SIZE, "perm_cpu[{i}]"),
    Region("globals", None, GLOBALS_DTYPE, 1, ""),
    # emucore's own: the array a computer-played player side keeps (retail has none)
    Region("ai_snapshot_player", None, AI_RECORD_DTYPE, AI_SLOTS, "ai_snapshot_player[{i}]"),
    Region("ai_snapshot_cpu", 0x801AB000, AI_RECORD_DTYPE, AI_SLOTS,   # gDuel_aActiveCards
           "ai_snapshot_cpu[{i}]"),
)
LAYOUT = Layout(MACHINE, "an FM")
BY_NAME = LAYOUT.by_name
REGIONS = tuple((r.name, r.address, r.length) for r in MACHINE)
SIZE = LAYOUT.size
LENGTH = LAYOUT.length
OFFSET = LAYOUT.offset
SPANS: tuple[Span, ...] = LAYOUT.spans
field_offset = LAYOUT.field_offset
fields_of = LAYOUT.fields_of    # every named field: side0.lp, card[7].stat_modifier, rng_state
record_writer = LAYOUT.record_writer
views = LAYOUT.views

__all__ = ["LAYOUT", "MACHINE", "BY_NAME", "REGIONS", "SIZE", "LENGTH", "OFFSET", "SPANS",
           "Records", "RecordWriter", "Region", "Span", "field_offset", "fields_of",
           "record_writer", "views"]
