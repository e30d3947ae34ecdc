"""The paper duel (ocg1999, tcglite) on a board like FM's: five monster and five magic/trap
zones a side with card faces (:mod:`paper_faces`), the hand at the bottom, the card under the
cursor large in the panel with the log and the prompt.

Left/Right/Up/Down move a cursor over the hand and the zones; Cross on a card lists what the
rules allow with it now (summon, set, activate, attack each target, change position) and
Cross again plays the choice; a card with no play says why, in the words of the rule that
refuses it (:data:`REFUSALS`). Start lists the turn's own actions (draw, next phase, end
turn, no answer). A banner names each new turn and phase. The computer plays step by step:
each of its actions moves on the board (a card slides in, a card flashes as it is flipped or
takes effect, an attacker lunges, LP count down) while its lines stay lit in the log for the
machine's ``action_frames`` (Cross skips the rest of the wait, fast animations shorten it).
The lines name only what the player at the table sees: a card set face-down is "a card" ("a
monster" in a monster zone) until it is turned up. Everything goes through the Duel
protocol; in two-player play each side reads its own pad, the opponent's hand is never
shown, and a player's hand stays face down until that player (whose turn or answer it is)
presses Cross on their own pad.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from emucore.duel.protocol import Action, Event, EventKind, IllegalAction, Part
from emucore.frontend.app import App, Screen
from emucore.frontend.bindings import keyboard_table
from emucore.frontend.cards import LARGE, SMALL, dim_lut, draw_back, draw_card, draw_empty
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer, text_width
from emucore.frontend.layout import draw_fitted, fit
from emucore.frontend.prompts import completions, offered, prefixes
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
from emucore.paper.cards import MAGIC, MONSTER, Catalogue
from emucore.paper.engine import PaperDuel
from emucore.paper.view import ZONES, MonsterView, PaperView, SideView, SpellView, board_view

BANNER_FRAMES = 40  # a turn or phase banner (Cross skips)
PHASE_NAMES = {"draw": "DRAW PHASE", "standby": "STANDBY PHASE", "main": "MAIN PHASE",
               "main1": "MAIN PHASE 1", "battle": "BATTLE PHASE", "main2": "MAIN PHASE 2",
               "end": "END PHASE"}
ZONE_X, ZONE_STEP = 6, 35
ROW_Y = {"foe_spells": 12, "foe_monsters": 54, "monsters": 100, "spells": 142, "hand": 194}
SIDEWAYS_SHIFT = (SMALL[1] - SMALL[0]) // 2
FIELD_W, PANEL_X, BAR_Y = 180, 186, 184
LOG_LINES = 5  # rows of the log in the panel (an entry wraps over as many as it needs)
LOG_KEEP = 10  # entries kept
MENU_ROWS = 8
CARD_ACTIONS = (Summon, Set, Activate, ActivateSet, ChangePosition, Attack)
TURN_KINDS = frozenset(("draw", "next_phase", "end_turn", "pass"))  # Start's list
# The action kinds a card of each screen row starts (in the order the list shows them), and
# the play a player tries first with a hand card of each kind (to say why it has none).
CARD_KINDS = {"hand": ("summon", "activate", "set"), "monsters": ("change_position", "attack"),
              "spells": ("activate_set",)}
FIRST_TRY = {MONSTER: "summon", MAGIC: "activate"}  # any other card: "set"
LUNGE = 10  # pixels an attacker moves towards its target
SLIDE = 0.4  # share of an action's wait a card takes to slide into its zone

# A refused card play in the player's words, by the engine's rule name (and, where one rule
# covers several plays, the kind of action tried). Rules the screen never probes are absent:
# the engine's own sentence is shown for them.
REFUSALS = {
    ("phase", "attack"): "Monsters attack in the battle phase (Start: next phase)",
    ("phase", "summon"): "Monsters are placed in a main phase",
    ("phase", "activate"): "Magic and trap cards are played in a main phase",
    ("phase", "set"): "Magic and trap cards are set in a main phase",
    ("phase", "activate_set"): "This set card cannot be turned up in this phase",
    ("phase", "change_position"): "Positions change in a main phase",
    "first-turn-attack": "No monster attacks on the first turn",
    "attack-position": "Only a face-up monster in attack position attacks",
    "attack-once": "This monster has already attacked this turn",
    "direct-attack": "Attack the opponent's monsters first",
    "one-monster-per-turn": "You have already placed a monster this turn",
    "monster-zones-full": "All five monster zones are taken",
    "magic-zones-full": "All five magic/trap zones are taken",
    "one-magic-per-turn": "You have already played a magic card this turn",
    "one-trap-per-turn": "You have already set a trap card this turn",
    "position-change": "These rules have no position changes",
    "position-summoned-turn": "A monster keeps its position on the turn it was placed",
    "position-once-per-turn": "This monster has already changed position this turn",
    "position-after-attack": "A monster that attacked keeps its position this turn",
    "position-locked": "A face-up trap holds this monster in defence",
    "no-target": "This card has no target now",
    "targets": "This card has no target now",
    "equip-type": "No face-up monster of yours is of the type this card powers up",
    "fusion-materials": "Polymerization needs two of your monsters that fuse",
    "fusion-deck": "That Fusion Monster is not in your Fusion Deck",
    "trap-condition": "This trap answers an opponent's attack or summon: set it",
    "response-window": "Answer the attack or summon first: a set trap, or Start to let it be",
    "no-effect": "This card does nothing in these rules",
    "no-monster": "No monster of yours is here",
    "no-set-card": "No set card of yours is here",
    "no-such-card": "No card of yours is here",
}


def refusal_sentence(rule: str, kind: str) -> str | None:
    """The sentence for a refused play (rule name, action kind), None for a rule the
    table does not word."""
    return REFUSALS.get((rule, kind)) or REFUSALS.get(rule)


def zones_of(side: SideView, row: str) -> tuple[MonsterView | SpellView | None, ...]:
    """A side's "monster" or "magic" zones."""
    return side.monsters if row == "monster" else side.spells


