"""Trade and the two-player set-up (emucore.fm.trade, and FmGame's second-save edge) against
the decompiled routines (krystalgamer/memories-decomp ``src/overlays/main_menu/trade_update.c``:
``MainMenu_UpdateTradeScreen``, ``MainMenu_RefreshTradeInventory``;
``src/overlays/main_menu/value_setup.c``: ``MainMenu_UpdateValueSetup``;
``src/game/main_run_two_player_duel_setup.c``; ``src/game/save_data_pair.c``:
``SaveData_UpdateDuelLoad``). Expected values are worked out by hand from them."""

from __future__ import annotations

import json

import pytest

from emucore.duel.files import UserFileError
from emucore.fm import trade as TR
from emucore.frontend.storage import SaveFile
from emucore.frontend.systems.fm.session import FmGame, validate_save


@pytest.fixture
def game(tmp_path):
    g = FmGame()
    g.save_file = SaveFile("fm", validate_save, folder=tmp_path)
    g.new_game()
    return g


def a_save(g: FmGame, extra: dict[str, int]) -> dict:
    data = json.loads(json.dumps(g.data))
    for card, n in extra.items():
        data["trunk"][card] = data["trunk"].get(card, 0) + n
    return data


def test_the_chest_leaves_the_deck_out(game):
    """MainMenu_RefreshTradeInventory lists the counts at save +0x50: the chest, which does
    not hold the deck's 40 cards; the starter deal puts every card in the deck."""
    assert TR.chest(game.data) == {}
    spare = next(c for c in range(1, 723) if c not in game.deck)
    data = a_save(game, {str(spare): 2, str(game.deck[0]): 1})
    assert TR.chest(data) == dict(sorted({spare: 2, game.deck[0]: 1}.items()))


def test_at_most_ten_offers_and_never_more_than_the_chest(game):
    """Cross: D_80185C9C[i][0] < 10 and the row's count not 0, else sound 9."""
    side = TR.TradeSide(a_save(game, {"5": 12, "8": 1}))
    assert side.pick(8) and not side.pick(8)
    assert all(side.pick(5) for _ in range(9)) and not side.pick(5)
    assert len(side.offer) == TR.OFFER_LIMIT and side.left(5) == 3


def test_ready_needs_something_on_the_table(game):
    """Square is refused while the other side is ready and both offers are empty; a gift
    one way is a trade."""
    deal = TR.Trade.between(a_save(game, {"5": 1}), a_save(game, {}))
    assert deal.set_ready(0)
    assert not deal.set_ready(1)
    deal.sides[0].ready = False
    deal.sides[0].pick(5)
    assert deal.set_ready(1) and deal.set_ready(0) and deal.both_ready()


def test_circle_takes_back_then_leaves(game):
    """Circle: the last offer back; with nothing offered leave, unless the other side has
    offered or is ready (sound 9)."""
    deal = TR.Trade.between(a_save(game, {"5": 1}), a_save(game, {"8": 1}))
    deal.sides[0].pick(5)
    deal.sides[1].pick(8)
    assert deal.cancel(0) == "back" and deal.cancel(0) == "refused"
    deal.sides[1].offer.clear()
    deal.set_ready(1)
    assert deal.cancel(0) == "refused" and deal.cancel(1) == "unready"
    assert deal.cancel(0) == "leave"


def test_the_trade_moves_chest_copies_only(game):
    """Each offered copy leaves its chest for the other's; deck, starchips and the rest of
    both saves stay; the inputs are not changed until the saves are written."""
    first, second = a_save(game, {"5": 2}), a_save(game, {"8": 1})
    first["starchips"], second["starchips"] = 7, 9
    deal = TR.Trade.between(first, second)
    deal.sides[0].pick(5)
    deal.sides[0].pick(5)
    deal.sides[1].pick(8)
    mine, theirs = deal.result()
    assert "5" not in mine["trunk"] and theirs["trunk"]["5"] == 2
    assert mine["trunk"]["8"] == 1 and "8" not in theirs["trunk"]
    assert (mine["deck"], mine["starchips"], theirs["starchips"]) == (first["deck"], 7, 9)
    assert first["trunk"]["5"] == 2
    validate_save(mine)
    validate_save(theirs)


def test_a_copy_sent_to_a_full_chest_is_lost(game):
    """quirk: the receiver's count only rises below 250; the sender's falls anyway."""
    first, second = a_save(game, {"5": 1}), a_save(game, {"5": TR.CHEST_CAP})
    deal = TR.Trade.between(first, second)
    deal.sides[0].pick(5)
    mine, theirs = deal.result()
    assert "5" not in mine["trunk"] and theirs["trunk"]["5"] == TR.CHEST_CAP


@pytest.mark.parametrize(("value", "down", "up"), [
    (8000, 7500, 8000), (7800, 7300, 8000), (500, 1, 1000), (1, 1, 500), (600, 100, 1100)])
def test_life_point_steps(value, down, up):
    """MainMenu_UpdateValueSetup: Left -500 while above 0 else 1; Right 500 from 1, else +500
    capped at 8000."""
    assert TR.lp_down(value) == down and TR.lp_up(value) == up


