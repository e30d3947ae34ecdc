"""Whole-run route search: every start index of a chunk through the spec's links in order.

A *partial route* is a start index with the RNG state and deck its links so far left. Each
link maps partial routes to partial routes:

* the **starter** link (first only) keeps the indices whose starter deck holds the wanted
  cards. Over a range of consecutive indices it runs the vectorised lane search
  (:func:`emucore.planning.starter.search`) before anything else, so only survivors reach
  the duels; the survivor's deck and the state after it come from the scalar engine routine
  :func:`emucore.fm.deck.starter_deck`.
* a **duel** link tries every number of frames waited in its range (one ``rand()`` per
  frame on the Free Duel screen, :data:`CALLS_PER_FRAME`). The player's opening hand is
  checked first (a shuffle of the player's deck, 320 calls, no duel); then the duel is
  played to its end by the embedded AI on both sides (:func:`emucore.fm.ai.sim.play_duel`,
  the same duel ``fm sim`` plays) or, for ``player = "script"``, the player's script with
  its fallback, and kept when its outcome is the one asked for. The next
  link starts from the state the duel ended in (after the drop roll).

With ``--disc`` every duel is played with the disc's AI programs and ``duel_effects`` tables
(:class:`DiscData`, sent to the workers as data with the spec); the route lines then name
the tables' digest.

A route is a start index with one choice of frames per duel link that passes every link.
Routes are sorted by :func:`cost_key`: frames waited in all, then turns played in all, then
the index and the frames link by link (a total order, so every run writes the same file).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from emucore import tables as loader
from emucore.duel.files import quoted, want_dict, want_int, want_int_list
from emucore.fm import deck as fm_deck
from emucore.fm.ai.disc import Programs
from emucore.fm.ai.sim import play_duel
from emucore.fm.overlay import BUILT_IN, OverlayTables
from emucore.fm.replay import ENGINE_VERSION, RNG_VERSION
from emucore.fm.setup import FmSetup
from emucore.hw import psyq_rand
from emucore.planning import starter
from emucore.planning.route_spec import (
    INDEX_LIMIT,
    OPENING_DRAWS,
    WAIT_LIMIT,
    DuelLink,
    RouteSpec,
    StarterLink,
    frame_choices,
    rank_at_least,
)
from emucore.tables.fm import FmTables

CALLS_PER_FRAME = 1  # the Free Duel screen calls rand() once a frame (the premise)
VERSION = {"fm_engine": ENGINE_VERSION, "rng": RNG_VERSION}  # in every route line


@dataclass(frozen=True)
class DiscData:
    """What ``--disc`` gives every duel of a run: the ``duel_effects`` tables and the AI
    programs (None: the embedded AI)."""

    effects: OverlayTables = BUILT_IN
    programs: Programs | None = None

    def header(self) -> dict[str, Any]:
        """What a journal's header and every route line record of it."""
        return {"effects": None if self.effects is BUILT_IN else self.effects.digest(),
                "ai": "disc" if self.programs is not None else "embedded"}

    def setup_effects(self) -> str | None:
        """:attr:`emucore.fm.setup.FmSetup.effects` for the run's duels."""
        return None if self.effects is BUILT_IN else self.effects.digest()


@dataclass(frozen=True)
class Partial:
    """A start and what its links so far left: the RNG state, the starter deck, the steps."""

    index: int | None
    state: int
    deck: tuple[int, ...] | None
    steps: tuple[dict[str, Any], ...] = ()


CHUNK_KEYS = {"start", "count", "kept", "duels", "outcomes", "routes"}  # a journal's record


@dataclass
class Chunk:
    """What one chunk of start indices gave: its routes and the counts the summary adds."""

    start: int
    count: int
    kept: list[int]  # per link: start indices with a partial route still alive after it
    duels: int  # duels simulated
    outcomes: dict[str, int]  # "link N: win A-POW" / "link N: loss" -> duels
    routes: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "count": self.count, "kept": self.kept,
                "duels": self.duels, "outcomes": self.outcomes, "routes": self.routes}

    @classmethod
    def from_json(cls, data: Any, spec: RouteSpec) -> Chunk:
        """A chunk as a journal recorded it, checked against ``spec`` (ValueError naming the
        field): one of the spec's chunks, a count per link, and routes whose cost order
        (:func:`cost_key`) can be computed."""
        data = want_dict(data, "a chunk record")
        unknown = sorted(set(data) - CHUNK_KEYS)
        if unknown:
            raise ValueError(f"unknown key {quoted(unknown[0])} in a chunk record")
        start = want_int(data.get("start"), "start", 0, INDEX_LIMIT - 1)
        count = want_int(data.get("count"), "count", 1, INDEX_LIMIT)
        if chunk_at(spec, start) != count:
            raise ValueError(f"start {start} with count {count} is not a chunk of this spec")
        most = count * frame_choices(spec.links)  # the tries of the chunk
        kept = want_int_list(data.get("kept"), "kept", 0, count, len(spec.links))
        if len(kept) != len(spec.links):
            raise ValueError(f"kept holds {len(kept)} counts, not one per link "
                             f"({len(spec.links)})")
        duels = want_int(data.get("duels"), "duels", 0, most * len(spec.links))
        outcomes = {key: want_int(n, f"outcomes {quoted(key)}", 0, duels)
                    for key, n in want_dict(data.get("outcomes"), "outcomes").items()}
        routes = data.get("routes")
        if not isinstance(routes, list) or len(routes) > most:
            raise ValueError(f"routes must be a list of at most {most} routes")
        return cls(start, count, kept, duels, outcomes,
                   [_checked_route(r, f"routes entry {i}", spec, start, count)
                    for i, r in enumerate(routes, 1)])


