"""Record-level operations every FM rule uses: set up, move and clear card records, stats,
life points. :class:`BoardOps` is the base of :class:`emucore.fm.engine.FmDuel`.

Card facts (table columns, combinations, star matchup, terrain boosts) come from the one
:class:`emucore.fm.cards.CardFacts` of the duel's tables (``self.cards``).
"""

from __future__ import annotations

import struct

from emucore.fm import state as S
from emucore.fm.actions import Destroyed, LifeChange
from emucore.fm.cards import card_facts
from emucore.hw import fm_stats
from emucore.hw.psyq_rand import Rand
from emucore.tables.fm import FmTables

# Strides used below: a card record is 28 bytes = 14 halfwords = 7 words; a side record
# 32 bytes = 16 halfwords; a deck-card record 6 bytes = 3 halfwords.
W_ID, W_ATK, W_DEF, W_MOD, W_TERRAIN, W_FLAGS = (S.W_ID, S.W_ATK, S.W_DEF, S.W_MOD, S.W_TERRAIN,
                                                  S.W_FLAGS)
CARD_BYTE = S.OFFSET["card"]
# Card record +0x0C..+0x18 as Duel_SetupCardRecord writes it: id, ATK, DEF, stat_modifier,
# terrain_modifier, flags, table index (one pack instead of seven stores).
RECORD_BODY = struct.Struct("<hhhhhHB")
B_BODY = CARD_BYTE + S.CARD_DTYPE.fields["card_id"][1]
RECORDS_PER_SIDE, MONSTERS, B_HAND_ENTRY = S.RECORDS_PER_SIDE, S.MONSTERS, S.B_HAND
D_PTR, DECK_RECORD_BASE = S.D_PTR, S.DECK_RECORD_BASE
W_DECK_FLAGS, B_DECK_RECORD = S.W_DECK_FLAGS, S.B_DECK_RECORD
EMPTY_RECORD = bytes(S.CARD_DTYPE.itemsize)
B_TABLE_INDEX = S.OFFSET["card"] + S.CARD_DTYPE.fields["table_index"][1]
TERRAIN_BYTE = S.OFFSET["globals"] + S.GLOBALS_DTYPE.fields["terrain"][1]
STAT_MAX = fm_stats.STAT_MAX
MEGAMORPH = 657
EQUIP_BONUS, MEGAMORPH_BONUS = 500, 1000
EXODIA = frozenset((17, 18, 19, 20, 21))
ROW_NAME = {S.MONSTERS: "monster", S.MAGIC: "magic", S.HAND: "hand"}

# Row scans read the high byte of the five records' u16 flags (one strided slice) and map
# each byte to 0/1 with a 256-byte translation table; the pattern names the columns.
B_FLAGS_HIGH = CARD_BYTE + S.CARD_DTYPE.fields["flags"][1] + 1  # little-endian
OCCUPIED = bytes(int(b & S.F_OCCUPIED >> 8 != 0) for b in range(256))
READY = bytes(int(b & (S.F_OCCUPIED | S.F_USED) >> 8 == S.F_OCCUPIED >> 8) for b in range(256))
COLUMNS = {bytes(mask >> c & 1 for c in range(5)): tuple(c for c in range(5) if mask >> c & 1)
           for mask in range(32)}


def s16(value: int) -> int:
    """Wrap to a signed 16-bit value (the record fields' width)."""
    return ((value + 0x8000) & 0xFFFF) - 0x8000


