"""The live rank meter (an overlay the original never had): the score the player would get
by winning now, POW/TEC and the rank letter, from the engine's own side-record counters,
computed by the rank planner's own code (``emucore.planning.rankplan``), so the meter and
``emucore plan rank`` always agree."""

from __future__ import annotations

from emucore.fm import rank
from emucore.frontend.app import App
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.systems.fm.session import FmGame
from emucore.planning import rankplan


def live_rank(game: FmGame, counters: dict[str, int]) -> rank.RankResult:
    """Rank if the side won now by LP (the +2 end adjustment), from its side record."""
    values = rankplan.counters_from_side(counters)
    values["lp"] = max(values["lp"], rankplan.LP_RANGE[0])  # a winner keeps at least 1 LP
    return rankplan.standing(game.tables, values, "lp").result


METER_W = 44  # narrow enough for the column right of the duel's big card


def draw_rank_meter(app: App, fb: Framebuffer, game: FmGame, counters: dict[str, int],
                    x: int, y: int) -> None:
    """A small box: "SCORE", the score, the rank and the 0..99 bar."""
    result = live_rank(game, counters)
    w, h = METER_W, 3 * CELL_H + 10
    fb.box(x, y, w, h, app.colour("black"), app.colour("highlight"))
    fb.text(x + 3, y + 3, "SCORE", app.colour("highlight"))
    fb.text(x + 3, y + 3 + CELL_H, f"{result.score:3d}", app.colour("text"))
    fb.text(x + 3, y + 3 + 2 * CELL_H, result.rank, app.colour(
        "good" if result.tier >= 3 else "text"))
    bar = max(0, min(result.score, 99)) * (w - 6) // 99
    fb.fill(x + 3, y + h - 4, w - 6, 2, app.colour("panel"))
    fb.fill(x + 3, y + h - 4, bar, 2, app.colour("cursor"))
