"""Ritual summons (docs/fm-fidelity.md D6, D11), read from ``Duel_CheckRitual`` and
``DuelEffect_ApplyRitual`` (krystalgamer/memories-decomp): the tributes fill slots 2-4 in
recipe order, each the lowest unclaimed occupied monster column holding that id; all three
are deactivated and the result goes to record ``slots[3]`` (the second tribute), whose
deck-card record takes the result id; a computer side (``D_8009B360[side] >= 0``) sets star 2
when ``rand() & 1``, the player answers a dialog."""

from __future__ import annotations

from oracle_duel import T, new_duel, play, turn

from emucore.fm import state as S
from emucore.hw.psyq_rand import INCREMENT, MASK32, MULTIPLIER, jump

BLACK_LUSTER_RITUAL, BLACK_LUSTER_SOLDIER = 670, 364
TRIBUTES = (27, 38, 58)  # Beaver Warrior, Gaia the Fierce Knight, Kuriboh
STRONG = 39


def _ritual_board(computer: tuple[int, ...] = ()):
    """Side 1 holds the three tributes in columns 0, 1, 2 and the ritual card in its hand;
    side 1 to play."""
    d = new_duel((STRONG,) * 4, (*TRIBUTES, BLACK_LUSTER_RITUAL), computer=computer)
    for _ in range(3):
        turn(d)
        turn(d, face_down=True)
    turn(d)
    return d


def test_recipe():
    assert T.rituals[BLACK_LUSTER_RITUAL] == (TRIBUTES, BLACK_LUSTER_SOLDIER)


def test_the_result_takes_the_second_tributes_record_and_the_players_star():
    d = _ritual_board()
    tribute_records = [d.deck_index_of(d.rec(1, S.MONSTERS, c)) for c in range(3)]
    calls = d.rng.calls
    events = play(d, star=1)
    r = d.rec(1, S.MONSTERS, 1)
    assert d.card_at(r) == BLACK_LUSTER_SOLDIER and d.flags(r) & S.F_STAR2
    assert d.card(1, "monster", 0) is None and d.card(1, "monster", 2) is None
    assert d.deck_index_of(r) == tribute_records[1]
    assert d.st.deck_cards.card_id[tribute_records[1]] == BLACK_LUSTER_SOLDIER
    # the opening (effect 18) and the summon (effect 22) are charged; no star roll
    shown = [e for e in events if e.kind == "animation"]
    assert [e.name for e in shown] == ["opening", "ritual"]
    assert d.rng.calls == calls + sum(e.rand_calls for e in shown)
    assert events[-1].kind == "ritual" and events[-1].rand_calls == 0


def test_a_computer_side_rolls_its_star_with_one_call():
    """The star roll (``rand() & 1``) comes after the ritual's effects: the result card
    settles ~90 frames after the tributes leave, when effect 22 has ended."""
    d = _ritual_board(computer=(1,))
    before = d.rng.state
    events = play(d)
    shown = sum(e.rand_calls for e in events if e.kind == "animation")
    state = int(jump(before, shown))
    after = (state * MULTIPLIER + INCREMENT) & MASK32
    star2 = ((after >> 16) & 0x7FFF) & 1
    r = d.rec(1, S.MONSTERS, 1)
    assert d.card_at(r) == BLACK_LUSTER_SOLDIER
    assert bool(d.flags(r) & S.F_STAR2) == bool(star2)
    assert d.rng.state == after and events[-1].rand_calls == 1
