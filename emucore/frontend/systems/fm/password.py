"""The Password shop screen: eight digits, the card a password names, its starchip price and
the countdown as it is paid. Every rule (the lookup, the price, the used-password rule, the
frames) is :mod:`emucore.fm.password`'s; this screen turns the pad into its input and draws
what it says. The screen is main-loop mode 10 (``Main_RunPasswordMenu``, emucore.fm.mainloop):
it calls no ``rand()``, so the RNG stands still here, and the menu's first frame back is its
reset pass."""

from __future__ import annotations

from emucore.fm import mainloop
from emucore.fm import password as P
from emucore.frontend.app import App, Screen
from emucore.frontend.cards import LARGE, draw_card
from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm.common import FmScreen, card_face
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.widgets import Menu

DIGIT_W = 16  # one digit's box (Password_SetDigitCursorTarget: 16 pixels a digit)
DIGITS_Y = 28
CARD_X, CARD_Y = 118, 58
MESSAGE_Y = 184
SOUNDS = {"move": "move", "digit": "move", "error": "error", "found": "confirm",
          "bought": "confirm", "leave": "cancel"}


class PasswordScreen(FmScreen):
    def __init__(self, game: FmGame, back: Screen) -> None:
        super().__init__(game, back)
        self.shop = game.password_shop()
        self.dialog: Menu | None = None

    def update(self, app: App) -> Screen | None:
        self.game.mode_frame(mainloop.PASSWORD)
        pad, shop = app.pad, self.shop
        answer = self._answer(app)
        said = shop.update(P.ShopInput(
            right=pad.held("right"), left=pad.held("left"), up=pad.repeat("up"),
            down=pad.repeat("down"), cancel=pad.pressed("cancel"),
            confirm=pad.pressed("confirm"), answer=answer))
        if said in SOUNDS:
            app.sound.play(SOUNDS[said])
        if said == "leave":
            return self.back
        if shop.asking and self.dialog is None:
            items = ["OK"] if shop.message == P.USED else ["Exchange", "Quit"]
            self.dialog = Menu(items, cursor=0 if shop.can_buy() or len(items) == 1 else 1,
                               disabled=set() if shop.can_buy() or len(items) == 1 else {0})
        return self

    def _answer(self, app: App) -> bool | None:
        """The dialog's answer on the frame it is given (Circle is Quit), else None."""
        if self.dialog is None or not self.shop.asking:
            return None
        choice = self.dialog.update(app)
        if choice is None:
            return None
        self.dialog = None
        return choice == 0 and self.shop.can_buy()

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        shop = self.shop
        fb.text(8, 6, "PASSWORD", app.colour("highlight"), app.colour("black"))
        fb.text_right(fb.width - 8, 6, f"Starchips {shop.starchips}", app.colour("text"))
        self._draw_digits(app, fb)
        if shop.card and shop.preview() > 0:
            self._draw_card(app, fb)
        self._draw_message(app, fb)

    def _draw_digits(self, app: App, fb: Framebuffer) -> None:
        """The eight digits in their boxes, the cursor's box bright, with arrows for the
        directions it can go (Password_UpdateDigitCursorDecoration)."""
        shop = self.shop
        left = (fb.width - P.DIGITS * DIGIT_W) // 2
        for i, digit in enumerate(shop.digits):
            x = left + i * DIGIT_W
            on = i == shop.index
            fb.box(x + 1, DIGITS_Y, DIGIT_W - 2, CELL_H + 6, app.colour("panel"),
                   app.colour("cursor" if on else "frame_dark"))
            fb.text(x + (DIGIT_W - CELL_W) // 2 + 1, DIGITS_Y + 4, str(digit),
                    app.colour("highlight" if on else "text"))
        if shop.state != P.ENTRY:
            return
        x = left + shop.index * DIGIT_W + (DIGIT_W - CELL_W) // 2 + 1
        fb.text(x, DIGITS_Y - CELL_H - 1, "\u25b2", app.colour("cursor"))
        fb.text(x, DIGITS_Y + CELL_H + 8, "\u25bc", app.colour("cursor"))
        if shop.index > 0:
            fb.text(left - CELL_W - 4, DIGITS_Y + 4, "\u25c0", app.colour("cursor"))
        if shop.index < P.DIGITS - 1:
            fb.text(left + P.DIGITS * DIGIT_W + 4, DIGITS_Y + 4, "\u25b6", app.colour("cursor"))

    def _draw_card(self, app: App, fb: Framebuffer) -> None:
        """The card found, revealed and hidden row by row as the preview's phase runs."""
        card = self.shop.card
        draw_card(app, fb, CARD_X, CARD_Y, card_face(self.game, card), LARGE)
        hidden = LARGE[1] - round(LARGE[1] * self.shop.preview())
        if hidden:
            fb.fill(CARD_X, CARD_Y + LARGE[1] - hidden, LARGE[0], hidden, app.colour("bg"))
        x = CARD_X + LARGE[0] + 8
        draw_fitted(fb, x, CARD_Y, self.game.tables.names[card], fb.width - x - 4,
                    app.colour("text"), lines=2)
        fb.text(x, CARD_Y + 3 * CELL_H, f"Price {P.price(self.game.tables, card)}",
                app.colour("highlight"))
        if self.shop.state == P.PAY:
            fb.text(x, CARD_Y + 4 * CELL_H, f"To pay {self.shop.remaining}",
                    app.colour("text"))

    def _draw_message(self, app: App, fb: Framebuffer) -> None:
        """The message box: the shop's message (226 to 229 in the original), our words."""
        shop, t = self.shop, self.game.tables
        fb.box(8, MESSAGE_Y, fb.width - 16, fb.height - MESSAGE_Y - 6, app.colour("panel"),
               app.colour("text_dim"))
        cost = P.price(t, shop.card) if shop.card else 0
        lines = {
            P.ENTER: "Up/Down: digit   Left/Right: move   Cross: look up   Circle: leave",
            P.OFFER: f"Trade {cost} starchips for this card?",
            P.SHORT: f"It costs {cost} starchips; you have {shop.starchips}.",
            P.USED: "This password has already been used.",
        }
        message = lines[shop.message] if shop.state in (P.ENTRY, P.DIALOG) else ""
        draw_fitted(fb, 14, MESSAGE_Y + 5, message, fb.width - 28, app.colour("text"), lines=2)
        if self.dialog is not None and shop.asking:
            self.dialog.draw(app, fb, fb.width - 90, MESSAGE_Y - 34, 80)