def action_label(cat: Catalogue, view: PaperView, action: Action) -> str:
    """A short line naming one of the player's own choices the way a player would say it
    (the list of a card's choices is opened on the card, so an attack or a switch names only
    what it does)."""
    label = _LABELS.get(action.kind)
    if label is not None:
        return label(cat, view, view.sides[view.for_side], action)
    if isinstance(action, NextPhase) and view.phase == "draw":
        return "Skip the draw"
    return {NextPhase: "Next phase", EndTurn: "End turn", Draw: "Draw a card",
            Pass: "No answer"}.get(type(action), action.kind)


def _summon_label(cat: Catalogue, view: PaperView, me: SideView, action: Summon) -> str:
    card = cat.name(me.hand[action.hand])
    return f"Summon {card}" if action.position == ATTACK else f"Set {card}"


def _set_label(cat: Catalogue, view: PaperView, me: SideView, action: Set) -> str:
    return f"Set {cat.name(me.hand[action.hand])} face-down"


def _activate_label(cat: Catalogue, view: PaperView, me: SideView,
                    action: Activate | ActivateSet) -> str:
    card = me.hand[action.hand] if isinstance(action, Activate) else me.spells[action.zone].card
    return f"{cat.name(card)} {_targets_label(cat, view, card, action.targets)}".rstrip()


def _position_label(cat: Catalogue, view: PaperView, me: SideView,
                    action: ChangePosition) -> str:
    m = me.monsters[action.zone]  # the list is opened on the monster itself
    return f"Switch to {'defence' if m.attack else 'attack'}" + \
        ("" if m.face_up else " (turn it up)")


def _attack_label(cat: Catalogue, view: PaperView, me: SideView, action: Attack) -> str:
    if action.target == DIRECT:
        return "Attack directly"
    foe = view.sides[1 - view.active].monsters[action.target]
    return f"Attack {cat.name(foe.card) if foe.visible else 'a set monster'}"


