"""The public frozen view of an FM duel: a read-only picture of the board for the screens,
taken after each step through the engine's public board view (``FmDuel.card/lp/counters/
deck_remaining/terrain``), never through its records; and the board as shown while a
step's messages play, changed event by event so that nothing on the board moves before the
message that explains it. It sits beside the engine so that a screen needs neither the
state module's flag bits nor the records: it reads this view and the duel's protocol."""

from __future__ import annotations

from dataclasses import dataclass, replace

from emucore.fm import state as S
from emucore.fm.engine import CardView, FmDuel

ROWS = ("hand", "monster", "magic")


@dataclass(frozen=True)
class SideView:
    lp: int
    deck_left: int
    hand: tuple[CardView | None, ...]
    monsters: tuple[CardView | None, ...]
    magic: tuple[CardView | None, ...]
    counters: dict[str, int]
    swords: int

    def row(self, name: str) -> tuple[CardView | None, ...]:
        return {"hand": self.hand, "monster": self.monsters, "magic": self.magic}[name]


@dataclass(frozen=True)
class BoardView:
    sides: tuple[SideView, SideView]
    acting_side: int
    over: bool
    terrain: int
    winner: int | None  # None while the duel runs
    rng_state: int


def board_view(duel: FmDuel) -> BoardView:
    """Everything the duel screen draws, read once after a step."""
    sides = []
    for side in (0, 1):
        rows = [tuple(duel.card(side, row, col) for col in range(S.ROW_WIDTH)) for row in ROWS]
        sides.append(SideView(duel.lp(side), len(duel.deck_remaining(side)), *rows,
                              duel.counters(side), duel.swords(side)))
    return BoardView((sides[0], sides[1]), duel.acting_side, duel.over, duel.terrain,
                     duel.winner, duel.rng_fork().state)


def with_hands(shown: BoardView, real: BoardView) -> BoardView:
    """The board as shown at the start of a step's messages: the zones, LP and terrain as
    they were, the hands, decks and counters as they are now (cards leave the hand as the
    play begins); the turn passes with its own event."""
    sides = tuple(replace(old, hand=new.hand, deck_left=new.deck_left, counters=new.counters,
                          swords=new.swords)
                  for old, new in zip(shown.sides, real.sides, strict=True))
    return replace(real, sides=sides, terrain=shown.terrain, acting_side=shown.acting_side)


def apply(shown: BoardView, event) -> BoardView:
    """The shown board after one event's message has played: a card arrives, flips, turns,
    attacks or leaves; LP and terrain change. Event kinds it does not know change nothing
    (the board is made true again from the engine once the step's messages have played)."""
    kind = event.kind
    if kind == "turn":
        return replace(shown, acting_side=event.side)
    if kind == "terrain":
        return replace(shown, terrain=event.terrain)
    if kind == "life":
        return _side(shown, event.side, lp=event.lp)
    if kind == "placed":
        flags = S.F_OCCUPIED | (S.F_FACE_DOWN if event.face_down else 0)
        card = CardView(event.card, 0, 0, flags, 0, event.star, 0)
        return _zone(shown, event.side, event.row, event.zone, card)
    if kind == "destroyed":
        return _zone(shown, event.side, event.row, event.zone, None)
    if kind == "flip":
        return _flags(shown, event.side, event.row, event.zone, clear=S.F_FACE_DOWN)
    if kind == "position":
        bit = S.F_DEFENCE
        return _flags(shown, event.side, "monster", event.zone, set_=bit if event.defense else 0,
                      clear=0 if event.defense else bit)
    if kind == "battle":
        return _flags(shown, event.side, "monster", event.attacker_zone, set_=S.F_USED)
    return shown


def _side(shown: BoardView, side: int, **changes) -> BoardView:
    sides = list(shown.sides)
    sides[side] = replace(sides[side], **changes)
    return replace(shown, sides=(sides[0], sides[1]))


def _zone(shown: BoardView, side: int, row: str, zone: int, card: CardView | None) -> BoardView:
    if row not in ("monster", "magic") or not 0 <= zone < 5:
        return shown
    cards = list(shown.sides[side].row(row))
    cards[zone] = card
    field = "monsters" if row == "monster" else "magic"
    return _side(shown, side, **{field: tuple(cards)})


def _flags(shown: BoardView, side: int, row: str, zone: int, set_: int = 0,
           clear: int = 0) -> BoardView:
    if row not in ("monster", "magic") or not 0 <= zone < 5:
        return shown
    card = shown.sides[side].row(row)[zone]
    if card is None:
        return shown
    return _zone(shown, side, row, zone, replace(card, flags=(card.flags | set_) & ~clear))
