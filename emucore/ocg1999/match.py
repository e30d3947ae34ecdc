"""Match play under the 1999 Official Rules: three duels, side-deck swaps, ante, star chips.

- A match is at most three duels; two wins win it. When three duels are played without a
  player reaching two wins ("1 win 2 draws", "1 win 1 loss 1 draw", "3 draws") the match is a
  draw.
- Between duels each player may swap cards one for one between the deck and the side deck
  (:meth:`Match.swap`); the deck keeps its size and the side deck stays at ten.
- Ante (optional, by agreement; rulebook p. 9): each duel sets the top card of each deck
  aside as the bet; the winner takes the loser's bet card, which is barred for the rest of
  the match (it leaves the loser's deck); the winner's own bet card, and both bet cards of a
  drawn duel, go back to their decks. A deck a lost bet card takes below 40 may be made up
  from the side deck (:meth:`Match.make_up`).
- Star chips (bronze 1, silver 5, gold 10) wagered on the match go to the match winner; on a
  drawn match each keeps its own.
- Duel seeds come from the match's own ``rand()`` stream: ``(rand() << 15) | rand()`` per
  duel. Every duel's first player is settled by rock-paper-scissors (the rulebook's per-duel
  procedure); the option ``loser_goes_first`` lets the loser of a decided duel go first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from emucore.duel.protocol import DRAW, IllegalAction
from emucore.hw.psyq_rand import Rand
from emucore.paper.cards import MONSTER
from emucore.paper.decks import DeckList, check_deck
from emucore.paper.engine import PaperDuel
from emucore.paper.system import PaperSystem

DUELS = 3
WINS_NEEDED = 2
CHIPS = {"bronze": 1, "silver": 5, "gold": 10}
MAX_COMPUTER_SWAPS = 3
REMOVAL = ("destroy_opponent_monsters", "destroy_all_monsters", "destroy_weakest_opponent")


def chip_value(text: str) -> int:
    """The value of a wager written as chip names, e.g. ``gold,silver,bronze`` -> 16."""
    total = 0
    for name in filter(None, (t.strip().lower() for t in text.split(","))):
        if name not in CHIPS:
            raise ValueError(f"unknown star chip {name!r} (bronze, silver or gold)")
        total += CHIPS[name]
    return total


def match_result(results: Sequence[int]) -> int | None:
    """0 or 1 for the match winner, -1 (DRAW) for a drawn match, None while it goes on."""
    for side in (0, 1):
        if list(results).count(side) >= WINS_NEEDED:
            return side
    return DRAW if len(results) >= DUELS else None


@dataclass
class Match:
    """A best-of-three match between two deck lists (with side decks)."""

    system: PaperSystem
    decks: list[DeckList]
    seed: int
    ante: bool = False
    wagers: tuple[int, int] = (0, 0)
    loser_goes_first: bool = False  # a house option; the rulebook plays rock-paper-scissors
    results: list[int] = field(default_factory=list)
    barred: list[list[int]] = field(default_factory=lambda: [[], []])  # bet cards lost
    won: list[list[int]] = field(default_factory=lambda: [[], []])  # bet cards taken
    duel: PaperDuel | None = None

    def __post_init__(self) -> None:
        for who, deck in enumerate(self.decks):
            check_deck(self.system.profile, self.system.catalogue, deck,
                       f"player {who + 1} deck")
        self.rng = Rand(self.seed & 0xFFFFFFFF)
        self.started = 0

    @property
    def winner(self) -> int | None:
        return match_result(self.results)

    @property
    def over(self) -> bool:
        return self.winner is not None

    def _between_duels(self, what: str) -> None:
        if self.over:
            raise IllegalAction("match-over", f"the match is over; no {what}")
        if self.duel is not None and not self.duel.over:
            raise IllegalAction("between-duels", f"{what} only between duels")

    def next_duel(self) -> PaperDuel:
        """Start the next duel (bet cards lost are out of the decks)."""
        self._between_duels("new duel")
        if self.duel is not None:
            self._settle(self.duel)
        seed = (self.rng.rand() << 15) | self.rng.rand()
        first = None
        if self.loser_goes_first and self.results and self.results[-1] != DRAW:
            first = 1 - self.results[-1]
        decks = [self.deck_now(i) for i in (0, 1)]
        # A lost bet card may leave a deck below 40 when the side deck cannot make it up.
        self.duel = PaperDuel(self.system.profile, self.system.catalogue, decks, seed, first,
                              self.ante, check_decks=False)
        self.started += 1
        return self.duel

    def finish(self) -> None:
        """Record the current duel's result once it is over."""
        if self.duel is None or not self.duel.over:
            raise IllegalAction("duel-running", "the current duel is not over")
        self._settle(self.duel)

    def _settle(self, duel: PaperDuel) -> None:
        if len(self.results) == self.started:
            return
        winner = duel.winner
        self.results.append(winner)
        if winner != DRAW:
            bet = duel.state.sides[1 - winner].ante
            self.barred[1 - winner] += bet
            self.won[winner] += bet

    def deck_now(self, side: int) -> DeckList:
        """``side``'s deck for the next duel: its deck list without the bet cards it lost."""
        deck = self.decks[side]
        return replace(deck, main=_without(deck.main, self.barred[side]))

    def short(self, side: int) -> int:
        """How many cards ``side``'s deck lacks of the rules' minimum (0 when none)."""
        return max(0, self.system.profile.deck_min - len(self.deck_now(side).main))

    def make_up(self, side: int, in_card: int) -> None:
        """Move ``in_card`` from ``side``'s side deck into a deck that lost bet cards below
        the minimum (rulebook p. 9)."""
        self._between_duels("deck make-up")
        deck = self.decks[side]
        if not self.short(side):
            raise IllegalAction("deck-not-short", f"player {side + 1}'s deck lacks no card")
        if in_card not in deck.side:
            raise IllegalAction("side-deck-swap", f"card {in_card} is not in the side deck")
        side_deck = list(deck.side)
        side_deck.remove(in_card)
        self.decks[side] = replace(deck, main=deck.main + (in_card,), side=tuple(side_deck))

    def swap(self, side: int, out_card: int, in_card: int) -> None:
        """Swap ``out_card`` from ``side``'s deck with ``in_card`` from its side deck."""
        self._between_duels("side-deck swap")
        deck = self.decks[side]
        if out_card not in self.deck_now(side).main:
            raise IllegalAction("side-deck-swap", f"card {out_card} is not in the deck")
        if in_card not in deck.side:
            raise IllegalAction("side-deck-swap", f"card {in_card} is not in the side deck")
        main, side_deck = list(deck.main), list(deck.side)
        main[main.index(out_card)] = in_card
        side_deck[side_deck.index(in_card)] = out_card
        self.decks[side] = replace(deck, main=tuple(main), side=tuple(side_deck))

    def chips(self) -> tuple[int, int]:
        """Each player's star-chip gain (negative: loss) once the match is over."""
        winner = self.winner
        if winner in (None, DRAW):
            return (0, 0)
        stake = self.wagers[1 - winner]
        return (stake, -stake) if winner == 0 else (-stake, stake)


