"""The duel screen: both LP, terrain, the 5+5 zones of each side, the hand of 5.

Everything happens through the Duel protocol: the pad builds one action part by part from
what the engine offers next (``duel.options(prefix)``, emucore/fm/prompts.py: raise cards
with Up, numbered in combination order; face-up/face-down; the zone; the guardian star of
the card the play leaves, ``duel.preview``; an attacker and its target; position changes;
activations; Start ends the turn), ``duel.step(action)`` applies it at once, and the events
it returns play as short messages and sounds afterwards - the animations never hold the
engine. The board is drawn from the frozen view (emucore/fm/view.py). The computer side
acts through ``emucore.fm.ai.choose_action`` once the messages of its previous action have
played.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from emucore.duel.protocol import IllegalAction
from emucore.fm.actions import (
    AUTO,
    Activate,
    Attack,
    ChangePosition,
    EndTurn,
    FmAction,
    Play,
)
from emucore.fm.engine import FmDuel
from emucore.fm.view import BoardView, apply, board_view, with_hands
from emucore.frontend.app import NOTICE_FRAMES, App, Screen
from emucore.frontend.systems.fm import animation as anim
from emucore.frontend.systems.fm import events as ev
from emucore.frontend.systems.fm.common import (
    FmScreen,
    card_face,
)
from emucore.frontend.systems.fm.duel_board import LOG_LINES, BoardPainter
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.widgets import refusal

AI_DELAY = 20  # frames between two computer actions (after the messages have played)
FIELD_ROWS = ("opp_magic", "opp_monster", "monster", "magic")  # field-mode cursor rows

# What the player reads for each refusal name of the engine (emucore/fm/engine.py); names
# missing here read as the engine's own sentence.
REFUSALS = {
    "used": "This monster has already acted this turn.",
    "first-turn": "No monster attacks on the first turn.",
    "defence": "A monster in defence does not attack.",
    "swords": "Swords of Revealing Light stops your attacks.",
    "direct-attack": "A direct attack needs the foe's monster row empty.",
    "empty-zone": "There is no card in this zone.",
    "zone-full": "The row is full: play onto one of its cards.",
    "equip-needs-monster": "An equip goes onto one of your monsters.",
    "equip-target": "An equip goes onto one of your monsters.",
    "trap": "Traps spring by themselves.",
    "phase": "The hand phase allows exactly one play.",
}
LOOK_ONLY = "The foe's cards can only be looked at."  # not an engine rule: a screen fact
# the first part of each kind of action (emucore.fm.prompts)
PLAY, ATTACK, ACTIVATE, POSITION, END_TURN = (
    ("kind", kind.kind) for kind in (Play, Attack, Activate, ChangePosition, EndTurn))


@dataclass
class Ui:
    """Where the player is in building an action."""

    mode: str = "hand"  # hand, face, zone, star, field, target, equip_target
    cursor: int = 0  # hand position / column
    row: str = "monster"  # field mode row
    raised: list[int] = field(default_factory=list)
    face_down: bool = False
    zone_row: str = "monster"
    star: int = 0
    attacker: int = 0
    equip_zone: int = 0
    zones: list[int] = field(default_factory=list)  # the columns the engine offers the play
    targets: list[int] = field(default_factory=list)  # an attacker's or an equip's targets
    stars: list[int] = field(default_factory=list)  # the guardian stars offered
    prefix: tuple = ()  # the play whose star is asked
    card: int = 0  # the card the play leaves (the engine's preview): whose star it is


class DuelScreen(BoardPainter, FmScreen):
    music = "duel"

    def __init__(self, game: FmGame, duel: FmDuel, back: Screen | None, duelist: int,
                 campaign: bool = False, hands_shown: bool = False) -> None:
        super().__init__(game, back)
        self.duel, self.duelist, self.campaign = duel, duelist, campaign
        # two players who chose "Hands shown" at the set-up: no hand-over, both hands open
        self.hands_shown = hands_shown
        self.humans = {0, 1} - duel.computer_sides  # the duel names the computer's sides
        self.view: BoardView = board_view(duel)  # the engine's board now
        self.shown: BoardView = self.view  # the board as drawn: behind while messages play
        self.ui = Ui()
        self.queue: deque = deque()  # the events whose messages have not played yet
        self.log: list[str] = []
        self.timer = 0
        self.ai_wait = AI_DELAY
        self.playing: anim.Playing | None = None  # the animation of the event playing
        self.end = None
        self.current: ev.Message | None = None  # the message being shown
        self.handed: int | None = None  # two players: whose eyes the hands are shown to
        self.handed_pad = 0  # two players: the pad that took the turn at the hand-over
        self.refused: tuple[str, int] | None = None  # the last refusal and its last frame
        self._show(duel.opening_events)

    # --- the loop -------------------------------------------------------------------------
    def update(self, app: App) -> Screen | None:
        if self._play_messages(app):
            return self
        if self.view.over:
            from emucore.frontend.systems.fm.result import ResultScreen
            return ResultScreen(self.game, self.end, self.duelist, self.campaign, self.back,
                                self.view.rng_state, self.view.sides[0].counters)
        side = self.view.acting_side
        if side not in self.humans:
            self._computer_turn(app)
            return self
        if self.handing_over:
            self._take_turn(app, side)
            return self
        # two players: the pad that took the turn, or with hands shown each player's own
        number = (side if self.hands_shown else self.handed_pad) if len(self.humans) == 2 else 0
        pad = app.pads[number]
        if pad.pressed("select"):
            app.toggles["rank_meter"] = not app.toggles.get("rank_meter", False)
        MODES[self.ui.mode](self, app, pad)
        return self

    def _take_turn(self, app: App, side: int) -> None:
        """Two players: Cross on either pad takes the turn for ``side`` (the pad may have been
        passed, or each player may hold their own); that pad plays the turn."""
        for number, pad in enumerate(app.pads):
            if pad.pressed("confirm"):
                self.handed, self.handed_pad = side, number
                app.sound.play("confirm")
                return

    def _play_messages(self, app: App) -> bool:
        """Advance the event queue; True while an event's message or animation plays. The
        shown board follows each event as it starts, and is the engine's again once they
        have all played. Cross (or Start) skips what is queued."""
        if any(p.pressed("confirm") or p.pressed("start") for p in app.pads) and \
                (self.queue or self.timer):
            while self.queue:
                self._pop(app)
            self.timer, self.current, self.playing = 0, None, None
            self.shown = self.view
            return True
        if self.timer > 0:
            self.timer -= 1
            if self.playing is not None and self.playing.left > 0:
                self.playing.left -= 1
            return True
        while self.queue:
            if self._pop(app):
                return True
        self.current, self.playing, self.shown = None, None, self.view
        return False

    def _pop(self, app: App) -> bool:
        """Start the next event: its message (if it has one), its animation (if it plays
        one) and its change to the shown board. True when something plays."""
        event = self.queue.popleft()
        fast = app.fast
        message = ev.describe(self.game, event, self.humans, self.shown)
        self.playing = anim.start(self, event, fast, self._pieces())
        self.shown = apply(self.shown, event)
        frames = self.playing.frames if self.playing else 0
        self.current = message
        if message is not None:
            self.log = (self.log + [message.text])[-LOG_LINES * 2:]
            if message.sound:
                app.sound.play(message.sound)
            frames = max(frames, app.paced(anim.FRAMES["message"]))
        self.timer = frames
        return frames > 0

    def _pieces(self) -> tuple[str, ...]:
        """The names of the engine's ``animation`` events that follow the event just taken
        from the queue, up to the next event of another kind than its consequences (life,
        destroyed, flip)."""
        names = []
        for event in self.queue:
            if event.kind == "animation":
                names.append(event.name)
            elif event.kind not in ("life", "destroyed", "flip"):
                break
        return tuple(names)

    def _show(self, events: list) -> None:
        for event in events:
            if event.kind == "ended":
                self.end = event
            self.queue.append(event)

    def _step(self, app: App, action: FmAction, cursor: int | None = None,
              row: str | None = None) -> bool:
        """Step the duel; a refusal shows in the panel and changes nothing. In the field
        phase the cursor then stands on ``cursor`` in ``row`` (default: where it is)."""
        try:
            events = self.duel.step(action)
        except IllegalAction as exc:
            self.refuse(app, exc)
            return False
        self._show(events)
        self.view = board_view(self.duel)
        self.shown = with_hands(self.shown, self.view)
        in_hand = not self.duel.over and PLAY in self.duel.options()
        self.ui = Ui(mode="hand" if in_hand else "field",
                     cursor=0 if in_hand else self.ui.cursor if cursor is None else cursor,
                     row="monster" if in_hand else row or self.ui.row)
        self.ai_wait = AI_DELAY
        self.refused = None
        return True

    def refuse(self, app: App, reason: IllegalAction | str) -> None:
        """Say why an action cannot be done, in the panel beside the hand (a notice at the
        bottom would cover the hand's numbers): the engine's refusal in the words of
        :data:`REFUSALS`, or a sentence of this screen. Kept in ``app.notices`` too."""
        if isinstance(reason, IllegalAction):
            reason = REFUSALS.get(reason.rule) or refusal(reason)
        app.sound.play("error")
        app.notices.append(reason)
        self.refused = (reason, app.frame + NOTICE_FRAMES)

    def _computer_turn(self, app: App) -> None:
        self.ai_wait -= 1
        if self.ai_wait > 0:
            return
        from emucore.fm.ai import choose_action
        if not self._step(app, choose_action(self.duel)):
            # frontend.choices F1: a refused computer choice gives way to the first legal one
            self._step(app, self.duel.legal_actions()[0])

    def forfeit(self, app: App) -> Screen:
        """Give up (from the pause menu): the side at the pad loses, recorded and saved as
        a loss, without a score or a card; back to where the duel was chosen."""
        loser = self.me
        self.game.duel_finished(self.duelist, 1 - loser, self.view.rng_state, 0, 0,
                                self.campaign)
        self.game.save()
        app.sound.play("lose")
        report = self.game.save_file.report()
        app.notify(f"{self.side_name(loser)} forfeited: a loss" + (f". {report}" if report
                                                                   else ""))
        return self.back

    # --- player modes ---------------------------------------------------------------------
    @property
    def me(self) -> int:
        """The side drawn at the bottom: the acting human in two-player duels (as shown:
        the turn passes with the "Turn" message), else 0."""
        side = self.shown.acting_side
        return side if len(self.humans) == 2 and side in self.humans else 0

    @property
    def handing_over(self) -> bool:
        """Two players: the turn has passed but the next player has not taken the pad yet
        (the hand-over screen shows; nobody's hand is visible)."""
        return (len(self.humans) == 2 and not self.hands_shown and not self.view.over
                and not self.queue and not self.timer and self.handed != self.view.acting_side)

    def hand_visible(self, side: int) -> bool:
        if len(self.humans) == 2:
            return self.hands_shown or side == self.handed
        return side in self.humans

    def _hand_cols(self) -> list[int]:
        return [j for j, c in enumerate(self.view.sides[self.me].hand) if c is not None]

    def _move(self, pad, cols: list[int]) -> None:
        if not cols:
            return
        if self.ui.cursor not in cols:
            self.ui.cursor = cols[0]
        i = cols.index(self.ui.cursor)
        if pad.repeat("left"):
            self.ui.cursor = cols[(i - 1) % len(cols)]
        elif pad.repeat("right"):
            self.ui.cursor = cols[(i + 1) % len(cols)]

    # Each mode asks the engine what may come next (duel.options) and takes the player's
    # choice among the offered parts; a part offered alone is taken without asking.
    def _play_prefix(self, *more) -> tuple:
        """The play being built: its kind, the raised cards in raise order, then ``more``."""
        return (PLAY, *(("card", j) for j in self.ui.raised), *more)

    def _offered(self, app: App, prefix: tuple) -> list | None:
        """The parts the engine offers after ``prefix``; None, its reason shown, when the
        engine refuses the prefix."""
        try:
            return self.duel.options(prefix)
        except IllegalAction as exc:
            self.refuse(app, exc)
            return None

    def _take(self, app: App, prefix: tuple, cursor: int | None = None,
              row: str | None = None) -> None:
        """Complete ``prefix`` with the parts offered alone and step the action it makes."""
        while (offered := self._offered(app, prefix)) is not None and len(offered) == 1:
            prefix = (*prefix, offered[0])
        if offered == []:
            self._step(app, self.duel.action_for(prefix), cursor, row)

    def _mode_hand(self, app: App, pad) -> None:
        ui = self.ui
        self._move(pad, self._hand_cols())
        if pad.pressed("up"):
            if ui.cursor in ui.raised:
                ui.raised.remove(ui.cursor)
            elif ("card", ui.cursor) in (self._offered(app, self._play_prefix()) or ()):
                ui.raised.append(ui.cursor)
            app.sound.play("move")
        elif pad.pressed("cancel") and ui.raised:
            ui.raised.clear()
        elif pad.pressed("confirm"):
            if not ui.raised:
                ui.raised = [ui.cursor]
            app.sound.play("confirm")
            faces = _values(self._offered(app, self._play_prefix()), "face_down")
            # a lone trap is set face down at once, as the pad offers it
            if len(ui.raised) == 1 and True in faces and \
                    self._kind(self._hand_card(ui.raised[0])) == "trap":
                ui.face_down = True
                self._to_zone(app)
            else:
                ui.mode, ui.face_down = "face", False

    def _hand_card(self, position: int) -> int:
        return self.view.sides[self.me].hand[position].card

    def _kind(self, card: int) -> str:
        return card_face(self.game, card).kind

    def _mode_face(self, app: App, pad) -> None:
        ui = self.ui
        if pad.pressed("left") or pad.pressed("right"):
            ui.face_down = not ui.face_down
            app.sound.play("move")
        elif pad.pressed("cancel"):
            ui.mode, ui.raised = "hand", []
        elif pad.pressed("confirm"):
            self._to_zone(app)

    def _to_zone(self, app: App) -> None:
        """After the face: the columns the engine offers in the row it names, or straight
        to the star when the card is activated at once."""
        ui = self.ui
        prefix = self._play_prefix(("face_down", ui.face_down))
        offered = self._offered(app, prefix)  # refused: the engine's reason shows
        if offered is None:
            return
        zones = _values(offered, "zone")
        if not zones:
            ui.zones, ui.zone_row = [], ""
            self._to_star(app, prefix)
            return
        ui.zone_row = self.duel.preview(prefix).row
        ui.mode, ui.zones, ui.cursor = "zone", zones, zones[0]

    def _mode_zone(self, app: App, pad) -> None:
        ui = self.ui
        self._move(pad, ui.zones)
        if pad.pressed("cancel"):
            ui.mode = "face" if ui.zone_row == "monster" or not ui.face_down else "hand"
            if ui.mode == "hand":
                ui.raised = []
        elif pad.pressed("confirm"):
            self._to_star(app, self._play_prefix(("face_down", ui.face_down),
                                                 ("zone", ui.cursor)))

    def _to_star(self, app: App, prefix: tuple) -> None:
        """The guardian stars the engine offers for the card the play leaves (its preview),
        asked when there are two; else the play is made."""
        ui = self.ui
        offered = self._offered(app, prefix)
        if offered is None:
            return
        stars = _values(offered, "star")
        if len(stars) < 2:
            self._take(app, prefix)
            return
        ui.mode, ui.prefix, ui.stars, ui.star = "star", prefix, stars, stars[0]
        ui.card = self.duel.preview(prefix).card

    def _mode_star(self, app: App, pad) -> None:
        ui = self.ui
        if pad.pressed("left") or pad.pressed("right"):
            ui.star = ui.stars[(ui.stars.index(ui.star) + 1) % len(ui.stars)]
            app.sound.play("move")
        elif pad.pressed("cancel"):
            ui.mode = "zone" if ui.zones else "face"
        elif pad.pressed("confirm"):
            self._take(app, (*ui.prefix, ("star", ui.star)))

    def _field_row(self, name: str) -> tuple[int, str]:
        """(side, row) of a field-mode row name (FIELD_ROWS)."""
        if name.startswith("opp_"):
            return 1 - self.me, name[4:]
        return self.me, name

    def _mode_field(self, app: App, pad) -> None:
        ui = self.ui
        i = FIELD_ROWS.index(ui.row)
        if pad.pressed("up") or pad.pressed("down"):
            i = max(0, min(len(FIELD_ROWS) - 1, i + (-1 if pad.pressed("up") else 1)))
            ui.row = FIELD_ROWS[i]
        side, row = self._field_row(ui.row)
        self._move(pad, list(range(len(self.view.sides[side].row(row)))))
        card = self.view.sides[side].row(row)[ui.cursor]
        chosen = ((ATTACK, ("attacker", ui.cursor)) if row == "monster" else
                  (ACTIVATE, ("zone", ui.cursor)))
        if pad.pressed("start"):
            self._take(app, (END_TURN,))
        elif side != self.me:  # the opponent's cards can only be looked at
            if pad.pressed("confirm"):
                self.refuse(app, LOOK_ONLY)
        elif card is None:  # the engine says why nothing happens
            if pad.pressed("confirm"):
                self._offered(app, chosen)
        elif row == "monster" and pad.pressed("triangle"):
            self._take(app, (POSITION, ("zone", ui.cursor)))
        elif pad.pressed("confirm"):
            targets = _values(self._offered(app, chosen), "target")
            if row == "monster" and targets:
                ui.attacker, ui.targets = ui.cursor, targets
                ui.mode, ui.cursor = "target", targets[0]
                app.sound.play("confirm")
            elif targets == [AUTO]:  # a magic card that takes no target
                self._take(app, (*chosen, ("target", AUTO)))
            elif targets:  # an equip: the monsters the engine offers
                ui.equip_zone, ui.targets = ui.cursor, targets
                ui.mode, ui.cursor = "equip_target", targets[0]

    def _mode_target(self, app: App, pad) -> None:
        ui = self.ui
        self._move(pad, ui.targets)
        if pad.pressed("cancel"):
            ui.mode, ui.cursor, ui.row = "field", ui.attacker, "monster"
        elif pad.pressed("confirm"):  # the cursor stays on the attacker's column after
            self._take(app, (ATTACK, ("attacker", ui.attacker), ("target", ui.cursor)),
                       ui.attacker, "monster")

    def _mode_equip_target(self, app: App, pad) -> None:
        ui = self.ui
        self._move(pad, ui.targets)
        if pad.pressed("cancel"):
            ui.mode, ui.cursor, ui.row = "field", ui.equip_zone, "magic"
        elif pad.pressed("confirm"):
            self._take(app, (ACTIVATE, ("zone", ui.equip_zone), ("target", ui.cursor)),
                       ui.cursor, "monster")



MODES: dict[str, Callable[[DuelScreen, App, Any], None]] = {
    "hand": DuelScreen._mode_hand,  # raise hand cards, in combination order
    "face": DuelScreen._mode_face,  # face up or face down
    "zone": DuelScreen._mode_zone,  # the column the play lands on
    "star": DuelScreen._mode_star,  # the guardian star of the card the play leaves
    "field": DuelScreen._mode_field,  # the field phase: a zone and what to do with it
    "target": DuelScreen._mode_target,  # an attacker's target
    "equip_target": DuelScreen._mode_equip_target,  # the monster an equip goes onto
}
"""The cursor modes: each builds the next part of a legal action from ``duel.options``."""


def _values(parts: list | None, name: str) -> list:
    """The values of the offered parts named ``name`` (none when the prefix was refused)."""
    return [value for n, value in parts or () if n == name]


