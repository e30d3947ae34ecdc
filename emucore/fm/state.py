"""The FM duel state as the original's RAM records (spec/fm-engine.md §11.2).

One ``uint8`` buffer holds, in this order, the two side records (0x20 bytes each, RAM
0x800E9FF0), the 30 card records (0x1C each, 0x801A7AD8), the 80 deck-card records (6 bytes
each, 0x801A7E20), the two shuffled decks (40 x u16, 0x80177FE8 / 0x80178038), the two shuffle
permutations (40 x u8, 0x80177F94 / 0x80177FBC), one record of duel globals (acting side,
winner, terrain, the RNG state ...) and the computer opponent's persistent board snapshots
(``gDuel_aActiveCards``, 111 records of 12 bytes: the CPU's at 0x801AB000, and emucore's own
second array for an AI-driven player side; spec/fm-ai.md §2.5). Structured numpy views name
every field; the engine reads and writes through per-field views (:class:`DuelState`), so the
bytes are always current and ``ram_image()`` can be compared with an emulator capture region
by region (:data:`REGIONS`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

SIDE_DTYPE = np.dtype({
    "names": ["end_adjust", "turns", "effective_attacks", "defensive_wins", "face_down_plays",
              "pure_magic", "traps_triggered", "multi_plays", "fusions", "equips", "stat_0a",
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
    ("pad", "u1", (3,)),
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
AI_SNAPSHOT_BYTES = AI_SLOTS * AI_RECORD_DTYPE.itemsize
AI_SNAPSHOT = ("ai_snapshot_player", "ai_snapshot_cpu")  # region of each side's array

# Card record flags (duel_card.h).
F_STAR2 = 0x0200
F_DEFENSE = 0x0800
F_FACE_DOWN = 0x1000
F_USED = 0x4000
F_OCCUPIED = 0x8000

# Deck-card record flags: where the card is (emucore's encoding; the original's bits are not
# documented). Byte 3 ("record") names the card record holding it, 0xFF when none.
IN_DECK, IN_HAND, ON_FIELD, GONE = 0, 1, 2, 3
NO_RECORD = 0xFF

PHASE_HAND, PHASE_FIELD, PHASE_OVER = 0, 1, 2
END_NONE, END_LP, END_DECKOUT, END_EXODIA = 0, 1, 2, 3

DECK_SIZE = 40
RECORDS_PER_SIDE = 15  # 0-4 hand, 5-9 monsters, 10-14 magic/trap
HAND, MONSTERS, MAGIC = 0, 5, 10
DECK_RECORD_BASE = 0x801A7E20

# (name, RAM address or None, byte length) in ram_image() order.
REGIONS = (
    ("side", 0x800E9FF0, 2 * SIDE_DTYPE.itemsize),
    ("card", 0x801A7AD8, 30 * CARD_DTYPE.itemsize),
    ("deck_card", DECK_RECORD_BASE, 80 * DECK_DTYPE.itemsize),
    ("shuffled_player", 0x80177FE8, 80),
    ("shuffled_cpu", 0x80178038, 80),
    ("perm_player", 0x80177F94, 40),
    ("perm_cpu", 0x80177FBC, 40),
    ("globals", None, GLOBALS_DTYPE.itemsize),
    # emucore's own: the array an AI driving the player side keeps (retail has none)
    ("ai_snapshot_player", None, AI_SNAPSHOT_BYTES),
    ("ai_snapshot_cpu", 0x801AB000, AI_SNAPSHOT_BYTES),  # gDuel_aActiveCards
)
SIZE = sum(length for _, _, length in REGIONS)


def _offsets() -> dict[str, int]:
    out, at = {}, 0
    for name, _, length in REGIONS:
        out[name] = at
        at += length
    return out


OFFSET = _offsets()
LENGTH = {name: length for name, _, length in REGIONS}

# Word / byte indices into the buffer for the engine's scalar fast path (memoryviews over
# the same bytes as the numpy views; little-endian host assumed, checked in DuelState).
CARD_STRIDE_W = CARD_DTYPE.itemsize // 2  # 14 halfwords per card record
W_ID, W_ATK, W_DEF, W_MOD, W_TERRAIN, W_FLAGS = (
    (OFFSET["card"] + CARD_DTYPE.fields[n][1]) // 2
    for n in ("card_id", "attack", "defense", "stat_modifier", "terrain_modifier", "flags"))
D_PTR = (OFFSET["card"] + CARD_DTYPE.fields["deck_ptr"][1]) // 4  # u32 index, stride 7
W_DECK_ID = OFFSET["deck_card"] // 2  # stride 3 halfwords
W_DECK_FLAGS = W_DECK_ID + 2
B_DECK_RECORD = OFFSET["deck_card"] + 3  # stride 6 bytes
SIDE_STRIDE_W, SIDE_STRIDE_B = SIDE_DTYPE.itemsize // 2, SIDE_DTYPE.itemsize
W_LP = SIDE_DTYPE.fields["lp"][1] // 2
W_MAX_LP = SIDE_DTYPE.fields["max_lp"][1] // 2
W_LP_DISPLAY = SIDE_DTYPE.fields["lp_display"][1] // 2
B_CURSOR = SIDE_DTYPE.fields["draw_cursor"][1]
B_HAND = SIDE_DTYPE.fields["hand"][1]
B_SWORDS = SIDE_DTYPE.fields["swords"][1]
B_TURNS = SIDE_DTYPE.fields["turns"][1]
_G = OFFSET["globals"]
B_ACTING, B_WINNER, B_TERRAIN, B_PHASE = (
    _G + GLOBALS_DTYPE.fields[n][1] for n in ("acting_side", "winner", "terrain", "phase"))
W_EQUIP_BONUS = (_G + GLOBALS_DTYPE.fields["equip_bonus"][1]) // 2
COUNTER_BYTE = {name: at for name, (dtype, at) in SIDE_DTYPE.fields.items()
                if dtype == np.dtype("u1")}  # the u8 counters bump() increments


@dataclass(frozen=True)
class Shuffle:
    """One side's shuffled deck in draw order and its permutation bytes."""

    cards: tuple[int, ...]
    perm: tuple[int, ...]


