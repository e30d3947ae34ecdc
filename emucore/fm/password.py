"""The Password shop, frame by frame: the original's password overlay (``Main_RunPasswordMenu``
calls ``Password_InitShopScreen`` 0x8016A080 once and ``Password_UpdateShopScreen`` 0x8016A37C
every frame).

The player turns eight digits; Cross looks them up in the card table
(``Password_LookupCardID`` 0x8016A304), the card is revealed, and a dialog offers it for its
starchip price. Bought, the card goes to the chest at once (``Duel_AwardCard``), the
password is marked used in the save's flag bank (``Library_UpdateCardUsedFlag`` of flag
``0x400 + card``) and then the price counts down on screen, a slice a frame
(:func:`price_step`), out of the starchips.

How each case ends, as the original plays it:

* a code no card has: an error sound and nothing else; the digits stay as entered;
* a card whose password was used before (``Campaign_TestStoryFlag(0x400 + card)``): message
  229, then the card is hidden again; nothing is charged or given, ever again for that card;
* fewer starchips than the price: message 228, whose EXCHANGE cannot be chosen (only QUIT);
* a full chest: no refusal at all (quirk: ``Password_UpdateShopScreen`` has no chest check;
  ``Duel_AwardCard`` caps the copies at 250, so the 251st copy is paid for and lost).

No routine of the shop calls ``rand()``: ``Main_RunPasswordMenu``, ``Password_InitShopScreen``,
``Password_UpdateShopScreen``, ``Password_LookupCardID``, ``Duel_AwardCard`` and the three
display refreshers make no call, so the RNG stands still while the player is here
(:data:`RAND_CALLS_PER_FRAME`).

This module keeps no pygame and no frontend: the screen (frontend/systems/fm/password.py) turns
the pad into :class:`ShopInput` and draws what :class:`PasswordShop` says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from emucore.fm import rank
from emucore.tables.fm import FmTables

DIGITS = 8
RAND_CALLS_PER_FRAME = 0  # none of the shop's routines calls rand()
SAVE_FIELD = "passwords"  # the cards whose used bit (flag 0x400 + card) is set, as a list

# The message boxes the shop opens (Password_CreateMessageBox's message ids).
ENTER, OFFER, SHORT, USED = 226, 227, 228, 229
# Frames, each one update of Password_UpdateShopScreen:
# A digit move starts the cursor's slide (Password_UpdateDigitCursor, 8 runs of its timer);
# the updater returns at once until the slide ends, so it is held for the 7 frames after the
# move and held Left/Right moves the cursor every 8th frame.
CURSOR_FRAMES = 8
REVEAL_FRAMES = 16  # the preview's phase from 0x80 to 0 by 8 (state 1)
HIDE_FRAMES = 16  # and from 0 until negative as s8 (state 4)
# fm.choices G6: our message boxes show their text at once, so the updater's text gate
# ((D_800EB12C & 0x2008) == 0x2000: box 0 typed out and not waiting) only holds it while the
# dialog waits for its answer; the card's picture, a disc read in the original (state 1
# waits for the transfer), is ready on the frame after it is asked for.
LOAD_FRAMES = 1

# The updater's states (the low five bits of D_8016D424).
ENTRY, REVEAL, DIALOG, PAY, HIDE = range(5)


def pack(digits: list[int]) -> int:
    """The eight digits as ``Password_LookupCardID`` packs them: one nibble each, first digit
    highest, which is the card table's little-endian BCD word."""
    value = 0
    for digit in digits:
        value = value << 4 | digit
    return value


def lookup(tables: FmTables, digits: list[int]) -> int:
    """The card whose password the digits are, or 0 (``Password_LookupCardID``: the table
    is walked from card 1 in id order and the first equal word wins; the 24 cards without a
    password hold a word with nibbles above 9, which no eight digits can make)."""
    wanted = pack(digits)
    for card in range(1, tables.card_count + 1):
        code = password_of(tables, card)
        if code is not None and pack(code) == wanted:
            return card
    return 0


def password_of(tables: FmTables, card: int) -> list[int] | None:
    """The card's eight digits from cards.csv, or None for a card without a password."""
    text = str(tables.raw["cards.csv"]["password"][card - 1])
    return [int(c) for c in text] if text else None


def price(tables: FmTables, card: int) -> int:
    """The card's starchip price: the first word of its eight-byte record (cards.csv
    ``starchip_cost``; 999,999 for the cards without a password)."""
    return int(tables.raw["cards.csv"]["starchip_cost"][card - 1])


def price_step(remaining: int) -> int:
    """What one frame of the countdown takes off (``Password_UpdateShopScreen`` state 3): 1,
    replaced by remaining / 10 from 10, / 20 from 100, / 30 from 1,000 and / 40 from 10,000
    (integer division, the largest threshold reached wins, a zero step becomes 1)."""
    step = 1
    for floor, divisor in ((10, 10), (100, 20), (1000, 30), (10000, 40)):
        if remaining >= floor:
            step = remaining // divisor
    return max(step, 1)


def countdown(cost: int) -> list[int]:
    """The price still to pay after each frame of the countdown, down to 0: one entry per
    frame the starchips count down on screen."""
    shown, remaining = [], cost
    while remaining > 0:
        remaining -= price_step(remaining)
        shown.append(remaining)
    return shown


def is_used(save: dict[str, Any], card: int) -> bool:
    """Whether the card's password was used (its bit of the save's flag bank)."""
    return card in save.get(SAVE_FIELD, ())


