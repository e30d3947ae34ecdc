"""Record-level operations every FM rule uses: set up, move and clear card records, stats,
life points. :class:`BoardOps` is the base of :class:`emucore.fm.engine.FmDuel`.

Card facts (table columns, combinations, star matchup, terrain boosts) come from the one
:class:`emucore.fm.cards.CardFacts` of the duel's tables (``self.facts``).
"""

from __future__ import annotations

from emucore.fm import state as S
from emucore.fm.actions import AnimationShown, Destroyed, LifeChanged
from emucore.fm.cards import EQUIP_BONUS, MEGAMORPH, MEGAMORPH_BONUS, card_facts
from emucore.fm.machine import DECK_DTYPE, DECK_RECORD_BASE, record_writer
from emucore.fm.overlay import BUILT_IN, OverlayTables
from emucore.fm.timeline import Animation, timeline_for
from emucore.hw import fm_stats
from emucore.hw.psyq_rand import Rand
from emucore.tables.fm import FmTables

STAT_MAX = fm_stats.STAT_MAX
EXODIA = frozenset((17, 18, 19, 20, 21))
ROW_NAME = {S.MONSTERS: "monster", S.MAGIC: "magic", S.HAND: "hand"}
DECK_RECORD_SIZE = DECK_DTYPE.itemsize  # the card record's deck_ptr steps by this
# Duel_SetupCardRecord's fields from the id on, written at once
_SETUP = record_writer("card", ("card_id", "attack", "defense", "stat_modifier",
                                "terrain_modifier", "flags", "table_index"))

# Row scans map the five records' flags to 0/1 bytes with a 256-entry translation table of
# the flag word's high byte; the pattern names the columns.
OCCUPIED = bytes(int(b & S.F_OCCUPIED >> 8 != 0) for b in range(256))
READY = bytes(int(b & (S.F_OCCUPIED | S.F_USED) >> 8 == S.F_OCCUPIED >> 8) for b in range(256))
# the player's attackers: (flags & 0xC800) == 0x8000 (DuelScene_UpdateFieldActions state 3)
ATTACKERS = bytes(int(b & (S.F_OCCUPIED | S.F_USED | S.F_DEFENCE) >> 8 == S.F_OCCUPIED >> 8)
                  for b in range(256))
# the draw phase's clear of the used flag 0x4000, on the same high bytes
CLEAR_USED = bytes(b & ~(S.F_USED >> 8) for b in range(256))
# a side record's hand entries (i1): a held position's byte is its deck-card record, < 0x80
HELD = bytes(int(b < 0x80) for b in range(256))
COLUMNS = {bytes(mask >> c & 1 for c in range(S.ROW_WIDTH)):
           tuple(c for c in range(S.ROW_WIDTH) if mask >> c & 1) for mask in range(32)}


def s16(value: int) -> int:
    """Wrap to a signed 16-bit value (the record fields' width)."""
    return ((value + 0x8000) & 0xFFFF) - 0x8000


