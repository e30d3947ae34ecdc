"""The Password shop engine (emucore.fm.password) against the decompiled password overlay
(krystalgamer/memories-decomp ``src/overlays/password/shop.c``: ``Password_LookupCardID``
0x8016A304, ``Password_UpdateShopScreen`` 0x8016A37C; ``src/game/duel_rewards.c``:
``Duel_AwardCard``). Expected values are worked out by hand from those routines."""

from __future__ import annotations

import pytest

from emucore import tables as T
from emucore.fm import password as P
from emucore.fm import rank

RYU_KISHIN, RYU_KISHIN_CODE = 5, [1, 5, 3, 0, 3, 2, 9, 6]  # cards.csv: 15303296, 30 starchips


@pytest.fixture(scope="module")
def tables():
    return T.load("fm")


def save(starchips: int = 100, trunk: dict | None = None) -> dict:
    return {"starchips": starchips, "trunk": dict(trunk or {}), P.SAVE_FIELD: []}


def frames(shop: P.PasswordShop, n: int, pad: P.ShopInput | None = None) -> list:
    return [shop.update(pad or P.ShopInput()) for _ in range(n)]


def enter(shop: P.PasswordShop, digits: list[int]) -> None:
    shop.digits = list(digits)


def test_the_digits_pack_as_the_tables_bcd_word():
    """Password_LookupCardID: eight nibbles, the first digit highest."""
    assert P.pack([8, 9, 6, 3, 1, 1, 3, 9]) == 0x89631139


def test_lookup_walks_the_card_table(tables):
    """Password_LookupCardID returns the 1-based index of the first equal record, 0 for
    none; Blue-eyes White Dragon is 89631139 (cards.csv, the disc's password record)."""
    assert P.lookup(tables, [8, 9, 6, 3, 1, 1, 3, 9]) == 1
    assert P.lookup(tables, RYU_KISHIN_CODE) == RYU_KISHIN
    assert P.lookup(tables, [0] * 8) == 0


def test_cards_without_a_password_cannot_be_reached(tables):
    """The 24 cards without a password hold a sentinel with nibbles above 9 (0xFFFFFFFE in
    fmlib-cpp), which no eight decimal digits pack to; cards.csv has them empty."""
    missing = [c for c in range(1, 723) if P.password_of(tables, c) is None]
    assert len(missing) == 24 and 356 in missing
    assert all(P.price(tables, c) == 999_999 for c in missing)


@pytest.mark.parametrize(("remaining", "step"), [
    (1, 1), (9, 1), (10, 1), (19, 1), (20, 2), (99, 9), (100, 5), (999, 49), (1000, 33),
    (9999, 333), (10000, 250), (999_999, 24_999)])
def test_the_countdown_slice(remaining, step):
    """State 3: 1, then /10 from 10, /20 from 100, /30 from 1,000, /40 from 10,000."""
    assert P.price_step(remaining) == step


def test_a_thirty_starchip_countdown_frame_by_frame():
    """Worked by hand from state 3: 30 -3-> 27 -2-> 25, 23, 21, 19, then 1 a frame."""
    assert P.countdown(30) == [27, 25, 23, 21, 19, *range(18, -1, -1)]


def test_a_purchase_frame_by_frame(tables):
    """Cross finds the card; 1 frame asks for its picture, 1 gets it, 16 reveal it and the
    last opens message 227; EXCHANGE marks the password used and awards the card that same
    frame; then the price counts down a frame at a time; 16 frames hide the card and
    message 226 comes back with the digits as they were."""
    shop = P.PasswordShop(tables, save(100, {"5": 2}))
    enter(shop, RYU_KISHIN_CODE)
    assert shop.update(P.ShopInput(confirm=True)) == "found"
    assert frames(shop, 17) == [None] * 17 and shop.state == P.REVEAL
    assert shop.update(P.ShopInput()) == "shown" and shop.message == P.OFFER
    assert shop.can_buy()
    assert frames(shop, 30) == [None] * 30  # the dialog waits for its answer
    assert shop.update(P.ShopInput(answer=True)) == "bought"
    assert shop.save["trunk"]["5"] == 3 and shop.save[P.SAVE_FIELD] == [RYU_KISHIN]
    assert shop.starchips == 100
    shown = []
    while shop.state == P.PAY:
        shop.update(P.ShopInput())
        shown.append(shop.starchips)
    assert shown == [70 + r for r in P.countdown(30)]
    assert frames(shop, 15) == [None] * 15 and shop.state == P.HIDE
    shop.update(P.ShopInput())
    assert shop.state == P.ENTRY and shop.message == P.ENTER and shop.digits == RYU_KISHIN_CODE


