"""Trade and the two-player set-up: both need a second save, the second memory card of the
original (``SaveData_UpdateLoadPair``), here another emucore FM save file. The rules are
:mod:`emucore.fm.trade`'s; the second save is read and both are written by :class:`FmGame`
(the reading and writing edges), so a bad file is refused in one line and nothing is lost.

The second save is one of the ``*.json`` files in this game's save folder (``fm.choices G7``;
the screen names the folder): the player copies a friend's save there, as one would put a friend's
memory card in slot 2. The two-player duel may also be played with this save's deck on both
sides ("One save for both", ``fm.choices G9``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from emucore.duel.files import UserFileError
from emucore.fm import mainloop
from emucore.fm import trade as TR
from emucore.frontend import paths
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm.common import FmScreen, draw_selection, menu_tick
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.widgets import Menu

TRADE, DUEL = "trade", "duel"
ONE_SAVE = "One save for both"
ROWS = 7  # the original's list shows seven rows a side
PAGE, JUMP = 7, 50  # L1/R1 and L2/R2 (MainMenu_UpdateTradeScreen)
COLUMN_W = 152
COUNT_MARGIN = 4  # the count column's right edge inside the list: clear of the cursor's end


class SecondSave(FmScreen):
    """Choose the second save (slot 2) for a trade or a two-player duel. The original loads
    the pair from the main menu (``SaveData_UpdateLoadPair`` runs inside ``Main_RunMenu``),
    whose frame calls ``rand()`` once, so this screen does too; the Trade and set-up screens
    call none."""

    def __init__(self, game: FmGame, back: Screen, purpose: str = TRADE) -> None:
        super().__init__(game, back)
        self.purpose = purpose
        self.paths = game.trade_partners()
        extra = [ONE_SAVE] if purpose == DUEL else []
        self.menu = Menu(extra + [p.name for p in self.paths], visible=12)
        self.error: str | None = None

    def update(self, app: App) -> Screen | None:
        menu_tick(app, self.game)
        if not self.menu.items:
            if app.pad.pressed("cancel") or app.pad.pressed("confirm"):
                app.sound.play("cancel")
                return self.back
            return self
        choice = self.menu.update(app)
        if choice is None:
            return self
        if choice == -1:
            return self.back
        if self.menu.items[choice] == ONE_SAVE:
            return TwoPlayerSetupScreen(self.game, self.back, self.game.data, None)
        path = self.paths[choice - (self.purpose == DUEL)]
        try:
            data, text = self.game.read_partner(path)
            if self.purpose == DUEL:
                TR.check_duel_pair(self.game.data, data)
        except (UserFileError, ValueError) as exc:
            app.sound.play("error")
            self.error = str(exc)
            return self
        if self.purpose == DUEL:
            return TwoPlayerSetupScreen(self.game, self.back, data, path)
        return TradeScreen(self.game, self.back, path, data, text)

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        title = "TRADE" if self.purpose == TRADE else "TWO PLAYERS"
        fb.text(8, 6, f"{title}: THE SECOND SAVE", app.colour("highlight"), app.colour("black"))
        folder = paths.shown(self.game.save_file.path.parent)
        draw_fitted(fb, 8, 20, f"Saves in {folder}", fb.width - 16, app.colour("text_dim"),
                    lines=2, from_end=True)
        if self.menu.items:
            self.menu.draw(app, fb, 8, 42, fb.width - 16)
        else:
            draw_fitted(fb, 8, 46, "No other save here. Copy a friend's save into this "
                        "folder, then come back.", fb.width - 16, app.colour("text"), lines=3)
        if self.error:
            draw_fitted(fb, 8, fb.height - 3 * CELL_H, self.error, fb.width - 16,
                        app.colour("highlight"), lines=2)


class TradeScreen(FmScreen):
    """Pad 1 works this save's chest (left), pad 2 the second save's (right)."""

    def __init__(self, game: FmGame, back: Screen, path: Path, other: dict[str, Any],
                 text: str) -> None:
        super().__init__(game, back)
        self.path, self.text = path, text
        self.deal = TR.Trade.between(game.data, other)
        self.cursor, self.top = [0, 0], [0, 0]
        self.dialog: int | None = None  # the trade / change / quit choice, once both are ready
        self.error: str | None = None

    def rows(self, side: int) -> list[int]:
        """The cards of a side's chest, in card-id order."""
        return list(TR.chest(self.deal.sides[side].save))

    def update(self, app: App) -> Screen | None:
        self.game.mode_frame(mainloop.TRADE)  # Main_RunTrade: no rand() (emucore.fm.trade)
        if self.dialog is not None:
            return self._update_dialog(app)
        for side in (0, 1):
            leave = self._update_side(app, side)
            if leave:
                return self.back
        if self.deal.both_ready():
            self.dialog = TR.TRADE
        return self

    def _update_side(self, app: App, side: int) -> bool:
        """One pad's input on its list; True when it leaves the screen."""
        pad, deal = app.pads[side], self.deal
        rows = self.rows(side)
        if deal.sides[side].ready:
            if pad.pressed("cancel"):
                app.sound.play("cancel")
                deal.cancel(side)
            return False
        if pad.pressed("square"):
            app.sound.play("confirm" if deal.set_ready(side) else "error")
        elif pad.pressed("cancel"):
            said = deal.cancel(side)
            app.sound.play("error" if said == "refused" else "cancel")
            return said == "leave"
        elif pad.pressed("cross"):
            card = rows[self.cursor[side]] if rows else 0
            app.sound.play("move" if card and deal.sides[side].pick(card) else "error")
        else:
            self._move(pad, side, len(rows))
        return False

    def _move(self, pad, side: int, count: int) -> None:
        """Up/Down a row, L1/R1 a page, L2/R2 fifty rows."""
        steps = {"up": -1, "down": 1, "l1": -PAGE, "r1": PAGE, "l2": -JUMP, "r2": JUMP}
        for button, step in steps.items():
            if pad.repeat(button):
                self.cursor[side] = min(max(self.cursor[side] + step, 0), max(count - 1, 0))
                break
        self.top[side] = min(max(self.top[side], self.cursor[side] - ROWS + 1),
                             self.cursor[side])

    def _update_dialog(self, app: App) -> Screen | None:
        """Both ready: Up/Down on either pad choose, Circle un-readies that pad's side,
        Cross or Square answers."""
        for side, pad in enumerate(app.pads):
            if pad.repeat("up") or pad.repeat("down"):
                self.dialog = (self.dialog + (1 if pad.repeat("down") else 2)) % 3
                app.sound.play("move")
                return self
            if pad.pressed("cancel"):
                app.sound.play("cancel")
                self.deal.cancel(side)
                self.dialog = None
                return self
            if pad.pressed("cross") or pad.pressed("square"):
                return self._answer(app)
        return self

    def _answer(self, app: App) -> Screen | None:
        if self.dialog == TR.QUIT:
            app.sound.play("cancel")
            return self.back
        if self.dialog == TR.CHANGE:
            self.deal.change()
            self.dialog = None
            return self
        self.error = self.game.commit_trade(self.deal, self.path, self.text)
        if self.error:
            app.sound.play("error")
            return self
        app.sound.play("confirm")
        app.notify("Traded: both saves written")
        try:
            other, self.text = self.game.read_partner(self.path)
        except UserFileError as exc:  # gone or changed since it was written: start again
            app.notify(str(exc), stderr=True)
            return self.back
        self.deal = TR.Trade.between(self.game.data, other)
        self.cursor, self.top, self.dialog = [0, 0], [0, 0], None
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(8, 4, "TRADE", app.colour("highlight"), app.colour("black"))
        for side, x in ((0, 6), (1, fb.width - COLUMN_W - 6)):
            self._draw_side(app, fb, side, x)
        y = fb.height - 2 * CELL_H - 2
        if self.dialog is not None:
            self._draw_dialog(app, fb, y)
        elif self.error:
            draw_fitted(fb, 8, y, self.error, fb.width - 16, app.colour("highlight"), lines=2)
        else:
            fb.text(8, y, "Cross: offer   Circle: take back / leave", app.colour("text_dim"))
            fb.text(8, y + CELL_H, "Square: ready   L1/R1: page", app.colour("text_dim"))

    def _draw_dialog(self, app: App, fb: Framebuffer, y: int) -> None:
        """Both ready: the three answers in a row under the lists, the chosen one marked,
        and the reason the last trade failed, if it did."""
        x = fb.text(8, y, "Both ready:", app.colour("highlight"))
        for i, label in enumerate(TR.DIALOG):
            lx = x + CELL_W * 2 + i * 60
            if i == self.dialog:
                draw_selection(app, fb, lx - 2, y, len(label) * CELL_W + 4)
            fb.text(lx, y, label, app.colour("text"))
        if self.error:
            draw_fitted(fb, 8, y + CELL_H, self.error, fb.width - 16, app.colour("highlight"))

    def _draw_side(self, app: App, fb: Framebuffer, side: int, x: int) -> None:
        """One save's column: who, its chest list with the copies left, its offer."""
        me, t = self.deal.sides[side], self.game.tables
        name = "This save" if side == 0 else self.path.name
        state = "READY" if me.ready else f"Offer {len(me.offer)}/{TR.OFFER_LIMIT}"
        draw_fitted(fb, x, 16, f"Pad {side + 1}: {name}", COLUMN_W, app.colour("text"))
        fb.text(x, 16 + CELL_H, state, app.colour("highlight" if me.ready else "text_dim"))
        rows = self.rows(side)
        y0 = 38
        fb.box(x - 2, y0 - 3, COLUMN_W + 4, ROWS * CELL_H + 5, app.colour("panel"),
               app.colour("text_dim"))
        if not rows:
            fb.text(x + 2, y0, "Chest empty", app.colour("text_dim"))
        for row in range(ROWS):
            i = self.top[side] + row
            if i >= len(rows):
                break
            y, card = y0 + row * CELL_H, rows[i]
            if i == self.cursor[side]:
                draw_selection(app, fb, x + 1, y, COLUMN_W - 2)
            left = me.left(card)
            colour = app.colour("text" if left else "text_dim")
            count = f"{left:3d}"
            draw_fitted(fb, x + 3, y, t.names[card], COLUMN_W - 10 - len(count) * CELL_W,
                        colour)
            fb.text_right(x + COLUMN_W - COUNT_MARGIN, y, count, colour)
        oy = y0 + ROWS * CELL_H + 6
        fb.text(x, oy, "Offered", app.colour("text_dim"))
        for i, card in enumerate(me.offer):
            draw_fitted(fb, x + 4, oy + (i + 1) * CELL_H, t.names[card], COLUMN_W - 4,
                        app.colour("text"))