class BoardOps:
    """Card-record and life-point primitives over a :class:`~emucore.fm.state.DuelState`.

    The rule modules (battle, combine, effects) are typed against this class, so they need
    not import the engine that calls them."""

    computer_sides: frozenset[int]   # the sides the computer plays (set by the engine)

    def __init__(self, tables: FmTables, rng: Rand, effects: OverlayTables = BUILT_IN) -> None:
        self.t = tables
        self.st = S.DuelState()
        self.rng = rng
        self.events: list = []
        self.facts = card_facts(tables)
        self.timeline = timeline_for(effects)
        self._flags_high = self.st.cards.byte_view("flags", 1)  # for row scans

    # ------------------------------------------------------------------ the stream
    def show(self, animation: Animation) -> None:
        """Play one animation: the duel's stream advances by the calls it makes from here,
        and its ``animation`` event follows (marked not exact once any count of the duel
        rests on an estimated overlay table)."""
        rng, g = self.rng, self.st.globals
        calls = animation.calls if animation.run is None else animation.run(rng.state)
        rng.advance(calls)
        if not animation.exact:
            g.estimated[0] = 1
        self.events.append(AnimationShown(animation.name, rand_calls=calls,
                                          exact=not g.estimated[0]))

    # ------------------------------------------------------------------ card facts
    def card_type(self, card: int) -> int:
        return self.facts.type[card]

    def is_monster(self, card: int) -> bool:
        return self.facts.monster[card]  # CardFacts.is_monster

    def fusion_of(self, a: int, b: int) -> int:
        """``Duel_CheckFusion`` (0x80019A60): table lookup, order-free; 0 = none (the 15
        odd-count-tail glitch pairs are live)."""
        return self.facts.fusion[a][b]

    def equip_fits(self, equip: int, monster: int) -> bool:
        """``Duel_CheckEquip(equip, monster)`` (0x80019A08): argument order matters."""
        return (equip, monster) in self.facts.equip

    @staticmethod
    def equip_bonus(equip: int) -> int:
        """+500 per equip, +1000 for Megamorph (0x8001A7F8 / 0x8001A820)."""
        return MEGAMORPH_BONUS if equip == MEGAMORPH else EQUIP_BONUS

    # ------------------------------------------------------------------ records
    @staticmethod
    def rec(side: int, row: int, col: int) -> int:
        return side * S.RECORDS_PER_SIDE + row + col

    def occupied(self, r: int) -> bool:
        return bool(self.st.cards.flags[r] & S.F_OCCUPIED)

    def card_at(self, r: int) -> int:
        return self.st.cards.card_id[r]

    def all_ids(self) -> list[int]:
        """The card ids of the 30 card records, by record index."""
        return self.st.cards.card_id.tolist()

    def flags(self, r: int) -> int:
        return self.st.cards.flags[r]

    def set_flags(self, r: int, value: int) -> None:
        self.st.cards.flags[r] = value & 0xFFFF

    def setup_record(self, r: int, card: int, deck_index: int, flags: int) -> None:
        """``Duel_SetupCardRecord``: id, base ATK/DEF, no modifier, the terrain boost; the
        record points at deck-card record ``deck_index`` and that one back at it."""
        st, f = self.st, self.facts
        _SETUP.pack_into(st.raw, _SETUP.first + _SETUP.stride * r, card, f.atk[card],
                         f.dfn[card], 0, f.boost[st.globals.terrain[0]][card], flags, r)
        st.cards.deck_ptr[r] = DECK_RECORD_BASE + DECK_RECORD_SIZE * deck_index
        st.deck_cards.record[deck_index] = r

    def deck_index_of(self, r: int) -> int:
        return (self.st.cards.deck_ptr[r] - DECK_RECORD_BASE) // DECK_RECORD_SIZE

    def deck_flags(self, k: int) -> int:
        """Where deck-card record ``k`` is (state.IN_DECK / IN_HAND / ON_FIELD / GONE)."""
        return self.st.deck_cards.flags[k]

    def set_deck(self, k: int, where: int, record: int) -> None:
        deck = self.st.deck_cards
        deck.flags[k], deck.record[k] = where, record

    def move_record(self, src: int, dst: int) -> None:
        """Move a card record (hand <-> field) and repoint its deck-card record."""
        st = self.st
        cards, deck = st.cards, st.deck_cards
        cards.copy(src, dst)
        cards.table_index[dst] = dst
        k = (cards.deck_ptr[dst] - DECK_RECORD_BASE) // DECK_RECORD_SIZE
        self.clear_record(src)
        side, local = divmod(dst, S.RECORDS_PER_SIDE)
        deck.record[k] = dst
        if local < S.MONSTERS:
            deck.flags[k] = S.IN_HAND
            st.sides.hand[side][local] = k
        else:
            deck.flags[k] = S.ON_FIELD

    def clear_record(self, r: int) -> None:
        """Empty a card record; a hand record also empties its side-record hand entry."""
        st = self.st
        st.cards.clear(r)
        if r % S.RECORDS_PER_SIDE < S.MONSTERS:
            st.sides.hand[r // S.RECORDS_PER_SIDE][r % S.RECORDS_PER_SIDE] = -1

    def hand_entry(self, side: int, j: int) -> int:
        """Side record +0x1A[j]: the deck-card record in hand position j, -1 when empty."""
        return self.st.sides.hand[side][j]

    def discard(self, r: int) -> int:
        """A card leaves play (destroyed, used, consumed); returns its id."""
        st = self.st
        cards, deck = st.cards, st.deck_cards
        card = cards.card_id[r]
        k = (cards.deck_ptr[r] - DECK_RECORD_BASE) // DECK_RECORD_SIZE
        deck.flags[k], deck.record[k] = S.GONE, S.NO_RECORD
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
        cards = self.st.cards
        mod, terrain = cards.stat_modifier[r], cards.terrain_modifier[r]
        return (fm_stats.card_stat_one(cards.attack[r], mod, terrain),
                fm_stats.card_stat_one(cards.defense[r], mod, terrain))

    def active_star(self, r: int) -> int:
        """The star a record fights with: star 2 if flag 0x200, else star 1."""
        card = self.card_at(r)
        f = self.facts
        return f.star2[card] if self.flags(r) & S.F_STAR2 else f.star1[card]

    def recompute_terrain(self) -> None:
        """A field card changed the terrain: every occupied record's terrain_modifier."""
        boost = self.facts.boost[self.st.globals.terrain[0]]
        cards = self.st.cards
        for r in range(len(cards.flags)):
            if cards.flags[r] & S.F_OCCUPIED:
                cards.terrain_modifier[r] = boost[cards.card_id[r]]

    def add_modifier(self, r: int, delta: int) -> None:
        """stat_modifier += delta in its s16 width (no clamp in retail)."""
        mods = self.st.cards.stat_modifier
        mods[r] = s16(mods[r] + delta)

    # ------------------------------------------------------------------ life points
    def lp(self, side: int) -> int:
        return self.st.sides.lp[side]

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
        top = self.st.sides.max_lp[side]
        if top < s16(lp):   # quirk: DuelEffect_ApplyLifePointRecovery: a signed cap test
            lp = top & 0xFFFF
        self._set_lp(side, lp)

    def _set_lp(self, side: int, lp: int) -> None:
        old = self.lp(side)
        sides = self.st.sides
        sides.lp[side], sides.lp_display[side] = lp, s16(lp)
        if lp != old:
            self.events.append(LifeChanged(side, lp - old, lp))

    # ------------------------------------------------------------------ rows
    def first_free(self, side: int, row: int) -> int:
        """Lowest free column of a row, -1 when full."""
        flags = self.st.cards.flags
        first = side * S.RECORDS_PER_SIDE + row
        for col in range(S.ROW_WIDTH):
            if not flags[first + col] & S.F_OCCUPIED:
                return col
        return -1

    def columns(self, first: int, test: bytes = OCCUPIED) -> tuple[int, ...]:
        """The columns of the row whose column 0 is record ``first`` that pass ``test``
        (OCCUPIED; READY: occupied and not used this turn; ATTACKERS: READY and in attack
        position)."""
        return COLUMNS[self._flags_high[first:first + S.ROW_WIDTH].tobytes().translate(test)]

    def clear_used(self) -> None:
        """Clear the used flag 0x4000 of all 30 card records (one pass over the flags'
        high bytes)."""
        high = self._flags_high
        high[:] = high.tobytes().translate(CLEAR_USED)

    def row_records(self, side: int, row: int) -> list[int]:
        """Occupied record indices of a row, by column."""
        first = side * S.RECORDS_PER_SIDE + row
        return [first + c for c in self.columns(first)]

    def find_trap(self, side: int, card: int) -> int:
        """``Duel_SelectTrapByCardId`` (func_80025028): the first occupied record of
        ``side``'s magic/trap row holding ``card`` in the acting side's grid order
        (``D_800907D8``: column 4 down to 0), or -1. With two copies set, the one in the
        higher column springs."""
        first = side * S.RECORDS_PER_SIDE + S.MAGIC
        for c in reversed(self.columns(first)):
            if self.card_at(first + c) == card:
                return first + c
        return -1
