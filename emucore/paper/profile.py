"""Rule profiles: each paper rule system is one named set of switches over the same engine."""

from __future__ import annotations

from dataclasses import dataclass

# What happens when a deck runs out (the ``deck_out`` switch):
MORE_LP_WHEN_EMPTY = "more_lp_when_empty"  # the moment a deck empties, more LP wins; equal: draw
LOSE_ON_DRAW = "lose_on_draw"  # a player who must draw from an empty deck loses

# How the first player is chosen (the ``first_player`` switch) unless the setup names one:
ROCK_PAPER_SCISSORS = "rock_paper_scissors"
COIN = "coin"

MAIN_PHASES = frozenset({"main", "main1", "main2"})


@dataclass(frozen=True)
class Profile:
    """The switches that make a rule system. The engine reads nothing else about the rules."""

    name: str
    phases: tuple[str, ...]  # in order; "standby" (and "draw" unless optional) pass by
    # themselves
    start_lp: int
    hand_size: int  # opening hand
    deck_min: int
    deck_max: int | None
    side_size: int | None  # exact side-deck size, None = no side deck
    max_copies: int  # of one card across deck + side deck
    first_player_draws: bool  # on the first turn of the duel
    draw_optional: bool  # the draw phase's card is the player's choice (Draw or NextPhase)
    first_turn_attacks: bool  # attacks allowed on the first turn of the duel
    monsters_per_turn: int  # normal summons (attack face-up or set face-down)
    magic_per_turn: int
    traps_per_turn: int
    position_change: bool  # once per turn per monster in a main phase
    deck_out: str  # MORE_LP_WHEN_EMPTY or LOSE_ON_DRAW
    traps_stay: bool  # a used non-continuous trap stays face-up on the field
    first_player: str  # ROCK_PAPER_SCISSORS or COIN
    exodia_wins: bool  # five different Exodia pieces in hand win

    def is_main(self, phase: str) -> bool:
        """True for the phases where cards are played."""
        return phase in MAIN_PHASES

    def main_follows(self, index: int) -> bool:
        """True when a main phase comes later in the turn than phase number ``index``."""
        return not MAIN_PHASES.isdisjoint(self.phases[index + 1:])