# The label of each card action, by its kind (the turn's own actions are words alone).
_LABELS = {Summon.kind: _summon_label, Set.kind: _set_label, Activate.kind: _activate_label,
           ActivateSet.kind: _activate_label, ChangePosition.kind: _position_label,
           Attack.kind: _attack_label}


def attack_line(cat: Catalogue, view: PaperView, action: Attack) -> str:
    """An attack as both players see it: the attacker is face-up; a face-down target is
    "a set monster"."""
    mine = cat.name(view.sides[view.active].monsters[action.zone].card)
    if action.target == DIRECT:
        return f"{mine} attacks directly"
    foe = view.sides[1 - view.active].monsters[action.target]
    return f"{mine} attacks {cat.name(foe.card) if foe.visible else 'a set monster'}"


def _targets_label(cat: Catalogue, view: PaperView, card: int, targets: tuple[int, ...]) -> str:
    effect = cat[card].effect
    if effect in ("equip", "destroy_face_up_trap"):
        side = view.sides[targets[0]]
        row = side.monsters if effect == "equip" else side.spells
        return f"-> {cat.name(row[targets[1]].card)}"
    if effect == "polymerization":
        monsters = view.sides[view.active].monsters
        return f"{cat.name(monsters[targets[0]].card)} + {cat.name(monsters[targets[1]].card)}"
    if effect == "trap_destroy_two_and_one":
        return f"zones {targets[0] + 1},{targets[1] + 1} vs {targets[2] + 1}"
    return ""


def before_line(cat: Catalogue, view: PaperView, action: Action, who: str) -> str | None:
    """The line an action gets before its events' lines, from the board before it: an
    attack, or a face-up monster's change of position (a face-down one's flip names it in
    its own event line). Only what both players see is named."""
    if isinstance(action, Attack):
        return attack_line(cat, view, action)
    if isinstance(action, ChangePosition):
        m = view.sides[view.active].monsters[action.zone]
        if m.face_up:
            to = "defence" if m.attack else "attack"
            return f"{who} puts {cat.name(m.card)} in {to} position"
    return None


def describe(cat: Catalogue, event: Event, players: tuple[str, str]) -> str | None:
    """A line for the log, or None for events not worth one. A face-down card is never
    named: in the original the opponent sees only that a card went to a zone."""
    name = cat.name
    who = players[getattr(event, "side", 0)]
    lines = {
        EventKind.PLACED: lambda e: (f"{who} summons {name(e.card)}" if e.row == "monster"
                                     else None) if e.face_up else
        f"{who} sets a monster" if e.row == "monster" else f"{who} sets a card",
        EventKind.MAGIC: lambda e: f"{who} plays {name(e.card)}",
        EventKind.TRAP: lambda e: f"{who} springs {name(e.card)}",
        EventKind.FLIP: lambda e: f"{name(e.card)} is turned face-up",
        "response": lambda e: f"{who} may answer",
        EventKind.DESTROYED: lambda e: f"{name(e.card)} destroyed",
        EventKind.LIFE: lambda e: f"{who} LP {e.delta:+d} -> {e.lp}",
        EventKind.FUSION: lambda e: f"{who} fuses {name(e.card)}",
        EventKind.ENDED: lambda e: "Duel over",
    }
    text = lines.get(event.kind)
    return text(event) if text else None


@dataclass
class Shown:
    """A computer's action being shown: its events (for the motion), how many log entries
    are its lines, the card the panel shows, the LP each side had before, the frames it
    stays and the frames left."""

    events: list[Event]
    lines: int
    card: int | None
    lp_before: tuple[int, int]
    frames: int
    left: int

    @property
    def t(self) -> float:
        """How far the motion has gone, 0 to 1."""
        return 1 - self.left / self.frames


