"""The duel screen's picture: where each zone, hand slot and bar stands, and how the board,
the hand, the bars, the showcase, the panel and its prompt are drawn, all from the screen's
frozen view (emucore/fm/view.py) and what its cursor has chosen so far. The animations draw
with the same geometry (:func:`BoardPainter.zone_xy` and its kin). Nothing here chooses:
the choosing is the duel screen's (emucore/frontend/systems/fm/duel.py).
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import NDArray

from emucore.duel.padlog import ROLES
from emucore.fm.actions import DIRECT
from emucore.fm.engine import CardView, turns_played
from emucore.frontend.app import App
from emucore.frontend.bindings import keyboard_table
from emucore.frontend.cards import LARGE, SMALL, dim_lut, draw_back, draw_card
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm import animation as anim
from emucore.frontend.systems.fm import events as ev
from emucore.frontend.systems.fm.common import TERRAIN_NAMES, card_face, star_name
from emucore.frontend.systems.fm.meter import draw_rank_meter
from emucore.frontend.widgets import wrap

ZONE_X, ZONE_STEP = 6, 35
SIDEWAYS_SHIFT = (SMALL[1] - SMALL[0]) // 2  # a sideways card stays centred on its zone
FIELD_TOP, BAR_Y, LP_X = 11, 184, 96  # the field under the opponent's bar; your bar; LP
FIELD_W = 180  # the field's width (the panel is to its right)
ROW_Y = {"opp_magic": 12, "opp_monster": 54, "monster": 100, "magic": 142, "hand": 194}
PANEL_X = 182
LOG_LINES = 5  # the panel's event log lines
RAISE = 2  # pixels a raised hand card lifts (more would cover the LP line above the hand)
REFUSAL_Y = 213  # the panel's refusal lines: under the prompt, right of the hand's DEF numbers
METER_X, METER_Y = PANEL_X + 92, 80  # the rank meter: right of the big card, under its name


class BoardPainter:
    """The drawing half of :class:`emucore.frontend.systems.fm.duel.DuelScreen`."""

    # --- geometry (the animations draw with it) -----------------------------------------
    def zone_xy(self, side: int, row: str, zone: int) -> tuple[int, int]:
        """Top-left of a zone as drawn (the bottom rows are the side at the pad)."""
        return ZONE_X + zone * ZONE_STEP, ROW_Y[row if side == self.me else f"opp_{row}"]

    def hand_xy(self, position: int) -> tuple[int, int]:
        return ZONE_X + position * ZONE_STEP, ROW_Y["hand"]

    def lp_xy(self, side: int) -> tuple[int, int]:
        """Where a card-sized box around a side's LP figure would stand (numbers rise in
        it)."""
        return LP_X + 16, (FIELD_TOP - 3 if side != self.me else BAR_Y - 28)

    def showcase_xy(self) -> tuple[int, int]:
        """The centre column and top row of the space between the two monster rows."""
        return ZONE_X + (4 * ZONE_STEP + SMALL[0]) // 2, (ROW_Y["opp_monster"] +
                                                          ROW_Y["monster"]) // 2

    field_width = FIELD_W
    sideways_shift = SIDEWAYS_SHIFT

    def winner_line(self, end) -> str:
        return ev.describe(self.game, end, self.humans, self.shown).text

    # --- drawing --------------------------------------------------------------------------
    def draw(self, app: App, fb: Framebuffer) -> None:
        if self.handing_over:
            self._hand_over(app, fb)
            return
        fb.clear(app.colour("bg"))
        me, view = self.me, self.view
        opp = 1 - me
        self._field(app, fb)
        self._bar(app, fb, opp, 2)
        self._row(app, fb, opp, "magic", ROW_Y["opp_magic"])
        self._row(app, fb, opp, "monster", ROW_Y["opp_monster"])
        self._row(app, fb, me, "monster", ROW_Y["monster"])
        self._row(app, fb, me, "magic", ROW_Y["magic"])
        self._bar(app, fb, me, BAR_Y)
        self._hand(app, fb, me)
        self._blink(app, fb)
        if self.playing is not None:
            anim.draw(self, app, fb, self.playing)
        self._panel(app, fb)
        if app.toggles.get("rank_meter"):
            draw_rank_meter(app, fb, self.game, view.sides[me].counters, METER_X, METER_Y)

    def _field(self, app: App, fb: Framebuffer) -> None:
        """The terrain's colour in diagonal lines over the field (none on normal ground);
        while the terrain changes, the new colour wipes down from the top."""
        height = BAR_Y - FIELD_TOP - 1
        cut = anim.terrain_cut(self.playing, height)
        old = self.playing.old_terrain if cut < height and self.playing else self.shown.terrain
        for terrain, top, rows in ((self.shown.terrain, 0, cut), (old, cut, height - cut)):
            if terrain and rows > 0:
                role = f"terrain_{TERRAIN_NAMES[terrain].lower()}"
                fb.mask(0, FIELD_TOP + top, _stripes(FIELD_W, height)[top:top + rows],
                        app.colour(role))

    def _hand_over(self, app: App, fb: Framebuffer) -> None:
        """Between two players' turns: a screen that hides both hands until the player
        whose turn it is presses Cross on their own pad."""
        fb.clear(app.colour("bg"))
        side = self.view.acting_side
        cx, cy = fb.width // 2, fb.height // 2
        for x in range(0, fb.width, 16):  # card backs along the top and bottom edges
            for y in (8, fb.height - 24):
                draw_back(app, fb, x + 2, y, (12, 16))
        fb.text_centred(cx, cy - 2 * CELL_H, f"PLAYER {side + 1}'S TURN", app.colour("highlight"),
                        app.colour("black"))
        fb.text_centred(cx, cy, f"Pass the pad to Player {side + 1}.", app.colour("text"))
        fb.text_centred(cx, cy + CELL_H + 2, f"Player {side + 1}: press {confirm_keys(app)}",
                        app.colour("text_dim"))
        for s in (0, 1):
            fb.text_centred(cx, cy + (4 + s) * CELL_H, f"{self.side_name(s)}  LP "
                            f"{self.view.sides[s].lp}", app.colour("text"))

    def _bar(self, app: App, fb: Framebuffer, side: int, y: int) -> None:
        s = self.shown.sides[side]
        draw_fitted(fb, ZONE_X, y, self.side_name(side), LP_X - ZONE_X - 4, app.colour("text"),
                    from_end=True)
        lp = anim.shown_lp(self.playing, side, s.lp)
        fb.text(LP_X, y, f"LP {lp:>5}", app.colour("highlight"))
        fb.text_right(PANEL_X - 4, y, f"DK{s.deck_left:2d}", app.colour("text_dim"))
        if self.shown.acting_side == side and not self.view.over:
            fb.text(0, y, "\u25b6", app.colour("cursor"))

    def _blink(self, app: App, fb: Framebuffer) -> None:
        """While a message shows: a blinking frame on the zones it is about."""
        message = self.current
        if message is None or not self.timer or (app.frame // 4) % 2:
            return
        for side, row, zone in message.focus:
            if row not in ("monster", "magic") or not 0 <= zone < 5:
                continue
            x, y = self.zone_xy(side, row, zone)
            fb.frame(x - 2, y - 2, SMALL[0] + 4, SMALL[1] + 4, app.colour("cursor"),
                     thickness=2)

    def _showcase(self, app: App, fb: Framebuffer, message: ev.Message) -> None:
        """The message's cards in the panel, joined by "+", "=" or "VS"."""
        cards = message.cards
        gap = 12
        width = len(cards) * (SMALL[0] + gap) - gap
        x = PANEL_X + 4 + (fb.width - PANEL_X - 4 - width) // 2
        y = 30
        fb.box(x - 6, y - 4, width + 12, SMALL[1] + 8, app.colour("black"),
               app.colour("highlight"))
        for i, card in enumerate(cards):
            cx = x + i * (SMALL[0] + gap)
            draw_card(app, fb, cx, y, card_face(self.game, card), SMALL)
            if i + 1 < len(cards):
                sign = "=" if message.joiner == "+" and i + 2 == len(cards) > 2 \
                    else message.joiner
                fb.text_centred(cx + SMALL[0] + gap // 2, y + SMALL[1] // 2 - 3, sign,
                                app.colour("highlight"))

    def side_name(self, side: int) -> str:
        if len(self.humans) == 2:
            return f"Player {side + 1}"
        return "You" if side == 0 else self.game.tables.duelist_name(self.duelist)

    def _selected(self, side: int, row: str, col: int) -> bool:
        ui = self.ui
        if self.view.acting_side not in self.humans or self.queue or self.timer:
            return False
        if side == self.me:
            if ui.mode == "field":
                return ui.row == row and ui.cursor == col
            if ui.mode in ("zone", "star"):
                return ui.zone_row == row and ui.cursor == col
            if ui.mode == "equip_target":
                return row == "monster" and ui.cursor == col
            return ui.mode == "target" and row == "monster" and ui.attacker == col
        if ui.mode == "field":
            return ui.row == f"opp_{row}" and ui.cursor == col
        return ui.mode == "target" and row == "monster" and ui.cursor == col

    def _row(self, app: App, fb: Framebuffer, side: int, row: str, y: int) -> None:
        """One row of zones as shown; a zone an animation is drawing shows empty."""
        for col, card in enumerate(self.shown.sides[side].row(row)):
            selected = self._selected(side, row, col)
            if card is None or anim.hides(self.playing, side, row, col):
                # an outline only, so the terrain's pattern shows through empty zones
                fb.frame(*self.zone_xy(side, row, col), *SMALL,
                         app.colour("highlight" if selected else "zone"))
            else:
                self.draw_zone_card(app, fb, side, row, col, card, selected=selected)

    def draw_zone_card(self, app: App, fb: Framebuffer, side: int, row: str, col: int,
                       card: CardView, dx: int = 0, dy: int = 0,
                       selected: bool = False) -> None:
        """A card in its zone, moved by (dx, dy): face-down cards as backs (the panel names
        your own under the cursor), defenders sideways, monsters that acted this turn
        dimmed."""
        x, y = self.zone_xy(side, row, col)
        sideways = card.defending
        cx, cy = (x - SIDEWAYS_SHIFT, y + SIDEWAYS_SHIFT) if sideways else (x, y)
        cx, cy = cx + dx, cy + dy
        if card.face_down:
            draw_back(app, fb, cx, cy, SMALL, selected, sideways)
        else:
            draw_card(app, fb, cx, cy, card_face(self.game, card.card), SMALL, selected,
                      sideways)
        if card.used and side == self.shown.acting_side:
            w, h = SMALL[::-1] if sideways else SMALL
            fb.remap(cx, cy, w, h, dim_lut(app.machine))
            if selected:  # the cursor stays bright on a card that has acted
                fb.frame(cx, cy, w, h, app.colour("highlight"))

    def _hand(self, app: App, fb: Framebuffer, side: int) -> None:
        """The hand at the pad; slots whose draw has not played yet stay empty."""
        ui = self.ui
        hand = self.shown.sides[side].hand
        show = self.hand_visible(side)
        coming = {e.hand_pos for e in self.queue if e.kind == "draw" and e.side == side}
        if self.playing is not None and self.playing.event.kind == "draw":
            coming.add(self.playing.event.hand_pos)
        for j, card in enumerate(hand):
            x, y = self.hand_xy(j)
            if card is None or j in coming:
                continue
            raised = j in ui.raised and side == self.me
            y -= RAISE if raised else 0
            selected = (ui.mode == "hand" and ui.cursor == j and side == self.me
                        and self.view.acting_side in self.humans and not self.queue)
            if show:
                draw_card(app, fb, x, y, card_face(self.game, card.card), SMALL, selected)
            else:
                draw_back(app, fb, x, y, SMALL, selected)
            if raised:  # the combination order, in a badge on the card's top edge
                fb.box(x + SMALL[0] - 9, y, 9, CELL_H + 1, app.colour("black"),
                       app.colour("highlight"))
                fb.text(x + SMALL[0] - 7, y + 1, str(ui.raised.index(j) + 1),
                        app.colour("highlight"))

    def _focus(self) -> int:
        """The card id under the cursor (0 for none or a hidden card)."""
        ui, view, me = self.ui, self.view, self.me
        if ui.mode == "star" and ui.raised:  # the card the play leaves, whose star this is
            return ui.card
        if ui.mode == "hand" or (ui.mode in ("face", "zone") and ui.raised):
            position = ui.cursor if ui.mode == "hand" else ui.raised[-1]
            card = view.sides[me].hand[position]
        elif ui.mode == "target":
            card = None if ui.cursor == DIRECT else view.sides[1 - me].monsters[ui.cursor]
            if card is not None and card.face_down:
                return 0
        elif ui.mode == "equip_target":
            card = view.sides[me].monsters[ui.cursor]
        else:
            side, row = self._field_row(ui.row)
            card = view.sides[side].row(row)[ui.cursor]
            if card is not None and card.face_down and side != me:
                return 0
        return card.card if card is not None else 0

    def _panel(self, app: App, fb: Framebuffer) -> None:
        x = PANEL_X + 4
        focus = self._focus() if self.hand_visible(self.view.acting_side) else 0
        if self.current is not None and self.current.cards and self.timer:
            self._showcase(app, fb, self.current)
        elif focus:
            draw_card(app, fb, x, 4, card_face(self.game, focus), LARGE)
        else:
            draw_back(app, fb, x, 4, LARGE)
        turns = max(turns_played(n, s.counters["turns"]) for n, s in enumerate(self.view.sides))
        fb.text(x, 124, f"{TERRAIN_NAMES[self.shown.terrain]}  Turn {turns}",
                app.colour("text_dim"))
        width = (fb.width - x - 2) // 6
        lines = [ln for text in self.log[-LOG_LINES:] for ln in wrap(text, width)][-LOG_LINES:]
        for i, line in enumerate(lines):
            fb.text(x, 136 + i * CELL_H, line, app.colour("text"))
        for i, line in enumerate(self._prompt()):
            draw_fitted(fb, x, 186 + i * CELL_H, line, fb.width - x - 2,
                        app.colour("highlight" if i == 0 else "text_dim"))
        if self.refused is not None and app.frame < self.refused[1]:
            draw_fitted(fb, x, REFUSAL_Y, self.refused[0], fb.width - x - 2,
                        app.colour("cursor"), lines=(fb.height - REFUSAL_Y) // CELL_H)

    def _prompt(self) -> list[str]:
        ui = self.ui
        if self.view.over:
            return ["Duel over"]
        if self.queue or self.timer:
            return ["", "Cross: skip"]
        if self.view.acting_side not in self.humans:
            return ["Opponent's turn"]
        if ui.mode == "hand":
            return ["Choose cards", "Up: raise to combine", "Cross:play Circle:drop"]
        if ui.mode == "face":
            return ["Face down" if ui.face_down else "Face up", "Left/Right: change",
                    "Cross:ok Circle:back"]
        if ui.mode == "zone":
            return [f"Choose a {ui.zone_row} zone", "Cross:ok Circle:back"]
        if ui.mode == "star":
            star = star_name(self.game, ui.card, ui.star)
            return [f"Star: {star or '-'}", "Left/Right: change", "Cross:ok Circle:back"]
        if ui.mode == "target":
            return ["Attack directly" if ui.cursor == DIRECT else "Choose a target",
                    "Cross:ok Circle:back"]
        if ui.mode == "equip_target":
            return ["Equip which monster?", "Cross:ok Circle:back"]
        if ui.row.startswith("opp_"):
            return ["Opponent's field", "Up/Down: rows", "Start: end turn"]
        return ["Your field", "Cross:attack/activate", "Tri:position Start:end"]


def confirm_keys(app: App) -> str:
    """The confirm button and the keyboard keys that press it on either pad, e.g. "Cross
    (key Z or N)": what takes the turn at the hand-over screen."""
    button = ROLES[app.machine.name]["confirm"]
    keys = [k.upper() for player in ("1", "2")
            for b, names in keyboard_table(app.machine.name, player, app.bindings.raw)
            if b == button for k in names[:1]]
    return button.capitalize() + (f" (key {' or '.join(keys)})" if keys else "")


@functools.lru_cache(maxsize=2)
def _stripes(w: int, h: int) -> NDArray[np.bool_]:
    """Diagonal lines every 6 pixels: the terrain's pattern over the field."""
    y, x = np.indices((h, w))
    return (x + y) % 6 == 0
