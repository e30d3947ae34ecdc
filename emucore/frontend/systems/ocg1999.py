"""Screens of the paper rule systems on the psx machine (320x240): the 1999 Official Rules
here, and (through :func:`paper_title_screen`) the simplified TCG in ``tcglite.py``.

Title -> Vs Computer / Two Players (ocg1999 also: Match vs Computer, Two-Player Match) -> both
decks from the built-in decks -> the duel -> result -> (in a match) each human player's
side-deck swaps, then the next duel. The duel shows both halves of the table (five monster and
five magic/trap zones a side), the acting player's hand and the legal actions as a list: Up/Down
choose, confirm plays. Everything goes through the Duel protocol; the computer plays with
:func:`emucore.paper.ai.choose` and sides with :func:`emucore.ocg1999.match.computer_swaps`.
In two-player play each side reads its own pad (player 2 on pad 2) and the opponent's hand is
never shown. The save keeps the win/loss/draw record against the computer.
"""

from __future__ import annotations

from typing import Any

from emucore.duel.files import is_int
from emucore.duel.protocol import Action, Event, IllegalAction
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.storage import SaveFile
from emucore.frontend.widgets import Menu, message_box, try_step
from emucore.ocg1999.match import Match, computer_swaps
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper import ai
from emucore.paper.actions import (
    ATTACK,
    DIRECT,
    Activate,
    ActivateSet,
    Attack,
    ChangePosition,
    EndTurn,
    NextPhase,
    SetTrap,
    Summon,
)
from emucore.paper.engine import PaperDuel
from emucore.paper.state import DRAW, ZONES
from emucore.paper.system import PaperSystem

MACHINE = "psx"
SAVE_VERSION = 1
CPU_FRAMES = 15  # frames between the computer's actions, so a player can follow them
ACTION_ROWS = 7
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
        fb.text_centred(cx, 54, "an emucore recreation", app.colour("text_dim"))
        r = self.game.record
        fb.text_centred(cx, 72, f"vs computer: {r['wins']}W {r['losses']}L {r['draws']}D",
                        app.colour("text_dim"))
        self.menu.draw(app, fb, cx - 70, 110, 140)


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


def action_label(duel: PaperDuel, action: Action) -> str:
    """A short line naming an action the way a player would say it."""
    cat, st = duel.catalogue, duel.state
    me = st.sides[st.active]
    if isinstance(action, Summon):
        card = cat.name(me.hand[action.hand])
        return f"Summon {card}" if action.position == ATTACK else f"Set {card}"
    if isinstance(action, SetTrap):
        return f"Set trap {cat.name(me.hand[action.hand])}"
    if isinstance(action, Activate | ActivateSet):
        card = me.hand[action.hand] if isinstance(action, Activate) else \
            me.spells[action.zone].card
        return f"{cat.name(card)} {_targets_label(duel, card, action.targets)}".rstrip()
    if isinstance(action, ChangePosition):
        return f"Switch {cat.name(me.monsters[action.zone].card)}"
    if isinstance(action, Attack):
        mine = cat.name(me.monsters[action.zone].card)
        if action.target == DIRECT:
            return f"{mine} attacks directly"
        foe = st.sides[1 - st.active].monsters[action.target]
        return f"{mine} attacks {cat.name(foe.card) if foe.face_up else 'a set card'}"
    return {NextPhase: "Next phase", EndTurn: "End turn"}.get(type(action), action.kind)


def _targets_label(duel: PaperDuel, card: int, targets: tuple[int, ...]) -> str:
    st, cat = duel.state, duel.catalogue
    effect = cat[card].effect
    if effect in ("equip", "destroy_face_up_trap"):
        row = st.sides[targets[0]].monsters if effect == "equip" else st.sides[targets[0]].spells
        return f"-> {cat.name(row[targets[1]].card)}"
    if effect == "polymerization":
        monsters = st.sides[st.active].monsters
        return f"{cat.name(monsters[targets[0]].card)} + {cat.name(monsters[targets[1]].card)}"
    if effect == "trap_destroy_two_and_one":
        return f"zones {targets[0] + 1},{targets[1] + 1} vs {targets[2] + 1}"
    return ""


