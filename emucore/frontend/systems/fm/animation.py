"""The FM duel's animations, drawn from the engine's events after each step.

What plays for an event comes from the presentation timeline (:mod:`emucore.fm.timeline`,
which also counts the ``rand()`` calls the engine makes for it); this module only draws.
The frontend never calls the duel's RNG: shakes, tiles and confetti use a fixed hash of the
frame number, so pad-log replays stay deterministic.

Frame counts: the timeline fixes few of them (the result outro's hold, 0x258 frames, which a
button skips); every other count is our choice, named in :data:`FRAMES`. Cross skips the
animations still queued (the original lets the player skip its messages and outro); the
fast-animation option divides every count by ``machine.FAST_DIVISOR``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from emucore.fm import timeline
from emucore.fm.engine import turns_played
from emucore.frontend.app import App
from emucore.frontend.cards import SMALL, back_image, card_image
from emucore.frontend.framebuffer import CELL_H, Framebuffer, text_width
from emucore.frontend.machine import FAST_DIVISOR
from emucore.frontend.systems.fm.common import card_face

if TYPE_CHECKING:
    from emucore.frontend.systems.fm.duel import DuelScreen

# frontend.choices F2: frames of each piece the timeline does not fix (59.83 frames a second).
FRAMES = {
    "message": 30,  # the least time an event's line stays (an event without a picture)
    "draw": 8,  # a drawn card rises into its hand slot
    "slide": 14,  # a played card slides from the hand to its zone
    "flip": 12,  # a card turns over: 6 frames narrowing, 6 widening
    "position": 14,  # a monster turns to attack or defence
    "fusion": 48,  # two cards slide together (60%), flash (15%), the result shows (25%)
    "equip": 36,  # the equip card sinks onto the monster, which glows
    "star_flash": 18,  # the guardian stars flash before a battle they decide
    "lunge": 16,  # the attacker moves toward its target and back
    "damage": 34,  # the damage number rises from the card that lost (the shake runs with it)
    "destruction": 28,  # a destroyed card breaks into 5 x 7 tiles, column by column
    "life": 32,  # LP count down (or up) to the new value
    "terrain": 24,  # the new terrain's colour wipes over the field, top to bottom
    "turn": 44,  # the turn banner slides in, holds, slides out
    "showcase": 36,  # a magic, trap or ritual card shown big
}
SHAKE = 2  # pixels a losing card shakes (DuelScene_UpdateBattle: (rand() & 3) - 2)
CONFETTI = timeline.CONFETTI_WITH_OPPONENT * 4  # pieces of the outro (7 sprites, 4 each)


@dataclass
class Playing:
    """One event's animation: its frames in total and left, and what it needs to draw."""

    event: Any
    frames: int
    left: int = 0
    old_lp: int = 0  # the LP a life event counts from
    old_terrain: int = 0  # the terrain a terrain event changes from
    pieces: tuple[str, ...] = field(default_factory=tuple)  # timeline animation names

    def __post_init__(self) -> None:
        self.left = self.left or self.frames

    @property
    def t(self) -> float:
        """Progress 0 (start) .. 1 (end)."""
        return 1 - self.left / self.frames if self.frames else 1.0


