"""Route specs for ``emucore plan route SPEC``: a TOML or JSON file naming where a run starts and
the links it goes through in order (docs/planning.md, examples in ``examples/routes/``).

A spec is read through the reading edge (:func:`emucore.duel.files.read_structured`: a regular
file only, bounded in size, nesting and number sizes, no ``inf``/``nan``) and every field is
checked with the typed ``want_*`` helpers (a bool is not an int, a float is not a count, a
string is not a number). Any problem is a :class:`~emucore.duel.files.UserFileError`: one line
naming the file and the key at fault.

The work a spec asks for is bounded before anything runs. A *try* is one start with one frame
count for every duel link: at most one duel per duel link and at most one route. A run makes
``starts x frame choices`` tries (the frame choices of a start are the duel links' frames
ranges multiplied), and every factor is checked against the limits below, each message naming
its limit. The spec is read into frozen dataclasses that the workers receive as they are
(they pickle), so every worker searches with exactly the spec the user wrote.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from emucore.duel.files import (
    UserFileError,
    is_int,
    quoted,
    read_structured,
    want_bool,
    want_dict,
    want_int,
    want_int_list,
    want_str,
)
from emucore.fm.actions import ACTION_KINDS, FmAction
from emucore.fm.ai.sim import FALLBACKS
from emucore.fm.cli import decode_action
from emucore.fm.deck import COPY_LIMIT, DECK_SIZE, SORT_ORDERS
from emucore.fm.rank import TIERS
from emucore.tables.fm import DUELIST_COUNT, FmTables

INDEX_LIMIT = 1 << 32
DEFAULT_CHUNK = 256  # start indices per chunk: a few seconds of duels, small enough to lose
POLICIES = ("ai", "script")  # how the player's side is played in a duel link
OPENING_DRAWS = 5  # the player's hand as the duel opens

# The limits of what one run may ask for (docs/planning.md, "Limits").
WAIT_LIMIT = 216_000  # frames waited before one duel: an hour of menus at 60 frames a second
FRAME_CHOICES = 4096  # frame choices per start: the duel links' frames ranges multiplied
CHUNK_TRIES = 8192  # tries per chunk: what a worker holds, a kill loses, one journal line holds
RUN_TRIES = 1_000_000  # tries per run: about an hour of duels per duel link on one core
LINK_LIMIT = 16  # links in a spec
CARD_LIST_LIMIT = 1000  # cards named in one list (has, deck, drops, opening)
SCRIPT_LIMIT = 1000  # actions in one script (a whole duel is a few hundred at most)
NAME_LIMIT = 100  # characters of a spec's name, a card's or a duelist's


@dataclass(frozen=True)
class StarterLink:
    """A new game's starter deck (``NameEntry_BuildStarterDeck``) that holds ``has``."""

    has: tuple[int, ...]  # card ids, one entry per copy wanted

    kind = "starter"


@dataclass(frozen=True)
class DuelLink:
    """A duel after waiting ``frames`` on menus (one ``rand()`` per frame), and what must
    come out of it. ``deck`` None plays the starter deck of the route's starter link."""

    duelist: int
    frames: tuple[int, int]  # inclusive range searched
    deck: tuple[int, ...] | None = None
    sort: str = "none"
    player: str = "ai"
    player_as: int | None = None  # the AI persona of the player's side (None: the opponent's)
    win: bool = True
    rank_at_least: str | None = None
    drops: frozenset[int] | None = None
    opening: tuple[int, ...] = ()  # cards the player's opening hand must hold
    script: tuple[FmAction, ...] | None = None  # the player's actions (player = "script")
    fallback: str = "ai"  # who plays on when the script stops (emucore.fm.ai.sim.FALLBACKS)

    kind = "duel"

    @property
    def choices(self) -> int:
        """How many frame counts the link tries."""
        return self.frames[1] - self.frames[0] + 1