class TwoPlayerSetupScreen(FmScreen):
    """Each player's life points and the shared choice, then Start (Main_RunTwoPlayerDuelSetup).
    ``path`` None: one save plays both sides (the choice named in this module). The life
    points start at 8000 on each visit; the shared choice starts where the last visit left
    it (:attr:`FmGame.view_mode`)."""

    def __init__(self, game: FmGame, back: Screen, other: dict[str, Any],
                 path: Path | None) -> None:
        super().__init__(game, back)
        self.other, self.path = other, path
        self.setup = TR.TwoPlayerSetup(view_mode=game.view_mode)

    def update(self, app: App) -> Screen | None:
        self.game.mode_frame(mainloop.TWO_PLAYER_SETUP)
        setup = self.setup
        busy = [setup.busy(0), setup.busy(1)]
        setup.frame()
        if not any(busy):
            leave = any(p.pressed("cancel") for p in app.pads)
            start = any(p.pressed("start") for p in app.pads)
            if leave or start:
                # MainMenu_FinishValueSetup writes the choice back on either answer
                self.game.view_mode = setup.view_mode
            if leave:
                app.sound.play("cancel")
                return self.back
            if start:
                app.sound.play("confirm")
                from emucore.frontend.systems.fm.duel import DuelScreen
                return DuelScreen(self.game, self.game.start_two_player_duel(self.other, setup),
                                  self.back, 0, hands_shown=setup.hands_shown)
        for side, pad in enumerate(app.pads):
            if busy[side]:
                continue
            if pad.repeat("left") or pad.repeat("right"):
                app.sound.play("move")
                setup.horizontal(side, pad.repeat("right"))
            elif pad.repeat("down") or pad.repeat("up"):
                setup.vertical(side, pad.repeat("down"))
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        setup = self.setup
        fb.text(8, 6, "TWO PLAYERS", app.colour("highlight"), app.colour("black"))
        second = self.path.name if self.path else "this save's deck again"
        draw_fitted(fb, 8, 20, f"Player 2: {second}", fb.width - 16, app.colour("text_dim"))
        for i, label in enumerate(("Hands hidden", "Hands shown")):
            x = 40 + i * 130
            on = setup.position == i
            fb.box(x, 44, 110, CELL_H + 6, app.colour("panel"),
                   app.colour("cursor" if on else "frame_dark"))
            fb.text_centred(x + 55, 48, label, app.colour("highlight" if on else "text"))
        for side in (0, 1):
            y = 80 + side * 40
            colour = app.colour("cursor" if setup.on_bar[side] else "text_dim")
            fb.text(16, y, f"Player {side + 1} LP", app.colour("text"))
            fb.text_right(150, y, str(setup.shown[side]), app.colour("highlight"))
            width = setup.shown[side] * 128 // TR.LP_MAX
            fb.frame(160, y - 1, 132, CELL_H + 2, colour)
            fb.fill(162, y + 1, width, CELL_H - 2, app.colour("good" if side == 0 else "danger"))
        draw_fitted(fb, 8, 180, "Left/Right: life points, or the choice above (Up). "
                    "Start: duel. Circle: back.", fb.width - 16, app.colour("text_dim"),
                    lines=2)
