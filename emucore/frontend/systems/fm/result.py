"""The result screen: winner, how, the winner's score and rank, starchips and the card won.
Entering it records the duel in the save data (trunk, starchips, records, campaign) and saves."""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.cards import LARGE, draw_card
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.systems.fm.common import FmScreen, card_face
from emucore.frontend.systems.fm.session import FmGame

REASONS = {"lp": "Life points", "deckout": "Deck out", "exodia": "Exodia"}


class ResultScreen(FmScreen):
    def __init__(self, game: FmGame, end, duelist: int, campaign: bool, back: Screen,
                 rng_state: int) -> None:
        super().__init__(game, back)
        self.end, self.duelist, self.campaign = end, duelist, campaign
        self.rng_state = rng_state
        self.notes: list[str] = []

    @property
    def music(self) -> str:  # type: ignore[override]
        """Victory for a win (and for either player of a two-player duel), else defeat."""
        return "victory" if self.duelist == 0 or self.end.winner == 0 else "defeat"

    def enter(self, app: App) -> None:
        end = self.end
        self.notes = self.game.duel_finished(self.duelist, end.winner, self.rng_state,
                                             end.starchips, end.drop, self.campaign)
        self.game.save()

    def update(self, app: App) -> Screen | None:
        if app.pad.pressed("confirm") or app.pad.pressed("start"):
            app.sound.play("confirm")
            return self.back
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        end = self.end
        two = self.duelist == 0
        if two:
            title = f"PLAYER {end.winner + 1} WINS"
        else:
            title = "YOU WIN" if end.winner == 0 else "YOU LOSE"
        fb.text(16, 12, title, app.colour("highlight"), app.colour("black"))
        lines = [f"By {REASONS.get(end.reason, end.reason)}",
                 f"Score {end.scores[end.winner]}", f"Rank {end.rank}"]
        if not two and end.winner == 0:
            lines += [f"Starchips +{end.starchips} = {self.game.data['starchips']}",
                      "Card won:" if end.drop else "No card"]
        lines += self.notes
        for i, line in enumerate(lines):
            fb.text(16, 32 + i * (CELL_H + 3), line, app.colour("text"))
        if end.drop and end.winner == 0 and not two:
            draw_card(app, fb, 200, 30, card_face(self.game, end.drop), LARGE)
            draw_fitted(fb, 200, 150, self.game.tables.names[end.drop], fb.width - 202,
                        app.colour("text"))
            fb.text(200, 160, f"now {self.game.trunk_count(end.drop)} in trunk",
                    app.colour("text_dim"))
        fb.text(16, fb.height - 14, "Cross: continue", app.colour("text_dim"))
