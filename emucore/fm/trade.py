"""Trade between two saves and the two-player duel set-up, as the original runs them.

Both main-menu entries need a save from each memory card (``SaveData_UpdateLoadPair``
0x8003F8D4); here the second memory card is another emucore FM save file. The original refuses
a pair with the same duelist code (``SaveData_HasSameDuelistCode``): a save cannot meet itself.

**Trade** (``Main_RunTrade`` -> ``MainMenu_UpdateTradeScreen`` 0x801821DC): pad 1 works the
first save's list, pad 2 the second's. Each list is the save's chest (the card counts at save
``+0x50``, ``MainMenu_RefreshTradeInventory``): cards in the deck are not in it and cannot go.
Cross offers the card under the cursor (at most :data:`OFFER_LIMIT` a side, never more copies
than the chest holds); Circle takes the last offer back, or, with nothing offered on either
side and the other not ready, leaves the screen; Square says "ready", refused while the other
is ready and nothing is offered at all (a gift one way is allowed). With both ready, a dialog
offers trade / change / quit. Trading moves each offered copy out of its chest into the other
(quirk: a chest at 250 copies takes nothing more, so a copy sent to it is lost, and the sender
still loses it), then both saves are written (``SaveData_RequestTradeWrite``); only when both
writes succeed does the trade stand (``MemCardDialog_Poll`` result 1), else neither save
changes. Only the chests change: the deck, starchips and every other field stay.

``fm.choices G7``: the original's list can be sorted (Select/Start), and its sort's comparators call
``rand()`` on equal card ids inside Psy-Q ``qsort``; emucore lists the chest in card-id
order (sort 0, which calls no ``rand()``) and offers no sort, so Trade calls no ``rand()``.

**Two-player set-up** (``Main_RunTwoPlayerDuelSetup`` -> ``MainMenu_UpdateValueSetup``
0x801812B4): both saves need a full 40-card deck (``SaveData_UpdateDuelLoad``); each player
sets their life points (8000 to start, Left/Right by 500 down to 1 and up to 8000) and both
share one two-way choice (``D_8009B230``, which the duel copies into each side's card view
mode); Start on either pad duels, Circle leaves, but only while neither number is still
rolling to its new value. The duel is armed as ``func_80024DC8(-1, -1, 0, 0)``: terrain 0.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from emucore.fm import rank

OFFER_LIMIT = 10  # cards a side may offer (MainMenu_UpdateTradeScreen: D_80185C9C[i][0] < 10)
CHEST_CAP = rank.TRUNK_CAP  # the receiving chest's cap (CARD_CHEST_QUANTITY_MAX)
# The dialog of MainMenu_UpdateTradeScreen once both sides are ready (D_80185CCE).
TRADE, CHANGE, QUIT = range(3)
DIALOG = ("Trade", "Change", "Quit")
RAND_CALLS_PER_FRAME = 0  # with sort 0: nothing in Main_RunTrade's frame calls rand()

LP_START = 8000  # DUEL_STARTING_LIFE_POINTS
LP_STEP = 500  # DUEL_LIFE_POINT_SELECTION_STEP
LP_MAX = 8000
VIEW_MODE_START = 1  # Main_Init stores 1 into D_8009B230
SLIDE_FRAMES = 10  # MainMenu_StartValueWidgetTween: the marker's slide, 10 updates


def chest(save: dict[str, Any]) -> dict[int, int]:
    """The save's chest: card -> copies outside the deck, in card-id order. emucore's trunk
    counts every copy, the deck's too; the original's chest holds the others."""
    in_deck = Counter(save["deck"])
    counts = {int(k): int(v) - in_deck.get(int(k), 0) for k, v in save["trunk"].items()}
    return {card: n for card, n in sorted(counts.items()) if n > 0}


@dataclass
class TradeSide:
    """One save's half of the Trade screen: its chest, what it offers, whether it is ready."""

    save: dict[str, Any]
    offer: list[int] = field(default_factory=list)
    ready: bool = False

    def left(self, card: int) -> int:
        """Copies of ``card`` still in the list (the chest less what is offered)."""
        return chest(self.save).get(card, 0) - self.offer.count(card)

    def pick(self, card: int) -> bool:
        """Cross: offer one copy; False (the error sound) at the limit or with none left."""
        if len(self.offer) >= OFFER_LIMIT or self.left(card) <= 0:
            return False
        self.offer.append(card)
        return True