def start(screen: DuelScreen, event: Any, fast: bool,
          pieces: tuple[str, ...] = ()) -> Playing | None:
    """The animation ``event`` starts on the shown board (before the event changes it), or
    None for an event that plays none. ``pieces`` names the engine's ``animation`` events
    that follow it (what the original shows for it: the star flash, the numbers, the
    shake, ...)."""
    kind = event.kind
    frames, extra = 0, {}
    if kind == "draw":
        frames = FRAMES["draw"] if event.side == screen.me else 0
    elif kind == "placed":
        frames = FRAMES["slide"]
    elif kind in ("flip", "position", "fusion", "equip", "destroyed", "life", "terrain",
                  "turn"):
        frames = FRAMES[{"destroyed": "destruction"}.get(kind, kind)]
        if kind == "life":
            extra["old_lp"] = screen.shown.sides[event.side].lp
        if kind == "terrain":
            extra["old_terrain"] = screen.shown.terrain
    elif kind == "battle":
        frames = _battle_frames(pieces)
    elif kind in ("magic", "trap", "ritual", "failure", "stat"):
        frames = FRAMES["showcase"]
    elif kind == "ended":
        frames = timeline.OUTRO_HOLD_FRAMES
    if not frames:
        return None
    if fast:
        frames = max(1, frames // FAST_DIVISOR)
    return Playing(event, frames, pieces=pieces, **extra)


def hides(playing: Playing | None, side: int, row: str, zone: int) -> bool:
    """Whether the zone's own drawing gives way to the animation (it draws the card)."""
    if playing is None:
        return False
    e = playing.event
    if e.kind in ("placed", "flip") and (e.side, e.row, e.zone) == (side, row, zone):
        return True
    if e.kind == "battle" and row == "monster":
        return (side, zone) == (e.side, e.attacker_zone) or \
            (e.outcome != "direct" and (side, zone) == (1 - e.side, e.defender_zone))
    return False


def shown_lp(playing: Playing | None, side: int, lp: int) -> int:
    """The LP a side's bar shows: counting from the old value while a life event plays."""
    if playing is None or playing.event.kind != "life" or playing.event.side != side:
        return lp
    return round(playing.old_lp + (lp - playing.old_lp) * min(1.0, playing.t * 1.25))


def _jitter(frame: int, salt: int) -> int:
    """A fixed pseudo-random step in -SHAKE..SHAKE-1 from the frame number (Knuth's
    multiplicative hash): the shake looks random and replays identically."""
    return ((frame * 2654435761 + salt * 40503) >> 13) % (2 * SHAKE) - SHAKE


def squeeze(image: NDArray[np.uint8], fraction: float) -> NDArray[np.uint8]:
    """``image`` narrowed to ``fraction`` of its width (nearest columns): a card turning."""
    h, w = image.shape
    columns = max(1, round(w * fraction))
    return image[:, np.linspace(0, w - 1, columns).astype(np.intp)]


def draw(screen: DuelScreen, app: App, fb: Framebuffer, playing: Playing) -> None:
    """Draw the animation's frame over the board (the terrain's wipe is drawn with the
    field, through :func:`terrain_cut`)."""
    kind = playing.event.kind
    painter = _PAINTERS.get(kind)
    if painter is not None:
        painter(screen, app, fb, playing)


def _face(screen: DuelScreen, app: App, card: int, face_down: bool = False,
          size: tuple[int, int] = SMALL) -> NDArray[np.uint8]:
    if face_down:
        return back_image(app, size)
    return card_image(app, card_face(screen.game, card), size)


def _lerp(a: tuple[int, int], b: tuple[int, int], t: float) -> tuple[int, int]:
    t = max(0.0, min(1.0, t))
    return round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t)


def _draw_card_event(screen, app, fb, p: Playing) -> None:
    """A drawn card rises from below the screen into its hand slot."""
    e = p.event
    x, y = screen.hand_xy(e.hand_pos)
    start = (x, fb.height)
    fb.blit(*_lerp(start, (x, y), p.t), _face(screen, app, e.card))


def _placed(screen, app, fb, p: Playing) -> None:
    """A played card slides from its side's hand to its zone."""
    e = p.event
    target = screen.zone_xy(e.side, e.row, e.zone)
    source = screen.hand_xy(2) if e.side == screen.me else (target[0], -SMALL[1])
    fb.blit(*_lerp(source, target, p.t), _face(screen, app, e.card, e.face_down))


