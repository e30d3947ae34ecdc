"""Helpers for FM scenario tests: duels from fixed decks and hand-made boards."""

from __future__ import annotations

from emucore import tables as T
from emucore.fm import state as S
from emucore.fm.engine import FmDuel
from emucore.hw.psyq_rand import Rand

FILLER = 9  # a plain monster used to pad decks (Beast of Talwar? any id works)


def deck(*front: int, filler: int = FILLER) -> list[int]:
    """A 40-card deck whose first cards are ``front`` (drawn in that order)."""
    cards = list(front)
    pad = [c for c in range(100, 200) if T.load("fm").is_monster(c)]
    i = 0
    while len(cards) < 40:
        cards.append(pad[i])
        i += 1
    return cards


def duel(player: list[int], cpu: list[int], *, state: int = 0x1234, opponent: int = 1,
         terrain: int = 0, lp: tuple[int, int] = (8000, 8000)) -> FmDuel:
    """A duel over unshuffled decks (draw order = list order)."""
    perm = tuple(range(40))
    return FmDuel(T.load("fm"), S.Shuffle(tuple(player), perm), S.Shuffle(tuple(cpu), perm),
                  Rand(state), opponent=opponent, terrain=terrain, lp=lp)


def past_first_turn(d: FmDuel) -> None:
    """Lift the first-turn attack lock (D_8009B16C & 0x1000), as the first end of turn does,
    for a test that stands for a later turn."""
    d.st.globals.attack_lock[0] = 0


def place(d: FmDuel, side: int, row: str, col: int, card: int, flags: int = 0) -> int:
    """Put ``card`` on the field from the back of ``side``'s deck (a record still in the
    deck is rewritten), so every card stays accounted for. Returns the card record index.
    A board built by hand stands for a duel past its first turn: the first-turn attack lock
    (func_800179F4) is lifted."""
    past_first_turn(d)
    rows = {"monster": S.MONSTERS, "magic": S.MAGIC}
    base = side * 40
    k = next(base + p for p in range(39, -1, -1)
             if d.st.deck_cards.flags[base + p] == S.IN_DECK)
    d.st.deck_cards.card_id[k] = card
    d.st.deck_cards.flags[k] = S.ON_FIELD
    r = d.rec(side, rows[row], col)
    d.setup_record(r, card, k, S.F_OCCUPIED | flags)
    return r


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def accounted(d: FmDuel) -> None:
    """Every one of the 80 deck-card records is in exactly one place, consistently."""
    st = d.st
    for k in range(80):
        side = k // 40
        where = st.deck_cards.flags[k]
        if where == S.IN_DECK:
            assert k % 40 >= st.sides.draw_cursor[side], k
        elif where in (S.IN_HAND, S.ON_FIELD):
            r = st.deck_cards.record[k]
            assert r // 15 == side and d.occupied(r) and d.deck_index_of(r) == k, k
        else:
            assert where == S.GONE
    for r in range(30):
        if d.occupied(r):
            k = d.deck_index_of(r)
            assert st.deck_cards.record[k] == r
    for side in (0, 1):
        for j in range(5):
            k = st.sides.hand[side][j]
            assert (k >= 0) == d.occupied(side * 15 + j)
