"""Duel Monsters (Game Boy) screens on the gb machine (160x144, 4 shades).

Title -> main menu -> opponent select (by stage) / deck edit (40 cards from the trunk) -> the
duel (hand, five zones a side, LP, field; a zone for each play, or START to pass; the
attack/defend choice and target for every monster each turn) -> result (win/lose, the card
dropped, a milestone reward). The duel is driven only through the Duel protocol; the computer
plays side 1 with :func:`emucore.dm1.ai.choose_action`.

A new game's deck, the drop after a win and the rewards at 10, 20 ... 100 wins follow
:mod:`emucore.dm1.progress` (the new deck on the menu's stream, the drop on the duel's own
stream); stage ``s + 1`` opens when every stage-``s`` opponent has 5 wins (reference).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
from numpy.typing import NDArray

from emucore.dm1 import ai, decks, magic, progress, rng
from emucore.dm1.actions import DIRECT, NO_TARGET, Magic, Pass, Summon
from emucore.dm1.duel import Dm1Duel, default_tables
from emucore.dm1.state import ATTACK, DECK_SIZE, FACE_UP, ORDERS, PLAY, ZONES
from emucore.duel.files import decimal, is_int
from emucore.duel.protocol import DRAW, Event, EventKind
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer, text_width
from emucore.frontend.layout import draw_fitted, fit
from emucore.frontend.portraits import SIZE, portrait, seed_of
from emucore.frontend.storage import SaveFile
from emucore.frontend.widgets import Menu, message_box, reason_text, try_step

MACHINE = "gb"
SAVE_VERSION = 1
WINS_TO_ADVANCE = 5
TRUNK_CAP = 255
CPU_FRAMES = 12  # frames between the computer's actions, so a player can follow them
OPPONENT_LIST_W = 116  # the opponent list; the selected one's portrait stands to its right
TERRAIN_NAMES = ("", "Forest", "Wasteland", "Mountain", "Sogen", "Umi", "Yami")


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

    def finish(self, opponent: int, duel: Dm1Duel) -> progress.Winnings | None:
        """Count a finished duel; after a win the drop and any milestone reward go to the
        trunk. Returns what was won (None when the duel was not won)."""
        if duel.winner != 0:
            self.rng = duel.v.rng_state[0]  # the stream goes on after a loss too
            return None
        won = progress.after_win(self.t, self.wins, opponent, duel.draw_random)
        for card in (won.drop, won.reward):
            if card is not None:
                self.trunk[card] = min(TRUNK_CAP, self.trunk[card] + 1)
        self.rng = duel.v.rng_state[0]
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
        for x in range(4, fb.width, 22):
            fb.box(x, 18, 16, 22, app.colour("card_back"), app.colour("black"))
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
        names = self.game.t.names
        self.lists = [sorted(self.game.deck), self.spare()]
        for menu, cards in zip(self.menus, self.lists, strict=True):
            menu.items = [f"{c:03d} {names[c]}" for c in cards] or ["(none)"]
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
        fb.clear(app.colour("bg"))
        fb.text(2, 1, f"DECK {len(self.game.deck)}/{DECK_SIZE}", app.colour("text"))
        fb.text(82, 1, "TRUNK", app.colour("text"))
        for i, menu in enumerate(self.menus):
            menu.draw(app, fb, 1 + 80 * i, 10, 78)
            if i == self.side:
                fb.frame(1 + 80 * i, 10, 78, 11 * CELL_H + 6, app.colour("cursor"), 2)
        cards = self.lists[self.side]
        if cards:
            card = cards[self.menus[self.side].cursor]
            fb.text(2, 122, card_line(self.game, card), app.colour("text"))


CARD_LINE_W = 154  # pixels of the panel line card_line fills


def card_line(game: Dm1Game, card: int) -> str:
    """One line about a card: name and stats (monster) or effect (magic); the name is
    shortened by the layout abbreviation rule so the line fits CARD_LINE_W."""
    info = game.t.card_info(card)
    tail = (f"{info['atk']}/{info['defense']}" if info["kind"] == "monster"
            else info["effect"])
    name = fit(info["name"], CARD_LINE_W - text_width(f" {tail}") - 1)[0]
    return f"{name} {tail}"


def describe(game: Dm1Game, event: Event) -> str | None:
    """A short line for the message bar, or None for events not worth a line."""
    names = game.t.names
    who = ("You", "CPU")
    kind = event.kind
    if kind == EventKind.FUSION:
        return f"{who[event.side]}: fusion -> {names[event.result]}"
    if kind == EventKind.PLACED:
        return f"{who[event.side]}: summon {names[event.card]}" if event.side == 0 else \
            "CPU: summon"
    if kind == "pass":
        return f"{who[event.side]}: no card played"
    if kind in (EventKind.MAGIC, EventKind.EQUIP):
        return f"{who[event.side]}: {names[event.card]}" + ("" if event.took_effect else
                                                             " (no effect)")
    if kind == EventKind.BATTLE:
        return f"{who[event.side]} attack {event.attack_value}" + (
            " direct" if event.target == DIRECT else f" vs {event.defend_value}")
    if kind == EventKind.ENDED:
        return "Duel over"
    return None


class DuelScreen(Dm1Screen):
    """The duel: side 0 by the pad, side 1 by the computer."""

    def __init__(self, game: Dm1Game, opponent: int, duel: Dm1Duel) -> None:
        super().__init__(game)
        self.opponent, self.duel = opponent, duel
        self.mode, self.cursor, self.pick = "hand", 0, -1
        self.options: list[Any] = []
        self.message, self.wait = "Your turn", 0

    # --- input -----------------------------------------------------------------------------
    def update(self, app: App) -> Screen | None:
        duel = self.duel
        if duel.over:
            self.wait += 1
            if self.wait > 30 or app.pad.pressed("confirm"):
                won = self.game.finish(self.opponent, duel)
                return ResultScreen(self.game, self.opponent, duel, won)
            return self
        if duel.acting_side == 1:
            self.wait += 1
            if self.wait >= CPU_FRAMES:
                self.wait = 0
                self._act(app, ai.choose_action(duel))
            return self
        if app.pad.pressed("cancel") and self.mode in ("zone", "target"):
            # The options of the mode left behind (zones, Order actions) are not labels.
            self.mode, self.cursor, self.options = \
                "hand" if self.mode == "zone" else "order", 0, []
            return self
        if duel.v.phase[0] == PLAY:
            self._play_input(app)
        elif duel.v.phase[0] == ORDERS:
            self._order_input(app)
        return self

    def _move(self, app: App, count: int, keys: tuple[str, str] = ("left", "right")) -> None:
        if count and (app.pad.repeat(keys[0]) or app.pad.repeat(keys[1])):
            self.cursor = (self.cursor + (-1 if app.pad.held(keys[0]) else 1)) % count
            app.sound.play("move")

    def _play_input(self, app: App) -> None:
        duel, hand = self.duel, self.duel.hand_cards(0)
        if self.mode not in ("hand", "zone"):
            self.mode, self.cursor = "hand", 0
        if self.mode == "hand":
            if app.pad.pressed("start"):
                self._act(app, Pass())
                return
            self._move(app, len(hand))
            self.cursor = min(self.cursor, len(hand) - 1)
            if not app.pad.pressed("confirm"):
                return
            self.pick, card = self.cursor, hand[self.cursor]
            if duel.t.is_monster(card):
                self.options = list(range(ZONES))
            else:
                self.options = magic.targets(duel, card)
            if self.options == [NO_TARGET]:
                self._act(app, Magic(self.pick, NO_TARGET))
            else:
                self.mode, self.cursor = "zone", 0
            return
        self._move(app, len(self.options))
        if app.pad.pressed("confirm"):
            zone = self.options[self.cursor]
            card = hand[self.pick]
            self._act(app, Summon(self.pick, zone) if duel.t.is_monster(card)
                      else Magic(self.pick, zone))

    def _order_input(self, app: App) -> None:
        legal = self.duel.legal_actions()
        if self.mode != "target":
            if self.mode != "order":
                self.mode, self.cursor = "order", 0
            self.options = ["Atk.", "Def."] if any(not a.attack for a in legal) else ["Atk."]
            self._move(app, len(self.options), ("up", "down"))
            if not app.pad.pressed("confirm"):
                return
            if self.options[self.cursor] == "Def.":
                self._act(app, next(a for a in legal if not a.attack))
                return
            attacks = [a for a in legal if a.attack]
            if len(attacks) == 1:
                self._act(app, attacks[0])
            else:
                self.mode, self.cursor, self.options = "target", 0, attacks
            return
        self._move(app, len(self.options))
        if app.pad.pressed("confirm"):
            self._act(app, self.options[self.cursor])

    def _act(self, app: App, action: Any) -> None:
        events = try_step(app, self.duel, action)
        if events is None:
            return
        app.sound.play("confirm")
        lines = [line for e in events if (line := describe(self.game, e))]
        if lines:
            self.message = lines[-1]
        self.mode, self.cursor = "hand", 0

    # --- drawing ----------------------------------------------------------------------------
    def draw(self, app: App, fb: Framebuffer) -> None:
        duel, c = self.duel, app.colour
        fb.clear(c("bg"))
        name = self.game.t.opponent(self.opponent)["rom_name"]
        lp = f"LP{duel.lp(1):>5}"
        draw_fitted(fb, 2, 1, name, fb.width - 8 - text_width(lp), c("text"))
        fb.text_right(fb.width - 2, 1, lp, c("text"))
        draw_fitted(fb, 2, 36, self.message, fb.width - 4, c("text_dim"))
        fb.text(2, 72, f"YOU LP{duel.lp(0):>5}  T{duel.v.turn[0]}", c("text"))
        fb.text_right(fb.width - 2, 72, TERRAIN_NAMES[duel.v.field[0]], c("text_dim"))
        target_zones = [a.target for a in self.options] if self.mode == "target" else []
        for side, y in ((1, 10), (0, 46)):
            for z in range(ZONES):
                chosen = (side == 1 and self.mode == "target"
                          and target_zones[self.cursor] == z) or (
                    side == 0 and self._own_zone_cursor() == z)
                self._zone(app, fb, side, z, 2 + z * 31, y, chosen)
        for i, card in enumerate(duel.hand_cards(0)):
            chosen = self.mode == "hand" and self.cursor == i and duel.acting_side == 0
            self._card(app, fb, 2 + i * 31, 82, card, chosen)
        self._panel(app, fb)

    def _own_zone_cursor(self) -> int:
        if self.mode == "zone" and self.options:
            return self.options[self.cursor]
        if self.mode in ("order", "target") and self.duel.v.phase[0] == ORDERS:
            return self.duel.next_to_order()
        return -1

    def _zone(self, app: App, fb: Framebuffer, side: int, zone: int, x: int, y: int,
              chosen: bool) -> None:
        c, duel = app.colour, self.duel
        fb.box(x, y, 29, 24, c("zone"), c("cursor") if chosen else c("text_dim"))
        if chosen:
            fb.frame(x, y, 29, 24, c("cursor"), 2)
        card = duel.zone_card(side, zone)
        if not card:
            return
        hidden = side == 1 and not duel.v.zone_flags[side * ZONES + zone] & FACE_UP
        stance = "A" if duel.zone_stance(side, zone) == ATTACK else "D"
        level = duel.zone_level(side, zone)
        fb.text(x + 3, y + 3, "??" if hidden else f"{duel.zone_attack(side, zone):>4}",
                c("text"))
        fb.text(x + 3, y + 13, stance + ("" if hidden or not level else f"{level:+d}"),
                c("text"))

    def _card(self, app: App, fb: Framebuffer, x: int, y: int, card: int, chosen: bool) -> None:
        c = app.colour
        monster = self.duel.t.is_monster(card)
        fb.box(x, y, 29, 20, c("card_face") if monster else c("magic"), c("text"))
        if chosen:
            fb.frame(x, y, 29, 20, c("cursor"), 2)
        label = str(self.duel.atk[0][1][card]) if monster else "MG"  # at most 4 digits
        fb.text(x + 3, y + 7, label, c("text"))

    def _panel(self, app: App, fb: Framebuffer) -> None:
        c, duel = app.colour, self.duel
        fb.box(0, 106, 160, 38, c("panel"), c("text"))
        if duel.acting_side == 1:
            fb.text(3, 110, "CPU's turn", c("text"))
            return
        hand = duel.hand_cards(0)
        if self.mode in ("hand", "zone") and hand and duel.v.phase[0] == PLAY:
            index = self.pick if self.mode == "zone" else min(self.cursor, len(hand) - 1)
            fb.text(3, 110, card_line(self.game, hand[index]), c("text"))
            fb.text(3, 122, "A: play  START: pass" if self.mode == "hand" else
                    "<> zone  A: ok  B: back", c("text_dim"))
        elif self.mode == "order":
            zone = duel.next_to_order()
            fb.text(3, 110, card_line(self.game, duel.zone_card(0, zone)), c("text"))
            for i, label in enumerate(self.options):
                fb.text(12, 121 + i * 10, label, c("text"))
                if i == self.cursor:
                    fb.text(3, 121 + i * 10, "\u25b6", c("cursor"))
        elif self.mode == "target":
            fb.text(3, 110, "Attack which monster?", c("text"))
            fb.text(3, 122, "<> target  A: attack", c("text_dim"))


class ResultScreen(Dm1Screen):
    def __init__(self, game: Dm1Game, opponent: int, duel: Dm1Duel,
                 won: progress.Winnings | None) -> None:
        super().__init__(game)
        self.opponent, self.duel, self.won = opponent, duel, won

    def update(self, app: App) -> Screen | None:
        self.game.tick()
        if app.pad.pressed("confirm") or app.pad.pressed("start"):
            return MainMenu(self.game)
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        draw_face(app, fb, (fb.width - SIZE) // 2, 4, self.opponent)
        outcome = {0: "YOU WIN", 1: "YOU LOSE", DRAW: "DRAW"}[self.duel.winner]
        lines = [outcome, f"By {reason_text(self.duel.end_reason)}",
                 f"LP {self.duel.lp(0)} / {self.duel.lp(1)}",
                 f"Wins vs this duelist: {self.game.wins[self.opponent]}"]
        if self.won is not None:
            names = self.game.t.names
            lines.append(f"Card won: {names[self.won.drop]}")
            if self.won.reward is not None:
                lines.append(f"{self.won.wins} wins! {names[self.won.reward]}")
        message_box(app, fb, "\n".join(lines), width=150)
