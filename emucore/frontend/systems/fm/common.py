"""What the FM screens share: the game object, card faces from the FM tables, sounds per
duel event."""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.cardart import ArtFacts
from emucore.frontend.cards import CardFace
from emucore.frontend.framebuffer import CELL_H, Framebuffer
from emucore.frontend.systems.fm import cardtext
from emucore.frontend.systems.fm.session import FmGame
from emucore.tables.fm import KINDS, STAR_NAMES, TERRAINS, TYPE_NAMES

TERRAIN_NAMES = ("Normal",) + tuple(t.capitalize() for t in TERRAINS)

EVENT_SOUNDS = {"draw": "draw", "fusion": "fusion", "equip": "magic", "failure": "error",
                "battle": "battle", "trap": "trap", "magic": "magic", "life": "damage",
                "ritual": "fusion", "terrain": "magic"}


class FmScreen(Screen):
    """An FM screen: holds the shared :class:`FmGame` and the screen to go back to."""

    music = "menu"

    def __init__(self, game: FmGame, back: Screen | None = None) -> None:
        self.game = game
        self.back = back


def card_face(game: FmGame, card: int) -> CardFace:
    """The face of FM card ``card`` from the tables (cached on the game)."""
    face = game.faces.get(card)
    if face is None:
        face = game.faces[card] = _face(game, card)
    return face


def card_art(game: FmGame, card: int) -> ArtFacts:
    """The facts of an FM card's picture: monsters the silhouette of their type, figure
    tinted by the first guardian star and ground by the second; other cards the silhouette
    and colours of their kind (a field card's ground: its terrain's ramp is the field one)."""
    t = game.tables
    kind = KINDS[int(t.kind[card])]
    if kind == "monster":
        return ArtFacts(TYPE_NAMES[int(t.type_id[card])], STAR_NAMES[int(t.star_1[card])].lower(),
                        STAR_NAMES[int(t.star_2[card])].lower(), card)
    return ArtFacts(kind.capitalize(), kind, kind, card)


def _face(game: FmGame, card: int) -> CardFace:
    t = game.tables
    kind = KINDS[int(t.kind[card])]
    if kind == "monster":
        return CardFace(t.names[card], kind, int(t.atk[card]), int(t.def_[card]),
                        int(t.level[card]), card, card_art(game, card),
                        TYPE_NAMES[int(t.type_id[card])])
    return CardFace(t.names[card], kind, number=card, art=card_art(game, card),
                    type_name=kind, emblem=cardtext.emblem(t, card),
                    line=cardtext.effect_line(t, card))


def stars_text(game: FmGame, card: int) -> str:
    """The two guardian stars of a monster, e.g. "Sun / Moon"."""
    t = game.tables
    return f"{STAR_NAMES[int(t.star_1[card])]} / {STAR_NAMES[int(t.star_2[card])]}"


def star_name(game: FmGame, card: int, which: int) -> str:
    t = game.tables
    return STAR_NAMES[int((t.star_1 if which == 0 else t.star_2)[card])]


def type_name(game: FmGame, card: int) -> str:
    return TYPE_NAMES[int(game.tables.type_id[card])]


def menu_tick(app: App, game: FmGame) -> None:
    """Per-frame work of every menu screen: the menu's ``rand()`` call."""
    game.menu_frame()


def draw_selection(app: App, fb: Framebuffer, x: int, y: int, w: int) -> None:
    """The selected row of a list: a dark band with bright ends, so that both bright and
    dim text stay readable on it (WCAG 4.5:1 for text and text_dim on ``panel``)."""
    fb.fill(x, y - 1, w, CELL_H, app.colour("panel"))
    fb.fill(x - 2, y - 1, 2, CELL_H, app.colour("cursor"))
    fb.fill(x + w, y - 1, 2, CELL_H, app.colour("cursor"))