def describe(duel: PaperDuel, event: Event, players: tuple[str, str]) -> str | None:
    """A line for the message bar, or None for events not worth one."""
    name = duel.catalogue.name
    who = players[getattr(event, "side", 0)]
    lines = {
        "summoned": lambda e: f"{who} summons {name(e.card)}" if e.face_up else f"{who} sets",
        "played": lambda e: f"{who} plays {name(e.card)}",
        "destroyed": lambda e: f"{name(e.card)} destroyed",
        "life_changed": lambda e: f"{who} LP {e.delta:+d} -> {e.lp}",
        "fused": lambda e: f"{who} fuses {name(e.card)}",
        "ended": lambda e: "Duel over",
    }
    text = lines.get(event.kind)
    return text(event) if text else None


class DuelScreen(Screen):
    """A duel; sides in ``humans`` are played from their pads, the rest by the computer."""

    def __init__(self, game: PaperGame, duel: PaperDuel, humans: set[int],
                 match: Match | None = None) -> None:
        self.game, self.duel, self.humans, self.match = game, duel, humans, match
        self.message = "Duel start"
        self.wait = 0
        self.cursor = 0
        self.top = 0
        self.actions: list[Action] = []
        self._refresh()

    def _refresh(self) -> None:
        self.actions = self.duel.legal_actions() if self.duel.acting_side in self.humans else []
        self.cursor = self.top = 0

    @property
    def viewer(self) -> int:
        """The side shown at the bottom: the acting human, else the (first) human."""
        acting = self.duel.acting_side
        return acting if acting in self.humans else min(self.humans)

    def update(self, app: App) -> Screen | None:
        duel = self.duel
        if duel.over:
            self.wait += 1
            if self.wait > 30 or app.pads[min(self.humans)].pressed("confirm"):
                return ResultScreen(self.game, duel, self.humans, self.match)
            return self
        if duel.acting_side not in self.humans:
            self.wait += 1
            if self.wait >= CPU_FRAMES:
                self.wait = 0
                self._act(app, ai.choose(duel))
            return self
        pad = app.pads[duel.acting_side]
        if pad.repeat("up") or pad.repeat("down"):
            self.cursor = (self.cursor + (-1 if pad.held("up") else 1)) % len(self.actions)
            self.top = min(max(self.top, self.cursor - ACTION_ROWS + 1), self.cursor)
            app.sound.play("move")
        elif pad.pressed("confirm"):
            self._act(app, self.actions[self.cursor])
        return self

    def _act(self, app: App, action: Action) -> None:
        events = try_step(app, self.duel, action)
        if events is None:
            return
        app.sound.play("battle" if isinstance(action, Attack) else "confirm")
        players = tuple(self._label(side) for side in (0, 1))
        lines = [line for e in events if (line := describe(self.duel, e, players))]
        if lines:
            self.message = lines[-1]
        self._refresh()

    # --- drawing ------------------------------------------------------------------------
    def draw(self, app: App, fb: Framebuffer) -> None:
        duel, c, me = self.duel, app.colour, self.viewer
        fb.clear(c("bg"))
        foe = 1 - me
        spells = self.duel.profile.magic_per_turn or self.duel.profile.traps_per_turn
        self._status(app, fb, foe, 1)
        if spells:
            self._row(app, fb, foe, "spells", 12)
        self._row(app, fb, foe, "monsters", 42)
        field = duel.field_card()
        fb.text(2, 75, f"T{duel.state.turn} P{duel.acting_side + 1} {duel.phase.upper()}"
                       f"{'  ' + duel.catalogue.name(field) if field else ''}", c("highlight"))
        fb.text(2, 85, self.message[:36], c("text_dim"))
        self._row(app, fb, me, "monsters", 96)
        if spells:
            self._row(app, fb, me, "spells", 126)
        self._status(app, fb, me, 157)
        self._hand(app, fb, me)
        self._action_list(app, fb)

    def _label(self, side: int) -> str:
        return f"P{side + 1}" if side in self.humans else "CPU"

    def _status(self, app: App, fb: Framebuffer, side: int, y: int) -> None:
        s = self.duel.state.sides[side]
        label = self._label(side)
        fb.text(2, y, f"{label} LP {s.lp:>5}  hand {len(s.hand)}  deck {len(s.deck)}  "
                      f"grave {len(s.grave)}", app.colour("text"))

    def _row(self, app: App, fb: Framebuffer, side: int, row: str, y: int) -> None:
        c, cat = app.colour, self.duel.catalogue
        for z in range(ZONES):
            x = 2 + z * 44
            occupant = getattr(self.duel.state.sides[side], row)[z]
            fill = c("zone") if occupant is None else (
                c("card_back") if not occupant.face_up else c("monster" if row == "monsters"
                                                              else "magic"))
            fb.box(x, y, 42, 28, fill, c("text_dim"))
            if occupant is None:
                continue
            hidden = not occupant.face_up and side != self.viewer
            name = "?" if hidden else cat.name(occupant.card)
            fb.text(x + 2, y + 3, name[:6], c("text"))
            if row == "monsters" and not hidden:
                stance = "A" if occupant.attack else "D"
                value = self.duel.atk(side, z) if occupant.attack else self.duel.defense(side, z)
                fb.text(x + 2, y + 15, f"{stance}{value:>5}", c("text"))
            elif row == "spells" and getattr(occupant, "spent", False):
                fb.text(x + 2, y + 15, "used", c("text_dim"))

    def _hand(self, app: App, fb: Framebuffer, side: int) -> None:
        c = app.colour
        fb.text(226, 12, "HAND", c("text"))
        if side not in self.humans:
            return
        for i, card in enumerate(self.duel.state.sides[side].hand[:14]):
            info = self.duel.catalogue[card]
            stats = f" {info.atk}" if info.is_monster else ""
            fb.text(226, 24 + i * CELL_H, f"{info.name[:10]}{stats}"[:15], c("text_dim"))

    def _action_list(self, app: App, fb: Framebuffer) -> None:
        c = app.colour
        y = 168
        fb.box(0, y, fb.width, fb.height - y, c("panel"), c("text_dim"))
        if not self.actions:
            text = "CPU is thinking" if not self.duel.over else "Duel over: press confirm"
            fb.text(6, y + 6, text, c("text"))
            return
        for row in range(min(ACTION_ROWS, len(self.actions))):
            i = self.top + row
            ty = y + 4 + row * CELL_H
            if i == self.cursor:
                fb.fill(2, ty - 1, fb.width - 4, CELL_H, c("panel_light"))
                fb.text(4, ty, "\u25b6", c("cursor"))
            fb.text(14, ty, action_label(self.duel, self.actions[i])[:50], c("text"))


