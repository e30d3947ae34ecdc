"""The DM1 duel record: one fixed-width byte layout, described as a numpy structured dtype.

The engine reads and writes the record through typed ``memoryview`` casts of one ``bytearray``
(fast scalar access, fixed widths enforced: a value that does not fit raises instead of
silently widening), so ``snapshot()`` is the record's bytes and a digest hashes exactly them.
Where the cartridge's RAM layout is known (reference/dm1/memory_map.csv) the record keeps its
format: the fusion block mirrors WRAM $CECB-$CED0 (material A, material B, result as 16-bit
ROM card indices, 0x016D = empty) and ``opponent`` mirrors $CEEF. The rest of the duel RAM of
DM1 is not public; the order and widths below are emucore's own.

Per-side arrays are flattened side-major: ``hand[side * HAND_SLOTS + i]``.
"""

from __future__ import annotations

import numpy as np

SIDES = 2
DECK_SIZE = 40
HAND_SLOTS = 6  # five cards + the drawn one before the turn's play
OPENING_HAND = 5
ZONES = 5
START_LP = 8000
LP_CAP = 9999  # [choice] LP is a four-digit value: heals stop at 9999 (like the BCD adder 0x2867)
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
RECORD_SIZE = DUEL_DTYPE.itemsize

_CAST = {"<u4": "I", "<u2": "H", "|u1": "B", "|i1": "b"}


def new_record() -> bytearray:
    """A zeroed record."""
    return bytearray(RECORD_SIZE)


class Views:
    """Typed, flat memoryviews of every field of :data:`DUEL_DTYPE` over one record."""

    __slots__ = DUEL_DTYPE.names

    def __init__(self, record: bytearray) -> None:
        whole = memoryview(record)
        for name, start, end, fmt in _LAYOUT:
            setattr(self, name, whole[start:end].cast(fmt))


def _layout() -> list[tuple[str, int, int, str]]:
    out = []
    for name in DUEL_DTYPE.names:
        dtype, offset = DUEL_DTYPE.fields[name][:2]
        base = dtype.base if dtype.subdtype else dtype
        out.append((name, offset, offset + dtype.itemsize, _CAST[base.str]))
    return out


_LAYOUT = _layout()


def views(record: bytearray) -> Views:
    """The typed field views of ``record``."""
    return Views(record)


def fields_of(snapshot: bytes) -> dict[str, int]:
    """Named integer fields of a record image (``side0.lp``, ``side1.zone2.card`` ...)."""
    if len(snapshot) != RECORD_SIZE:
        raise ValueError(f"state image of {len(snapshot)} bytes, expected {RECORD_SIZE}")
    rec = np.frombuffer(snapshot, dtype=DUEL_DTYPE)[0]
    out: dict[str, int] = {}
    for name in DUEL_DTYPE.names:
        value = rec[name]
        if name == "fusion_block":
            out.update({f"fusion.{p}": int(v) for p, v in zip(("a", "b", "result"), value,
                                                               strict=True)})
        elif value.ndim == 0:
            out[name] = int(value)
        elif value.ndim == 1:
            out.update({f"side{side}.{name}": int(v) for side, v in enumerate(value)})
        else:
            for side, row in enumerate(value.tolist()):
                for i, v in enumerate(row):
                    key = (f"side{side}.zone{i}.{name.removeprefix('zone_')}"
                           if name.startswith("zone_") else f"side{side}.{name}[{i}]")
                    out[key] = int(v)
    return out