class BoardOps:
    """Card-record and life-point primitives over a :class:`~emucore.fm.state.DuelState`."""

    def __init__(self, tables: FmTables, rng: Rand) -> None:
        self.t = tables
        self.st = S.DuelState()
        self.rng = rng
        self.events: list = []
        self.cards = card_facts(tables)

    # ------------------------------------------------------------------ card facts
    def card_type(self, card: int) -> int:
        return self.cards.type[card]

    def is_monster(self, card: int) -> bool:
        return self.cards.is_monster(card)

    def fusion_of(self, a: int, b: int) -> int:
        """``Duel_CheckFusion`` (0x80019A60): table lookup, order-free; 0 = none (the 15
        odd-count-tail glitch pairs are live)."""
        return self.cards.fusion[a][b]

    def equip_fits(self, equip: int, monster: int) -> bool:
        """``Duel_CheckEquip(equip, monster)`` (0x80019A08): argument order matters."""
        return (equip, monster) in self.cards.equip

    @staticmethod
    def equip_bonus(equip: int) -> int:
        """+500 per equip, +1000 for Megamorph (0x8001A7F8 / 0x8001A820)."""
        return MEGAMORPH_BONUS if equip == MEGAMORPH else EQUIP_BONUS

    # ------------------------------------------------------------------ records
    @staticmethod
    def rec(side: int, row: int, col: int) -> int:
        return side * S.RECORDS_PER_SIDE + row + col

    def occupied(self, r: int) -> bool:
        return bool(self.st.u16[W_FLAGS + 14 * r] & S.F_OCCUPIED)

    def card_at(self, r: int) -> int:
        return self.st.s16[W_ID + 14 * r]

    def all_flags(self) -> list[int]:
        """The flags of the 30 card records, by record index."""
        return self.st.u16[W_FLAGS:W_FLAGS + 14 * 30:14].tolist()

    def all_ids(self) -> list[int]:
        """The card ids of the 30 card records, by record index."""
        return self.st.s16[W_ID:W_ID + 14 * 30:14].tolist()

    def flags(self, r: int) -> int:
        return self.st.u16[W_FLAGS + 14 * r]

    def set_flags(self, r: int, value: int) -> None:
        self.st.u16[W_FLAGS + 14 * r] = value & 0xFFFF

    def setup_record(self, r: int, card: int, deck_index: int, flags: int) -> None:
        """``Duel_SetupCardRecord``: id, base ATK/DEF, no modifier, the terrain boost."""
        st = self.st
        u8 = st.u8
        c = self.cards
        RECORD_BODY.pack_into(u8, B_BODY + 28 * r, card, c.atk[card], c.dfn[card], 0,
                              c.boost[u8[TERRAIN_BYTE]][card], flags, r)
        st.u32[D_PTR + 7 * r] = DECK_RECORD_BASE + 6 * deck_index
        u8[B_DECK_RECORD + 6 * deck_index] = r

    def deck_index_of(self, r: int) -> int:
        return (self.st.u32[D_PTR + 7 * r] - DECK_RECORD_BASE) // 6

    def deck_flags(self, k: int) -> int:
        """Where deck-card record ``k`` is (state.IN_DECK / IN_HAND / ON_FIELD / GONE)."""
        return self.st.u16[S.W_DECK_FLAGS + 3 * k]

    def set_deck(self, k: int, where: int, record: int) -> None:
        st = self.st
        st.u16[W_DECK_FLAGS + 3 * k] = where
        st.u8[B_DECK_RECORD + 6 * k] = record

    def move_record(self, src: int, dst: int) -> None:
        """Move a card record (hand <-> field) and repoint its deck-card record."""
        st = self.st
        at, frm = CARD_BYTE + 28 * dst, CARD_BYTE + 28 * src
        st.u8[at:at + 28] = st.u8[frm:frm + 28]
        st.u8[B_TABLE_INDEX + 28 * dst] = dst
        d = self.deck_index_of(dst)
        self.clear_record(src)
        side, local = divmod(dst, S.RECORDS_PER_SIDE)
        if local < S.MONSTERS:
            self.set_deck(d, S.IN_HAND, dst)
            st.s8[S.B_HAND + 32 * side + local] = d
        else:
            self.set_deck(d, S.ON_FIELD, dst)

    def clear_record(self, r: int) -> None:
        """Empty a card record; a hand record also empties its side-record hand entry."""
        at = CARD_BYTE + 28 * r
        self.st.u8[at:at + 28] = EMPTY_RECORD
        side, local = divmod(r, RECORDS_PER_SIDE)
        if local < MONSTERS:
            self.st.s8[B_HAND_ENTRY + 32 * side + local] = -1

    def hand_entry(self, side: int, j: int) -> int:
        """Side record +0x1A[j]: the deck-card record in hand position j, -1 when empty."""
        return self.st.s8[S.B_HAND + 32 * side + j]

    def discard(self, r: int) -> int:
        """A card leaves play (destroyed, used, consumed); returns its id."""
        st = self.st
        card = st.s16[W_ID + 14 * r]
        k = (st.u32[D_PTR + 7 * r] - DECK_RECORD_BASE) // 6  # deck_index_of(r)
        st.u16[W_DECK_FLAGS + 3 * k] = S.GONE
        st.u8[B_DECK_RECORD + 6 * k] = S.NO_RECORD
        self.clear_record(r)
        return card

    def destroy(self, r: int) -> None:
        """Destroy a field card and tell the screen."""
        side, local = divmod(r, S.RECORDS_PER_SIDE)
        row = S.MONSTERS if local < S.MAGIC else S.MAGIC
        card = self.discard(r)
        self.events.append(Destroyed(side, ROW_NAME[row], local - row, card))

    def stats(self, r: int) -> tuple[int, int]:
        """``Duel_CalcCardStats``: base + stat_modifier + terrain_modifier, one clamp 0..9999."""
        h, w = self.st.s16, 14 * r
        extra = h[W_MOD + w] + h[W_TERRAIN + w]
        atk = min(max(h[W_ATK + w] + extra, 0), STAT_MAX)
        dfn = min(max(h[W_DEF + w] + extra, 0), STAT_MAX)
        return atk, dfn

    def active_star(self, r: int) -> int:
        """The star a record fights with: star 2 if flag 0x200, else star 1."""
        card = self.card_at(r)
        c = self.cards
        return c.star2[card] if self.flags(r) & S.F_STAR2 else c.star1[card]

    def recompute_terrain(self) -> None:
        """A field card changed the terrain: every occupied record's terrain_modifier."""
        boost = self.cards.boost[self.st.u8[TERRAIN_BYTE]]
        h = self.st.s16
        for r in range(30):
            if self.occupied(r):
                h[W_TERRAIN + 14 * r] = boost[h[W_ID + 14 * r]]

    def add_modifier(self, r: int, delta: int) -> None:
        """stat_modifier += delta in its s16 width (no clamp in retail)."""
        h = self.st.s16
        h[W_MOD + 14 * r] = s16(h[W_MOD + 14 * r] + delta)

    # ------------------------------------------------------------------ life points
    def lp(self, side: int) -> int:
        return self.st.u16[S.W_LP + 16 * side]

    def damage(self, side: int, amount: int) -> None:
        """``LP -= d; if (s16)LP < 0: LP = 0`` on the u16 LP field."""
        lp = (self.lp(side) - amount) & 0xFFFF
        if lp >= 0x8000:
            lp = 0
        self._set_lp(side, lp)

    def heal(self, side: int, amount: int) -> None:
        """``LP += h; if max < (s16)LP: LP = max``.

        quirk: the cap compares the signed value, so a u16 LP pushed past 32767 reads
        negative and escapes the cap (reachable only with two-player LP above 27767).
        """
        lp = (self.lp(side) + amount) & 0xFFFF
        top = self.st.s16[S.W_MAX_LP + 16 * side]
        if top < s16(lp):
            lp = top & 0xFFFF
        self._set_lp(side, lp)

    def _set_lp(self, side: int, lp: int) -> None:
        old = self.lp(side)
        self.st.u16[S.W_LP + 16 * side] = lp
        self.st.s16[S.W_LP_DISPLAY + 16 * side] = s16(lp)
        if lp != old:
            self.events.append(LifeChange(side, lp - old, lp))

    # ------------------------------------------------------------------ rows
    def first_free(self, side: int, row: int) -> int:
        """Lowest free column of a row, -1 when full."""
        u16 = self.st.u16
        base = W_FLAGS + 14 * (side * S.RECORDS_PER_SIDE + row)
        for col in range(5):
            if not u16[base + 14 * col] & S.F_OCCUPIED:
                return col
        return -1

    def columns(self, first: int, test: bytes = OCCUPIED) -> tuple[int, ...]:
        """The columns of the row whose column 0 is record ``first`` that pass ``test``
        (OCCUPIED, or READY: occupied and not used this turn)."""
        at = B_FLAGS_HIGH + 28 * first
        return COLUMNS[self.st.u8[at:at + 28 * 5:28].tobytes().translate(test)]

    def row_records(self, side: int, row: int) -> list[int]:
        """Occupied record indices of a row, by column."""
        first = side * S.RECORDS_PER_SIDE + row
        return [first + c for c in self.columns(first)]

    def find_trap(self, side: int, card: int) -> int:
        """``Duel_SelectTrapByCardId`` (func_80025028): first occupied record of ``side``'s
        magic/trap row holding ``card``, or -1."""
        for r in self.row_records(side, S.MAGIC):
            if self.card_at(r) == card:
                return r
        return -1