@dataclass
class ShopInput:
    """One frame of the pad as the shop reads it: held Left/Right (held, not repeated: the
    cursor slide paces them), repeated Up/Down, newly pressed Circle (``cancel``) and Cross
    (``confirm``); ``answer`` is the dialog's choice on the frame it is made (True for
    EXCHANGE, False for QUIT), None while it is open or when none is asked."""

    right: bool = False
    left: bool = False
    up: bool = False
    down: bool = False
    cancel: bool = False
    confirm: bool = False
    answer: bool | None = None


@dataclass
class PasswordShop:
    """The shop's state machine over a save (the ``trunk``, ``starchips`` and
    :data:`SAVE_FIELD` of an emucore FM save, changed in place).

    :meth:`update` is one frame; its result names what the frame did for the screen's
    sounds ("move", "digit", "error", "found", "shown", "bought", "pay", "done", "leave" or
    None)."""

    tables: FmTables
    save: dict[str, Any]
    digits: list[int] = field(default_factory=lambda: [0] * DIGITS)
    index: int = 0
    state: int = ENTRY
    message: int = ENTER
    card: int = 0  # the card found by the last lookup
    remaining: int = 0  # the price still to count down (state 3)
    _busy: int = 0  # frames the cursor slide still holds the updater
    _timer: int = 0  # frames into the current reveal / hide

    @property
    def starchips(self) -> int:
        return int(self.save["starchips"])

    def offer(self) -> int:
        """The message of the card found: USED, SHORT or OFFER."""
        if is_used(self.save, self.card):
            return USED
        return SHORT if self.starchips < price(self.tables, self.card) else OFFER

    @property
    def asking(self) -> bool:
        """Whether the dialog (message 227, 228 or 229) is open and waits for its answer
        (state 2: the text gate is shut until it is answered)."""
        return self.state == DIALOG

    def can_buy(self) -> bool:
        """Whether the open dialog's EXCHANGE can be chosen (message 227 only)."""
        return self.asking and self.message == OFFER

    def preview(self) -> float:
        """How much of the card is shown, 0..1: the preview's phase as state 1 reveals it and
        state 4 hides it (whole while the dialog and the countdown run)."""
        if self.state == REVEAL:
            return max(0, self._timer - 1 - LOAD_FRAMES) / REVEAL_FRAMES
        if self.state in (DIALOG, PAY):
            return 1.0
        if self.state == HIDE:
            return 1 - self._timer / HIDE_FRAMES
        return 0.0

    def update(self, pad: ShopInput) -> str | None:
        """One frame of ``Password_UpdateShopScreen``."""
        if self._busy:
            self._busy -= 1  # quirk: the updater returns at once while the cursor slides
            return None
        return (self._entry, self._reveal, self._dialog, self._pay, self._hide)[self.state](pad)

    def _entry(self, pad: ShopInput) -> str | None:
        """State 0: Right over Left (held), then Up over Down (repeat), Circle, Cross."""
        if pad.right or pad.left:
            target = self.index + (1 if pad.right else -1)
            if not 0 <= target < DIGITS:
                return None  # clamped: no sound, and nothing lower-priority is read
            self.index, self._busy = target, CURSOR_FRAMES - 1
            return "move"
        if pad.up or pad.down:
            self.digits[self.index] = (self.digits[self.index] + (1 if pad.up else -1)) % 10
            return "digit"
        if pad.cancel:
            return "leave"
        if pad.confirm:
            self.card = lookup(self.tables, self.digits)
            if not self.card:
                return "error"  # an unknown code: the sound only, the digits stay
            self.state, self._timer = REVEAL, 0
            return "found"
        return None

    def _reveal(self, pad: ShopInput) -> str | None:
        """State 1: ask for the picture, wait for it, then 16 frames of reveal; the last
        one falls through into state 2, which opens the dialog in the same frame."""
        self._timer += 1
        if self._timer < 1 + LOAD_FRAMES + REVEAL_FRAMES:
            return None
        self.state, self.message = DIALOG, self.offer()
        return "shown"

    def _dialog(self, pad: ShopInput) -> str | None:
        """State 2: the text gate stays shut until the dialog is answered (message 229 is
        acknowledged with either answer); then EXCHANGE on message 227 buys."""
        if pad.answer is None:
            return None
        if self.message == OFFER and pad.answer:
            self._buy()
            self.state = PAY
            return "bought"
        self.state, self._timer = HIDE, 0
        return None

    def _buy(self) -> None:
        """Mark the password used and put the card in the chest (``Duel_AwardCard``), before
        a starchip is paid."""
        used = self.save.setdefault(SAVE_FIELD, [])
        used.append(self.card)
        used.sort()
        trunk = self.save["trunk"]
        trunk[str(self.card)] = rank.award_card(int(trunk.get(str(self.card), 0)))
        self.remaining = price(self.tables, self.card)

    def _pay(self, pad: ShopInput) -> str:
        """State 3: one slice of the price off the starchips each frame."""
        step = price_step(self.remaining)
        self.remaining -= step
        self.save["starchips"] = self.starchips - step
        if self.remaining == 0:
            self.state, self._timer = HIDE, 0
            return "done"
        return "pay"

    def _hide(self, pad: ShopInput) -> str | None:
        """State 4: 16 frames of hiding, then message 226 and back to the digits (which
        stay as they were)."""
        self._timer += 1
        if self._timer < HIDE_FRAMES:
            return None
        self.state, self.message = ENTRY, ENTER
        return None