def test_numbers_roll_by_at_most_100():
    """The shown value moves by the gap, capped at 100, 99 while below 2."""
    assert TR.roll(8000, 7500) == 7900 and TR.roll(7550, 7500) == 7500
    assert TR.roll(1, 500) == 100 and TR.roll(100, 1) == 1


def test_start_waits_for_the_numbers_and_the_choice_is_shared():
    """Left/Right on the choice sets the one shared byte; Up slides the marker from the bar
    to the choice in 10 updates (MainMenu_StartValueWidgetTween); a side is busy while its
    number rolls or its marker slides."""
    setup = TR.TwoPlayerSetup()
    assert setup.view_mode == TR.VIEW_MODE_START and setup.position == 0
    setup.horizontal(0, right=False)
    assert setup.lp == [7500, 8000] and setup.busy(0) and not setup.busy(1)
    for _ in range(5):
        setup.frame()
    assert not setup.busy(0) and setup.shown == [7500, 8000]
    setup.vertical(1, down=True)  # already on the bar: nothing
    assert not setup.busy(1)
    setup.vertical(1, down=False)
    for _ in range(TR.SLIDE_FRAMES - 1):
        setup.frame()
    assert setup.busy(1) and setup.on_bar[1]
    setup.frame()
    assert not setup.busy(1) and not setup.on_bar[1]
    setup.horizontal(1, right=True)
    assert setup.view_mode == 0 and setup.position == 1 and setup.lp == [7500, 8000]


def test_both_saves_need_a_full_deck(game):
    """SaveData_UpdateDuelLoad refuses a save with an empty deck slot, naming its side."""
    other = a_save(game, {})
    other["deck"] = other["deck"][:39] + [0]
    with pytest.raises(ValueError, match="player 2"):
        TR.check_duel_pair(game.data, other)


def test_a_two_player_duel_takes_each_saves_deck_and_life_points(game):
    other = a_save(game, {})
    other["deck"] = sorted(other["deck"])
    setup = TR.TwoPlayerSetup(lp=[3000, 500])
    duel = game.start_two_player_duel(other, setup)
    assert list(duel.st.sides.lp) == [3000, 500]


def test_a_bad_second_save_is_refused_in_one_line(game, tmp_path):
    bad = tmp_path / "friend.json"
    bad.write_text("{\"version\": 2")
    with pytest.raises(UserFileError, match="friend.json") as err:
        game.read_partner(bad)
    assert "\n" not in str(err.value)
    bad.write_text(json.dumps({**game.data, "starchips": -1}))
    with pytest.raises(UserFileError, match="starchips"):
        game.read_partner(bad)
    assert bad.read_text() == json.dumps({**game.data, "starchips": -1})


def test_a_save_cannot_trade_with_itself(game):
    """SaveData_HasSameDuelistCode refuses a pair from one game."""
    game.save()
    with pytest.raises(UserFileError, match="own save"):
        game.read_partner(game.save_file.path)


def write_partner(game, tmp_path, extra) -> tuple:
    path = tmp_path / "friend.json"
    path.write_text(json.dumps(a_save(game, extra), indent=1, sort_keys=True) + "\n")
    data, text = game.read_partner(path)
    return path, data, text


def test_a_confirmed_trade_writes_both_saves(game, tmp_path):
    one, two = [c for c in range(1, 723) if c not in game.deck][:2]
    path, data, text = write_partner(game, tmp_path, {str(two): 1})
    game.data["trunk"][str(one)] = 1
    deal = TR.Trade.between(game.data, data)
    deal.sides[0].pick(one)
    deal.sides[1].pick(two)
    assert game.commit_trade(deal, path, text) is None
    theirs = json.loads(path.read_text())
    mine = json.loads(game.save_file.path.read_text())
    assert theirs["trunk"].get(str(one)) == 1 and str(two) not in theirs["trunk"]
    assert mine["trunk"].get(str(two)) == 1 and str(one) not in mine["trunk"]
    assert game.data == mine


def test_a_second_save_changed_meanwhile_stops_the_trade(game, tmp_path):
    path, data, text = write_partner(game, tmp_path, {})
    game.data = a_save(game, {"5": 1})
    deal = TR.Trade.between(game.data, data)
    assert deal.sides[0].pick(5)
    path.write_text(text + " ")
    assert "changed since it was read" in game.commit_trade(deal, path, text)
    assert path.read_text() == text + " " and not game.save_file.exists()
    assert TR.chest(game.data)[5] == 1


def test_when_this_save_cannot_be_written_the_other_is_put_back(game, tmp_path, monkeypatch):
    path, data, text = write_partner(game, tmp_path, {})
    game.data = a_save(game, {"5": 1})
    deal = TR.Trade.between(game.data, data)
    assert deal.sides[0].pick(5)

    def refuse(data):
        game.save_file.error = "disk full"
        return False

    monkeypatch.setattr(game.save_file, "save", refuse)
    message = game.commit_trade(deal, path, text)
    assert message == "disk full; nothing was traded"
    assert path.read_text() == text and TR.chest(game.data)[5] == 1