@dataclass(frozen=True)
class RouteSpec:
    """Where a run starts and its links in order."""

    name: str
    start: int  # first RNG index (calls since boot) ...
    count: int  # ... and how many; with ``state`` set, one start from that state
    links: tuple[StarterLink | DuelLink, ...]
    state: int | None = None
    chunk: int = DEFAULT_CHUNK
    text: str = field(default="{}", compare=False)  # the parsed spec as canonical JSON

    def to_json(self) -> dict[str, Any]:
        """The spec as the journal's header records it (a resumed run must match it)."""
        return json.loads(self.text)

    @property
    def duel_links(self) -> int:
        """How many of the links are duels (a route names one frame count for each)."""
        return sum(isinstance(link, DuelLink) for link in self.links)


def rank_at_least(rank: str, floor: str) -> bool:
    """True when ``rank`` is ``floor`` or better on the same side (POW or TEC): S > A > B > C
    > D. The game ranks a win on one scale; a route asks for a drop pool's side, so a POW
    floor is never met by a TEC rank (the choice named here)."""
    tier, side = rank.split("-")
    floor_tier, floor_side = floor.split("-")
    return side == floor_side and TIERS.index(tier) >= TIERS.index(floor_tier)


def load(path: Path | str, tables: FmTables) -> RouteSpec:
    """Read and check a spec file (``.toml``, else JSON) through the reading edge; any
    problem is one :class:`UserFileError` naming the file and the key."""
    data = read_structured(path)
    try:
        return parse(data, tables)
    except ValueError as exc:
        raise UserFileError(path, str(exc)) from None


def frame_choices(links: tuple[StarterLink | DuelLink, ...]) -> int:
    """The frame choices of one start: every duel link's frame counts multiplied."""
    return math.prod(link.choices for link in links if isinstance(link, DuelLink))


def parse(data: Any, tables: FmTables) -> RouteSpec:
    """A :class:`RouteSpec` from a spec's parsed data (ValueError naming the key at fault)."""
    data = want_dict(data, "the spec")
    _keys(data, "the spec", {"name", "start", "link", "chunk"})
    name = want_str(data.get("name", "route"), "name", NAME_LIMIT)
    first, count, state = _start(_required(data, "start", "the spec"))
    links = _links(_required(data, "link", "the spec"), tables)
    choices = frame_choices(links)
    if count * choices > RUN_TRIES:
        raise ValueError(f"start: count {count:,} with {choices:,} frame choice(s) per start "
                         f"is {count * choices:,} tries; a run makes at most {RUN_TRIES:,}: "
                         "search fewer starts or frames")
    chunk = _chunk(data.get("chunk"), count, choices)
    return RouteSpec(name, first, count, links, state, chunk,
                     json.dumps(data, sort_keys=True))


def _start(raw: Any) -> tuple[int, int, int | None]:
    """The first index, the count and the state (None for an index range) of ``start``."""
    start = want_dict(raw, "start")
    _keys(start, "start", {"from", "count", "state"})
    if "state" in start:
        if "from" in start or "count" in start:
            raise ValueError("start: a state is one start; it takes no from or count")
        return 0, 1, want_int(start["state"], "start: state", 0, INDEX_LIMIT - 1)
    first = want_int(_required(start, "from", "start"), "start: from", 0, INDEX_LIMIT - 1)
    count = want_int(_required(start, "count", "start"), "start: count", 1, INDEX_LIMIT - first)
    return first, count, None


