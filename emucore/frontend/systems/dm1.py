"""Duel Monsters (Game Boy) screens on the gb machine (160x144, 4 shades).

Title -> main menu -> opponent select (by stage) / deck edit (40 cards from the trunk) -> the
duel (:mod:`emucore.frontend.systems.dm1_duel`) -> result (win/lose and why, the card
dropped, a milestone reward).

A new game's deck, the drop after a win and the rewards at 10, 20 ... 100 wins follow
:mod:`emucore.dm1.progress` (the new deck on the menu's stream, the drop on the duel's own
stream); stage ``s + 1`` opens when every stage-``s`` opponent has 5 wins (reference).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
from numpy.typing import NDArray

from emucore.dm1 import decks, progress, rng
from emucore.dm1.decks import DECK_SIZE
from emucore.dm1.duel import Dm1Duel, default_tables
from emucore.dm1.view import board_view
from emucore.duel.files import decimal, is_int
from emucore.duel.protocol import DRAW
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted, fit
from emucore.frontend.portraits import SIZE, portrait, seed_of
from emucore.frontend.storage import SaveFile
from emucore.frontend.systems.dm1_text import card_details, card_name, end_text
from emucore.frontend.widgets import Menu, wrap

MACHINE = "gb"
SAVE_VERSION = 1
WINS_TO_ADVANCE = 5
TRUNK_CAP = 255
RESULT_HOLD = 45  # frames the result shows before a press leaves it
RESULT_COLUMNS = 23  # characters a result line wraps at (the box is 150 pixels wide)
OPPONENT_LIST_W = 116  # the opponent list; the selected one's portrait stands to its right


def validate_save(data: Any) -> None:
    """Check a DM1 save payload; ValueError names the first problem."""
    t = default_tables()
    if not isinstance(data, dict) or data.get("version") != SAVE_VERSION:
        raise ValueError(f"not an emucore dm1 save (version {SAVE_VERSION} expected)")
    trunk = data.get("trunk")
    if not isinstance(trunk, dict) or not all(
            (decimal(k) or 0) in range(1, 366) and is_int(v) and 0 <= v <= TRUNK_CAP
            for k, v in trunk.items()):
        raise ValueError(f"trunk must map card numbers 1..365 to 0..{TRUNK_CAP} copies")
    deck = data.get("deck")
    if not isinstance(deck, list):
        raise ValueError("deck must be a list of card numbers")
    decks.check_deck(deck, t)
    for card, n in Counter(deck).items():
        if trunk.get(str(card), 0) < n:
            raise ValueError(f"deck holds {n} x card {card} but the trunk fewer")
    wins = data.get("wins")
    if not isinstance(wins, list) or len(wins) != 16 or not all(
            is_int(w) and 0 <= w <= progress.WIN_CAP for w in wins):
        raise ValueError("wins must be 16 counts 0..9999")
    if not is_int(data.get("rng")) or not 0 <= data["rng"] <= 0xFFFFFFFF:
        raise ValueError("rng must be a 32-bit state")


class Dm1Game:
    """The player's progress: trunk, deck, wins per opponent, the menu RNG; saved as JSON."""

    def __init__(self) -> None:
        self.t = default_tables()
        self.save_file = SaveFile("dm1", validate_save)
        self.rng = 0
        self.trunk: Counter[int] = Counter()
        self.deck: list[int] = []
        self.wins = [0] * 16

    def tick(self) -> None:
        """The menu RNG advances once per frame on the title and every menu screen (main
        menu, opponent list, deck edit, result). Choice (spec/dm1.md §7 item 6: the
        cartridge's RNG is not public): as FM's Main_RunMenu, one step per menu frame, so
        the frames a player spends between duels change the next deal."""
        self.rng = rng.next_state(self.rng)

    def new_game(self) -> None:
        """A new deck from the starter pool and magic cards, on the menu's stream."""
        self.deck = progress.starter_deck(self.t, rng.Stream(self.rng))
        self.trunk = Counter(self.deck)
        self.wins = [0] * 16

    def load(self) -> str | None:
        """Load the save; a message when there is none or it was corrupt."""
        data, message = self.save_file.load()
        if data is None:
            return message or "no save yet"
        self.trunk = Counter({int(k): v for k, v in data["trunk"].items() if v})
        self.deck, self.wins, self.rng = list(data["deck"]), list(data["wins"]), data["rng"]
        return None

    def save(self) -> bool:
        """Save; False (the reason in ``save_file.error``) when it could not be written."""
        return self.save_file.save({"version": SAVE_VERSION, "deck": self.deck, "wins": self.wins,
                             "rng": self.rng,
                             "trunk": {str(k): v for k, v in sorted(self.trunk.items()) if v}})

    def unlocked_stage(self) -> int:
        """The highest stage open: the next opens when each opponent of a stage has 5 wins."""
        stage = 1
        while stage < 5 and all(self.wins[o["id"]] >= WINS_TO_ADVANCE
                                for o in self.t.opponents if o["stage"] == stage):
            stage += 1
        return stage

    def finish(self, opponent: int, duel: Dm1Duel,
               forfeited: bool = False) -> progress.Winnings | None:
        """Count a finished (or forfeited: lost) duel; after a win the drop and any milestone
        reward go to the trunk. Returns what was won (None when the duel was not won)."""
        # the stream goes on after a loss too
        won, self.rng = progress.after_duel(self.t, self.wins, opponent, duel,
                                            not forfeited and duel.winner == 0)
        if won is not None:
            for card in (won.drop, won.reward):
                if card is not None:
                    self.trunk[card] = min(TRUNK_CAP, self.trunk[card] + 1)
        return won


