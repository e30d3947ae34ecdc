"""What the FM screens share: the game object, card faces from the FM tables, sounds per
duel event."""

from __future__ import annotations

from emucore.frontend.app import App, Screen
from emucore.frontend.cards import CardFace
from emucore.frontend.systems.fm.session import FmGame
from emucore.tables.fm import KINDS, STAR_NAMES, TERRAINS, TYPE_NAMES

# Our own two-letter type glyphs, in the order of emucore.tables.fm.TYPE_NAMES.
TYPE_GLYPHS = ("DR", "SP", "ZO", "WA", "BW", "BE", "WB", "FI", "FA", "IN", "DI", "RE", "FS",
               "SS", "MA", "TH", "AQ", "PY", "RO", "PL", "MG", "TR", "RI", "EQ")
assert len(TYPE_GLYPHS) == len(TYPE_NAMES)
TERRAIN_NAMES = ("Normal",) + tuple(t.capitalize() for t in TERRAINS)

EVENT_SOUNDS = {"draw": "draw", "fusion": "fusion", "equip": "magic", "failure": "error",
                "battle": "battle", "trap": "trap", "magic": "magic", "life": "damage",
                "ritual": "fusion", "terrain": "magic"}


class FmScreen(Screen):
    """An FM screen: holds the shared :class:`FmGame` and the screen to go back to."""

    def __init__(self, game: FmGame, back: Screen | None = None) -> None:
        self.game = game
        self.back = back


def card_face(game: FmGame, card: int) -> CardFace:
    """The face of FM card ``card`` from the tables (cached on the game)."""
    face = game.faces.get(card)
    if face is None:
        face = game.faces[card] = _face(game, card)
    return face


def _face(game: FmGame, card: int) -> CardFace:
    t = game.tables
    kind = KINDS[int(t.kind[card])]
    ctype = int(t.type_id[card])
    if kind == "monster":
        return CardFace(t.names[card], kind, int(t.atk[card]), int(t.def_[card]),
                        int(t.level[card]), TYPE_GLYPHS[ctype], card)
    return CardFace(t.names[card], kind, glyph=TYPE_GLYPHS[ctype], number=card)


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
