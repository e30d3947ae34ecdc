"""RAM layout, field names, fixed widths, and building duels from setups (spec §2, §11.2)."""

from __future__ import annotations

import pytest
from fm_scenario import deck, duel

from emucore import tables as T
from emucore.fm import deck as D
from emucore.fm import machine as M
from emucore.fm import state as S
from emucore.fm.actions import Play
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw.psyq_rand import Rand

DECK = list(range(1, 41))


def test_record_sizes_and_regions():
    assert (M.SIDE_DTYPE.itemsize, M.CARD_DTYPE.itemsize, M.DECK_DTYPE.itemsize) == (32, 28, 6)
    assert M.SIDE_DTYPE.fields["lp"][1] == 0x14 and M.SIDE_DTYPE.fields["hand"][1] == 0x1A
    assert M.CARD_DTYPE.fields["stat_modifier"][1] == 0x12
    assert M.CARD_DTYPE.fields["flags"][1] == 0x16
    d = duel(deck(1, 2, 8, 9, 22), deck())
    image = d.snapshot()
    assert len(image) == M.SIZE == sum(n for _, _, n in M.REGIONS)
    lp = M.OFFSET["side"] + 0x20 + 0x14  # side 1 LP, little-endian u16
    assert image[lp] | image[lp + 1] << 8 == 8000


def test_state_fields_names():
    d = duel(deck(1, 2, 8, 9, 22), deck())
    d.step(Play((0,)))
    f = d.state_fields()
    assert f["side0.lp"] == 8000 and f["card[5].card_id"] == 1 and f["side0.hand[0]"] == -1
    assert f["card[5].flags"] == S.F_OCCUPIED and f["side0.draw_cursor"] == 5
    assert f["rng_state"] == d.rng.state and f["shuffled_player[0]"] == 1
    assert f["deck_card[0].record"] == 5 and f["deck_card[0].flags"] == S.ON_FIELD


def test_u8_counters_wrap_and_s16_modifier_wraps():
    d = duel(deck(1, 2, 8, 9, 22), deck())
    d.st.sides.fusions[0] = 255
    d.st.bump(0, "fusions")
    assert d.counters(0)["fusions"] == 0
    d.st.cards.stat_modifier[5] = 32000
    d.add_modifier(5, 1000)
    assert d.st.cards.stat_modifier[5] == -32536


def test_lp_arithmetic_floor_cap_and_signed_cap_quirk():
    d = duel(deck(1, 2, 8, 9, 22), deck(), lp=(8000, 30000))
    d.damage(0, 9000)
    assert d.lp(0) == 0
    d.st.sides.lp[0] = 7900
    d.heal(0, 500)
    assert d.lp(0) == 8000
    d.heal(1, 5000)  # quirk: 35000 reads as a negative s16, so the cap does not apply
    assert d.lp(1) == 35000


def test_new_duel_deals_player_first_then_cpu():
    t = T.load("fm")
    d = new_duel(FmSetup(deck=DECK, duelist=5, sort="def", state=0xCAFE), t)
    rng = Rand(0xCAFE)
    dealt = D.deal(rng, D.sort_deck(DECK, "def", t), 5, t)
    assert tuple(d.st.shuffled[0].tolist()) == dealt.player.cards
    assert tuple(d.st.shuffled[1].tolist()) == dealt.cpu.cards
    assert tuple(d.st.perm[1].tolist()) == dealt.cpu.perm
    assert d.rng.state == dealt.state_after and d.hand(0) == list(dealt.player.cards[:5])


def test_duel_master_k_plays_an_independent_copy():
    d = new_duel(FmSetup(deck=DECK, duelist=39, state=7))
    assert sorted(d.st.shuffled[1].tolist()) == DECK
    assert d.st.shuffled[0].tolist() != d.st.shuffled[1].tolist()
    assert d.rng.calls == 640


def test_two_player_duel_uses_both_decks_and_lp():
    d = new_duel(FmSetup(deck=DECK, duelist=0, deck2=[1] * 3 + list(range(4, 41)),
                         lp=[4000, 6500], state=3))
    assert d.opponent == -1 and (d.lp(0), d.lp(1)) == (4000, 6500)
    assert sorted(d.st.shuffled[1].tolist())[:3] == [1, 1, 1]


