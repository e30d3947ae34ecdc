"""The Duel protocol for paper duels: snapshots, digests, legal actions, replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emucore.duel import replay
from emucore.duel.files import UserFileError
from emucore.ocg1999.replay import ADAPTER as OCG_ADAPTER
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.actions import EndTurn, decode_action
from emucore.paper.ai import choose
from emucore.paper.engine import shuffle
from emucore.paper.state import decode, encode, fields_of
from emucore.paper.system import PaperSystem
from emucore.tcglite.replay import ADAPTER as TCG_ADAPTER
from emucore.tcglite.system import SYSTEM as TCG

SYSTEMS = pytest.mark.parametrize("system", [OCG, TCG], ids=["ocg1999", "tcglite"])


@SYSTEMS
def test_save_then_steps_equals_restore_then_steps(system: PaperSystem) -> None:
    d = system.new_duel(21)
    for _ in range(15):
        d.step(choose(d))
    saved = d.snapshot()
    digests = []
    for _ in range(25):
        if d.over:
            break
        d.step(choose(d))
        digests.append(d.digest())
    end = d.snapshot()
    d.restore(saved)
    again = []
    for _ in range(len(digests)):
        d.step(choose(d))
        again.append(d.digest())
    assert again == digests and d.snapshot() == end


def test_image_round_trip_and_named_fields() -> None:
    d = OCG.new_duel(8, ante=True)
    image = d.snapshot()
    assert encode(decode(image)) == image
    fields = fields_of(image)
    assert fields["side0.lp"] == 8000 and fields["side1.hand.count"] == 5
    assert fields["side0.ante.count"] == 1 and fields["rng_state"] == d.state.rng.state
    with pytest.raises(ValueError):
        decode(image[:-8])
    with pytest.raises(ValueError):
        decode(b"\x00" * 16)


def test_shuffle_is_fisher_yates_on_the_psyq_stream() -> None:
    from emucore.hw.psyq_rand import Rand

    cards = list(range(10))
    rng = Rand(0x1234)
    shuffle(cards, rng)
    expect, check = list(range(10)), Rand(0x1234)
    for i in range(9, 0, -1):
        j = check.rand() % (i + 1)
        expect[i], expect[j] = expect[j], expect[i]
    assert cards == expect and rng.calls == 9


def test_same_seed_same_duel_different_seed_different_deal() -> None:
    a, b, c = OCG.new_duel(5), OCG.new_duel(5), OCG.new_duel(6)
    assert a.digest() == b.digest() and a.digest() != c.digest()


@SYSTEMS
def test_every_listed_action_is_legal_and_steps(system: PaperSystem) -> None:
    d = system.new_duel(3)
    for _ in range(60):
        if d.over:
            break
        saved = d.snapshot()
        for action in d.legal_actions():
            d.step(action)
            d.restore(saved)
        assert d.snapshot() == saved
        d.step(choose(d))


def test_actions_round_trip_through_json() -> None:
    d = OCG.new_duel(2)
    for action in d.legal_actions():
        assert decode_action(json.loads(json.dumps(action.to_json()))) == action
    with pytest.raises(ValueError):
        decode_action({"kind": "summon", "hand": "0", "position": 1})
    with pytest.raises(ValueError):
        decode_action({"kind": "fly"})


@pytest.mark.parametrize("adapter", [OCG_ADAPTER, TCG_ADAPTER], ids=["ocg1999", "tcglite"])
def test_replay_records_and_verifies(adapter, tmp_path: Path) -> None:
    setup = adapter.paper.setup(77)
    rec = replay.record(adapter, setup, choose)
    assert rec.steps and replay.verify(adapter, rec) is None
    rec.save(tmp_path / "r.json")
    assert replay.verify(adapter, replay.load(tmp_path / "r.json")) is None


def test_replay_mismatch_names_the_step_and_fields() -> None:
    setup = OCG.setup(77)
    rec = replay.record(OCG_ADAPTER, setup, choose)
    index = next(i for i, s in enumerate(rec.steps) if s.action["kind"] != "end_turn")
    rec.steps[index].action = EndTurn().to_json()
    mismatch = replay.verify(OCG_ADAPTER, rec)
    assert mismatch is not None and mismatch.step == index + 1
    assert mismatch.fields and all("." in name or name in ("turn", "active", "phase",
                                                             "rng_state", "rng_calls")
                                   for name, _, _ in mismatch.fields)


def test_replay_with_a_bad_setup_is_a_bad_file_not_a_difference() -> None:
    rec = replay.record(OCG_ADAPTER, OCG.setup(1), choose, max_steps=3)
    rec.setup = {**rec.setup, "decks": ["magician", {"main": [1, 2, 3]}]}
    with pytest.raises(UserFileError, match="bad setup: .*deck-size"):
        replay.verify(OCG_ADAPTER, rec)