def _chunk(value: Any, count: int, choices: int) -> int:
    """Start indices per chunk: as given, or the default made small enough for the frames;
    a chunk makes at most :data:`CHUNK_TRIES` tries."""
    fitting = max(1, CHUNK_TRIES // choices)
    if value is None:
        return min(DEFAULT_CHUNK, fitting)
    chunk = want_int(value, "chunk", 1, CHUNK_TRIES)
    if min(chunk, count) > fitting:
        raise ValueError(f"chunk {chunk:,} with {choices:,} frame choice(s) per start is "
                         f"{min(chunk, count) * choices:,} tries per chunk; a chunk makes at "
                         f"most {CHUNK_TRIES:,}: use chunk = {fitting:,} or less")
    return chunk


def _links(raw: Any, tables: FmTables) -> tuple[StarterLink | DuelLink, ...]:
    """The ``[[link]]`` entries, checked one by one and then as a chain."""
    if not isinstance(raw, list) or not raw:
        raise ValueError("the spec needs at least one [[link]] (a list of links)")
    if len(raw) > LINK_LIMIT:
        raise ValueError(f"the spec has {len(raw)} links; at most {LINK_LIMIT}")
    links = tuple(_link(entry, n, tables) for n, entry in enumerate(raw, 1))
    if any(isinstance(link, StarterLink) for link in links[1:]):
        raise ValueError("a starter link can only be the first link (a new game)")
    for n, link in enumerate(links, 1):
        if isinstance(link, DuelLink) and link.deck is None and not isinstance(
                links[0], StarterLink):
            raise ValueError(f"link {n}: deck = \"starter\" needs a starter link first")
    choices = frame_choices(links)
    if choices > FRAME_CHOICES:
        raise ValueError(f"the duel links' frames ranges give {choices:,} frame choices per "
                         f"start (their widths multiplied); at most {FRAME_CHOICES:,}")
    return links


def _link(raw: Any, n: int, tables: FmTables) -> StarterLink | DuelLink:
    where = f"link {n}"
    raw = want_dict(raw, where)
    kind = raw.get("kind")
    if kind == "starter":
        _keys(raw, where, {"kind", "has"})
        has = _cards(raw.get("has", []), f"{where}: has", tables, DECK_SIZE)
        if any(copies > COPY_LIMIT for copies in Counter(has).values()):
            raise ValueError(f"{where}: a deck holds at most {COPY_LIMIT} copies of a card")
        return StarterLink(has)
    if kind != "duel":
        raise ValueError(f"{where}: kind must be \"starter\" or \"duel\", not "
                         f"{_shown(kind)}")
    return _duel_link(raw, where, tables)


def _duel_link(raw: dict[str, Any], where: str, tables: FmTables) -> DuelLink:
    _keys(raw, where, {"kind", "duelist", "frames", "deck", "sort", "player", "player_as",
                       "win", "rank_at_least", "drops", "opening", "script", "fallback"})
    duelist = _duelist(_required(raw, "duelist", where), f"{where}: duelist", tables)
    player = _choice(raw.get("player", "ai"), f"{where}: player", POLICIES)
    script, fallback = _script(raw, player, where)
    player_as = raw.get("player_as")
    if player_as is not None:
        player_as = _duelist(player_as, f"{where}: player_as", tables)
    floor = raw.get("rank_at_least")
    if floor is not None:
        floor = _rank(floor, f"{where}: rank_at_least", tables)
    drops = raw.get("drops")
    if drops is not None:
        drops = frozenset(_cards(drops, f"{where}: drops", tables, CARD_LIST_LIMIT))
    opening = _cards(raw.get("opening", []), f"{where}: opening", tables, OPENING_DRAWS)
    win = want_bool(raw.get("win", True), f"{where}: win")
    if not win and (floor or drops):
        raise ValueError(f"{where}: rank_at_least and drops need win = true")
    return DuelLink(duelist, _frames(raw.get("frames", [0, 0]), f"{where}: frames"),
                    _deck(raw.get("deck", "starter"), f"{where}: deck", tables),
                    _choice(raw.get("sort", "none"), f"{where}: sort", SORT_ORDERS),
                    player, player_as, win, floor, drops, opening, script, fallback)


def _frames(value: Any, what: str) -> tuple[int, int]:
    """``[lowest, highest]`` frames waited (an integer for one value), each at most
    :data:`WAIT_LIMIT`, at most :data:`FRAME_CHOICES` of them."""
    if is_int(value):
        value = [value, value]
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{what} must be [lowest, highest] or one integer, not "
                         f"{_shown(value)}")
    lo, hi = want_int_list(value, what, 0, WAIT_LIMIT, 2)
    if lo > hi:
        raise ValueError(f"{what} [{lo}, {hi}]: lowest must not exceed highest")
    if hi - lo + 1 > FRAME_CHOICES:
        raise ValueError(f"{what} [{lo}, {hi}] holds {hi - lo + 1:,} frame counts; a duel "
                         f"link tries at most {FRAME_CHOICES:,}")
    return lo, hi


def _deck(value: Any, what: str, tables: FmTables) -> tuple[int, ...] | None:
    """``"starter"`` (None: the starter link's deck) or the 40 cards of a deck."""
    if value == "starter":
        return None
    if not isinstance(value, list):
        raise ValueError(f"{what} must be \"starter\" or a list of {DECK_SIZE} cards, not "
                         f"{_shown(value)}")
    deck = _cards(value, what, tables, DECK_SIZE)
    if len(deck) != DECK_SIZE:
        raise ValueError(f"{what}: a deck has {DECK_SIZE} cards, not {len(deck)}")
    return deck