class DuelState:
    """The RAM buffer plus structured and per-field views over it.

    Engine code reads ``int(self.c_id[r])`` and writes ``self.c_id[r] = v``; numpy stores the
    value in the record's own width (an out-of-range write raises, so every wrap or clamp is
    explicit in the rules).
    """

    def __init__(self) -> None:
        if sys.byteorder != "little":
            raise RuntimeError("the FM state views assume a little-endian host")
        self.ram = np.zeros(SIZE, dtype=np.uint8)
        self._bind()

    def _region(self, name: str) -> np.ndarray:
        start = OFFSET[name]
        return self.ram[start:start + LENGTH[name]]

    def _bind(self) -> None:
        self.side = self._region("side").view(SIDE_DTYPE)
        self.card = self._region("card").view(CARD_DTYPE)
        self.deck = self._region("deck_card").view(DECK_DTYPE)
        self.shuffled = (self._region("shuffled_player").view("<u2"),
                         self._region("shuffled_cpu").view("<u2"))
        self.perm = (self._region("perm_player"), self._region("perm_cpu"))
        self.g = self._region("globals").view(GLOBALS_DTYPE)
        self.ai_snapshot = tuple(self._region(name) for name in AI_SNAPSHOT)
        s, c, d = self.side, self.card, self.deck
        self.s_lp, self.s_max_lp, self.s_cursor = s["lp"], s["max_lp"], s["draw_cursor"]
        self.s_hand, self.s_swords = s["hand"], s["swords"]
        self.c_id, self.c_atk, self.c_def = c["card_id"], c["attack"], c["defense"]
        self.c_mod, self.c_terrain, self.c_flags = (c["stat_modifier"], c["terrain_modifier"],
                                                    c["flags"])
        self.c_deck_ptr = c["deck_ptr"]
        self.d_id, self.d_record, self.d_flags = d["card_id"], d["record"], d["flags"]
        self.side_fields = {name: s[name] for name in SIDE_DTYPE.names}
        raw = memoryview(self.ram)
        self.s16, self.u16, self.u32 = raw.cast("h"), raw.cast("H"), raw.cast("I")
        self.s8, self.u8 = raw.cast("b"), raw
        g = self.g
        self.g_phase, self.g_acting, self.g_terrain = g["phase"], g["acting_side"], g["terrain"]
        self.g_equip_bonus = g["equip_bonus"]

    def bump(self, side: int, counter: str) -> None:
        """Increment a u8 side-record counter, wrapping at 256 like the original's ``++``."""
        at = COUNTER_BYTE[counter] + SIDE_STRIDE_B * side
        self.u8[at] = (self.u8[at] + 1) & 0xFF

    def image(self) -> bytes:
        """The buffer's bytes (the caller writes the RNG state into the globals first)."""
        return self.ram.tobytes()

    def load(self, data: bytes) -> None:
        """Overwrite the buffer with an image of the same size."""
        if len(data) != SIZE:
            raise ValueError(f"an FM state image is {SIZE} bytes, not {len(data)}")
        self.u8[:] = memoryview(data).cast("B")


def _flatten(prefix: str, record: np.void, dtype: np.dtype, out: dict[str, int]) -> None:
    for name in dtype.names:
        value = record[name]
        if name.startswith("pad"):
            continue
        if np.ndim(value):
            for i, v in enumerate(np.ravel(value)):
                out[f"{prefix}.{name}[{i}]"] = int(v)
        else:
            out[f"{prefix}.{name}"] = int(value)


def fields_of(image: bytes) -> dict[str, int]:
    """Every named field of a state image: ``side0.lp``, ``card[7].stat_modifier``,
    ``deck_card[41].card_id``, ``shuffled_cpu[3]``, ``rng_state``,
    ``ai_snapshot_cpu[12].attack`` ..."""
    state = DuelState()
    state.load(image)
    out: dict[str, int] = {}
    for i in range(2):
        _flatten(f"side{i}", state.side[i], SIDE_DTYPE, out)
    for i in range(30):
        _flatten(f"card[{i}]", state.card[i], CARD_DTYPE, out)
    for i in range(80):
        _flatten(f"deck_card[{i}]", state.deck[i], DECK_DTYPE, out)
    for side, who in enumerate(("player", "cpu")):
        for i in range(DECK_SIZE):
            out[f"shuffled_{who}[{i}]"] = int(state.shuffled[side][i])
            out[f"perm_{who}[{i}]"] = int(state.perm[side][i])
    for name in GLOBALS_DTYPE.names:
        if name.startswith("pad"):
            continue
        value = state.g[0][name]
        if np.ndim(value):
            for i, v in enumerate(np.ravel(value)):
                out[f"{name}[{i}]"] = int(v)
        else:
            out[name] = int(value)
    for name, data in zip(AI_SNAPSHOT, state.ai_snapshot, strict=True):
        for i, record in enumerate(data.view(AI_RECORD_DTYPE)):
            _flatten(f"{name}[{i}]", record, AI_RECORD_DTYPE, out)
    return out