@dataclass
class Trade:
    """The Trade screen's rules over two saves (neither changed until :meth:`result`)."""

    sides: tuple[TradeSide, TradeSide]

    @classmethod
    def between(cls, first: dict[str, Any], second: dict[str, Any]) -> Trade:
        return cls((TradeSide(first), TradeSide(second)))

    def nothing_offered(self) -> bool:
        return not self.sides[0].offer and not self.sides[1].offer

    def set_ready(self, side: int) -> bool:
        """Square: ready; refused (False) while the other side is ready and nothing is
        offered on either side."""
        if self.sides[1 - side].ready and self.nothing_offered():
            return False
        self.sides[side].ready = True
        return True

    def cancel(self, side: int) -> str:
        """Circle on ``side``'s pad: "unready" (while ready), "back" (the last offer taken
        back), "leave" (nothing on the table and the other not ready) or "refused"."""
        me, other = self.sides[side], self.sides[1 - side]
        if me.ready:
            me.ready = False
            return "unready"
        if me.offer:
            me.offer.pop()
            return "back"
        if other.offer or other.ready:
            return "refused"
        return "leave"

    def both_ready(self) -> bool:
        return self.sides[0].ready and self.sides[1].ready

    def change(self) -> None:
        """The dialog's Change: both sides not ready, the offers kept."""
        for side in self.sides:
            side.ready = False

    def result(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Both saves after the trade (new objects; the inputs stay as they were): side 0's
        offers go first, then side 1's, each copy out of its chest and into the other's
        unless that one is full."""
        saves = (copy.deepcopy(self.sides[0].save), copy.deepcopy(self.sides[1].save))
        for giver in (0, 1):
            source, target = saves[giver]["trunk"], saves[1 - giver]["trunk"]
            for card in self.sides[giver].offer:
                key = str(card)
                if int(source.get(key, 0)):
                    source[key] = int(source[key]) - 1
                    if not source[key]:
                        del source[key]
                if int(target.get(key, 0)) < CHEST_CAP:
                    target[key] = int(target.get(key, 0)) + 1
                # quirk: MainMenu_UpdateTradeScreen drops a copy sent to a full chest
        return saves


def lp_down(value: int) -> int:
    """Left on a life-point bar: 500 less while that stays above 0, else 1."""
    return value - LP_STEP if value - LP_STEP > 0 else 1


def lp_up(value: int) -> int:
    """Right on a life-point bar: from 1 to 500, else 500 more up to 8000."""
    return LP_STEP if value < 2 else min(value + LP_STEP, LP_MAX)


def roll(shown: int, target: int) -> int:
    """One frame of a life-point number rolling to its new value: the whole gap, at most 100
    (99 while the number shown is below 2)."""
    gap = abs(target - shown)
    step = 99 if shown < 2 else min(gap, 100)
    if shown == target:
        return shown
    return shown + step if shown < target else shown - step


def check_duel_pair(first: dict[str, Any], second: dict[str, Any]) -> None:
    """Both saves can duel: each holds a full deck (``SaveData_UpdateDuelLoad`` names the
    first side whose deck has an empty slot). ValueError says which."""
    for number, save in ((1, first), (2, second)):
        if len(save["deck"]) != 40 or not all(save["deck"]):
            raise ValueError(f"player {number}'s save has no full deck")


@dataclass
class TwoPlayerSetup:
    """The set-up screen's state: each player's life points (target and shown), whether
    each pad is on its bar or on the shared choice (and the marker's slide between them), and
    ``view_mode``, the byte the choice writes to ``D_8009B230`` (the choice's left position
    writes 1, its right one 0; the duel copies it into both sides' card view mode, whose
    on-screen meaning is unproved)."""

    lp: list[int] = field(default_factory=lambda: [LP_START, LP_START])
    shown: list[int] = field(default_factory=lambda: [LP_START, LP_START])
    on_bar: list[bool] = field(default_factory=lambda: [True, True])
    slide: list[int] = field(default_factory=lambda: [0, 0])  # marker frames left
    view_mode: int = VIEW_MODE_START

    @property
    def position(self) -> int:
        """Where the shared choice's marker stands: 0 left, 1 right."""
        return 1 - self.view_mode

    @property
    def hands_shown(self) -> bool:
        """``fm.choices G8``: the right position ("Hands shown") plays the duel with both
        hands open and no hand-over screen; the left ("Hands hidden") hides them between
        turns. The byte's meaning in the original's duel is unproved (see the class)."""
        return self.position == 1

    def busy(self, side: int) -> bool:
        """A side is busy while its marker slides or its number rolls: it reads no input,
        and Start and Circle wait for both sides."""
        return bool(self.slide[side]) or self.shown[side] != self.lp[side]

    def frame(self) -> None:
        """One frame: both numbers roll, both markers slide (a slide of
        :data:`SLIDE_FRAMES` ends on the bar or on the choice)."""
        self.shown = [roll(s, t) for s, t in zip(self.shown, self.lp, strict=True)]
        for side in (0, 1):
            if self.slide[side]:
                self.slide[side] -= 1
                if not self.slide[side]:
                    self.on_bar[side] = not self.on_bar[side]

    def horizontal(self, side: int, right: bool) -> None:
        """Left/Right on ``side``'s pad: its life points on the bar, else the shared choice."""
        if self.on_bar[side]:
            self.lp[side] = (lp_up if right else lp_down)(self.lp[side])
        else:
            self.view_mode = 0 if right else 1

    def vertical(self, side: int, down: bool) -> None:
        """Down on the choice slides the marker to the bar, Up on the bar back to the choice
        (``MainMenu_StartValueWidgetTween``); the other way does nothing."""
        if down != self.on_bar[side]:
            self.slide[side] = SLIDE_FRAMES