class ResultScreen(Screen):
    """The end of a duel: the winner; in a match, the score and the next duel."""

    def __init__(self, game: PaperGame, duel: PaperDuel, humans: set[int],
                 match: Match | None) -> None:
        self.game, self.duel, self.humans, self.match = game, duel, humans, match
        if match is not None:
            match.finish()
        if humans == {0}:
            game.count(duel.winner)

    def update(self, app: App) -> Screen | None:
        if not (app.pad.pressed("confirm") or app.pad.pressed("start")):
            return self
        if self.match is not None and not self.match.over:
            for side in (0, 1):
                if side not in self.humans:
                    for out_card, in_card in computer_swaps(self.match, side):
                        self.match.swap(side, out_card, in_card)
            return SideDeckScreen(self.game, self.match, self.humans, sorted(self.humans))
        return TitleScreen(self.game)

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        winner = self.duel.winner
        outcome = "DRAW" if winner == DRAW else f"PLAYER {winner + 1} WINS"
        if self.humans == {0}:
            outcome = {0: "YOU WIN", 1: "YOU LOSE"}.get(winner, "DRAW")
        lp = " / ".join(str(s.lp) for s in self.duel.state.sides)
        lines = [outcome, f"by {self.duel.state.reason.replace('_', ' ')}", f"LP {lp}"]
        if self.match is not None:
            score = " ".join({0: "P1", 1: "P2", DRAW: "draw"}[r] for r in self.match.results)
            lines.append(f"match: {score}")
            if self.match.over:
                lines.append("match drawn" if self.match.winner == DRAW
                             else f"match won by player {self.match.winner + 1}")
        message_box(app, fb, "\n".join(lines), width=220)


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
            app.notify(str(exc))
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