def _flip(screen, app, fb, p: Playing) -> None:
    """The card narrows to an edge as its back, then widens as its face."""
    e = p.event
    x, y = screen.zone_xy(e.side, e.row, e.zone)
    card = screen.shown.sides[e.side].row(e.row)[e.zone]
    sideways = card is not None and card.defending
    first = p.t < 0.5
    image = _face(screen, app, e.card, face_down=first)
    if sideways:
        image = np.rot90(image)
        x, y = x - screen.sideways_shift, y + screen.sideways_shift
    narrowed = squeeze(image, abs(1 - 2 * p.t))
    fb.blit(x + (image.shape[1] - narrowed.shape[1]) // 2, y, narrowed)


def _position(screen, app, fb, p: Playing) -> None:
    """A monster turning: a frame around its zone that pulses while it turns."""
    e = p.event
    _glow(app, fb, screen.zone_xy(e.side, "monster", e.zone), p, "cursor")


def _glow(app, fb, xy: tuple[int, int], p: Playing, role: str) -> None:
    x, y = xy
    grow = 1 + (app.frame // 3) % 3
    fb.frame(x - 1 - grow, y - 1 - grow, SMALL[0] + 2 + 2 * grow, SMALL[1] + 2 + 2 * grow,
             app.colour(role), thickness=1)


def _fusion(screen, app, fb, p: Playing) -> None:
    """The two materials slide together from either side of the field, flash, and the
    result stands in their place."""
    e = p.event
    cx, cy = screen.showcase_xy()
    w = SMALL[0]
    if p.t < 0.6:
        k = p.t / 0.6
        gap = round((1 - k) * 2 * w)
        fb.blit(cx - w // 2 - gap, cy, _face(screen, app, e.a))
        fb.blit(cx - w // 2 + gap, cy, _face(screen, app, e.b))
        return
    if p.t < 0.75:
        fb.box(cx - w // 2 - 4, cy - 4, w + 8, SMALL[1] + 8, app.colour("card_face"),
               app.colour("highlight"))
        return
    fb.blit(cx - w // 2, cy, _face(screen, app, e.result))
    _glow(app, fb, (cx - w // 2, cy), p, "highlight")


def _equip(screen, app, fb, p: Playing) -> None:
    """The equip card sinks onto its monster, which glows while the bonus applies."""
    e = p.event
    monsters = screen.shown.sides[e.side].monsters
    zone = next((z for z, c in enumerate(monsters) if c and c.card == e.monster), None)
    if zone is None:
        return
    target = screen.zone_xy(e.side, "monster", zone)
    if p.t < 0.5:
        start = (target[0], target[1] - 2 * SMALL[1] if e.side == screen.me else
                 target[1] + 2 * SMALL[1])
        fb.blit(*_lerp(start, target, p.t * 2), _face(screen, app, e.equip))
    else:
        _glow(app, fb, target, p, "good" if (app.frame // 4) % 2 else "highlight")


# Per battle outcome: (who shakes and breaks, who takes the number) as "attacker"/"defender"
# (DuelScene_UpdateBattle states 6-10: only a destroyed card shakes).
SHAKERS = {"win": ("defender",), "double_ko": ("defender", "attacker"), "lose": ("attacker",)}
HIT = {"win": "defender", "lose": "attacker", "lose_defense": "attacker"}


def _battle(screen, app, fb, p: Playing) -> None:
    """Star flash (when the timeline plays one), the attacker's lunge toward its target and
    back, then the damage number rising from the card that took it while a destroyed card
    shakes."""
    e = p.event
    elapsed = p.frames - p.left
    scale = p.frames / _battle_frames(p.pieces)
    flash = round(FRAMES["star_flash"] * scale) if "star_flash" in p.pieces else 0
    lunge = round(FRAMES["lunge"] * scale)
    direct = e.outcome == "direct"
    places = {"attacker": screen.zone_xy(e.side, "monster", e.attacker_zone),
              "defender": screen.lp_xy(1 - e.side) if direct else
              screen.zone_xy(1 - e.side, "monster", e.defender_zone)}
    hit = elapsed >= flash + lunge
    shakers = SHAKERS.get(e.outcome, ()) if hit and "shake" in p.pieces else ()
    for who, side, zone in (("defender", 1 - e.side, e.defender_zone),
                            ("attacker", e.side, e.attacker_zone)):
        card = None if direct and who == "defender" else screen.shown.sides[side].monsters[zone]
        if card is None:
            continue
        dx = dy = 0
        if who == "attacker" and flash <= elapsed < flash + lunge:
            k = (elapsed - flash) / max(1, lunge)
            target, start = places["defender"], places["attacker"]
            dx, dy = _lerp((0, 0), ((target[0] - start[0]) // 2, (target[1] - start[1]) // 2),
                           1 - abs(1 - 2 * k))  # there and back
        if who in shakers:
            dx, dy = dx + _jitter(app.frame, 2 * zone), dy + _jitter(app.frame, 2 * zone + 1)
        screen.draw_zone_card(app, fb, side, "monster", zone, card, dx, dy)
    if elapsed < flash and (elapsed // 3) % 2 == 0:
        for x, y in places.values():
            fb.text(x + SMALL[0] // 2 - 3, y + SMALL[1] // 2 - 4, "\u2605", app.colour("star"),
                    app.colour("black"))
    if hit:
        k = (elapsed - flash - lunge) / max(1, p.frames - flash - lunge)
        who = "defender" if direct else HIT.get(e.outcome, "defender")
        amount = e.result if direct or e.outcome in HIT else 0
        _number(app, fb, places[who], -abs(amount), k)


def _battle_frames(pieces: tuple[str, ...]) -> int:
    """A battle's frames: the lunge, the damage, and the star flash if the timeline plays
    one."""
    return FRAMES["lunge"] + FRAMES["damage"] + (FRAMES["star_flash"]
                                                 if "star_flash" in pieces else 0)


def _number(app, fb, xy: tuple[int, int], value: int, k: float) -> None:
    """A damage number rising 16 pixels over the card or bar at ``xy``."""
    text = f"{value:+d}" if value else "0"  # a number 0 shows as it is (D_8015AF18 record 6)
    x = xy[0] + (SMALL[0] - text_width(text)) // 2
    y = xy[1] + SMALL[1] // 2 - round(16 * k)
    fb.text(x, y, text, app.colour("danger" if value < 0 else "good"), app.colour("black"))


def _destroyed(screen, app, fb, p: Playing) -> None:
    """The card breaks into 5 x 7 tiles (the layout of ``func_80149F90``); each column
    loses its tiles bottom-up from its own fixed start."""
    e = p.event
    x, y = screen.zone_xy(e.side, e.row, e.zone)
    image = _face(screen, app, e.card)
    h, w = image.shape
    tw, th = -(-w // timeline.TILE_COLUMNS), -(-h // timeline.TILE_ROWS)
    for col in range(timeline.TILE_COLUMNS):
        delay = ((col * 2654435761) >> 7) % 5 / 20  # 0 .. 0.2 of the time
        gone = int(max(0.0, p.t - delay) / (1 - 0.2) * (timeline.TILE_ROWS + 1))
        keep = timeline.TILE_ROWS - min(gone, timeline.TILE_ROWS)
        if keep <= 0:
            continue
        x0 = col * tw
        fall = round(p.t * 6)
        fb.blit(x + x0, y + fall, image[:keep * th, x0:x0 + tw])


def _life(screen, app, fb, p: Playing) -> None:
    """The change floats up from the side's LP (the bar counts through shown_lp)."""
    e = p.event
    _number(app, fb, screen.lp_xy(e.side), e.delta, p.t)


def terrain_cut(playing: Playing | None, height: int) -> int:
    """How many rows from the top of the field already show the new terrain's colour."""
    if playing is None or playing.event.kind != "terrain":
        return height
    return round(height * playing.t)


def _turn(screen, app, fb, p: Playing) -> None:
    """A band across the field with the number of the turn being played (as the panel and
    the log count it) and its player, sliding in and out."""
    e = p.event
    width = screen.field_width
    text = f"TURN {turns_played(e.side, e.turn)}   {screen.side_name(e.side).upper()}"
    y = screen.showcase_xy()[1] + SMALL[1] // 2 - CELL_H
    k = p.t
    slide = 0.25
    offset = round(width * (1 - k / slide)) if k < slide else \
        round(-width * (k - 1 + slide) / slide) if k > 1 - slide else 0
    fb.fill(offset, y, width, 2 * CELL_H, app.colour("black"))
    fb.fill(offset, y + 1, width, 1, app.colour("highlight"))
    fb.fill(offset, y + 2 * CELL_H - 2, width, 1, app.colour("highlight"))
    fb.text(offset + (width - text_width(text)) // 2, y + CELL_H // 2, text,
            app.colour("highlight"))


def _ended(screen, app, fb, p: Playing) -> None:
    """The result outro: confetti falls over a banner until the hold ends or Cross."""
    e = p.event
    width = screen.field_width
    for i in range(CONFETTI):
        seed = (i * 2654435761) & 0xFFFFFFFF
        x = seed % width
        speed = 1 + (seed >> 8) % 3
        y = ((seed >> 12) % fb.height + (p.frames - p.left) * speed) % fb.height
        role = ("highlight", "good", "danger", "cursor")[i % 4]
        fb.fill(x, y, 3, 2, app.colour(role))
    text = screen.winner_line(e)
    y = screen.showcase_xy()[1] + SMALL[1] // 2 - CELL_H
    fb.fill(0, y, width, 2 * CELL_H, app.colour("black"))
    fb.text((width - text_width(text)) // 2, y + CELL_H // 2, text, app.colour("highlight"))


_PAINTERS = {"draw": _draw_card_event, "placed": _placed, "flip": _flip,
             "position": _position, "fusion": _fusion, "equip": _equip, "battle": _battle,
             "destroyed": _destroyed, "life": _life, "turn": _turn,
             "ended": _ended}
