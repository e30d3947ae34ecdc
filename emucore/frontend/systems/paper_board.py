"""The paper duel (ocg1999, tcglite) on a board like FM's: five monster and five magic/trap
zones a side with card faces (:mod:`paper_faces`), the hand at the bottom, the card under the
cursor large in the panel with the log and the prompt.

Left/Right/Up/Down move a cursor over the hand and the zones; Cross on a card lists what the
rules allow with it now (summon, set, activate, attack each target, change position) and
Cross again plays the choice; Start lists the turn's own actions (draw, next phase, end turn,
no answer). A banner names each new turn and phase. The computer plays step by step: each of
its actions is announced in the log for ``CPU_FRAMES`` before the board changes. Everything
goes through the Duel protocol; in two-player play each side reads its own pad, the
opponent's hand is never shown, and a player's hand stays face down until that player (whose
turn or answer it is) presses Cross on their own pad.
"""

from __future__ import annotations

from emucore.duel.protocol import Action, Event, EventKind
from emucore.frontend.app import App, Screen
from emucore.frontend.cards import LARGE, SMALL, dim_lut, draw_back, draw_card, draw_empty
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer, text_width
from emucore.frontend.layout import draw_fitted, fit
from emucore.frontend.systems.paper_faces import paper_face
from emucore.frontend.widgets import try_step
from emucore.paper import ai
from emucore.paper.actions import (
    ATTACK,
    DIRECT,
    Activate,
    ActivateSet,
    Attack,
    ChangePosition,
    Draw,
    EndTurn,
    NextPhase,
    Pass,
    Set,
    Summon,
)
from emucore.paper.engine import PaperDuel
from emucore.paper.state import ZONES

CPU_FRAMES = 40  # the computer's action is announced this long before it happens
BANNER_FRAMES = 40  # a turn or phase banner (Cross skips)
PHASE_NAMES = {"draw": "DRAW PHASE", "standby": "STANDBY PHASE", "main": "MAIN PHASE",
               "main1": "MAIN PHASE 1", "battle": "BATTLE PHASE", "main2": "MAIN PHASE 2",
               "end": "END PHASE"}
ZONE_X, ZONE_STEP = 6, 35
ROW_Y = {"foe_spells": 12, "foe_monsters": 54, "monsters": 100, "spells": 142, "hand": 194}
SIDEWAYS_SHIFT = (SMALL[1] - SMALL[0]) // 2
FIELD_W, PANEL_X, BAR_Y = 180, 186, 184
LOG_LINES = 5
MENU_ROWS = 8


def action_label(duel: PaperDuel, action: Action) -> str:
    """A short line naming an action the way a player would say it."""
    cat, st = duel.catalogue, duel.state
    me = st.sides[duel.acting_side]
    if isinstance(action, Summon):
        card = cat.name(me.hand[action.hand])
        return f"Summon {card}" if action.position == ATTACK else f"Set {card}"
    if isinstance(action, Set):
        return f"Set {cat.name(me.hand[action.hand])} face-down"
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
    if isinstance(action, NextPhase) and duel.phase == "draw":
        return "Skip the draw"
    return {NextPhase: "Next phase", EndTurn: "End turn", Draw: "Draw a card",
            Pass: "No answer"}.get(type(action), action.kind)


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
    """A line for the log, or None for events not worth one."""
    name = duel.catalogue.name
    who = players[getattr(event, "side", 0)]
    lines = {
        EventKind.PLACED: lambda e: f"{who} summons {name(e.card)}" if e.face_up and
        e.row == "monster" else f"{who} sets a card" if not e.face_up else None,
        EventKind.MAGIC: lambda e: f"{who} plays {name(e.card)}",
        EventKind.TRAP: lambda e: f"{who} springs {name(e.card)}",
        "response": lambda e: f"{who} may answer",
        EventKind.DESTROYED: lambda e: f"{name(e.card)} destroyed",
        EventKind.LIFE: lambda e: f"{who} LP {e.delta:+d} -> {e.lp}",
        EventKind.FUSION: lambda e: f"{who} fuses {name(e.card)}",
        EventKind.ENDED: lambda e: "Duel over",
    }
    text = lines.get(event.kind)
    return text(event) if text else None


