"""Screens of the paper rule systems on the psx machine (320x240): the 1999 Official Rules
here, and (through :func:`paper_title_screen`) the simplified TCG in ``tcglite.py``.

Title -> Vs Computer / Two Players (ocg1999 also: Match vs Computer, Two-Player Match) -> both
decks from the built-in decks -> the duel -> result -> (in a match) each human player's
side-deck swaps, then the next duel. The duel is a board of card faces with a cursor
(:mod:`emucore.frontend.systems.paper_board`). Everything goes through the Duel protocol;
the computer plays with :func:`emucore.paper.ai.choose` and sides with
:func:`emucore.ocg1999.match.computer_swaps`. The save keeps the win/loss/draw record
against the computer.
"""

from __future__ import annotations

from typing import Any

from emucore.duel.files import is_int
from emucore.duel.protocol import DRAW, IllegalAction
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import fit
from emucore.frontend.storage import SaveFile
from emucore.frontend.systems.paper_board import DuelScreen
from emucore.frontend.widgets import Menu, reason_text, refusal
from emucore.ocg1999.match import Match, computer_swaps
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper.engine import PaperDuel
from emucore.paper.system import PaperSystem
from emucore.paper.view import board_view

MACHINE = "psx"
SAVE_VERSION = 1
RECORD = ("wins", "losses", "draws")


def validate_save(data: Any) -> None:
    """A paper save: ``{"version": 1, "wins": n, "losses": n, "draws": n}``."""
    if not isinstance(data, dict) or data.get("version") != SAVE_VERSION:
        raise ValueError(f"not an emucore paper-game save (version {SAVE_VERSION} expected)")
    for key in RECORD:
        if not is_int(data.get(key)) or not 0 <= data[key] <= 999_999:
            raise ValueError(f"{key} must be a count")


class PaperGame:
    """One rule system's session: its cards and decks, the record against the computer."""

    def __init__(self, system: PaperSystem, seed: int = 0) -> None:
        self.system = system
        self.seed = seed
        self.save_file = SaveFile(system.name, validate_save)
        self.record = dict.fromkeys(RECORD, 0)

    def load(self) -> str | None:
        data, message = self.save_file.load()
        if data is not None:
            self.record = {k: data[k] for k in RECORD}
        return message

    def count(self, winner: int | None) -> None:
        """Count a duel against the computer (the player is side 0) and save."""
        key = {0: "wins", 1: "losses", DRAW: "draws"}.get(winner)
        if key:
            self.record[key] += 1
            self.save_file.save({"version": SAVE_VERSION, **self.record})

    def next_seed(self, frame: int) -> int:
        """A duel seed from the session counter and the frame the duel starts on."""
        self.seed = (self.seed * 0x41C64E6D + 0x3039 + frame) & 0xFFFFFFFF
        return self.seed


def paper_title_screen(app: App, system: PaperSystem) -> Screen:
    """The first screen of a paper rule system."""
    game = PaperGame(system)
    message = game.load()
    if message:
        app.notify(message, stderr=True)
    return TitleScreen(game)


def title_screen(app: App) -> Screen:
    """The first screen of the 1999 Official Rules."""
    return paper_title_screen(app, OCG)


# What each paper system is, one line under its title.
SUBTITLES = {"ocg1999": "The Starter Box Official Rules of 1999: monsters, magic and traps",
             "tcglite": "The 2002 starter decks' monsters under simplified TCG rules"}


class TitleScreen(Screen):
    def __init__(self, game: PaperGame) -> None:
        self.game = game
        self.modes = ["Vs Computer", "Two Players"]
        if game.system.profile.side_size:
            self.modes += ["Match vs Computer", "Two-Player Match"]
        self.menu = Menu([*self.modes, "Quit"], cancellable=False, visible=4)

    def update(self, app: App) -> Screen | None:
        choice = self.menu.update(app)
        if choice is None:
            return self
        if choice == len(self.modes):
            return None
        return DeckSelect(self.game, self.modes[choice])

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        cx = fb.width // 2
        title = {"ocg1999": "1999 OFFICIAL RULES", "tcglite": "SIMPLIFIED TCG"}
        fb.text_centred(cx, 40, title.get(self.game.system.name, self.game.system.name),
                        app.colour("text"))
        draw_centred(fb, cx, 56, SUBTITLES.get(self.game.system.name, "A paper card game"),
                     fb.width - 40, app.colour("text"))
        fb.text_centred(cx, 82, "an emucore recreation", app.colour("text_dim"))
        r = self.game.record
        fb.text_centred(cx, 94, f"vs computer: {r['wins']}W {r['losses']}L {r['draws']}D",
                        app.colour("text_dim"))
        self.menu.draw(app, fb, cx - 70, 116, 140)
        fb.text_centred(cx, fb.height - 24, "Up/Down: choose  Cross: start",
                        app.colour("highlight"))