@pytest.mark.parametrize("bad,msg", [
    ({"deck": DECK[:39]}, "40 cards"), ({"deck": DECK, "duelist": 40}, "duelist"),
    ({"deck": DECK, "duelist": 0}, "deck2"), ({"deck": DECK, "sort": "x"}, "sort"),
    ({"deck": [1] * 4 + DECK[4:]}, "copies"), ({"deck": DECK, "nonsense": 1}, "bad fm setup"),
])
def test_bad_setups_are_refused(bad, msg):
    with pytest.raises(ValueError, match=msg):
        FmSetup.from_json(bad)


def test_digest_covers_the_rng_state_and_restore_brings_it_back():
    d = duel(deck(1, 2, 8, 9, 22), deck())
    saved, digest = d.snapshot(), d.digest()
    d.rng.rand()
    assert d.digest() != digest
    d.restore(saved)
    assert d.digest() == digest and d.rng.state == 0x1234


def test_every_named_view_writes_the_field_its_declared_span_names():
    """The machine declaration (spec/fm-engine.md §11.2 record layouts) generates both the
    views the rules use and the field names/spans of state_fields(): a value written through
    ``st.<region>.<field>[i]`` must read back under that field's name and nowhere else."""
    st = S.DuelState()
    records = {"side": (st.sides, "side{i}."), "card": (st.cards, "card[{i}]."),
               "deck_card": (st.deck_cards, "deck_card[{i}].")}
    for region, (views, label) in records.items():
        for i in (0, M.BY_NAME[region].count - 1):
            for name in M.BY_NAME[region].dtype.names:
                target = getattr(views, name)
                target, key = ((target[i], f"{label.format(i=i)}{name}[1]")
                               if isinstance(target, tuple) else
                               (target, f"{label.format(i=i)}{name}"))
                at = 1 if isinstance(getattr(views, name), tuple) else i
                before = M.fields_of(st.image())
                target[at] = 7
                after = M.fields_of(st.image())
                assert {k for k in after if after[k] != before[k]} == {key}
                target[at] = 0
    st.globals.terrain[0], st.globals.score[0][1] = 5, -3
    fields = M.fields_of(st.image())
    assert (fields["terrain"], fields["score[1]"]) == (5, -3)
    st.shuffled[1][39], st.perm[0][2] = 722, 9
    fields = M.fields_of(st.image())
    assert (fields["shuffled_cpu[39]"], fields["perm_player[2]"]) == (722, 9)


def test_record_writer_writes_the_declared_fields_and_refuses_gaps():
    """``machine.record_writer`` (used by Duel_SetupCardRecord) writes consecutive fields of
    one record as the named views would (spec/fm-engine.md §11.2 card record layout), touches
    no other byte, and refuses a field list with a gap between two fields."""
    names = ("card_id", "attack", "defense", "stat_modifier", "terrain_modifier", "flags",
             "table_index")
    writer = M.record_writer("card", names)
    values = (722, 3000, -5, -1000, 500, 0xC200, 29)
    st, ref = S.DuelState(), S.DuelState()
    writer.pack_into(st.raw, writer.first + writer.stride * 17, *values)
    for name, value in zip(names, values, strict=True):
        getattr(ref.cards, name)[17] = value
    assert st.image() == ref.image()
    with pytest.raises(ValueError, match="does not follow"):
        M.record_writer("card", ("card_id", "defense"))


def test_record_classes_keep_the_dataclass_contract():
    """Events and actions built by ``actions.record`` behave as frozen dataclasses: the
    same positional and keyword parameters and defaults, equality, hashing, ``replace`` and
    immutability (the duel protocol's Action/Event contract)."""
    import dataclasses

    from emucore.fm.actions import Drew, Ended, RitualSummon

    play = Play((1, 0), 3, True, 1, rng_calls=2)
    assert (play.cards, play.zone, play.face_down, play.star, play.rng_calls) == \
        ((1, 0), 3, True, 1, 2)
    assert Play((0,)) == Play(cards=(0,), zone=-1, face_down=False, star=0, rng_calls=0)
    assert dataclasses.replace(play, rng_calls=0) == Play((1, 0), 3, True, 1)
    assert hash(Drew(0, 5, 2)) == hash(Drew(0, 5, 2)) and Drew(0, 5, 2) != Drew(1, 5, 2)
    assert RitualSummon(0, 1, 2, 3).rand_calls == 0
    end = Ended(0, "lp", (50, 60), "B-POW", 3, "bcd", 7, rand_calls=1)
    assert (end.drop_state, end.turns, end.rand_calls) == ("", (0, 0), 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.zone = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        Play((0,), -1, False, 0, 5)  # rng_calls is keyword-only
    with pytest.raises(TypeError):
        Drew(0, 5)
