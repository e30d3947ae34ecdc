"""The player's last turn: every way to win it the engine allows, and the card each leaves
to drop (``emucore plan manip --last-turn``).

The card a won duel drops is ``Duel_SelectCardDrop``'s one ``rand()`` call after the result
outro (:mod:`emucore.fm.rank`), so it hangs on every animation of the turn that wins. From a
duel state at the player's hand phase (or already in its field phase) this module plays, on
the duel itself (``snapshot()``/``restore()``), every legal sequence of the player's turn:

* the hand play: every play ``legal_actions()`` lists (chains of up to ``max_cards`` hand
  cards in order, every landing column, face and guardian star);
* then field actions: every attack of every attacker on every target in every order, every
  activation of a set magic card, and a position change only where it lets a defending
  monster attack (one that attacks from defence is turned round first; nothing else of the
  turn reads a position, as the opponent never acts again);
* ending the turn only where the engine ends the duel there (the CPU cannot draw).

A sequence stops when the duel ends; the ones the player wins are kept. The engine decides
every legality and every result: an action it refuses drops that branch.

Pruning (nothing here re-derives a rule):

* **The same state twice.** Sequences that reach the same state image (RNG state, call
  counter and every record alike) have the same futures: only the one with the fewest
  actions goes on. Many plays leave the same board (a face choice that does not apply, two
  columns that are alike); direct attacks in another order leave the same stream.
* **Views after.** How an attack is watched (``timeline.VIEWS``) changes the stream, never
  the battle: each field phase is searched with every attack in 2-D, then every view of
  every attack that showed a battle on a monster (a direct attack or a sprung trap is 2-D
  whatever the button) is played for the sequences of it that won.
* **A bound.** At most ``budget`` sequences are played, the bound checked before each one (a
  sequence is played one action at a time: each longer sequence counts one, a view variant
  counts one per action from its first changed attack). Every hand play is played first;
  then hand play by hand play, fewest cards first, its whole field phase (by number of
  actions) and its view variants. When the bound is reached, the result says how many hand
  plays were searched to the end: those are complete, the rest untried or cut short.
"""

from __future__ import annotations

import hashlib
import itertools
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from emucore.duel.protocol import IllegalAction
from emucore.fm.actions import (
    AUTO,
    DIRECT,
    Activate,
    AnimationShown,
    Attack,
    Battle,
    ChangePosition,
    Destroyed,
    Ended,
    EndTurn,
    Equip,
    Failure,
    FmAction,
    Fusion,
    LifeChanged,
    Magic,
    Placed,
    Play,
    Trap,
)
from emucore.fm.engine import FmDuel
from emucore.fm.legal import TRAP, kind_of
from emucore.fm.state import PHASE_FIELD, PHASE_HAND, PHASE_OVER
from emucore.fm.timeline import DEFAULT_VIEW, VIEWS
from emucore.tables.fm import STAR_NAMES

PLAYER = 0
DEFAULT_BUDGET = 100_000
MAX_CARDS = 5
VIEW_WORDS = {"2d": "2-D", "3d": "3-D, watched", "3d_circles": "3-D, left at the circles",
              "3d_skip": "3-D, skipped"}


class NotALastTurn(ValueError):
    """The state is not one to plan a last turn from (the message says why, in one line)."""


class _Bound(Exception):
    """The bound on sequences is reached."""


@dataclass(frozen=True)
class Step:
    """One action of a sequence and the ``rand()`` calls its events made."""

    action: FmAction
    rand_calls: int  # the action's own calls (the drop roll not counted)
    viewable: bool  # an attack that showed a battle on a monster: its view is the player's


@dataclass(frozen=True)
class Line:
    """A sequence that wins the duel and what it leaves: the end event (drop, drop_state,
    rank, pool, exact)."""

    steps: tuple[Step, ...]
    end: Ended

    @property
    def actions(self) -> tuple[FmAction, ...]:
        return tuple(s.action for s in self.steps)

    @property
    def rand_calls(self) -> int:
        """Every call from the start state to the drop roll (the result outro's included)."""
        return sum(s.rand_calls for s in self.steps)

    def cost(self) -> tuple[int, int, str]:
        """Cheapest first: fewest actions, then fewest calls (then a fixed order)."""
        return len(self.steps), self.rand_calls, repr([a.to_json() for a in self.actions])