class DuelScreen(Screen):
    """A duel; sides in ``humans`` are played from their pads, the rest by the computer."""

    def __init__(self, game, duel: PaperDuel, humans: set[int], match=None) -> None:
        self.game, self.duel, self.humans, self.match = game, duel, humans, match
        self.log: list[str] = ["Duel start"]
        self.noted = 0  # entries ever logged (the shown action's are the newest)
        self.wait = 0
        self.row, self.col = "hand", 0
        self.choices: list[Action] = []  # the open list of actions (empty: none open)
        self.choice = self.top = 0
        self.shown: Shown | None = None  # the computer's action on show
        self.banner: tuple[str, int] | None = None  # (text, frames left)
        self.seen: tuple = ()
        self.handed: int | None = None  # two players: whose eyes the hand is shown to
        self.forfeited: int | None = None  # the side that gave up (pause menu)
        self._check_banner(None)

    # --- the loop ---------------------------------------------------------------------------
    @property
    def viewer(self) -> int:
        """The side shown at the bottom: the acting human, else the (first) human."""
        acting = self.duel.acting_side
        return acting if acting in self.humans else min(self.humans)

    @property
    def view(self) -> PaperView:
        """The table now as the viewer may know it (read afresh: the duel is the truth)."""
        return board_view(self.duel, self.viewer)

    @property
    def cat(self) -> Catalogue:
        """The rule system's cards (names, kinds, effects)."""
        return self.game.system.catalogue

    @property
    def rows(self) -> tuple[str, ...]:
        spells = self.view.spell_zones
        return tuple(r for r in ROW_Y if spells or not r.endswith("spells"))

    def update(self, app: App) -> Screen | None:
        duel = self.duel
        skip = any(p.pressed("confirm") for p in app.pads)
        if self.banner is not None:
            text, left = self.banner
            self.banner = None if left <= 1 or skip else (text, left - 1)
            return self
        if self.shown is not None:
            self.shown.left = 0 if skip else self.shown.left - 1
            if self.shown.left <= 0:
                self.shown = None
                self._check_banner(app)
            return self
        if duel.over:
            self.wait += 1
            if self.wait > 30 or app.pads[min(self.humans)].pressed("confirm"):
                return self._result()
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

    def _result(self) -> Screen:
        from emucore.frontend.systems.ocg1999 import ResultScreen
        return ResultScreen(self.game, self.duel, self.humans, self.match, self.forfeited)

    def forfeit(self, app: App) -> Screen:
        """Give up (from the pause menu): the human at the pad (the acting one, else the
        first) loses; the result screen follows and counts it as a loss (a duel already
        decided keeps its result)."""
        if not self.duel.over:
            self.forfeited = self.viewer
            app.sound.play("lose")
        return self._result()

    @property
    def handing_over(self) -> bool:
        """Two players: the other player must take the pad (their turn, or an answer to a
        response window) before their hand shows."""
        return (len(self.humans) == 2 and not self.duel.over
                and self.handed != self.duel.acting_side)

    def _computer(self, app: App) -> None:
        """The computer's next action, played at once and then shown: a card action (or an
        answer) with its motion and lines for ``action_frames``, a move to the next phase
        through the phase banner alone."""
        duel = self.duel
        action = ai.choose(duel)
        before = self.view
        lp_before = (before.sides[0].lp, before.sides[1].lp)
        count = self.noted
        events = self._act(app, action, banner=False)
        if events is None:
            return
        card = self._public_card(action, before, events)
        if not isinstance(action, CARD_ACTIONS):
            self._check_banner(app)
            return
        frames = app.paced(app.machine.action_frames)
        self.shown = Shown(events, self.noted - count, card, lp_before, frames, frames)

    @staticmethod
    def _public_card(action: Action, before: PaperView, events: list[Event]) -> int | None:
        """The card a computer's action shows in the panel once it is played: the monster
        it attacks with or turns (when face-up before), else the card it turns face-up (one
        placed face-up, activated or flipped); None when it stays face-down."""
        if isinstance(action, Attack | ChangePosition):
            m = before.sides[before.active].monsters[action.zone]
            if m is not None and m.visible and m.face_up:
                return m.card
        for e in events:
            if e.kind in (EventKind.MAGIC, EventKind.TRAP, EventKind.FLIP) or (
                    e.kind == EventKind.PLACED and e.face_up):
                return e.card
        return None

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
            self._open(app, self._card_actions(), self._why_not())
        elif pad.pressed("start"):
            self._open(app, [a for part in offered(self.duel) if part[1] in TURN_KINDS
                             for a in completions(self.duel, (part,))],
                       "The turn goes on only through your cards now.")

    def _open(self, app: App, actions: list[Action], none: str) -> None:
        if not actions:
            app.sound.play("error")
            app.notify(none)
            return
        app.sound.play("confirm")
        self.choices, self.choice, self.top = actions, 0, 0

    def _card_actions(self) -> list[Action]:
        """What the rules allow now with the card under the cursor: every legal action the
        engine offers that starts with it."""
        field = "hand" if self.row == "hand" else "zone"
        starts = prefixes(self.duel, (field, self.col), CARD_KINDS.get(self.row, ()))
        return [action for prefix in starts for action in completions(self.duel, prefix)]

    def _why_not(self) -> str:
        """Why the card under the cursor has no play now: the engine's refusal of the play a
        player would try with it, in the words of :data:`REFUSALS`."""
        if self.row.startswith("foe_"):
            return "That is your opponent's card: choose one of yours."
        prefix = self._first_try()
        if prefix is not None:
            try:
                self.duel.options(prefix)
            except IllegalAction as refused:
                sentence = refusal_sentence(refused.rule, prefix[0][1])
                return f"{sentence}." if sentence else _engine_sentence(refused)
        return "This card has no play now."

    def _first_try(self) -> tuple[Part, ...] | None:
        """The start of the play a player would try first with the card under the cursor
        (the engine fills in the rest and names the rule that refuses it)."""
        if self.row == "hand":
            hand = self._hand()
            if self.col >= len(hand):
                return None
            kind = FIRST_TRY.get(self.cat[hand[self.col]].kind, "set")
            return ("kind", kind), ("hand", self.col)
        kind = "attack" if self.row == "monsters" else "activate_set"
        return ("kind", kind), ("zone", self.col)

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

    def _act(self, app: App, action: Action, banner: bool = True) -> list[Event] | None:
        """Play ``action`` and log its lines; None when the rules refused it."""
        players = tuple(self._label(side) for side in (0, 1))
        first = before_line(self.cat, self.view, action, players[self.duel.acting_side])
        events = try_step(app, self.duel, action)
        if events is None:
            return None
        app.sound.play("battle" if isinstance(action, Attack) else "confirm")
        if first:
            self._note(first)
        for event in events:
            line = describe(self.cat, event, players)
            if line:
                self._note(line)
        self.col = min(self.col, max(0, len(self._hand()) - 1)) if self.row == "hand" else \
            self.col
        if banner:
            self._check_banner(app)
        return events

    def _note(self, line: str) -> None:
        self.log = (self.log + [line])[-LOG_KEEP:]
        self.noted += 1

    def _check_banner(self, app: App | None) -> None:
        """A banner when the turn or the phase has changed since the last look."""
        duel, view = self.duel, self.view
        now = (view.turn, duel.acting_side, view.phase)
        if now == self.seen or duel.over:
            return
        if self.seen[:2] != now[:2]:
            text = f"TURN {now[0]}: {self._label(now[1])}"
        else:
            text = PHASE_NAMES.get(now[2], now[2].upper())
        frames = app.paced(BANNER_FRAMES) if app else BANNER_FRAMES
        self.seen, self.banner = now, (text, frames)

    def _label(self, side: int) -> str:
        return f"P{side + 1}" if side in self.humans else "CPU"

    def _hand(self) -> list[int]:
        return list(self.view.sides[self.viewer].hand)

    # --- drawing ----------------------------------------------------------------------------
    def _xy(self, row: str, col: int) -> tuple[int, int]:
        if row == "hand":
            n = len(self._hand())
            step = ZONE_STEP if n <= 5 else (FIELD_W - ZONE_X - SMALL[0]) // (n - 1)
            return ZONE_X + col * step, ROW_Y["hand"]
        return ZONE_X + col * ZONE_STEP, ROW_Y[row]

    def _row_of(self, side: int, row: str) -> str:
        """The screen row of ``side``'s "monster" or "magic" zones."""
        name = "monsters" if row == "monster" else "spells"
        return name if side == self.viewer else f"foe_{name}"

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
        if self.shown is not None:
            self._draw_motion(app, fb, self.shown)
        self._panel(app, fb)
        if self.choices:
            self._draw_choices(app, fb)
        if self.banner is not None:
            self._draw_banner(app, fb, self.banner[0])
        elif self.handing_over:
            self._draw_banner(app, fb, self._hand_over_prompt(app))

    def _hand_over_prompt(self, app: App) -> str:
        """Whose pad takes the turn, with that player's own key for Cross."""
        side = self.duel.acting_side
        keys = dict(keyboard_table(app.machine.name, str(side + 1), app.bindings.raw))
        key = keys.get("cross", [""])[0]
        return f"PLAYER {side + 1}: PRESS CROSS" + (f" ({key.upper()})" if key else "")

    def _bar(self, app: App, fb: Framebuffer, side: int, y: int) -> None:
        s = self.view.sides[side]
        fb.text(ZONE_X, y, self._label(side), app.colour("text"))
        fb.text(ZONE_X + 4 * CELL_W, y, f"LP {self._shown_lp(side, s.lp):>5}",
                app.colour("highlight"))
        fb.text_right(FIELD_W - 2, y, f"DK{s.deck:2d} GY{s.grave:2d}",
                      app.colour("text_dim"))
        if self.duel.acting_side == side and not self.duel.over:
            fb.text(0, y, "\u25b6", app.colour("cursor"))

    def _shown_lp(self, side: int, lp: int) -> int:
        """LP as counted while an action is shown: from the old value to the new one over the
        first half of the wait."""
        if self.shown is None:
            return lp
        before = self.shown.lp_before[side]
        return round(before + (lp - before) * min(1.0, self.shown.t * 2))

    def _moving(self, side: int, row: str, zone: int) -> bool:
        """Whether the card in this zone is drawn by the motion, not in its zone: a card
        just placed still on its way, or an attacker lunging."""
        if self.shown is None:
            return False
        return any((e.kind == EventKind.PLACED and self.shown.t < SLIDE
                    and (e.side, e.row, e.zone) == (side, row, zone)) or
                   (e.kind == EventKind.ATTACK and row == "monster"
                    and (e.side, e.zone) == (side, zone)) for e in self.shown.events)

    def _draw_row(self, app: App, fb: Framebuffer, row: str) -> None:
        side = 1 - self.viewer if row.startswith("foe_") else self.viewer
        kind = "monster" if row.endswith("monsters") else "magic"
        cards = zones_of(self.view.sides[side], kind)
        for col in range(ZONES):
            x, y = self._xy(row, col)
            selected = self._selected(row, col)
            occupant = cards[col]
            if occupant is None or self._moving(side, kind, col):
                draw_empty(app, fb, x, y, SMALL, selected)
                continue
            self._draw_occupant(app, fb, x, y, occupant, kind, selected)

    def _draw_occupant(self, app: App, fb: Framebuffer, x: int, y: int, occupant, kind: str,
                       selected: bool = False) -> None:
        sideways = kind == "monster" and not occupant.attack
        if sideways:
            x, y = x - SIDEWAYS_SHIFT, y + SIDEWAYS_SHIFT
        if occupant.face_up:
            draw_card(app, fb, x, y, self._face(occupant.card), SMALL, selected, sideways)
        else:
            draw_back(app, fb, x, y, SMALL, selected, sideways)
        if getattr(occupant, "spent", False):
            fb.remap(x, y, *SMALL, dim_lut(app.machine))

    def _draw_lunge(self, app: App, fb: Framebuffer, e: Event, t: float) -> None:
        """An attacker pushed towards its target and back over the first half of the wait,
        drawn over the rows."""
        occupant = self.view.sides[e.side].monsters[e.zone]
        if occupant is None:  # it fell in the battle
            return
        x, y = self._xy(self._row_of(e.side, "monster"), e.zone)
        towards = -1 if e.side == self.viewer else 1
        y += round(towards * LUNGE * math.sin(math.pi * min(1.0, t * 2)))
        self._draw_occupant(app, fb, x, y, occupant, "monster")

    def _draw_motion(self, app: App, fb: Framebuffer, shown: Shown) -> None:
        """The moving parts of a shown action: a placed card sliding from its owner's hand
        to its zone, an attacker's lunge, and a flashing frame on every zone an event
        touched (a flip, a card taking effect, an attack's target) and on LP that change."""
        t = shown.t
        flash = int(t * 12) % 2 == 0 and t < 0.75
        for e in shown.events:
            if e.kind == EventKind.PLACED and t < SLIDE:
                self._draw_slide(app, fb, e, t / SLIDE)
            elif e.kind == EventKind.ATTACK:
                self._draw_lunge(app, fb, e, t)
            for side, row, zone in _touched(e):
                if flash:
                    x, y = self._xy(self._row_of(side, row), zone)
                    fb.frame(x - 2, y - 2, SMALL[0] + 4, SMALL[1] + 4, app.colour("cursor"))
            if flash and e.kind == EventKind.LIFE:
                y = 2 if e.side != self.viewer else BAR_Y
                fb.frame(ZONE_X + 4 * CELL_W - 2, y - 2, text_width("LP 00000") + 4,
                         CELL_H + 2, app.colour("cursor"))

    def _draw_slide(self, app: App, fb: Framebuffer, e: Event, t: float) -> None:
        occupant = zones_of(self.view.sides[e.side], e.row)[e.zone]
        if occupant is None:
            return
        x1, y1 = self._xy(self._row_of(e.side, e.row), e.zone)
        y0 = ROW_Y["hand"] if e.side == self.viewer else -SMALL[1]
        self._draw_occupant(app, fb, x1, round(y0 + (y1 - y0) * t), occupant, e.row)

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
                and col == self.col and self.shown is None and not self.handing_over)

    def _face(self, card: int):
        return paper_face(self.cat, card)

    def _focus(self) -> int | None:
        """The card the panel shows: the one a shown computer action turned up or attacked
        with, else the one under the cursor if the player may see it."""
        if self.shown is not None:
            return self.shown.card
        if self.duel.acting_side not in self.humans or self.handing_over:
            return None
        if self.row == "hand":
            hand = self._hand()
            return hand[self.col] if self.col < len(hand) else None
        side = 1 - self.viewer if self.row.startswith("foe_") else self.viewer
        kind = "monster" if self.row.endswith("monsters") else "magic"
        occupant = zones_of(self.view.sides[side], kind)[self.col]
        if occupant is None or not occupant.visible:
            return None
        return occupant.card

    def _panel(self, app: App, fb: Framebuffer) -> None:
        x = PANEL_X
        focus = self._focus()
        if focus is not None:
            draw_card(app, fb, x, 4, self._face(focus), LARGE)
        else:
            draw_back(app, fb, x, 4, LARGE)
        view = self.view
        field = view.field
        phase = PHASE_NAMES.get(view.phase, view.phase.upper()).title()
        fb.text(x, 124, f"T{view.turn} {phase}", app.colour("text_dim"))
        width = fb.width - x - 2
        lit = self.shown.lines if self.shown is not None else 0
        for i, (line, new) in enumerate(self._log_rows(width, lit)):
            fb.text(x, 136 + i * CELL_H, line, app.colour("highlight" if new else "text"))
        if field:
            draw_fitted(fb, x, 136 + LOG_LINES * CELL_H,
                        f"Field: {self.cat.name(field)}", width, app.colour("text_dim"))
        for i, line in enumerate(self._prompt()):
            draw_fitted(fb, x, 196 + i * CELL_H, line, width,
                        app.colour("highlight" if i == 0 else "text_dim"))

    def _log_rows(self, width: int, lit: int) -> list[tuple[str, bool]]:
        """The newest log entries that fit the log's rows whole, wrapped at spaces (a word
        is never cut), as (row, part of the shown action's lines)."""
        rows: list[tuple[str, bool]] = []
        for age, entry in enumerate(reversed(self.log)):
            wrapped = fit(entry, width, LOG_LINES)
            if len(rows) + len(wrapped) > LOG_LINES:
                break
            rows = [(line, age < lit) for line in wrapped] + rows
        return rows

    def _prompt(self) -> list[str]:
        if self.duel.over:
            return ["Duel over", "Cross: result"]
        if self.shown is not None:
            return ["Computer's turn", "Cross: go on"]
        if self.handing_over:
            return [f"Player {self.duel.acting_side + 1} to play", "Pass them the pad"]
        if self.duel.acting_side not in self.humans:
            return ["Computer's turn"]
        if self.choices:
            return ["Choose", "Cross:ok Circle:back"]
        return ["Cross: use card", "Start: phase, end turn"]

    def _draw_choices(self, app: App, fb: Framebuffer) -> None:
        rows, view = min(MENU_ROWS, len(self.choices)), self.view
        width = FIELD_W - 8
        x, y = 4, ROW_Y["foe_monsters"] + 6
        fb.box(x, y, width, rows * CELL_H + 6, app.colour("panel"), app.colour("highlight"))
        for r in range(rows):
            i = self.top + r
            ty = y + 4 + r * CELL_H
            if i == self.choice:
                fb.fill(x + 2, ty - 1, width - 4, CELL_H, app.colour("panel_light"))
                fb.text(x + 3, ty, "\u25b6", app.colour("cursor"))
            draw_fitted(fb, x + 3 + CELL_W + 2, ty, action_label(self.cat, view, self.choices[i]),
                        width - CELL_W - 8, app.colour("text"))

    def _draw_banner(self, app: App, fb: Framebuffer, text: str) -> None:
        text = fit(text, FIELD_W - 4)[0]  # a rebound key's long name stays on the field
        y = (ROW_Y["foe_monsters"] + ROW_Y["monsters"]) // 2 + SMALL[1] // 2 - CELL_H
        fb.fill(0, y, FIELD_W, 2 * CELL_H, app.colour("black"))
        fb.fill(0, y + 1, FIELD_W, 1, app.colour("highlight"))
        fb.fill(0, y + 2 * CELL_H - 2, FIELD_W, 1, app.colour("highlight"))
        fb.text((FIELD_W - text_width(text)) // 2, y + CELL_H // 2, text,
                app.colour("highlight"))


def _touched(e: Event) -> list[tuple[int, str, int]]:
    """The (side, "monster"/"magic", zone) places an event acts on, for the motion's flash."""
    kind = e.kind
    if kind == EventKind.ATTACK:
        return [] if e.target == DIRECT else [(1 - e.side, "monster", e.target)]
    if kind in (EventKind.FLIP, EventKind.POSITION):
        return [(e.side, "monster", e.zone)]
    if kind in (EventKind.MAGIC, EventKind.TRAP):
        return [(e.side, "magic", e.zone)]
    return []


def _engine_sentence(refused) -> str:
    """A refusal the table does not word: the engine's own sentence."""
    from emucore.frontend.widgets import refusal
    return refusal(refused)
