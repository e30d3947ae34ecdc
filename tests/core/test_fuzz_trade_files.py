"""Fuzz: a mutated second save for Trade and the two-player duel (the friend's memory card,
read by ``FmGame.read_partner`` through the reading edge and checked by ``validate_save``).
The house rules: a bad file is one ``UserFileError`` line naming it, never another exception;
the file is not changed; a file that is accepted is a save the trade can work on, and a trade
with it writes two saves that load again, or changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import fuzz_harness
import pytest
from fuzz_harness import fresh, mutated_json
from hypothesis import given
from hypothesis import strategies as st

from emucore.duel.files import UserFileError
from emucore.fm import trade as TR
from emucore.frontend.storage import SaveFile
from emucore.frontend.systems.fm.session import FmGame, validate_save

pytestmark = pytest.mark.fuzz


def a_game(folder: Path) -> FmGame:
    game = FmGame()
    game.save_file = SaveFile("fm", validate_save, folder=folder / "own")
    game.new_game()
    game.data["trunk"]["700"] = 3
    return game


BASE = a_game(Path("/nonexistent")).data


@given(text=mutated_json({**BASE, "trunk": {**BASE["trunk"], "701": 2}}))
def test_a_mutated_second_save_is_refused_in_one_line_or_trades(work, text):
    folder = fresh(work)
    fuzz_harness.RUNS["fm trade / second save"] += 1
    game = a_game(folder)
    path = folder / "friend.json"
    path.write_text(text)
    try:
        other, read = game.read_partner(path)
    except UserFileError as exc:
        message = str(exc)
        assert message.startswith(f"{path}: ") and "\n" not in message
        assert path.read_text() == text
        return
    assert read == text
    deal = TR.Trade.between(game.data, other)
    deal.sides[0].pick(700)
    for card in list(TR.chest(other))[:3]:
        deal.sides[1].pick(card)
    assert game.commit_trade(deal, path, read) is None
    for written in (path, game.save_file.path):
        validate_save(json.loads(written.read_text()))


@given(data=st.data())
def test_any_two_valid_saves_trade_without_losing_a_card_but_to_a_full_chest(work, data):
    """Copies are conserved across both chests, except those sent to a chest at 250."""
    fuzz_harness.RUNS["fm trade / conservation"] += 1
    cards = st.integers(1, 722)
    counts = st.integers(1, TR.CHEST_CAP)
    first = {**BASE, "trunk": {**BASE["trunk"]}}
    second = {**BASE, "trunk": {**BASE["trunk"]}}
    for save in (first, second):
        for card, n in data.draw(st.dictionaries(cards, counts, max_size=6)).items():
            if card not in save["deck"]:
                save["trunk"][str(card)] = n
    deal = TR.Trade.between(first, second)
    for side in (0, 1):
        for card in data.draw(st.lists(st.sampled_from([0, *TR.chest(deal.sides[side].save)]),
                                       max_size=12)):
            deal.sides[side].pick(card)
    mine, theirs = deal.result()
    before = sum(first["trunk"].values()) + sum(second["trunk"].values())
    after = sum(mine["trunk"].values()) + sum(theirs["trunk"].values())
    room = all(save["trunk"].get(str(card), 0) + deal.sides[side].offer.count(card)
               <= TR.CHEST_CAP
               for side, save in ((0, second), (1, first)) for card in deal.sides[side].offer)
    assert before - after >= 0 and (before == after or not room)
    validate_save(mine)
    validate_save(theirs)