@dataclass
class Result:
    lines: list[Line]  # every winning sequence found, cheapest first
    played: int  # sequences played
    budget: int
    bound_reached: bool
    phase: str  # where the turn started: "hand" or "field"
    views_changed_outcome: int  # view variants that did not win as their 2-D line did
    plays_searched: int  # hand plays whose field phase (and views) was searched to the end
    plays: int  # hand plays listed (0 from the field phase)


def check_start(duel: FmDuel) -> str:
    """``"hand"`` or ``"field"``: where the player's turn stands; :class:`NotALastTurn` when
    the duel is over, the CPU acts, or no CPU opponent gives a drop."""
    if duel.phase == PHASE_OVER:
        raise NotALastTurn("the duel is over; plan from an earlier step (--step N)")
    if duel.acting_side != PLAYER:
        raise NotALastTurn("it is the CPU's turn, not the player's; plan from a step at the "
                           "player's hand or field phase (--step N)")
    if duel.opponent <= 0:
        raise NotALastTurn("a two-player duel drops no card")
    return "hand" if duel.phase == PHASE_HAND else "field"


def search(duel: FmDuel, max_cards: int = MAX_CARDS, budget: int = DEFAULT_BUDGET) -> Result:
    """Every winning sequence of the player's turn from ``duel``'s state, cheapest first
    (the duel is left in its start state)."""
    if not 1 <= max_cards <= MAX_CARDS:
        raise ValueError(f"max cards {max_cards} outside 1..{MAX_CARDS}")
    phase = check_start(duel)
    run = _Search(duel, max_cards, budget)
    try:
        run.run()
    except _Bound:
        pass
    finally:
        duel.restore(run.root)
    lines = sorted(run.best.values(), key=Line.cost)
    return Result(lines, run.played, budget, run.full, phase, run.surprises, run.plays_done,
                  run.plays)


def _key(image: bytes) -> bytes:
    return hashlib.blake2b(image, digest_size=16).digest()