def bought_once(tables, starchips: int = 100) -> P.PasswordShop:
    shop = P.PasswordShop(tables, save(starchips))
    enter(shop, RYU_KISHIN_CODE)
    shop.update(P.ShopInput(confirm=True))
    frames(shop, 18)
    shop.update(P.ShopInput(answer=True))
    while shop.state != P.ENTRY:
        shop.update(P.ShopInput())
    return shop


def test_a_used_password_shows_message_229_and_gives_nothing(tables):
    """State 2 tests flag 0x400 + card first: message 229, then state 4, no award."""
    shop = bought_once(tables)
    shop.update(P.ShopInput(confirm=True))
    frames(shop, 18)
    assert shop.message == P.USED and not shop.can_buy()
    shop.update(P.ShopInput(answer=True))
    assert shop.state == P.HIDE and shop.save["trunk"]["5"] == 1 and shop.starchips == 70


def test_too_few_starchips_offers_quit_only(tables):
    """Message 228 when the balance is below the price; only QUIT answers it."""
    shop = P.PasswordShop(tables, save(29))
    enter(shop, RYU_KISHIN_CODE)
    shop.update(P.ShopInput(confirm=True))
    frames(shop, 18)
    assert shop.message == P.SHORT and not shop.can_buy()
    shop.update(P.ShopInput(answer=True))
    assert shop.state == P.HIDE and shop.save["trunk"] == {} and shop.starchips == 29
    assert shop.save[P.SAVE_FIELD] == []


def test_a_full_chest_is_charged_and_keeps_250(tables):
    """quirk: the updater has no chest check; Duel_AwardCard caps the count at 250."""
    shop = P.PasswordShop(tables, save(100, {"5": rank.TRUNK_CAP}))
    enter(shop, RYU_KISHIN_CODE)
    shop.update(P.ShopInput(confirm=True))
    frames(shop, 18)
    assert shop.can_buy()
    shop.update(P.ShopInput(answer=True))
    while shop.state != P.ENTRY:
        shop.update(P.ShopInput())
    assert shop.save["trunk"]["5"] == rank.TRUNK_CAP and shop.starchips == 70


def test_an_unknown_code_only_sounds(tables):
    """A lookup of 0: sound 9 and return; state 0, digits kept."""
    shop = P.PasswordShop(tables, save())
    enter(shop, [1, 2, 3, 4, 5, 6, 7, 8])
    assert shop.update(P.ShopInput(confirm=True)) == "error"
    assert shop.state == P.ENTRY and shop.digits == [1, 2, 3, 4, 5, 6, 7, 8]


def test_held_right_moves_every_eighth_frame_and_stops_at_the_end(tables):
    """Held Right sets the cursor slide (8 runs of its timer) that holds the updater; at
    index 7 the move is refused without a sound."""
    shop = P.PasswordShop(tables, save())
    held = P.ShopInput(right=True)
    results = frames(shop, 17, held)
    assert results == ["move", *[None] * 7, "move", *[None] * 7, "move"] and shop.index == 3
    shop.index = 7
    shop._busy = 0
    assert shop.update(held) is None and shop.index == 7


def test_digits_wrap_and_right_wins_over_up(tables):
    """Up adds 1 mod 10, Down takes 1 (0 -> 9); horizontal input is read first."""
    shop = P.PasswordShop(tables, save())
    assert shop.update(P.ShopInput(down=True)) == "digit" and shop.digits[0] == 9
    assert shop.update(P.ShopInput(up=True)) == "digit" and shop.digits[0] == 0
    assert shop.update(P.ShopInput(right=True, up=True)) == "move" and shop.digits == [0] * 8


def test_circle_leaves_from_the_digits(tables):
    shop = P.PasswordShop(tables, save())
    assert shop.update(P.ShopInput(cancel=True)) == "leave"


def test_the_shop_calls_no_rand():
    """None of Main_RunPasswordMenu, Password_InitShopScreen, Password_UpdateShopScreen,
    Password_LookupCardID or Duel_AwardCard calls rand()."""
    assert P.RAND_CALLS_PER_FRAME == 0