def _checked_route(data: Any, what: str, spec: RouteSpec, start: int, count: int
                   ) -> dict[str, Any]:
    """A journal's route, checked where :func:`cost_key` reads it: a start index of its
    chunk (None from a state), one frame count per duel link, the cost's frames and turns."""
    data = want_dict(data, what)
    index = data.get("index")
    if spec.state is None:
        want_int(index, f"{what}: index", start, start + count - 1)
    elif index is not None:
        raise ValueError(f"{what}: index must be null (the spec starts from a state)")
    links = spec.duel_links
    frames = want_int_list(data.get("frames"), f"{what}: frames", 0, WAIT_LIMIT, links)
    if len(frames) != links:
        raise ValueError(f"{what}: frames holds {len(frames)} counts, not one per duel link "
                         f"({links})")
    cost = want_dict(data.get("cost"), f"{what}: cost")
    want_int(cost.get("frames"), f"{what}: cost: frames", 0, WAIT_LIMIT * links)
    want_int(cost.get("turns"), f"{what}: cost: turns", 0, INDEX_LIMIT)
    return data


def search_chunk(spec: RouteSpec, start: int, count: int, disc: DiscData | None = None
                 ) -> Chunk:
    """Every route whose start index is in ``start .. start + count - 1`` (or, for a spec
    that starts from a state, the routes from that state); the duels with ``disc``'s
    tables and programs when given."""
    tables = loader.load("fm")
    chunk = Chunk(start, count, [], 0, {}, [])
    outcomes: Counter[str] = Counter()
    partials = _starts(spec, start, count, tables)
    for number, link in enumerate(spec.links, 1):
        if isinstance(link, StarterLink):
            partials = _starter(link, partials, tables)
        else:
            partials, simulated = _duel(link, number, partials, tables, outcomes,
                                        disc or DiscData())
            chunk.duels += simulated
        chunk.kept.append(len({p.index for p in partials}))
    chunk.outcomes = dict(sorted(outcomes.items()))
    chunk.routes = sorted((_route(p, disc) for p in partials), key=cost_key)
    return chunk


def _starts(spec: RouteSpec, start: int, count: int, tables: FmTables) -> list[Partial]:
    if spec.state is not None:
        return [Partial(None, spec.state, None)]
    first = spec.links[0]
    if isinstance(first, StarterLink):  # the vectorised filter runs before any duel
        want = starter.Want.of(first.has, starter.plan(tables))
        indices = starter.search(start, count, want, tables).tolist()
    else:
        indices = range(start, start + count)
    return [Partial(i, int(psyq_rand.state_at(i)), None) for i in indices]


def _starter(link: StarterLink, partials: list[Partial], tables: FmTables) -> list[Partial]:
    out = []
    for p in partials:
        rng = psyq_rand.Rand(p.state)
        deck = tuple(fm_deck.starter_deck(rng, tables))
        if _holds(deck, link.has):
            out.append(Partial(p.index, rng.state, deck,
                               (*p.steps, {"kind": "starter", "deck": list(deck)})))
    return out


def _holds(cards: tuple[int, ...], wanted: tuple[int, ...]) -> bool:
    have = Counter(cards)
    return all(have[c] >= n for c, n in Counter(wanted).items())