class DeckSelect(Screen):
    """Player 1's deck, then player 2's (or the computer's) from the built-in decks."""

    def __init__(self, game: PaperGame, mode: str) -> None:
        self.game, self.mode = game, mode
        self.picks: list[str] = []
        self.names = list(game.system.decks)
        self.menu = Menu(self.names, visible=6)

    def update(self, app: App) -> Screen | None:
        choice = self.menu.update(app)
        if choice == -1:
            return TitleScreen(self.game) if not self.picks else DeckSelect(self.game,
                                                                            self.mode)
        if choice is None:
            return self
        self.picks.append(self.names[choice])
        if len(self.picks) < 2:
            return self
        humans = {0, 1} if self.mode.startswith("Two") else {0}
        seed = self.game.next_seed(app.frame)
        if "Match" in self.mode:
            system = self.game.system
            match = Match(system, [system.deck(p) for p in self.picks], seed)
            return DuelScreen(self.game, match.next_duel(), humans, match)
        duel = self.game.system.new_duel(seed, (self.picks[0], self.picks[1]))
        return DuelScreen(self.game, duel, humans)

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        who = "PLAYER 1" if not self.picks else (
            "PLAYER 2" if self.mode.startswith("Two") else "COMPUTER")
        fb.text(8, 8, f"{self.mode.upper()}: {who}'S DECK", app.colour("text"))
        self.menu.draw(app, fb, 8, 24, 160)
        deck = self.game.system.deck(self.names[self.menu.cursor])
        fb.text(8, 100, f"{len(deck.main)} cards, side {len(deck.side)}, "
                        f"fusion {len(deck.fusion)}", app.colour("text_dim"))


# How a paper duel ended, in a player's words (the engine's ``end_reason`` names).
END_REASONS = {"lp": "LP reached 0", "deckout": "a deck ran out", "deck_out": "a deck ran out",
               "turn_limit": "the turn limit was reached", "exodia": "all five Exodia pieces",
               "both_lp": "both players' LP reached 0", "forfeit": "forfeit"}


class ResultScreen(Screen):
    """The end of a duel: the outcome, how it ended (LP 0, deck out, turn limit, forfeit),
    the LP and what to press; in a match, the score and the next duel. A duel given up from
    the pause menu (``forfeited``: the side that gave up) counts as that side's loss and, in
    a match, gives up the match."""

    def __init__(self, game: PaperGame, duel: PaperDuel, humans: set[int],
                 match: Match | None, forfeited: int | None = None) -> None:
        self.game, self.duel, self.humans, self.match = game, duel, humans, match
        self.forfeited = forfeited
        self.winner = duel.winner if forfeited is None else 1 - forfeited
        self.reason = duel.end_reason if forfeited is None else "forfeit"
        if match is not None and forfeited is None:
            match.finish()
        if humans == {0}:
            game.count(self.winner)

    def enter(self, app: App) -> None:
        """After a duel against the computer, tell the player what saving the record found
        (a bad old save moved aside) or why it failed."""
        if self.humans == {0} and (report := self.game.save_file.report()):
            app.notify(report)

    @property
    def match_goes_on(self) -> bool:
        return self.match is not None and self.forfeited is None and not self.match.over

    def update(self, app: App) -> Screen | None:
        if not any(p.pressed("confirm") or p.pressed("start") for p in app.pads):
            return self
        app.sound.play("confirm")
        if self.match_goes_on:
            for side in (0, 1):
                if side not in self.humans:
                    for out_card, in_card in computer_swaps(self.match, side):
                        self.match.swap(side, out_card, in_card)
            return SideDeckScreen(self.game, self.match, self.humans, sorted(self.humans))
        return TitleScreen(self.game)

    def outcome(self) -> str:
        """The headline: who won, from the player's side against the computer."""
        if self.humans == {0}:
            return {0: "YOU WIN", 1: "YOU LOSE"}.get(self.winner, "DRAW")
        return "DRAW" if self.winner == DRAW else f"PLAYER {self.winner + 1} WINS"

    def how(self) -> str:
        """How the duel ended, in a player's words."""
        if self.forfeited is not None:
            who = "You" if self.humans == {0} else f"Player {self.forfeited + 1}"
            return f"{who} gave up the duel (forfeit)"
        reason = END_REASONS.get(self.reason or "") or reason_text(self.reason).lower()
        if self.reason == "lp":
            sides = board_view(self.duel, 0).sides
            loser = next((i for i, s in enumerate(sides) if s.lp <= 0), None)
            if loser is not None:
                name = "Your" if self.humans == {0} and loser == 0 else \
                    "The computer's" if self.humans == {0} else f"Player {loser + 1}'s"
                return f"{name} LP reached 0"
        return f"The duel ended: {reason}"

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        cx = fb.width // 2
        fb.box(30, 28, fb.width - 60, 120, app.colour("panel"), app.colour("highlight"))
        colour = {0: "highlight", DRAW: "text"}.get(self.winner if self.humans == {0} else 0,
                                                    "text_dim")
        fb.text_centred(cx, 40, self.outcome(), app.colour(colour), app.colour("black"))
        draw_centred(fb, cx, 60, self.how(), fb.width - 70, app.colour("text"))
        names = ("You", "Computer") if self.humans == {0} else ("Player 1", "Player 2")
        view = board_view(self.duel, 0)
        for i, side in enumerate(view.sides):
            fb.text_centred(cx, 86 + i * CELL_H, f"{names[i]}: LP {side.lp}",
                            app.colour("text"))
        lines = [f"Turns played: {view.turn}"]
        if self.match is not None:
            score = " ".join({0: "P1", 1: "P2", DRAW: "draw"}[r] for r in self.match.results)
            lines.append(f"Match: {score or '-'}")
            if self.forfeited is not None:
                lines.append("The match is given up")
            elif self.match.over:
                lines.append("Match drawn" if self.match.winner == DRAW
                             else f"Match won by player {self.match.winner + 1}")
        for i, line in enumerate(lines):
            fb.text_centred(cx, 112 + i * CELL_H, line, app.colour("text_dim"))
        then = "side decks, then the next duel" if self.match_goes_on else "back to the title"
        draw_centred(fb, cx, fb.height - 24, f"Cross: {then}", fb.width - 20,
                     app.colour("highlight"))