class DuelScreen(Screen):
    """A duel; sides in ``humans`` are played from their pads, the rest by the computer."""

    def __init__(self, game, duel: PaperDuel, humans: set[int], match=None) -> None:
        self.game, self.duel, self.humans, self.match = game, duel, humans, match
        self.log: list[str] = ["Duel start"]
        self.wait = 0
        self.row, self.col = "hand", 0
        self.choices: list[Action] = []  # the open list of actions (empty: none open)
        self.choice = self.top = 0
        self.planned: Action | None = None  # the computer's announced action
        self.banner: tuple[str, int] | None = None  # (text, frames left)
        self.seen: tuple = ()
        self.handed: int | None = None  # two players: whose eyes the hand is shown to
        self._check_banner()

    # --- the loop ---------------------------------------------------------------------------
    @property
    def viewer(self) -> int:
        """The side shown at the bottom: the acting human, else the (first) human."""
        acting = self.duel.acting_side
        return acting if acting in self.humans else min(self.humans)

    @property
    def rows(self) -> tuple[str, ...]:
        spells = self.duel.profile.magic_per_turn or self.duel.profile.traps_per_turn
        return tuple(r for r in ROW_Y if spells or not r.endswith("spells"))

    def update(self, app: App) -> Screen | None:
        duel = self.duel
        if self.banner is not None:
            text, left = self.banner
            skip = any(p.pressed("confirm") for p in app.pads)
            self.banner = None if left <= 1 or skip else (text, left - 1)
            return self
        if duel.over:
            self.wait += 1
            if self.wait > 30 or app.pads[min(self.humans)].pressed("confirm"):
                from emucore.frontend.systems.ocg1999 import ResultScreen
                return ResultScreen(self.game, duel, self.humans, self.match)
            return self
        if duel.acting_side not in self.humans:
            self._computer(app)
            return self
        pad = app.pads[duel.acting_side]
        if self.handing_over:
            if pad.pressed("confirm"):
                self.handed = duel.acting_side
                app.sound.play("confirm")
            return self
        if self.choices:
            self._choose(app, pad)
        else:
            self._cursor(app, pad)
        return self

    @property
    def handing_over(self) -> bool:
        """Two players: the other player must take the pad (their turn, or an answer to a
        response window) before their hand shows."""
        return (len(self.humans) == 2 and not self.duel.over
                and self.handed != self.duel.acting_side)

    def _computer(self, app: App) -> None:
        """Announce the computer's next action, then play it CPU_FRAMES later."""
        if self.planned is None:
            self.planned = ai.choose(self.duel)
            self._note(f"{self._label(self.duel.acting_side)}: "
                       f"{action_label(self.duel, self.planned)}")
            self.wait = CPU_FRAMES
            return
        self.wait -= 1
        if self.wait <= 0:
            action, self.planned = self.planned, None
            self._act(app, action)

    def _cursor(self, app: App, pad) -> None:
        rows = self.rows
        i = rows.index(self.row)
        if pad.repeat("up") or pad.repeat("down"):
            self.row = rows[max(0, min(len(rows) - 1, i + (-1 if pad.held("up") else 1)))]
            app.sound.play("move")
        width = max(1, len(self._hand())) if self.row == "hand" else ZONES
        if pad.repeat("left") or pad.repeat("right"):
            self.col += -1 if pad.held("left") else 1
            app.sound.play("move")
        self.col = max(0, min(width - 1, self.col))
        if pad.pressed("confirm"):
            self._open(app, self._card_actions(), "Nothing to do with this card now.")
        elif pad.pressed("start"):
            self._open(app, [a for a in self.duel.legal_actions()
                             if isinstance(a, NextPhase | EndTurn | Draw | Pass)],
                       "The turn goes on only through your cards now.")

    def _open(self, app: App, actions: list[Action], none: str) -> None:
        if not actions:
            app.sound.play("error")
            app.notify(none)
            return
        app.sound.play("confirm")
        self.choices, self.choice, self.top = actions, 0, 0

    def _card_actions(self) -> list[Action]:
        """What the rules allow now with the card under the cursor."""
        legal = self.duel.legal_actions()
        row, col = self.row, self.col
        if row == "hand":
            return [a for a in legal if isinstance(a, Summon | Set | Activate) and a.hand == col]
        if row == "monsters":
            return [a for a in legal if isinstance(a, ChangePosition | Attack) and a.zone == col]
        if row == "spells":
            return [a for a in legal if isinstance(a, ActivateSet) and a.zone == col]
        return []

    def _choose(self, app: App, pad) -> None:
        if pad.repeat("up") or pad.repeat("down"):
            self.choice = (self.choice + (-1 if pad.held("up") else 1)) % len(self.choices)
            self.top = min(max(self.top, self.choice - MENU_ROWS + 1), self.choice)
            app.sound.play("move")
        elif pad.pressed("cancel"):
            self.choices = []
            app.sound.play("cancel")
        elif pad.pressed("confirm"):
            action, self.choices = self.choices[self.choice], []
            self._act(app, action)

    def _act(self, app: App, action: Action) -> None:
        events = try_step(app, self.duel, action)
        if events is None:
            return
        app.sound.play("battle" if isinstance(action, Attack) else "confirm")
        players = tuple(self._label(side) for side in (0, 1))
        for event in events:
            line = describe(self.duel, event, players)
            if line:
                self._note(line)
        self.col = min(self.col, max(0, len(self._hand()) - 1)) if self.row == "hand" else \
            self.col
        self._check_banner()

    def _note(self, line: str) -> None:
        self.log = (self.log + [line])[-LOG_LINES * 2:]

    def _check_banner(self) -> None:
        """A banner when the turn or the phase has changed since the last look."""
        duel = self.duel
        now = (duel.state.turn, duel.acting_side, duel.phase)
        if now == self.seen or duel.over:
            return
        if self.seen[:2] != now[:2]:
            text = f"TURN {now[0]}: {self._label(now[1])}"
        else:
            text = PHASE_NAMES.get(now[2], now[2].upper())
        self.seen, self.banner = now, (text, BANNER_FRAMES)

    def _label(self, side: int) -> str:
        return f"P{side + 1}" if side in self.humans else "CPU"

    def _hand(self) -> list[int]:
        return self.duel.state.sides[self.viewer].hand

    # --- drawing ----------------------------------------------------------------------------
    def _xy(self, row: str, col: int) -> tuple[int, int]:
        if row == "hand":
            n = len(self._hand())
            step = ZONE_STEP if n <= 5 else (FIELD_W - ZONE_X - SMALL[0]) // (n - 1)
            return ZONE_X + col * step, ROW_Y["hand"]
        return ZONE_X + col * ZONE_STEP, ROW_Y[row]

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        me = self.viewer
        self._bar(app, fb, 1 - me, 2)
        self._bar(app, fb, me, BAR_Y)
        for row in self.rows:
            if row == "hand":
                self._draw_hand(app, fb)
            else:
                self._draw_row(app, fb, row)
        self._panel(app, fb)
        if self.choices:
            self._draw_choices(app, fb)
        if self.banner is not None:
            self._draw_banner(app, fb, self.banner[0])
        elif self.handing_over:
            side = self.duel.acting_side + 1
            self._draw_banner(app, fb, f"PLAYER {side}: CROSS")

    def _bar(self, app: App, fb: Framebuffer, side: int, y: int) -> None:
        s = self.duel.state.sides[side]
        fb.text(ZONE_X, y, self._label(side), app.colour("text"))
        fb.text(ZONE_X + 4 * CELL_W, y, f"LP {s.lp:>5}", app.colour("highlight"))
        fb.text_right(FIELD_W - 2, y, f"DK{len(s.deck):2d} GY{len(s.grave):2d}",
                      app.colour("text_dim"))
        if self.duel.acting_side == side and not self.duel.over:
            fb.text(0, y, "\u25b6", app.colour("cursor"))

    def _draw_row(self, app: App, fb: Framebuffer, row: str) -> None:
        side = 1 - self.viewer if row.startswith("foe_") else self.viewer
        cards = getattr(self.duel.state.sides[side], row.removeprefix("foe_"))
        for col in range(ZONES):
            x, y = self._xy(row, col)
            selected = self._selected(row, col)
            occupant = cards[col]
            if occupant is None:
                draw_empty(app, fb, x, y, SMALL, selected)
                continue
            sideways = row.endswith("monsters") and not occupant.attack
            if sideways:
                x, y = x - SIDEWAYS_SHIFT, y + SIDEWAYS_SHIFT
            if occupant.face_up:
                draw_card(app, fb, x, y, self._face(occupant.card), SMALL, selected, sideways)
            else:
                draw_back(app, fb, x, y, SMALL, selected, sideways)
            if getattr(occupant, "spent", False):
                fb.remap(x, y, *SMALL, dim_lut(app.machine))

    def _draw_hand(self, app: App, fb: Framebuffer) -> None:
        visible = self.viewer in self.humans and not self.handing_over
        for col, card in enumerate(self._hand()):
            x, y = self._xy("hand", col)
            selected = self._selected("hand", col)
            y -= 3 if selected else 0
            if visible:
                draw_card(app, fb, x, y, self._face(card), SMALL, selected)
            else:
                draw_back(app, fb, x, y, SMALL, selected)

    def _selected(self, row: str, col: int) -> bool:
        return (self.duel.acting_side in self.humans and not self.choices and row == self.row
                and col == self.col)

    def _face(self, card: int):
        return paper_face(self.duel.catalogue, card)

    def _focus(self) -> int | None:
        """The card under the cursor, if the player may see it."""
        if self.row == "hand":
            hand = self._hand()
            return hand[self.col] if self.col < len(hand) else None
        side = 1 - self.viewer if self.row.startswith("foe_") else self.viewer
        occupant = getattr(self.duel.state.sides[side], self.row.removeprefix("foe_"))[self.col]
        if occupant is None or (not occupant.face_up and side != self.viewer):
            return None
        return occupant.card

    def _panel(self, app: App, fb: Framebuffer) -> None:
        x = PANEL_X
        focus = self._focus() if self.duel.acting_side in self.humans and \
            not self.handing_over else None
        if focus is not None:
            draw_card(app, fb, x, 4, self._face(focus), LARGE)
        else:
            draw_back(app, fb, x, 4, LARGE)
        field = self.duel.field_card()
        phase = PHASE_NAMES.get(self.duel.phase, self.duel.phase.upper()).title()
        fb.text(x, 124, f"T{self.duel.state.turn} {phase}", app.colour("text_dim"))
        width = fb.width - x - 2
        lines = [ln for text in self.log[-LOG_LINES:] for ln in fit(text, width, 2)]
        for i, line in enumerate(lines[-LOG_LINES:]):
            fb.text(x, 136 + i * CELL_H, line, app.colour("text"))
        if field:
            draw_fitted(fb, x, 136 + LOG_LINES * CELL_H,
                        f"Field: {self.duel.catalogue.name(field)}", width, app.colour("text_dim"))
        for i, line in enumerate(self._prompt()):
            draw_fitted(fb, x, 196 + i * CELL_H, line, width,
                        app.colour("highlight" if i == 0 else "text_dim"))

    def _prompt(self) -> list[str]:
        if self.duel.over:
            return ["Duel over", "Cross: result"]
        if self.duel.acting_side not in self.humans:
            return ["Computer's turn"]
        if self.choices:
            return ["Choose", "Cross:ok Circle:back"]
        return ["Cross: use card", "Start: phase, end turn"]

    def _draw_choices(self, app: App, fb: Framebuffer) -> None:
        rows = min(MENU_ROWS, len(self.choices))
        width = FIELD_W - 8
        x, y = 4, ROW_Y["foe_monsters"] + 6
        fb.box(x, y, width, rows * CELL_H + 6, app.colour("panel"), app.colour("highlight"))
        for r in range(rows):
            i = self.top + r
            ty = y + 4 + r * CELL_H
            if i == self.choice:
                fb.fill(x + 2, ty - 1, width - 4, CELL_H, app.colour("panel_light"))
                fb.text(x + 3, ty, "\u25b6", app.colour("cursor"))
            draw_fitted(fb, x + 3 + CELL_W + 2, ty, action_label(self.duel, self.choices[i]),
                        width - CELL_W - 8, app.colour("text"))

    def _draw_banner(self, app: App, fb: Framebuffer, text: str) -> None:
        y = (ROW_Y["foe_monsters"] + ROW_Y["monsters"]) // 2 + SMALL[1] // 2 - CELL_H
        fb.fill(0, y, FIELD_W, 2 * CELL_H, app.colour("black"))
        fb.fill(0, y + 1, FIELD_W, 1, app.colour("highlight"))
        fb.fill(0, y + 2 * CELL_H - 2, FIELD_W, 1, app.colour("highlight"))
        fb.text((FIELD_W - text_width(text)) // 2, y + CELL_H // 2, text,
                app.colour("highlight"))