class Dm1Screen(Screen):
    def __init__(self, game: Dm1Game) -> None:
        self.game = game


def title_screen(app: App) -> Screen:
    """The first screen of Duel Monsters."""
    return TitleScreen(Dm1Game())


class TitleScreen(Dm1Screen):
    def __init__(self, game: Dm1Game) -> None:
        super().__init__(game)
        self.menu: Menu | None = None

    def update(self, app: App) -> Screen | None:
        self.game.tick()
        if self.menu is None:
            if app.pad.pressed("start") or app.pad.pressed("confirm"):
                app.sound.play("confirm")
                saved = ["Continue"] if self.game.save_file.exists() else []
                self.menu = Menu([*saved, "New Game"], visible=2)  # Continue first
            return self
        choice = self.menu.update(app)
        if choice == -1:
            self.menu = None
        elif choice is None:
            return self
        elif self.menu.items[choice] == "New Game":
            self.game.new_game()
            app.notify(f"New game: {DECK_SIZE}-card deck dealt")
            return MainMenu(self.game)
        else:
            message = self.game.load()
            if message:
                app.notify(message, stderr="corrupt" in message)
                return self
            return MainMenu(self.game)
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        cx = fb.width // 2
        backs = (fb.width + BACK_GAP) // (BACK_W + BACK_GAP)  # as many as fit whole
        left = (fb.width - backs * (BACK_W + BACK_GAP) + BACK_GAP) // 2
        for i in range(backs):
            fb.box(left + i * (BACK_W + BACK_GAP), 18, BACK_W, 22, app.colour("card_back"),
                   app.colour("black"))
        fb.text_centred(cx, 52, "DUEL MONSTERS", app.colour("text"))
        fb.text_centred(cx, 64, "an emucore recreation", app.colour("text_dim"))
        if self.menu is not None:
            self.menu.draw(app, fb, cx - 40, 88, 80)
        elif (app.frame // 30) % 2 == 0:
            fb.text_centred(cx, 96, "PRESS START", app.colour("text"))


class MainMenu(Dm1Screen):
    ITEMS = ("Duel", "Deck Edit", "Save", "Title")

    def __init__(self, game: Dm1Game) -> None:
        super().__init__(game)
        self.menu = Menu(list(self.ITEMS), cancellable=False, visible=4)

    def update(self, app: App) -> Screen | None:
        self.game.tick()
        choice = self.menu.update(app)
        if choice == 0:
            return OpponentSelect(self.game)
        if choice == 1:
            return DeckEdit(self.game)
        if choice == 2:
            self.game.save()
            app.notify(self.game.save_file.report("Saved"))
        if choice == 3:
            return TitleScreen(self.game)
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(4, 4, "MENU", app.colour("text"))
        fb.text(4, 16, f"Stage {self.game.unlocked_stage()}  Wins {sum(self.game.wins)}",
                app.colour("text_dim"))
        self.menu.draw(app, fb, 30, 40, 100)


_FACES: dict[tuple[str, int], NDArray[np.uint8]] = {}


def face_seed(opponent: int) -> int:
    """The portrait seed of DM1 opponent ``opponent`` (table ids 0-15; portraits number
    opponents from 1, as the FM duelists are)."""
    return seed_of("dm1", opponent + 1)


def draw_face(app: App, fb: Framebuffer, x: int, y: int, opponent: int) -> None:
    """The opponent's 32x32 portrait at (x, y) in a one-pixel frame just outside it (made
    once per machine and opponent)."""
    key = (app.machine.name, opponent)
    face = _FACES.get(key)
    if face is None:
        face = _FACES[key] = portrait(face_seed(opponent), app.machine.art)
    fb.frame(x - 1, y - 1, SIZE + 2, SIZE + 2, app.colour("text"), 1)
    fb.blit(x, y, face)


class OpponentSelect(Dm1Screen):
    """The opponents in stage order; those of a closed stage are shown but disabled. The
    selected opponent's portrait stands beside the list."""

    def __init__(self, game: Dm1Game) -> None:
        super().__init__(game)
        self.order = sorted(game.t.opponents, key=lambda o: (o["stage"], o["id"]))
        stage = game.unlocked_stage()
        labels = [f"S{o['stage']} {o['rom_name']:<8} {game.wins[o['id']]:>4}W"
                  for o in self.order]
        closed = {i for i, o in enumerate(self.order) if o["stage"] > stage}
        self.menu = Menu(labels, visible=12, disabled=closed)

    def update(self, app: App) -> Screen | None:
        self.game.tick()
        choice = self.menu.update(app)
        if choice == -1:
            return MainMenu(self.game)
        if choice is not None:
            opponent = self.order[choice]["id"]
            duel = Dm1Duel(self.game.deck, opponent=opponent, seed=self.game.rng)
            from emucore.frontend.systems.dm1_duel import DuelScreen  # it builds on this module
            return DuelScreen(self.game, opponent, duel)
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(4, 2, "CHOOSE OPPONENT", app.colour("text"))
        self.menu.draw(app, fb, 4, 12, OPPONENT_LIST_W)
        draw_face(app, fb, fb.width - SIZE - 4, 14, self.order[self.menu.cursor]["id"])


class DeckEdit(Dm1Screen):
    """Left: the deck; right: the trunk's spare copies. A moves the card across; Left/Right
    switch lists; B leaves once the deck holds exactly 40 cards."""

    def __init__(self, game: Dm1Game) -> None:
        super().__init__(game)
        self.side = 0
        self.menus = [Menu([], visible=11), Menu([], visible=11)]
        self._refresh()

    def spare(self) -> list[int]:
        in_deck = Counter(self.game.deck)
        return sorted(c for c, n in self.game.trunk.items() if n > in_deck[c])

    def _refresh(self) -> None:
        t = self.game.t
        self.lists = [sorted(self.game.deck), self.spare()]
        for menu, cards in zip(self.menus, self.lists, strict=True):
            menu.items = [f"{c:03d} {fit(card_name(t, c), LIST_NAME_W)[0]}" for c in cards] or \
                ["(none)"]
            menu.cursor = min(menu.cursor, len(menu.items) - 1)

    def update(self, app: App) -> Screen | None:
        self.game.tick()
        if app.pad.pressed("left") or app.pad.pressed("right"):
            self.side = 1 - self.side
        choice = self.menus[self.side].update(app)
        if choice == -1:
            if len(self.game.deck) == DECK_SIZE:
                return MainMenu(self.game)
            app.notify(f"The deck needs {DECK_SIZE} cards ({len(self.game.deck)})")
        elif choice is not None and self.lists[self.side]:
            card = self.lists[self.side][choice]
            if self.side == 0:
                self.game.deck.remove(card)
            elif len(self.game.deck) < DECK_SIZE:
                self.game.deck.append(card)
            else:
                app.notify("The deck is full")
            self._refresh()
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        """The deck and the trunk as two tabs over one list wide enough for whole names
        (Left/Right change tabs)."""
        fb.clear(app.colour("bg"))
        tabs = (f"DECK {len(self.game.deck)}/{DECK_SIZE}", f"TRUNK {len(self.spare())}")
        for i, tab in enumerate(tabs):
            x = 1 + 80 * i
            if i == self.side:
                fb.fill(x, 0, 78, CELL_H + 1, app.colour("panel_light"))
            fb.text(x + 2, 1, tab, app.colour("text" if i == self.side else "text_dim"))
        self.menus[self.side].draw(app, fb, 1, 10, fb.width - 2)
        fb.frame(1, 10, fb.width - 2, 11 * CELL_H + 6, app.colour("cursor"), 2)
        cards = self.lists[self.side]
        if cards:
            card = cards[self.menus[self.side].cursor]
            rows = draw_fitted(fb, 2, 117, card_name(self.game.t, card), CARD_LINE_W,
                               app.colour("text"), NAME_ROWS)
            draw_fitted(fb, 2, 117 + rows * CELL_H, card_about(self.game, card), CARD_LINE_W,
                        app.colour("text_dim"), PANEL_ROWS - rows)


CARD_LINE_W = 154  # pixels of the panel line card_line fills
LIST_NAME_W = 120  # pixels a name has in a deck-edit list row (after its number)
NAME_ROWS, PANEL_ROWS = 2, 3  # the deck-edit panel: the whole name on up to two rows
BACK_W, BACK_GAP = 16, 6  # the title's row of card backs


def card_about(game: Dm1Game, card: int) -> str:
    """The deck-edit panel's line under a card's whole name (:func:`card_name`): its stats
    (monster) or "Magic", then its details."""
    info = game.t.card_info(card)
    tail = f"{info['atk']}/{info['defense']}" if info["kind"] == "monster" else "Magic"
    return f"{tail} {card_details(game.t, card)[-1]}"


class ResultScreen(Dm1Screen):
    """The outcome, why the duel ended, the LP, the wins against this opponent and what was
    won; presses count only after :data:`RESULT_HOLD` frames, so a button still held from the
    duel does not skip it."""

    def __init__(self, game: Dm1Game, opponent: int, duel: Dm1Duel,
                 won: progress.Winnings | None, forfeited: bool = False) -> None:
        super().__init__(game)
        self.opponent, self.duel, self.won, self.forfeited = opponent, duel, won, forfeited
        self.shown = 0  # frames shown so far

    def update(self, app: App) -> Screen | None:
        self.game.tick()
        self.shown += 1
        if self.shown > RESULT_HOLD and (app.pad.pressed("confirm") or
                                         app.pad.pressed("start")):
            app.sound.play("confirm")
            return MainMenu(self.game)
        return self

    def lines(self) -> list[str]:
        """The result's text, one paragraph per item."""
        duel = self.duel
        lp = board_view(duel).lp
        outcome = "YOU LOSE" if self.forfeited else \
            {0: "YOU WIN", 1: "YOU LOSE", DRAW: "DRAW"}[duel.winner]
        lines = [outcome, end_text(duel.winner, duel.end_reason, self.forfeited),
                 f"LP {lp[0]} / {lp[1]}",
                 f"Wins vs this duelist: {self.game.wins[self.opponent]}"]
        if self.won is not None:
            lines.append(f"Card won: {card_name(self.game.t, self.won.drop)}")
            if self.won.reward is not None:
                lines.append(f"{self.won.wins} wins! {card_name(self.game.t, self.won.reward)}")
        return lines

    def draw(self, app: App, fb: Framebuffer) -> None:
        c = app.colour
        fb.clear(c("bg"))
        draw_face(app, fb, (fb.width - SIZE) // 2, 4, self.opponent)
        rows = [row for line in self.lines() for row in wrap(line, RESULT_COLUMNS)]
        top = SIZE + 10
        fb.box(5, top, fb.width - 10, len(rows) * CELL_H + 8, c("panel"), c("text"))
        for i, row in enumerate(rows):
            fb.text(9, top + 5 + i * CELL_H, row, c("text"))
        if self.shown > RESULT_HOLD:
            fb.text_centred(fb.width // 2, fb.height - CELL_H - 1, "A: continue",
                            c("text_dim"))
