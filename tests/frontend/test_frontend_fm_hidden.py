"""Nothing drawn or logged on the FM duel screen names a card the player could not see.

Source: issue 26 ("nothing on screen or in the log names a card the player could not see in
the original: a test plays 200 computer turns ... and checks every string drawn and logged
against the cards the player may see") and the original's rules of sight: the player sees
their own hand and their own cards (face down too: they set them), every face-up card on
the field, and what the game shows of the computer's play (a card played face up, a fusion
with its materials, a flip, a battle's two cards, an activated magic or sprung trap, an
equip, a ritual, a failed combination's discard). The computer's hand and its face-down
cards stay hidden until one of those shows them.

Every string the framebuffer draws (``Framebuffer.text_rects``), every card face drawn
(``emucore.frontend.cards._image``, the one painter of every face-up card), every log line
and every notice is checked after each frame.
"""

from __future__ import annotations

import functools
import re

import pytest
from frontend_fmdriver import new_app

from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.frontend import cards
from emucore.frontend.systems.fm import duel as fm_duel
from emucore.frontend.systems.fm.duel import DuelScreen
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.tour import duel_buttons

COMPUTER_TURNS = 200
DUELISTS = (1, 2, 3, 5, 8, 13, 21, 30, 39)  # a spread of decks, dealt one after another
FRAME_LIMIT = 200_000
# What the events show of a card, by event kind: the fields naming cards the game reveals.
REVEALED = {"placed": ("card",), "fusion": ("a", "b", "result"), "flip": ("card",),
            "battle": ("attacker", "defender"), "magic": ("card",), "trap": ("card",),
            "equip": ("equip", "monster"), "ritual": ("ritual", "result"),
            "failure": ("discarded",)}


class Sight:
    """The card names the player may have seen so far in one duel, and the checks."""

    def __init__(self, game: FmGame) -> None:
        self.names = game.tables.names
        self.all = frozenset({self.names[c] for c in range(1, len(self.names))} - {""})
        self.cleared: set[str] = set()  # texts found clean (sight only grows: they stay so)
        self.seen: set[str] = set()
        self.faces: list[str] = []  # the names of the card faces painted this frame

    def look(self, screen: DuelScreen) -> None:
        """Add what the board shows now: the player's hand and cards, face-up cards."""
        for board in (screen.view, screen.shown):
            for side, view in enumerate(board.sides):
                for row in (view.hand, view.monsters, view.magic):
                    for card in row:
                        if card is None:
                            continue
                        mine = side == 0
                        if mine or (row is not view.hand and not card.face_down):
                            self.seen.add(self.names[card.card])
        if screen.ui.mode == "star":  # the result of fusing the player's own cards (their
            self.seen.add(self.names[screen.ui.card])  # library lists it) is theirs

    def reveal(self, event) -> None:
        """Add the cards an event shows (a face-down placement by the computer shows none)."""
        if event.kind == "placed" and event.face_down and event.side != 0:
            return
        for name in REVEALED.get(event.kind, ()):
            card = getattr(event, name, 0)
            if card:
                self.seen.add(self.names[card])

    def leaks(self, text: str) -> list[str]:
        """The card names in ``text`` the player has not seen (a name inside a longer seen
        name that is also in the text does not count)."""
        if text in self.cleared:
            return []
        found = _names_in(text, self.all)
        seen_here = [n for n in found if n in self.seen]
        leaked = [n for n in found if n not in self.seen
                  and not any(n in longer for longer in seen_here if longer != n)]
        if not leaked:
            self.cleared.add(text)
        return leaked


@functools.lru_cache(maxsize=65536)
def _names_in(text: str, names: frozenset[str]) -> tuple[str, ...]:
    """The card names standing in ``text`` as whole words (cached: frames repeat)."""
    return tuple(n for n in names if n in text and re.search(
        rf"(?<![\w-]){re.escape(n)}(?![\w-])", text))


@pytest.fixture
def painted(monkeypatch):
    """Record the name of every card face painted (or taken from the cache). The computer
    acts one frame after its last message (not AI_DELAY frames): every state is still
    drawn, in fewer frames."""
    monkeypatch.setattr(fm_duel, "AI_DELAY", 1)
    faces: list[str] = []
    original = cards._image

    def image(app, key, size, paint):
        if key[0] == "face":
            faces.append(key[1].name)
        return original(app, key, size, paint)

    monkeypatch.setattr(cards, "_image", image)
    return faces


def _presses(screen: DuelScreen) -> list[str]:
    """The player plays as the tour's simple player; the computer's turn plays unskipped."""
    if screen.shown.acting_side != 0 or screen.view.acting_side != 0:
        return []
    return duel_buttons(screen)


def play_and_check(painted: list[str], turns: int = COMPUTER_TURNS) -> int:
    """Play FM duels against the computer until it has had ``turns`` turns, checking every
    frame; returns the computer turns played."""
    app = new_app()
    app.toggles["fast_animations"] = True
    game = FmGame()
    game.new_game()
    played, frames = 0, 0
    idle = IDLE["psx"]
    for duelist in DUELISTS * 4:
        duel = game.start_duel(duelist)
        screen = DuelScreen(game, duel, None, duelist)
        app.switch(screen)
        sight = Sight(game)
        real_step = duel.step

        def step(action, sight=sight, real_step=real_step):
            events = real_step(action)
            for event in events:
                sight.reveal(event)
            return events

        duel.step = step
        for event in duel.opening_events:
            sight.reveal(event)
        while app.screen is screen and frames < FRAME_LIMIT:
            before = screen.view.acting_side
            painted.clear()
            app.fb.text_rects = []
            buttons = _presses(screen) if frames % 2 == 0 else []  # a press, then a release
            app.step((word_from_buttons("psx", buttons) if buttons else idle, idle))
            frames += 1
            sight.look(screen)
            # a drawn line of a log message wrapped in the panel is checked as the whole
            # message ("... = Flower" / "Wolf" names Flower Wolf, not Wolf)
            drawn = [text for _, text in app.fb.text_rects
                     if not any(text in line for line in screen.log)]
            for text in drawn + painted + screen.log + app.notices:
                assert not sight.leaks(text), (duelist, text, sight.leaks(text))
            if before == 1 and screen.view.acting_side == 0:
                played += 1
        assert app.screen is not screen or played >= turns, "a duel did not end"
        if played >= turns:
            return played
    return played


def test_200_computer_turns_name_no_hidden_card(painted):
    assert play_and_check(painted) >= COMPUTER_TURNS


def test_the_check_catches_a_named_set_card(painted, monkeypatch):
    """The check itself: with the log naming the computer's face-down placements (the
    message as it would read without its rule of sight), it fails."""
    from emucore.frontend.systems.fm import events
    monkeypatch.setattr(events, "_sees", lambda side, humans: True)
    with pytest.raises(AssertionError, match=r"Opp: .+ set"):
        play_and_check(painted, turns=20)
