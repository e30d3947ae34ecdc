"""The board snapshot: record layout, what the exporter writes and leaves stale (§2), the
LoadDeckSize over-count (G7) and the deep-card swap (G6), also through the engine."""

from __future__ import annotations

from fm_ai_util import board, machine, synthetic_data

from emucore import tables
from emucore.fm.actions import DECK_PICK
from emucore.fm.ai import adapter, executors
from emucore.fm.setup import FmSetup, new_duel
from emucore.fm.snapshot import RECORD, STAR_2, ExportSide, ExportView, FieldCard, Snapshot
from emucore.hw.psyq_rand import Rand


def test_record_layout_is_the_original_12_bytes():
    assert RECORD.itemsize == 12
    assert [RECORD.fields[n][1] for n in RECORD.names] == [0, 2, 4, 6, 8, 9, 10, 11]


def _export(snap: Snapshot, acting: ExportSide, other: ExportSide) -> None:
    d = synthetic_data()
    c = d.cards
    snap.export(ExportView(acting, other, 0, 1), c.type, c.star1, c.star2, c.atk, c.dfn)


def side(monsters=(), hand=(), deck=(), lp=8000, deck_first=0) -> ExportSide:
    return ExportSide(list(monsters) + [None] * (5 - len(monsters)), [None] * 5, list(hand),
                    list(deck), lp, 0, deck_first)


def test_exporter_writes_what_the_original_writes():
    snap = Snapshot()
    snap.deck_index[11] = 77                # a hand entry keeps its old index byte
    _export(snap, side([FieldCard(905, 1800, 1100, STAR_2 | 0x8000)], hand=[900],
                       deck=[901], deck_first=45), side(hand=[903]))
    r = snap.records
    assert tuple(r[1].tolist()) == (905, 1800, 1100, STAR_2 | 0x8000, 0, 2, 0, 0)
    assert tuple(r[11].tolist()) == (900, 1000, 800, 0, 0, 1, 2, 77)
    assert tuple(r[12].tolist()) == (901, 1200, 1000, 0, 0, 1, 2, 45)
    assert r[13]["card_id"] == 0                                  # the terminator
    assert r[66]["card_id"] == 903 and r[67]["card_id"] == 0      # the other side at 56+


def test_bytes_round_trip_through_the_record_layout():
    snap = Snapshot()
    _export(snap, side([FieldCard(905, 1800, 1100, 0x8800)], hand=[900], deck=[901],
                       deck_first=45),
            side(hand=[903]))
    data = snap.to_bytes()
    assert len(data) == 111 * 12 and data[12:14] == (905).to_bytes(2, "little")
    assert data[11 * 12 + 11] == 0 and data[12 * 12 + 11] == 45   # hand, then deck entry
    assert Snapshot(data).to_bytes() == data


def test_empty_slots_keep_stale_fields():
    snap = Snapshot()
    _export(snap, side([FieldCard(905, 1800, 1100, 0x8800)]), side())
    _export(snap, side(), side())
    assert tuple(snap.records[1].tolist())[:4] == (0, 1800, 1100, 0x8800)


def test_g7_load_deck_size_over_counts_after_a_two_card_play():
    snap = Snapshot()
    deck = [908] * 40
    _export(snap, side(hand=[900] * 5, deck=deck[5:], deck_first=45), side())   # first turn
    b = board({}, snapshot=snap)
    m, _ = machine(b)
    m._op_LoadDeckSize(1)
    assert m.regs[1] == 35
    _export(snap, side(hand=[900] * 3, deck=deck[5:], deck_first=45), side())   # a fusion
    _export(snap, side(hand=[900] * 5, deck=deck[7:], deck_first=47), side())   # drew 2
    m, _ = machine(board({}, snapshot=snap))
    m._op_LoadDeckSize(1)
    assert m.regs[1] == 34


def test_g6_deep_card_swap():
    hand = [40, 41, 42, 43, 44]
    index = {18: 47}
    sel, swaps = executors.deep_card_swap(hand, [18, 0, 0, 0, 0], index)
    assert sel[:1] == [11] and swaps == [(40, 47)]
    sel, swaps = executors.deep_card_swap(hand, [12, 18, 0, 0, 0], index)
    assert sel[:2] == [12, 11] and swaps == [(40, 47)]


def test_g6_through_the_engine_heishin_plays_a_deep_card():
    t = tables.load("fm")
    deck = [c for c in range(1, 300) if t.is_monster(c)][:40]
    duel = new_duel(FmSetup(deck=deck, duelist=8, state=0x1234, computer=[0, 1]))
    while duel.acting_side == 0:                       # the player's first turn
        duel.step(adapter.decide(duel).action)
    m = adapter._machine(duel, 8, Rand(1))
    assert m.board.window == 20
    cpu_ids = duel.st.deck_cards.card_id.tolist()[40:80]
    position_7 = cpu_ids[7]
    former_hand_0 = cpu_ids[0]
    assert m.board.ids[18] == position_7 and m.board.deck_index[18] == 47
    m.state.selection[:9] = [18, 0, 0, 0, 0, 0, 1, 0, 0]
    decoded = executors.decode_hand(m.state.selection, m.board.ids, m.board.data.cards.type)
    play = adapter.hand_play(duel, m.board, decoded)
    assert play.cards == (DECK_PICK + 7,)
    events = duel.step(play)
    assert any(getattr(e, "card", None) == position_7 for e in events)
    assert duel.st.deck_cards.card_id[47] == former_hand_0      # drawn when the cursor reaches 7


def test_incremental_export_equals_a_full_export_at_every_step():
    """The duel's export reuses its last export of the side (skipped slots, moved decks,
    bytes written per changed slot): at every step of AI-vs-AI duels of several duelists,
    its array, lists and view equal a full export of the state's array (func_80028220 as
    the exporter writes it, with no earlier export to lean on)."""
    from emucore.fm import export

    t = tables.load("fm")
    monsters = [c for c in range(1, 400) if t.is_monster(c) and c not in range(17, 22)]
    decks = (monsters[:34] + [330, 343, 348, 301, 683, 672],
             monsters[200:230] + [330, 301, 302, 304, 310, 343, 683, 672, 656, 700])
    steps = 0
    for duelist, deck, seed in ((7, decks[0], 11), (8, decks[1], 12), (20, decks[0], 13),
                                (39, decks[1], 14)):
        duel = new_duel(FmSetup(deck=deck, duelist=duelist, state=seed, computer=[0, 1]))
        while not duel.over:
            side = duel.acting_side
            before = duel.st.ai_snapshot[side].tobytes()
            got = export.exported(duel)
            full = Snapshot(before)
            c = duel.facts
            view = export.sides_view(duel)
            full.export(view, c.type, c.star1, c.star2, c.atk, c.dfn)
            assert got.view == view
            assert got.array == full.to_bytes() == got.snap.to_bytes()
            assert got.snap.columns == full.columns
            duel.step(adapter.decide(duel).action)
            steps += 1
    assert steps > 100
