"""The exporter: ``func_80028220``/``func_80027DF8`` into the duel's own state (fm-ai.md §2).

The engine owns it. A duel knows which sides the computer plays (``FmDuel.computer_sides``);
before it applies an action of such a side, :meth:`FmDuel.step` runs :func:`export_acting`,
exactly what the original does before each ``AiScript_Init``. The persistent arrays live in
the state buffer (``emucore.fm.state`` regions ``ai_snapshot_player`` / ``ai_snapshot_cpu``),
so ``snapshot()``/``restore()``/``digest()`` cover the AI's stale data, and a replay of the
actions alone reproduces them. The chooser (:mod:`emucore.fm.ai`) decides on
:func:`exported_snapshot`, a copy of the acting side's array with the same export applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from emucore.fm import state as S
from emucore.fm.snapshot import ExportSide, ExportView, FieldCard, Snapshot
from emucore.hw.fm_stats import card_stat_one

if TYPE_CHECKING:
    from emucore.fm.engine import FmDuel

class Exported(NamedTuple):
    """The export of one state: what ``func_80027DF8`` read and the acting side's array
    after ``func_80028220``."""

    state: bytes          # the whole state buffer it was computed from (the memo's key)
    side: int             # the acting side, whose array it is
    view: ExportView      # persona 0; the chooser replaces opponent_id
    array: bytes          # the acting side's array bytes after the export
    snap: Snapshot        # the same array unpacked (handed out only as copies)


def exported(duel: FmDuel) -> Exported:
    """The export of the duel's current state, computed once per state: the chooser asks
    for it before deciding and :meth:`FmDuel.step` writes it when the action is applied, so
    one export serves both. Everything it reads is in the state buffer (the RNG is not
    read), so the buffer's bytes are the key."""
    key = duel.st.ram.tobytes()
    side = duel.acting_side
    memo = duel.export_memo[side]
    if memo is not None and memo.state == key:
        return memo
    c = duel.facts
    view = sides_view(duel)
    before = duel.st.ai_snapshot[side].tobytes()
    # the side's array is usually the one its last export left (the memo is kept per side,
    # so the other side's turn in between does not lose it): that snapshot (never handed
    # out, and dropped with the old memo) is exported again in place instead of unpacking
    same = memo is not None and memo.array == before
    snap = memo.snap if same else Snapshot(before)
    snap.export(view, c.type, c.star1, c.star2, c.atk, c.dfn)
    # the snapshot mirrored ``before`` and the export changed only what it wrote, so packing
    # every record (one struct call) gives the array the written ranges would
    duel.export_memo[side] = memo = Exported(key, side, view, snap.to_bytes(), snap)
    return memo


def export_acting(duel: FmDuel) -> None:
    """``func_80028220`` for the side to act: export both sides into its array, in the state."""
    array = exported(duel).array
    duel.st.ai_snapshot[duel.acting_side][:] = np.frombuffer(array, dtype=np.uint8)


def exported_snapshot(duel: FmDuel) -> Snapshot:
    """The acting side's array as :func:`export_acting` would leave it, as a copy (the
    chooser's scratch; the state itself is exported when the chosen action is stepped)."""
    return exported(duel).snap.copy()


def acting_view(duel: FmDuel, persona: int) -> ExportView:
    """:func:`sides_view` of the current state with the persona the chooser plays."""
    v = exported(duel).view
    return ExportView(v.acting, v.other, v.terrain, persona, v.acting_side, v.extra)


def sides_view(duel: FmDuel, persona: int = 0) -> ExportView:
    """What ``func_80027DF8`` reads from the engine's records, for both sides."""
    st = duel.st
    s = st.sides
    cards = _field_cards(duel)
    sides = _SideRecords(st.deck_cards.card_id.tolist(), s.draw_cursor.tolist(),
                         [h.tolist() for h in s.hand], s.lp.tolist(), s.swords.tolist())
    side = duel.acting_side
    return ExportView(acting=_side_view(side, cards, sides),
                      other=_side_view(1 - side, cards, sides),
                      terrain=st.globals.terrain[0], opponent_id=persona, acting_side=side)


class _SideRecords(NamedTuple):
    """The deck-card ids and the side-record fields the exporter reads, as lists."""

    deck_ids: list[int]
    cursor: list[int]
    hand: list[list[int]]
    lp: list[int]
    swords: list[int]


def _field_cards(duel: FmDuel) -> list[FieldCard | None]:
    """Each of the 30 card records: ``Duel_CalcCardStats`` with its flags (the used flag
    included, as the field executor's "done" sets it through ``Done``), None when empty.
    One strided read per field, one pass over the records."""
    c = duel.st.cards
    return [FieldCard(i, card_stat_one(a, m, t), card_stat_one(d, m, t), f)
            if f & S.F_OCCUPIED else None
            for i, a, d, m, t, f in zip(c.card_id.tolist(), c.attack.tolist(),
                                        c.defense.tolist(), c.stat_modifier.tolist(),
                                        c.terrain_modifier.tolist(), c.flags.tolist(),
                                        strict=True)]


def _side_view(side: int, cards: list[FieldCard | None], sides: _SideRecords) -> ExportSide:
    first = side * S.RECORDS_PER_SIDE
    monsters, magic = first + S.MONSTERS, first + S.MAGIC
    ids = sides.deck_ids
    start, end = side * S.DECK_SIZE + sides.cursor[side], (side + 1) * S.DECK_SIZE
    return ExportSide(monsters=cards[monsters:monsters + 5], magic=cards[magic:magic + 5],
                      hand=[ids[k] for k in sides.hand[side] if k >= 0],
                      deck=ids[start:end], lp=sides.lp[side], swords=sides.swords[side],
                      deck_first=start)
