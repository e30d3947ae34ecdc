"""The DM1 duel screen: the player's hand and zones against the computer's, on 160x144.

Side 0 plays by the pad, side 1 by :func:`emucore.dm1.ai.choose_action`, both only through the
Duel protocol. Every step's events play one by one as beats (see
:mod:`emucore.frontend.systems.dm1_board`): the computer's each wait
``app.machine.action_frames`` frames (a third with the options' fast animations) with a simple
motion (a card drawn, a card set, a monster's lunge, a blinking destroyed card, LP counting)
and a line that goes into the log the panel shows; A skips the current wait.

Layout, top to bottom: the opponent's name and LP; its five zones; a band for prompts and the
motions of draws and magic cards; the player's zones; the player's LP, turn and terrain; the
hand (up to six cards, all on screen); the panel (the selected card's name and text, the
battle order, or the log).
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from emucore.dm1 import ai
from emucore.dm1.actions import NO_TARGET
from emucore.dm1.duel import Dm1Duel
from emucore.dm1.view import ZONES, Dm1View, HandCard, board_view, opening_events
from emucore.duel.protocol import Action, Event, IllegalAction, Part
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, Framebuffer, text_width
from emucore.frontend.layout import Rect, draw_fitted, fit
from emucore.frontend.prompts import offered, prefixes
from emucore.frontend.systems.dm1 import Dm1Game, Dm1Screen, ResultScreen
from emucore.frontend.systems.dm1_board import EMPTY, Beat, Board, Slot, beats
from emucore.frontend.systems.dm1_text import (
    ATTACK_BLOCKS,
    REFUSALS,
    card_details,
    card_name,
    log_name,
)
from emucore.frontend.widgets import refusal

TERRAIN_NAMES = ("", "Forest", "Wasteland", "Mountain", "Sogen", "Umi", "Yami")
ZONE_W, ZONE_H, ZONE_STEP, ZONE_X = 29, 24, 31, 2
ZONE_Y = (46, 10)  # per side: the player's row, the computer's row
CARD_W, CARD_H = 26, 20  # a hand card: six side by side fit the 160-pixel screen
HAND_X, HAND_Y, HAND_STEP = 2, 83, 26
BAND_Y = 36  # the line between the two rows of zones
STATUS_Y = 71  # the player's LP, the turn and the terrain
PANEL_Y, PANEL_ROWS, PANEL_W = 106, 4, 154
LOG_KEEP = 16  # lines the log keeps
LOG_ENTRY_ROWS = 3  # rows one log line may wrap to
LIFT = 3  # pixels the chosen hand card stands above the others
LUNGE = 3  # pixels an attacking monster moves toward its target
BLINK = 6  # frames a destroyed card shows, then hides
SOUNDS = {"draw": "draw", "place": "move", "attack": "battle", "destroy": "damage",
          "life": "damage", "magic": "magic"}
PROMPTS = {"hand": "A:play START:pass SEL:log", "zone": "<>:zone  A:ok  B:back",
           "order": "<>:choose  A:ok  SEL:log", "target": "<>:target A:attack B:back"}


def hand_rects(count: int) -> list[Rect]:
    """Where each of ``count`` hand cards is drawn (x, y, w, h): side by side from the
    left, six of them within the screen."""
    return [(HAND_X + i * HAND_STEP, HAND_Y, CARD_W, CARD_H) for i in range(count)]


class DuelScreen(Dm1Screen):
    """The duel: side 0 by the pad, side 1 by the computer, each step shown beat by beat."""

    def __init__(self, game: Dm1Game, opponent: int, duel: Dm1Duel) -> None:
        super().__init__(game)
        self.opponent, self.duel = opponent, duel
        self.mode, self.cursor, self.pick = "hand", 0, -1
        self.prefix: tuple[Part, ...] = ()  # the parts of the action chosen so far
        self.options: list[Any] = []  # what the cursor chooses from in the mode
        self.show_log = False
        self.view: Dm1View = board_view(duel)  # the engine's board as the player knows it
        self.post = self.board = Board.of(self.view)  # the engine's board; the board shown
        self.queue: deque[Beat] = deque(beats(game.t, opening_events(duel), self.post,
                                              self.post))
        self.beat: Beat | None = None  # the beat playing, ``timer`` of ``frames`` left
        self.timer = self.frames = 0
        self.log: deque[str] = deque(maxlen=LOG_KEEP)
        self.log_back = 0  # log lines scrolled back from the newest (in the log view)

    # --- the flow ---------------------------------------------------------------------------
    def update(self, app: App) -> Screen | None:
        if self._show_beats(app):
            return self
        duel = self.duel
        if duel.over:
            return self._result(forfeited=False)
        if duel.acting_side == 1:
            # frontend.choices F1: a refused computer choice gives way to the first legal one
            if not self.play(app, ai.choose_action(duel)):
                self.play(app, duel.legal_actions()[0])
            return self
        if app.pad.pressed("select"):
            self.show_log, self.log_back = not self.show_log, 0
            return self
        if self.show_log:
            self._scroll_log(app)
            return self
        if app.pad.pressed("cancel") and self.mode in ("zone", "target"):
            # The options of the mode left behind (zones, Order actions) are not labels.
            self.mode, self.cursor, self.options = \
                "hand" if self.mode == "zone" else "order", 0, []
            return self
        handler = {"play": self._play_input, "orders": self._order_input}.get(self.view.phase)
        if handler is not None:
            handler(app)
        return self

    def _scroll_log(self, app: App) -> None:
        """Up shows older lines of the log, Down newer ones."""
        step = (app.pad.repeat("up") and 1) or (app.pad.repeat("down") and -1) or 0
        if step:
            self.log_back = min(max(self.log_back + step, 0), max(len(self.log) - 1, 0))
            app.sound.play("move")

    def _show_beats(self, app: App) -> bool:
        """Play the queued beats; True while one plays (or A just skipped one, so the press
        does nothing else). A beat that needs no wait only adds its line to the log."""
        skipped = self.beat is not None and app.pad.pressed("confirm")
        if self.beat is not None:
            self.timer = 0 if skipped else self.timer - 1
            if self.timer > 0:
                return True
            self.beat = None
        while self.queue:
            beat = self.queue.popleft()
            self.log.append(beat.line)
            self.board = beat.after
            if beat.wait:
                self.frames = self.timer = app.paced(app.machine.action_frames)
                self.beat = beat
                if beat.motion in SOUNDS:
                    app.sound.play(SOUNDS[beat.motion])
                return True
        self.board = self.post
        return skipped

    def play(self, app: App, action: Action) -> bool:
        """Step the duel with the acting side's action and queue what happened; a refused
        action says why in a notice, changes nothing and returns False."""
        acting, pre = self.duel.acting_side, self.post
        events = self._step(app, action)
        if events is None:
            return False
        if acting == 0:
            app.sound.play("confirm")
        self.view = board_view(self.duel)
        self.post = Board.of(self.view)
        self.queue.extend(beats(self.game.t, events, pre, self.post))
        self.mode, self.cursor, self.options = "hand", 0, []
        return True

    def _step(self, app: App, action: Action) -> list[Event] | None:
        try:
            return self.duel.step(action)
        except IllegalAction as exc:
            app.sound.play("error")
            app.notify(REFUSALS.get(exc.rule) or refusal(exc))
            return None

    def forfeit(self, app: App) -> Screen:
        """Give up (from the pause menu): the duel counts as a loss; the result follows."""
        app.sound.play("lose")
        return self._result(forfeited=not self.duel.over)

    def _result(self, forfeited: bool) -> Screen:
        won = self.game.finish(self.opponent, self.duel, forfeited)
        return ResultScreen(self.game, self.opponent, self.duel, won, forfeited)

    # --- input ------------------------------------------------------------------------------
    def _move(self, app: App, count: int, keys: tuple[str, str] = ("left", "right")) -> None:
        if count and (app.pad.repeat(keys[0]) or app.pad.repeat(keys[1])):
            self.cursor = (self.cursor + (-1 if app.pad.held(keys[0]) else 1)) % count
            app.sound.play("move")

    def _play_input(self, app: App) -> None:
        """Choose a hand card (Start: play none), then the zone or target the engine offers
        for it; a magic card that takes no target plays at once."""
        duel, hand = self.duel, self.view.hand
        if self.mode not in ("hand", "zone"):
            self.mode, self.cursor = "hand", 0
        if self.mode == "hand":
            if app.pad.pressed("start"):
                self._choose(app, (("kind", "pass"),))
                return
            self._move(app, len(hand))
            self.cursor = min(self.cursor, len(hand) - 1)
            if not app.pad.pressed("confirm"):
                return
            self.pick = self.cursor
            starts = prefixes(duel, ("hand", self.pick))  # summon or magic, as the card is
            if not starts:
                return
            self.prefix, self.options = starts[0], offered(duel, starts[0])
            if self.options == [("target", NO_TARGET)]:
                self._choose(app, (*self.prefix, *self.options))
            else:
                self.mode, self.cursor = "zone", 0
            return
        self._move(app, len(self.options))
        if app.pad.pressed("confirm"):
            self._choose(app, (*self.prefix, self.options[self.cursor]))

    def _order_input(self, app: App) -> None:
        """The next monster's order as the engine offers it: Attack (or Hold) and, where
        allowed, Defend; then the target when an attack may go to more than one."""
        duel = self.duel
        if self.mode != "target":
            if self.mode != "order":
                self.mode, self.cursor = "order", 0
            self.prefix = (("kind", "order"), *offered(duel, (("kind", "order"),))[:1])
            stances = offered(duel, self.prefix)
            self.options = ["attack", "defend"] if ("attack", False) in stances else ["attack"]
            self._move(app, len(self.options))
            self._move(app, len(self.options), ("up", "down"))
            if not app.pad.pressed("confirm"):
                return
            chosen = (*self.prefix, ("attack", self.options[self.cursor] == "attack"))
            targets = offered(duel, chosen)
            if len(targets) == 1:
                self._choose(app, (*chosen, *targets))
            else:
                self.mode, self.cursor, self.prefix, self.options = "target", 0, chosen, targets
            return
        self._move(app, len(self.options))
        if app.pad.pressed("confirm"):
            self._choose(app, (*self.prefix, self.options[self.cursor]))

    def _choose(self, app: App, parts: tuple[Part, ...]) -> None:
        """Play the legal action the chosen parts make."""
        action = self.duel.action_for(parts)
        if action is not None:
            self.play(app, action)

    # --- drawing ----------------------------------------------------------------------------
    @property
    def shown(self) -> Board:
        """The board drawn: the playing beat's board before it ends, else the board."""
        return self.beat.before if self.beat is not None else self.board

    @property
    def progress(self) -> float:
        """How far the playing beat's motion has come, 0..1."""
        return 1 - self.timer / self.frames if self.beat is not None and self.frames else 1.0

    def draw(self, app: App, fb: Framebuffer) -> None:
        c, board = app.colour, self.shown
        fb.clear(c("bg"))
        name = self.game.t.opponent(self.opponent)["rom_name"]
        lp = f"LP{self._lp(1):>5}"
        draw_fitted(fb, 2, 1, name, fb.width - 8 - text_width(lp), c("text"))
        fb.text_right(fb.width - 2, 1, lp, c("text"))
        fb.text(2, STATUS_Y, f"YOU LP{self._lp(0):>5}  T{board.turn}", c("text"))
        fb.text_right(fb.width - 2, STATUS_Y, TERRAIN_NAMES[board.field], c("text_dim"))
        for side in (1, 0):
            for zone in range(ZONES):
                self._zone(app, fb, side, zone)
        self._moving_card(app, fb)
        self._band(app, fb)
        for i, (card, rect) in enumerate(zip(board.hand, hand_rects(len(board.hand)),
                                             strict=True)):
            chosen = (self._waiting_for_pad() and not self.show_log and self.mode == "hand"
                      and self.cursor == i)
            self._card(app, fb, rect, card, chosen)
        self._panel(app, fb)

    def _waiting_for_pad(self) -> bool:
        """Whether the player is to act now (no beat playing, the duel on, side 0's turn)."""
        return (self.beat is None and not self.queue and not self.duel.over
                and self.duel.acting_side == 0)

    def _lp(self, side: int) -> int:
        """The side's LP as shown: counting toward the new value while a change plays."""
        beat = self.beat
        if beat is None or beat.motion != "life" or beat.side != side:
            return self.shown.lp[side]
        old, new = beat.before.lp[side], beat.after.lp[side]
        return round(old + (new - old) * self.progress)

    def _chosen(self, side: int, zone: int) -> bool:
        """Whether the zone is framed: the cursor's zone, or the target of a playing
        attack; a zone changing position blinks its frame."""
        beat = self.beat
        if beat is not None:
            if beat.motion == "attack" and beat.target == zone and beat.side != side:
                return True
            return (beat.motion == "stance" and (beat.side, beat.zone) == (side, zone)
                    and (self.timer // BLINK) % 2 == 0)
        if not self._waiting_for_pad():
            return False
        if side == 1:
            return self.mode == "target" and self.options[self.cursor][1] == zone
        return self._own_zone_cursor() == zone

    def _own_zone_cursor(self) -> int:
        if self.mode == "zone" and self.options:
            return self.options[self.cursor][1]
        if self.mode in ("order", "target"):
            return self.view.ordering
        return -1

    def _zone(self, app: App, fb: Framebuffer, side: int, zone: int) -> None:
        c, board, beat = app.colour, self.shown, self.beat
        x, y = ZONE_X + zone * ZONE_STEP, ZONE_Y[side]
        slot = board.slot(side, zone)
        here = beat is not None and (beat.side, beat.zone) == (side, zone)
        if here and beat.motion == "attack":
            y += round(LUNGE * math.sin(math.pi * self.progress)) * (1 if side else -1)
        if here and beat.motion == "destroy" and (self.timer // BLINK) % 2:
            slot = EMPTY
        chosen = self._chosen(side, zone)
        fb.box(x, y, ZONE_W, ZONE_H, c("zone"), c("cursor") if chosen else c("text_dim"))
        if chosen:
            fb.frame(x, y, ZONE_W, ZONE_H, c("cursor"), 2)
        if slot.card:
            self._slot_text(app, fb, x, y, slot, board.visible(side, zone) or side == 0)

    @staticmethod
    def _slot_text(app: App, fb: Framebuffer, x: int, y: int, slot: Slot, seen: bool) -> None:
        """ATK (``??`` for a card the player cannot see), stance and level."""
        stance = "A" if slot.attacking else "D"
        level = "" if not seen or not slot.level else f"{slot.level:+d}"
        fb.text(x + 3, y + 3, f"{slot.atk:>4}" if seen else "??", app.colour("text"))
        fb.text(x + 3, y + 13, stance + level, app.colour("text"))

    def _moving_card(self, app: App, fb: Framebuffer) -> None:
        """A card being placed: a card back sliding into its zone, from above the screen
        (the computer's hand) or from the player's hand."""
        beat = self.beat
        if beat is None or beat.motion != "place":
            return
        start = -ZONE_H if beat.side == 1 else HAND_Y
        y = round(start + (ZONE_Y[beat.side] - start) * self.progress)
        fb.box(ZONE_X + beat.zone * ZONE_STEP, y, ZONE_W, ZONE_H, app.colour("card_back"),
               app.colour("black"))

    def _band(self, app: App, fb: Framebuffer) -> None:
        """The band between the rows of zones: the motion of a draw or a magic card, "A:
        skip" while a beat waits, else what the pad does now."""
        c, beat = app.colour, self.beat
        if beat is not None:
            if beat.motion == "draw":
                x = round(fb.width - 12 - (fb.width - 14) * self.progress)
                fb.box(x, BAND_Y - 1, 9, 10, c("card_back"), c("black"))
            elif beat.motion == "magic":
                if (self.timer // BLINK) % 2 == 0:
                    fb.box(fb.width // 2 - 14, BAND_Y - 1, 29, 10, c("magic"), c("text"))
            else:
                fb.text_right(fb.width - 2, BAND_Y, "A: skip", c("text_dim"))
            return
        if self._waiting_for_pad():
            prompt = "^v:older/newer SEL:back" if self.show_log else PROMPTS[self.mode]
            fb.text(2, BAND_Y, prompt, c("text_dim"))

    @staticmethod
    def _card(app: App, fb: Framebuffer, rect: Rect, card: HandCard, chosen: bool) -> None:
        """A hand card with its ATK (``MG`` for magic); the chosen one is lifted and framed
        in the cursor's colour (a frame inside the card would cover a four-digit ATK)."""
        c = app.colour
        x, y, w, h = rect
        monster = card.monster
        if chosen:
            y -= LIFT
            fb.fill(x, y + h, w, LIFT, c("cursor"))
        fb.box(x, y, w, h, c("card_face") if monster else c("magic"),
               c("cursor") if chosen else c("text"))
        label = str(card.atk) if monster else "MG"  # at most 4 digits
        fb.text(x + (w - text_width(label)) // 2, y + 7, label, c("text"))

    # --- the panel --------------------------------------------------------------------------
    def _panel(self, app: App, fb: Framebuffer) -> None:
        fb.box(0, PANEL_Y, fb.width, fb.height - PANEL_Y, app.colour("panel"),
               app.colour("text"))
        if not self._waiting_for_pad() or self.show_log:
            self._log_rows(app, fb)
        else:
            {"hand": self._card_panel, "zone": self._card_panel, "order": self._order_panel,
             "target": self._target_panel}[self.mode](app, fb)

    def _card_panel(self, app: App, fb: Framebuffer) -> None:
        """The hand card under the cursor (or the one being played): name and text."""
        hand = self.view.hand
        index = self.pick if self.mode == "zone" else min(self.cursor, len(hand) - 1)
        card_panel(app, fb, self.game.t, hand[index].card)

    def _log_rows(self, app: App, fb: Framebuffer) -> None:
        """The newest lines of the log, the newest last and brightest, as many as fit."""
        rows: list[tuple[str, str]] = []
        back = self.log_back if self.show_log else 0
        for age, line in enumerate(list(reversed(self.log))[back:]):
            fitted = fit(line, PANEL_W, LOG_ENTRY_ROWS)
            if len(rows) + len(fitted) > PANEL_ROWS:
                break
            colour = "text" if age == 0 else "text_dim"
            rows[:0] = [(part, colour) for part in fitted]
        for row, (text, colour) in enumerate(rows):
            fb.text(3, panel_row(row), text, app.colour(colour))

    def _order_panel(self, app: App, fb: Framebuffer) -> None:
        """The battle order of the next monster: its name, Attack (or Hold, when it may not
        attack now) and Defend, and why it may not attack, in words."""
        c, view = app.colour, self.view
        slot = view.zone(0, view.ordering)
        draw_fitted(fb, 3, panel_row(0), card_name(self.game.t, slot.card), PANEL_W, c("text"))
        block = view.attack_block
        labels = {"attack": "Hold" if block else "Attack", "defend": "Defend"}
        for i, option in enumerate(self.options):
            x = 12 + i * 60
            fb.text(x, panel_row(1), labels[option], c("text"))
            if i == self.cursor:
                fb.text(x - 9, panel_row(1), "\u25b6", c("cursor"))
        if block:
            draw_fitted(fb, 3, panel_row(2), ATTACK_BLOCKS[block], PANEL_W, c("text_dim"), 2)
        else:
            fb.text(3, panel_row(2), f"ATK {slot.atk}  DEF {slot.defense}", c("text_dim"))

    def _target_panel(self, app: App, fb: Framebuffer) -> None:
        """Which monster to attack: the target's name and value when it is face-up."""
        c, board = app.colour, self.shown
        fb.text(3, panel_row(0), "Attack which monster?", c("text"))
        zone = self.options[self.cursor][1]
        if board.visible(1, zone):
            slot = board.slot(1, zone)
            value = f"{slot.atk} ATK" if slot.attacking else "in defence"
            draw_fitted(fb, 3, panel_row(1), f"{log_name(self.game.t, slot.card)} {value}",
                        PANEL_W, c("text_dim"))
        else:
            fb.text(3, panel_row(1), "A face-down card", c("text_dim"))


def panel_row(row: int) -> int:
    """The y of the panel's text row ``row`` (0..3)."""
    return PANEL_Y + 2 + row * CELL_H


def card_panel(app: App, fb: Framebuffer, t: Any, card: int, y: int = PANEL_Y + 2,
               rows: int = PANEL_ROWS) -> None:
    """A card's whole name (up to two rows) and its text (stats and type, or the effect in
    a sentence) in ``rows`` rows of the panel from ``y``."""
    used = draw_fitted(fb, 3, y, card_name(t, card), PANEL_W, app.colour("text"),
                       min(2, rows - 1))
    for part in card_details(t, card):
        if used < rows:
            used += draw_fitted(fb, 3, y + used * CELL_H, part, PANEL_W,
                                app.colour("text_dim"), rows - used)