class _Search:
    def __init__(self, duel: FmDuel, max_cards: int, budget: int) -> None:
        self.duel, self.max_cards, self.budget = duel, max_cards, budget
        self.root = duel.snapshot()
        self.played = 0
        self.full = False
        self.seen: dict[bytes, int] = {_key(self.root): 0}
        self.best: dict[bytes, Line] = {}  # final state -> the first (cheapest) line to it
        self.surprises = 0
        self.plays = self.plays_done = 0

    # ------------------------------------------------------------------ playing
    def _step(self, action: FmAction) -> list | None:
        """Play one action on the duel as it stands (one more sequence: the bound is checked
        first); None when the engine refuses it."""
        if self.played >= self.budget:
            self.full = True
            raise _Bound
        self.played += 1
        try:
            return self.duel.step(action)
        except IllegalAction:
            return None

    @staticmethod
    def _made(action: FmAction, events: list) -> Step:
        calls = action.rng_calls + sum(e.rand_calls for e in events if not isinstance(e, Ended))
        viewable = isinstance(action, Attack) and action.target != DIRECT and \
            any(isinstance(e, Battle) for e in events) and \
            not any(isinstance(e, Trap) for e in events)
        return Step(action, calls, viewable)

    def _won(self, steps: tuple[Step, ...], events: list) -> None:
        end = next((e for e in reversed(events) if isinstance(e, Ended)), None)
        if end is None or end.winner != PLAYER:
            return
        key = _key(self.duel.snapshot())
        line = Line(steps, end)
        if key not in self.best or Line.cost(line) < Line.cost(self.best[key]):
            self.best[key] = line

    # ------------------------------------------------------------------ the skeletons
    def run(self) -> None:
        """Hand play by hand play (fewest cards first), each with its whole field phase and
        then its view variants; from the field phase, that phase alone."""
        if self.duel.phase != PHASE_HAND:
            self._field_phase((), zlib.compress(self.root, 1))
            return
        starts = self._hand_plays()
        for steps, packed, plays in starts:
            self._field_phase(steps, packed)
            self.plays_done += plays

    def _hand_plays(self) -> list[tuple[tuple[Step, ...], bytes, int]]:
        """Every hand play from the start, each state it leaves once (the play of fewest
        cards kept, with how many plays leave that state): the field phases to search. A
        play that ends the duel is a line, and one the engine refuses is done with."""
        d = self.duel
        d.restore(self.root)
        plays = sorted(self._moves(self.root), key=lambda move: len(move[0].cards))
        self.plays = len(plays)
        starts: dict[bytes, list] = {}
        done = 0
        for (play,) in plays:
            d.restore(self.root)
            events = self._step(play)
            if events is None or d.phase != PHASE_FIELD:
                done += 1
                if events is not None and d.over:
                    self._won((self._made(play, events),), events)
                continue
            key = _key(d.snapshot())
            if key in starts:
                starts[key][2] += 1
                continue
            self.seen[key] = 1
            starts[key] = [(self._made(play, events),), zlib.compress(d.snapshot(), 1), 1]
        self.plays_done = done
        return [tuple(start) for start in starts.values()]

    def _field_phase(self, steps: tuple[Step, ...], packed: bytes) -> None:
        """Every sequence of field actions from one state (each attack in 2-D), by number
        of actions; then every view of the lines it won."""
        before = dict(self.best)
        depth = len(steps)
        buckets: dict[int, list[tuple[tuple[Step, ...], bytes, bytes]]] = {
            depth: [(steps, _key(zlib.decompress(packed)), packed)]}
        while buckets:
            for line, key, state in buckets.pop(depth, ()):
                if self.seen.get(key, depth) < depth:
                    continue  # reached again with fewer actions since
                self._expand(line, zlib.decompress(state), depth, buckets)
            depth += 1
        self.views([line for key, line in self.best.items() if before.get(key) is not line])

    def _moves(self, image: bytes) -> Iterator[tuple[FmAction, ...]]:
        """The first actions to try from ``image`` (the duel stands there)."""
        d = self.duel
        actions = d.legal_actions()
        if d.phase == PHASE_HAND:
            yield from ((a,) for a in actions if isinstance(a, Play)
                        and len(a.cards) <= self.max_cards)
            return
        turns = []
        for a in actions:
            if isinstance(a, ChangePosition):
                card = d.card(PLAYER, "monster", a.zone)
                if card is not None and card.defending:
                    turns.append(a)
            else:
                yield (a,)
        for turn in turns:  # a defending monster turned round, then each attack it may make
            d.restore(image)
            if self._step(turn) is None:
                continue
            attacks = [a for a in d.legal_actions()
                       if isinstance(a, Attack) and a.attacker == turn.zone]
            yield from ((turn, a) for a in attacks)

    def _expand(self, steps: tuple[Step, ...], image: bytes, depth: int,
                buckets: dict[int, list[tuple[tuple[Step, ...], bytes, bytes]]]) -> None:
        d = self.duel
        d.restore(image)
        for move in list(self._moves(image)):
            d.restore(image)
            made: list[Step] = []
            events: list = []
            for action in move:
                events = self._step(action)
                if events is None:
                    break
                made.append(self._made(action, events))
            if len(made) < len(move):
                continue
            line = steps + tuple(made)
            if d.over:
                self._won(line, events)
                continue
            if isinstance(move[-1], EndTurn) or d.phase != PHASE_FIELD:
                continue  # the CPU's turn: not a last turn
            after = d.snapshot()
            key = _key(after)
            reached = depth + len(move)
            if self.seen.get(key, reached + 1) <= reached:
                continue
            self.seen[key] = reached
            buckets.setdefault(reached, []).append((line, key, zlib.compress(after, 1)))

    # ------------------------------------------------------------------ the views
    def views(self, lines: list[Line]) -> None:
        """Every view of every attack that showed a battle on a monster, for each of
        ``lines`` (cheapest first)."""
        for line in sorted(lines, key=Line.cost):
            spots = [i for i, s in enumerate(line.steps) if s.viewable]
            for choice in itertools.product(VIEWS, repeat=len(spots)):
                changed = [(i, v) for i, v in zip(spots, choice, strict=True)
                           if v != DEFAULT_VIEW]
                if changed:
                    self._variant(line, dict(changed))

    def _variant(self, line: Line, views: dict[int, str]) -> None:
        d = self.duel
        d.restore(self.root)
        first = min(views)
        made: list[Step] = list(line.steps[:first])
        for s in made:  # the line's own prefix: played already
            d.step(s.action)
        events: list = []
        for i in range(first, len(line.steps)):
            action = line.steps[i].action
            if i in views:
                action = replace(action, view=views[i])
            events = self._step(action)
            if events is None:
                break
            made.append(self._made(action, events))
            if d.over:
                break
        if len(made) == len(line.steps) and d.over and d.winner == PLAYER:
            self._won(tuple(made), events)
        else:  # a view that changed what happened, not only the stream
            self.surprises += 1