def _without(cards: tuple[int, ...], removed: list[int]) -> tuple[int, ...]:
    """``cards`` with one copy of each removed card taken out."""
    out = list(cards)
    for card in removed:
        if card in out:
            out.remove(card)
    return tuple(out)


def computer_swaps(match: Match, side: int) -> list[tuple[int, int]]:
    """The computer's siding rule after a lost duel: bring in side-deck magic that destroys
    monsters (Raigeki, Dark Hole, Fissure) for the lowest-ATK monsters of the deck, at most
    MAX_COMPUTER_SWAPS; nothing after a win or a draw."""
    if not match.results or match.results[-1] != 1 - side:
        return []
    cards = match.system.catalogue
    deck = match.decks[side]
    removal = [c for c in deck.side if cards[c].effect in REMOVAL]
    usable = match.deck_now(side).main
    weakest = sorted((c for c in set(usable) if cards[c].kind == MONSTER),
                     key=lambda c: (cards[c].atk, c))
    return [(out_card, in_card)
            for in_card, out_card in zip(removal[:MAX_COMPUTER_SWAPS], weakest, strict=False)]


def computer_make_up(match: Match, side: int) -> list[int]:
    """The side-deck cards the computer brings in for the bet cards it lost, as many as its
    deck lacks: monster removal first, then the highest-ATK monsters, then the rest."""
    cards = match.system.catalogue

    def worth(card: int) -> tuple[bool, int, int]:
        return (cards[card].effect in REMOVAL, cards[card].atk, -card)

    return sorted(match.decks[side].side, key=worth, reverse=True)[:match.short(side)]