def draw_centred(fb: Framebuffer, cx: int, y: int, text: str, width: int, colour: int,
                 lines: int = 2) -> None:
    """``text`` wrapped at spaces into ``width`` pixels, each line centred on ``cx``."""
    for i, line in enumerate(fit(text, width, lines)):
        fb.text_centred(cx, y + i * CELL_H, line, colour)


class SideDeckScreen(Screen):
    """Between the duels of a match: a human player swaps cards one for one between the deck
    (left) and the side deck (right). Left/Right switch lists, confirm marks a card; one
    mark on each side swaps them; start goes on (to the next player, then the next duel)."""

    def __init__(self, game: PaperGame, match: Match, humans: set[int],
                 queue: list[int]) -> None:
        self.game, self.match, self.humans = game, match, humans
        self.side, self.queue = queue[0], queue[1:]
        self.column = 0
        self.marks: list[int | None] = [None, None]
        self.menus = [Menu([], visible=16), Menu([], visible=16)]
        self._refresh()

    def _refresh(self) -> None:
        deck = self.match.decks[self.side]
        self.lists = [sorted(deck.main), sorted(deck.side)]
        name = self.game.system.catalogue.name
        for menu, cards in zip(self.menus, self.lists, strict=True):
            menu.items = [name(c) for c in cards]
            menu.cursor = min(menu.cursor, len(cards) - 1)

    def update(self, app: App) -> Screen | None:
        pad = app.pads[self.side]
        if pad.pressed("start"):
            if self.queue:
                return SideDeckScreen(self.game, self.match, self.humans, self.queue)
            return DuelScreen(self.game, self.match.next_duel(), self.humans, self.match)
        if pad.pressed("left") or pad.pressed("right"):
            self.column = 1 - self.column
        menu = self.menus[self.column]
        if pad.repeat("up") or pad.repeat("down"):
            menu.cursor = (menu.cursor + (-1 if pad.held("up") else 1)) % len(menu.items)
            menu.top = min(max(menu.top, menu.cursor - menu.visible + 1), menu.cursor)
        elif pad.pressed("confirm"):
            self.marks[self.column] = self.lists[self.column][menu.cursor]
            out_card, in_card = self.marks
            if out_card is not None and in_card is not None:
                self._swap(app, out_card, in_card)
        return self

    def _swap(self, app: App, out_card: int, in_card: int) -> None:
        try:
            self.match.swap(self.side, out_card, in_card)
        except IllegalAction as exc:
            app.notify(refusal(exc))
        self.marks = [None, None]
        self._refresh()

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(4, 2, f"PLAYER {self.side + 1}: SIDE DECK  (start: done)", app.colour("text"))
        for i, (menu, title) in enumerate(zip(self.menus, ("DECK", "SIDE DECK"), strict=True)):
            x = 4 + 158 * i
            fb.text(x, 14, title, app.colour("highlight" if i == self.column else "text_dim"))
            menu.draw(app, fb, x, 24, 154)
        marked = [self.game.system.catalogue.name(m) if m else "-" for m in self.marks]
        fb.text(4, 184, f"out: {marked[0]}  in: {marked[1]}", app.colour("text"))
