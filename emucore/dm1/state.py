"""The DM1 duel record: one fixed-width byte layout, declared as a numpy structured dtype in
one region of the shared record mechanism (:mod:`emucore.duel.records`, as FM declares its
RAM in ``emucore.fm.machine``).

The engine reads and writes the record through the declaration's typed ``memoryview`` s over
one ``bytearray`` (fast scalar access, fixed widths enforced: a value that does not fit raises
instead of silently widening), so ``snapshot()`` is the record's bytes, RNG state included,
and a digest hashes exactly them.
Where the cartridge's RAM layout is known (reference/dm1/memory_map.csv) the record keeps its
format: the fusion block mirrors WRAM $CECB-$CED0 (material A, material B, result as 16-bit
ROM card indices, 0x016D = empty) and ``opponent`` mirrors $CEEF. The rest of the duel RAM of
DM1 is not public; the order and widths below are emucore's own.

Per-side arrays are flattened side-major: ``hand[side * HAND_SLOTS + i]``.
"""

from __future__ import annotations

import numpy as np

from emucore.duel.records import Fields, Layout, Region

SIDES = 2
DECK_SIZE = 40
HAND_SLOTS = 6  # five cards + the drawn one before the turn's play
OPENING_HAND = 5
ZONES = 5
START_LP = 8000
FUSION_EMPTY = 0x016D  # $CECB..$CED0 hold ROM indices (number - 1); 0x016D means no card

# phases
PLAY, ORDERS, OVER = 0, 1, 2
# the winner byte: a side, NO_WINNER while the duel runs, DRAWN for a draw
NO_WINNER, DRAWN = 0xFF, 2
# end reasons
END_NONE, END_LP, END_EMPTY_HAND, END_EXODIA = 0, 1, 2, 3
END_REASONS = ("", "lp", "empty_hand", "exodia")
# zone flags
FACE_UP, ACTED, SEALED = 1, 2, 4
# stances
DEFEND, ATTACK = 0, 1

DUEL_DTYPE = np.dtype([
    ("rng_state", "<u4"), ("rng_calls", "<u4"),
    ("turn", "<u2"), ("fusion_block", "<u2", (3,)),  # WRAM $CECB-$CED0
    ("acting", "u1"), ("phase", "u1"), ("field", "u1"), ("winner", "u1"),
    ("end_reason", "u1"), ("opponent", "u1"),  # opponent: WRAM $CEEF
    ("lp", "<u2", (SIDES,)), ("draw_cursor", "u1", (SIDES,)),
    ("hand_count", "u1", (SIDES,)), ("lock_turns", "u1", (SIDES,)),
    ("forced_attack", "u1", (SIDES,)),
    ("deck", "<u2", (SIDES, DECK_SIZE)), ("hand", "<u2", (SIDES, HAND_SLOTS)),
    ("zone_card", "<u2", (SIDES, ZONES)), ("zone_level", "i1", (SIDES, ZONES)),
    ("zone_stance", "u1", (SIDES, ZONES)), ("zone_flags", "u1", (SIDES, ZONES)),
])

_FUSION_PARTS = ("a", "b", "result")


def _name(field: str, index: tuple[int, ...]) -> str:
    """A ``state_fields()`` name: ``fusion.a``, ``side0.lp``, ``side1.zone2.card``,
    ``side0.deck[7]``."""
    if field == "fusion_block":
        return f"fusion.{_FUSION_PARTS[index[0]]}"
    side = f"side{index[0]}"
    if len(index) == 1:
        return f"{side}.{field}"
    if field.startswith("zone_"):
        return f"{side}.zone{index[1]}.{field.removeprefix('zone_')}"
    return f"{side}.{field}[{index[1]}]"


LAYOUT = Layout((Region("duel", None, DUEL_DTYPE, 1, "", flat=True, namer=_name),), "a DM1")
RECORD_SIZE = LAYOUT.size
fields_of = LAYOUT.fields_of   # named integer fields of a record image
Views = Fields   # the record's views: one typed flat memoryview per field (v.lp[side])


def new_record() -> bytearray:
    """A zeroed record."""
    return bytearray(RECORD_SIZE)


def views(record: bytearray) -> Views:
    """The typed field views of ``record``: ``v.rng_state[0]``, ``v.hand[side * HAND_SLOTS +
    i]``."""
    return LAYOUT.views(memoryview(record), ("duel",))["duel"]   # a Fields of DUEL_DTYPE