def _duel(link: DuelLink, number: int, partials: list[Partial], tables: FmTables,
          outcomes: Counter[str], disc: DiscData) -> tuple[list[Partial], int]:
    out, simulated = [], 0
    waits = range(link.frames[0], link.frames[1] + 1)
    for p in partials:
        player_deck = link.deck if link.deck is not None else p.deck
        assert player_deck is not None  # route_spec.parse checks a starter link comes first
        states = wait_states(p.state, waits)
        opens = openings(link, states, fm_deck.sort_deck(player_deck, link.sort, tables))
        for frames, state, opened in zip(waits, states.tolist(), opens, strict=True):
            if not opened:
                continue
            setup = FmSetup(deck=list(player_deck), duelist=link.duelist, sort=link.sort,
                            state=state, effects=disc.setup_effects())
            result = play_duel(setup, disc.programs, player_as=link.player_as,
                               script=link.script, fallback=link.fallback,
                               effects=disc.effects)
            simulated += 1
            won = result.winner == 0
            outcomes[f"link {number}: " + (f"win {result.rank}" if won else "loss")] += 1
            if not _wanted(link, won, result.rank, result.drop):
                continue
            step = {"kind": "duel", "duelist": link.duelist, "frames": frames,
                    "winner": result.winner, "reason": result.reason, "rank": result.rank,
                    "drop": result.drop, "turns": result.turns, "digest": result.digest}
            if link.script is not None:  # what the player did, to replay the duel
                step["scripted"] = result.scripted
                step["player_actions"] = [a.to_json() for a in result.player_actions]
            out.append(Partial(p.index, result.rng_state, p.deck, (*p.steps, step)))
    return out, simulated


def wait_states(state: int, waits: range) -> NDArray[np.uint32]:
    """The RNG state after each number of frames in ``waits`` waited from ``state``."""
    first = int(psyq_rand.jump(state, waits.start * CALLS_PER_FRAME))
    return psyq_rand.consecutive_states(first, len(waits) * CALLS_PER_FRAME)[::CALLS_PER_FRAME]


def openings(link: DuelLink, states: NDArray[np.uint32], sorted_deck: list[int]
             ) -> list[bool]:
    """Whether the player's opening hand holds ``link.opening`` when the duel is dealt from
    each of ``states``: the player's shuffles of all of them at once
    (:func:`emucore.fm.deck.shuffle_many`), the duels only where it does."""
    if not link.opening:
        return [True] * len(states)
    hands, _, _ = fm_deck.shuffle_many(states, sorted_deck)
    return [_holds(tuple(hand), link.opening) for hand in hands[:, :OPENING_DRAWS].tolist()]


def _wanted(link: DuelLink, won: bool, rank: str, drop: int) -> bool:
    if won != link.win:
        return False
    if link.rank_at_least and not rank_at_least(rank, link.rank_at_least):
        return False
    return link.drops is None or drop in link.drops


def _route(p: Partial, disc: DiscData | None) -> dict[str, Any]:
    duels = [s for s in p.steps if s["kind"] == "duel"]
    out = {"index": p.index, "frames": [s["frames"] for s in duels],
           "cost": {"frames": sum(s["frames"] for s in duels),
                    "turns": sum(s["turns"] for s in duels)},
           "ranks": [s["rank"] for s in duels], "drops": [s["drop"] for s in duels],
           "links": list(p.steps), "state_after": f"0x{p.state:08X}", "version": VERSION}
    if disc is not None:  # without --disc the lines are as they always were
        out["disc"] = disc.header()
    return out


def cost_key(route: dict[str, Any]) -> tuple[Any, ...]:
    """The documented order of routes: fewest frames waited, then fewest turns, then the
    start index and the frames link by link."""
    index = route["index"] if route["index"] is not None else -1
    return (route["cost"]["frames"], route["cost"]["turns"], index, route["frames"])


def chunks(spec: RouteSpec) -> Iterator[tuple[int, int]]:
    """The ``(start, count)`` chunks of a spec's range, in order, made one at a time: a range
    of 2^32 indices in chunks of one is 2^32 chunks, never a list."""
    if spec.state is not None:
        yield 0, 1
        return
    end = spec.start + spec.count
    for base in range(spec.start, end, spec.chunk):
        yield base, min(spec.chunk, end - base)


def chunk_count(spec: RouteSpec) -> int:
    """How many chunks :func:`chunks` makes."""
    return 1 if spec.state is not None else -(-spec.count // spec.chunk)


def chunk_at(spec: RouteSpec, start: int) -> int | None:
    """The count of the spec's chunk that begins at ``start`` (None: no chunk begins there)."""
    if spec.state is not None:
        return 1 if start == 0 else None
    offset = start - spec.start
    if not 0 <= offset < spec.count or offset % spec.chunk:
        return None
    return min(spec.chunk, spec.count - offset)


def per_link_kept(parts: list[Chunk], links: int) -> list[int]:
    """Start indices kept after each link, over every chunk."""
    return np.sum([c.kept for c in parts], axis=0, dtype=np.int64).tolist() if parts \
        else [0] * links