def _script(raw: dict[str, Any], player: str, where: str
            ) -> tuple[tuple[FmAction, ...] | None, str]:
    """A script link's actions (the forms ``fm duel --script`` reads) and its fallback."""
    if player != "script":
        if "script" in raw or "fallback" in raw:
            raise ValueError(f"{where}: script and fallback need player = \"script\"")
        return None, "ai"
    actions = raw.get("script")
    if not isinstance(actions, list):
        raise ValueError(f"{where}: player = \"script\" needs script = [actions]")
    if len(actions) > SCRIPT_LIMIT:
        raise ValueError(f"{where}: script holds {len(actions)} actions; at most "
                         f"{SCRIPT_LIMIT}")
    fallback = _choice(raw.get("fallback", "ai"), f"{where}: fallback", FALLBACKS)
    return tuple(_action(a, f"{where} script action {i}")
                 for i, a in enumerate(actions, 1)), fallback


ACTION_KEYS = {cls.kind: {"kind", *(f.name for f in fields(cls))} for cls in ACTION_KINDS}


def _action(raw: Any, where: str) -> FmAction:
    """One script action; its keys are those of its kind (an unknown key is refused, not
    ignored: it would be a typo the duel never sees)."""
    raw = want_dict(raw, where)
    allowed = ACTION_KEYS.get(raw.get("kind")) if isinstance(raw.get("kind"), str) else None
    if allowed is not None:
        _keys(raw, where, allowed)
    return decode_action(raw, where)


def _required(table: dict[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise ValueError(f"{where}: {key} is missing")
    return table[key]


def _keys(table: dict[str, Any], where: str, allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ValueError(f"{where}: unknown key {quoted(unknown[0])} (known: "
                         f"{', '.join(sorted(allowed))})")


def _choice(value: Any, what: str, allowed: tuple[str, ...]) -> str:
    """One of ``allowed`` (a string)."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(allowed)}, not {_shown(value)}")
    return value


def _cards(values: Any, what: str, tables: FmTables, longest: int) -> tuple[int, ...]:
    """A list of at most ``longest`` cards, each an id (an integer) or a name."""
    if not isinstance(values, list):
        raise ValueError(f"{what} must be a list of cards (ids or names), not "
                         f"{_shown(values)}")
    if len(values) > longest:
        raise ValueError(f"{what} names {len(values)} cards; at most {longest}")
    return tuple(_card(v, f"{what} entry {i}", tables) for i, v in enumerate(values, 1))


def _card(value: Any, what: str, tables: FmTables) -> int:
    """A card by id (an integer) or name."""
    if is_int(value):
        return want_int(value, what, 1, tables.card_count)
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a card id or name, not {_shown(value)}")
    try:
        return tables.card_id(want_str(value, what, NAME_LIMIT))
    except KeyError as exc:
        raise ValueError(f"{what}: {exc.args[0]}") from None


def _duelist(value: Any, what: str, tables: FmTables) -> int:
    """A duelist by id (an integer) or name."""
    if is_int(value):
        return want_int(value, what, 1, DUELIST_COUNT)
    if isinstance(value, str):
        for d in range(1, DUELIST_COUNT + 1):
            if value.casefold() == tables.duelist_name(d).casefold():
                return d
    raise ValueError(f"{what} must be an id 1..{DUELIST_COUNT} or a duelist's name, not "
                     f"{_shown(value)}")


def _rank(value: Any, what: str, tables: FmTables) -> str:
    names = [name for _score, name, _chips, _pool in tables.ranks]
    if isinstance(value, str):
        for name in names:
            if value.casefold() == name.casefold():
                return name
    raise ValueError(f"{what} must be one of {', '.join(names)}, not {_shown(value)}")


def _shown(value: Any) -> str:
    """A spec's value for a message: a string quoted and cut, anything else by its kind."""
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return str(value)
    return {"dict": "an object", "list": "a list"}.get(type(value).__name__,
                                                      type(value).__name__)
