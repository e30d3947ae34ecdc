"""The result screen: winner and how; for the player's win against the computer the rank
score's criteria one by one (as ``Duel_CalcRankScore`` adds them: 50, the end adjustment,
one change per counter), the score, rank, starchips and the card won. A loss or a
two-player duel shows no score: the numbers would be the winner's. Entering it records the
duel in the save data (trunk, starchips, records, campaign) and saves."""

from __future__ import annotations

from dataclasses import dataclass

from emucore.fm import rank
from emucore.frontend.app import App, Screen
from emucore.frontend.cards import LARGE, draw_card
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.layout import draw_fitted
from emucore.frontend.portraits import portrait, seed_of
from emucore.frontend.systems.fm.common import FmScreen, card_face
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.widgets import reason_text
from emucore.planning import rankplan

CRITERIA = {"turns": "Turns after your 1st", "effective_attacks": "Effective attacks",
            "defensive_wins": "Defensive wins", "face_down_plays": "Face-down plays",
            "pure_magic": "Magic cards", "traps_triggered": "Traps sprung",
            "cards_used": "Cards used", "lp": "LP left", "fusions": "Fusions",
            "equips": "Equips"}  # rank.COUNTERS in the words of this screen
# The rank reads the first side's turn counter, which skips its opening turn (func_80018608
# state 5, docs/fm-engine.md: "its turn counter stays one behind its turns"); the board counts
# every turn begun, so a win on the board's Turn 6 scores "Turns after your 1st 5".
REVEAL_FRAMES = 8  # one criterion appears every this many frames (Cross shows them all)
ROW_H = CELL_H + 1
CARD_X = 214


@dataclass(frozen=True)
class Criterion:
    """One line of the score: what, the count (None for the base and the end), points."""

    label: str
    count: int | None
    points: int


def criteria(game: FmGame, end, counters: dict[str, int]) -> list[Criterion]:
    """The winner's score line by line: the base 50, the end adjustment, then each counter's
    change (``Duel_CalcRankScoreChange``); the points add up to the engine's score."""
    values = rankplan.counters_from_side(counters)
    lines = [Criterion("Base", None, rank.BASE_SCORE),
             Criterion(f"Won by {reason_text(end.reason)}", None,
                       rank.END_ADJUSTMENT[end.reason])]
    for row, name in enumerate(rank.COUNTERS):
        lines.append(Criterion(CRITERIA[name], values[name],
                               rank.score_change(game.tables, row, values[name])))
    return lines


class ResultScreen(FmScreen):
    def __init__(self, game: FmGame, end, duelist: int, campaign: bool, back: Screen,
                 rng_state: int, counters: dict[str, int]) -> None:
        super().__init__(game, back)
        self.end, self.duelist, self.campaign = end, duelist, campaign
        self.rng_state = rng_state
        self.notes: list[str] = []
        self.scored = duelist != 0 and end.winner == 0  # the player beat the computer
        self.lines = criteria(game, end, counters) if self.scored else []
        self.revealed = 0  # criteria shown so far
        self.timer = 0

    @property
    def music(self) -> str:  # type: ignore[override]
        """Victory for a win (and for either player of a two-player duel), else defeat."""
        return "victory" if self.duelist == 0 or self.end.winner == 0 else "defeat"

    def enter(self, app: App) -> None:
        end = self.end
        self.notes = self.game.duel_finished(self.duelist, end.winner, self.rng_state,
                                             end.starchips, end.drop, self.campaign)
        self.game.save()
        if report := self.game.save_file.report():
            app.notify(report)

    def update(self, app: App) -> Screen | None:
        done = self.revealed >= len(self.lines)
        if app.pad.pressed("confirm") or app.pad.pressed("start"):
            if not done:
                self.revealed = len(self.lines)
                return self
            app.sound.play("confirm")
            return self.back
        if not done:
            self.timer += 1
            if self.timer % REVEAL_FRAMES == 0:
                self.revealed += 1
                app.sound.play("move")
        return self

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        end = self.end
        if self.duelist == 0:
            title = f"PLAYER {end.winner + 1} WINS"
        else:
            title = "YOU WIN" if end.winner == 0 else "YOU LOSE"
        fb.text(16, 8, title, app.colour("highlight"), app.colour("black"))
        fb.text(16, 20, f"By {reason_text(end.reason)}", app.colour("text"))
        y = 34
        if self.scored:
            y = self._score(app, fb, y)
        elif self.duelist:
            name = self.game.tables.duelist_name(self.duelist)
            fb.blit(CARD_X + 10, 8, portrait(seed_of("fm", self.duelist), app.machine.art,
                                             scale=2))
            draw_fitted(fb, CARD_X - 4, 76, f"{name} wins", fb.width - CARD_X + 2,
                        app.colour("text"), lines=2)
            fb.text(16, y, "No score and no card for a loss.", app.colour("text_dim"))
            y += ROW_H
        else:
            fb.text(16, y, "Two-player duel: no score and no card.", app.colour("text_dim"))
            y += ROW_H
        for note in self.notes:  # unlocks, on their own lines below the score
            draw_fitted(fb, 16, y, note, CARD_X - 24, app.colour("good"))
            y += ROW_H
        fb.text(16, fb.height - 12, "Cross: continue", app.colour("text_dim"))

    def _score(self, app: App, fb: Framebuffer, y: int) -> int:
        end, text = self.end, app.colour("text")
        for line in self.lines[:self.revealed]:
            fb.text(16, y, line.label, text)
            if line.count is not None:
                fb.text_right(150, y, str(line.count), app.colour("text_dim"))
            points = str(line.points) if line is self.lines[0] else f"{line.points:+d}"
            fb.text_right(186, y, points, app.colour(
                "good" if line.points > 0 else "danger" if line.points < 0 else "text_dim"))
            y += ROW_H
        y = 34 + len(self.lines) * ROW_H + 2
        if self.revealed < len(self.lines):
            return y + 2 * ROW_H
        fb.fill(16, y - 2, 170, 1, app.colour("text_dim"))
        fb.text(16, y, f"Score {end.scores[0]}", app.colour("highlight"))
        fb.text_right(186, y, f"Rank {end.rank}", app.colour("highlight"))
        fb.text(16, y + ROW_H, f"Starchips +{end.starchips} = {self.game.data['starchips']}",
                text)
        if end.drop:
            draw_card(app, fb, CARD_X, 8, card_face(self.game, end.drop), LARGE)
            fb.text(CARD_X, 128, "Card won", app.colour("text_dim"))
            rows = draw_fitted(fb, CARD_X, 138, self.game.tables.names[end.drop],
                               fb.width - CARD_X - 2, text, lines=3)
            fb.text(CARD_X, 138 + rows * CELL_H,
                    f"now {self.game.trunk_count(end.drop)} owned", app.colour("text_dim"))
        return y + 2 * ROW_H + 4