# ----------------------------------------------------------------------------- words
def describe(duel: FmDuel, line: Line) -> list[dict[str, Any]]:
    """Each action of ``line`` in words, with its JSON (what ``fm duel --script`` reads), its
    calls and the animations it showed, replayed from ``duel``'s state (left unchanged)."""
    start = duel.snapshot()
    out = []
    try:
        for step in line.steps:
            words = _words(duel, step.action)
            events = duel.step(step.action)
            result = _result_words(duel, events)
            out.append({"action": step.action.to_json(),
                        "words": words + (f" ({result})" if result else ""),
                        "rand_calls": step.rand_calls,
                        "animations": [[e.name, e.rand_calls] for e in events
                                       if isinstance(e, AnimationShown)]})
    finally:
        duel.restore(start)
    return out


def _name(duel: FmDuel, card: int) -> str:
    return str(duel.tables.names[card])


def _zone_card(duel: FmDuel, side: int, row: str, col: int) -> str:
    view = duel.card(side, row, col)
    return f"{_name(duel, view.card)} (column {col})" if view else f"column {col}"


def _words(duel: FmDuel, action: FmAction) -> str:
    """The action in words, from the board before it."""
    if isinstance(action, Play):
        hand = duel.hand(PLAYER)
        cards = " + ".join(f"{_name(duel, hand[p])} (hand {p})" for p in action.cards)
        how = "combine" if len(action.cards) > 1 else "play"
        where = ""
        if action.zone != AUTO:
            first = hand[action.cards[0]]
            row = "magic" if len(action.cards) == 1 and not duel.tables.is_monster(first) and (
                action.face_down or kind_of(duel.card_type(first)) == TRAP) else "monster"
            target = duel.card(PLAYER, row, action.zone)
            where = (f" onto {_name(duel, target.card)} ({row} column {action.zone})"
                     if target else f" in {row} column {action.zone}")
        face = " face-down" if action.face_down else ""
        star = ", second guardian star" if action.star else ""
        return f"{how} {cards}{where}{face}{star}"
    if isinstance(action, Attack):
        attacker = _zone_card(duel, PLAYER, "monster", action.attacker)
        if action.target == DIRECT:
            return f"{attacker} attacks directly"
        target = _zone_card(duel, 1 - PLAYER, "monster", action.target)
        return f"{attacker} attacks {target}, {VIEW_WORDS.get(action.view, action.view)}"
    if isinstance(action, ChangePosition):
        return f"{_zone_card(duel, PLAYER, 'monster', action.zone)} changes position"
    if isinstance(action, Activate):
        text = f"activate {_zone_card(duel, PLAYER, 'magic', action.zone)}"
        if action.target != AUTO:
            text += f" onto {_zone_card(duel, PLAYER, 'monster', action.target)}"
        return text + (", second guardian star" if action.star else "")
    if isinstance(action, EndTurn):
        return "end the turn"
    return action.kind


def _result_words(duel: FmDuel, events: Sequence[Any]) -> str:
    """What the engine's events say happened, briefly."""
    said = []
    for e in events:
        if isinstance(e, Fusion):
            said.append(f"fusion: {_name(duel, e.result)}")
        elif isinstance(e, Equip):
            said.append(f"equip {_name(duel, e.equip)} +{e.bonus}")
        elif isinstance(e, Failure):
            said.append(f"{_name(duel, e.discarded)} fails and flies off")
        elif isinstance(e, Placed) and e.side == PLAYER and e.row == "monster":
            stars = (duel.tables.star_1, duel.tables.star_2)
            said.append(f"{_name(duel, e.card)} placed, "
                        f"{STAR_NAMES[int(stars[e.star][e.card])]}")
        elif isinstance(e, Magic):
            said.append(f"{_name(duel, e.card)}: {e.effect}")
        elif isinstance(e, Trap):
            said.append(f"trap {_name(duel, e.card)} springs")
        elif isinstance(e, Battle) and e.outcome != "direct":
            said.append(e.outcome.replace("_", " "))
        elif isinstance(e, Destroyed) and e.row == "monster":
            said.append(f"{_name(duel, e.card)} destroyed")
        elif isinstance(e, LifeChanged):
            said.append(f"{'CPU' if e.side else 'player'} LP {e.lp}")
        elif isinstance(e, Ended):
            said.append(f"{'player' if e.winner == PLAYER else 'CPU'} wins ({e.reason})")
    return "; ".join(said)
