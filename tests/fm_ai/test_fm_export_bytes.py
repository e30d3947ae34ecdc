"""The exporter's bytes: a whole hand and deck written from the card table's entry bytes
keeps the hand entries' old index bytes, and the entries follow the card table they are
made from (fm-ai.md §2)."""

from __future__ import annotations

from emucore.fm.snapshot import ExportSide, ExportView, FieldCard, Snapshot

N = 8
TYPE, STAR1, STAR2 = [3] * N, [1] * N, [2] * N
ATK, DFN = [100 * c for c in range(N)], [10 * c for c in range(N)]


def _side(hand: list[int], deck: list[int], deck_first: int) -> ExportSide:
    return ExportSide([FieldCard(5, 1800, 1100, 0x8000)] + [None] * 4, [None] * 5, hand, deck,
                      8000, 0, deck_first)


def test_a_whole_hand_and_deck_in_bytes_keep_the_hand_index_bytes():
    snap = Snapshot()
    snap.deck_index[11] = snap.deck_index[12] = 77
    before = snap.to_bytes()
    packed = bytearray(before)
    snap.export(ExportView(_side([1, 2], [3, 4, 6], 45), _side([7], [], 40), 0, 1),
                TYPE, STAR1, STAR2, ATK, DFN, packed=packed)
    assert bytes(packed) == snap.to_bytes()
    assert snap.deck_index[11:16] == [77, 77, 45, 46, 47]    # hand entries keep theirs
    assert snap.ids[11:17] == [1, 2, 3, 4, 6, 0] and snap.atk[13] == 300


def test_entries_follow_the_card_table():
    other_atk = [7 * c for c in range(N)]
    for atk in (ATK, other_atk, ATK):   # the same type column, other ATK columns
        snap = Snapshot()
        snap.export(ExportView(_side([1], [2], 41), _side([], [], 80), 0, 1),
                    TYPE, STAR1, STAR2, atk, DFN)
        assert snap.atk[11:13] == [atk[1], atk[2]]
