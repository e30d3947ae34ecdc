"""Route specs for ``emucore plan route SPEC``: a TOML or JSON file naming where a run starts and
the links it goes through in order (docs/planning.md, examples in ``examples/routes/``).

A spec is read into frozen dataclasses that the workers receive as they are (they pickle), so
every worker searches with exactly the spec the user wrote. Any problem is a ``ValueError``
naming the key at fault; the command reports it in one line naming the file.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emucore.fm.actions import FmAction
from emucore.fm.ai.sim import FALLBACKS
from emucore.fm.cli import decode_action
from emucore.fm.deck import COPY_LIMIT, DECK_SIZE, SORT_ORDERS
from emucore.fm.rank import TIERS
from emucore.tables.fm import DUELIST_COUNT, FmTables

INDEX_LIMIT = 1 << 32
DEFAULT_CHUNK = 256  # start indices per chunk: a few seconds of duels, small enough to lose
POLICIES = ("ai", "script")  # how the player's side is played in a duel link
OPENING_DRAWS = 5  # the player's hand as the duel opens


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


def rank_at_least(rank: str, floor: str) -> bool:
    """True when ``rank`` is ``floor`` or better on the same side (POW or TEC): S > A > B > C
    > D. The game ranks a win on one scale; a route asks for a drop pool's side, so a POW
    floor is never met by a TEC rank (the choice named here)."""
    tier, side = rank.split("-")
    floor_tier, floor_side = floor.split("-")
    return side == floor_side and TIERS.index(tier) >= TIERS.index(floor_tier)


def load(path: Path | str, tables: FmTables) -> RouteSpec:
    """Read and check a spec file (``.toml`` or ``.json``); ValueError names the problem."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text) if str(path).endswith(".json") else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"not valid {'JSON' if str(path).endswith('.json') else 'TOML'}: "
                         f"{exc}") from None
    return parse(data, tables)


def parse(data: dict[str, Any], tables: FmTables) -> RouteSpec:
    """A :class:`RouteSpec` from a spec's parsed data."""
    text = json.dumps(data, sort_keys=True)
    _keys(data, "the spec", {"name", "start", "link", "chunk"})
    start = _table(data.get("start"), "start")
    _keys(start, "start", {"from", "count", "state"})
    if "state" in start:
        state, first, count = _int(start, "state", "start", 0, INDEX_LIMIT - 1), 0, 1
    else:
        state = None
        first = _int(start, "from", "start", 0, INDEX_LIMIT - 1)
        count = _int(start, "count", "start", 1, INDEX_LIMIT - first)
    raw_links = data.get("link")
    if not isinstance(raw_links, list) or not raw_links:
        raise ValueError("the spec needs at least one [[link]]")
    links = tuple(_link(raw, n, tables) for n, raw in enumerate(raw_links, 1))
    if any(isinstance(link, StarterLink) for link in links[1:]):
        raise ValueError("a starter link can only be the first link (a new game)")
    for n, link in enumerate(links, 1):
        if isinstance(link, DuelLink) and link.deck is None and not isinstance(
                links[0], StarterLink):
            raise ValueError(f"link {n}: deck = \"starter\" needs a starter link first")
    chunk = int(data.get("chunk", DEFAULT_CHUNK))
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    return RouteSpec(str(data.get("name", "route")), first, count, links, state, chunk, text)


def _link(raw: Any, n: int, tables: FmTables) -> StarterLink | DuelLink:
    where = f"link {n}"
    raw = _table(raw, where)
    kind = raw.get("kind")
    if kind == "starter":
        _keys(raw, where, {"kind", "has"})
        has = _cards(raw.get("has", []), where, tables)
        if any(n > COPY_LIMIT for n in Counter(has).values()):
            raise ValueError(f"{where}: a deck holds at most {COPY_LIMIT} copies of a card")
        return StarterLink(has)
    if kind != "duel":
        raise ValueError(f"{where}: kind must be \"starter\" or \"duel\", not {kind!r}")
    _keys(raw, where, {"kind", "duelist", "frames", "deck", "sort", "player", "player_as",
                       "win", "rank_at_least", "drops", "opening", "script", "fallback"})
    duelist = _duelist(raw.get("duelist"), where, tables)
    frames = raw.get("frames", [0, 0])
    if isinstance(frames, int):
        frames = [frames, frames]
    if (not isinstance(frames, list) or len(frames) != 2
            or not all(isinstance(f, int) for f in frames) or not 0 <= frames[0] <= frames[1]):
        raise ValueError(f"{where}: frames must be [lowest, highest] (0 <= lowest <= highest)")
    deck_value = raw.get("deck", "starter")
    deck = None if deck_value == "starter" else _cards(deck_value, where, tables)
    if deck is not None and len(deck) != DECK_SIZE:
        raise ValueError(f"{where}: a deck has {DECK_SIZE} cards, not {len(deck)}")
    sort = raw.get("sort", "none")
    if sort not in SORT_ORDERS:
        raise ValueError(f"{where}: sort must be one of {', '.join(SORT_ORDERS)}")
    player = raw.get("player", "ai")
    if player not in POLICIES:
        raise ValueError(f"{where}: player must be one of {', '.join(POLICIES)}")
    script, fallback = _script(raw, player, where)
    player_as = raw.get("player_as")
    if player_as is not None:
        player_as = _duelist(player_as, f"{where} player_as", tables)
    floor = raw.get("rank_at_least")
    if floor is not None:
        floor = _rank(floor, where, tables)
    drops = raw.get("drops")
    if drops is not None:
        drops = frozenset(_cards(drops, where, tables))
    opening = _cards(raw.get("opening", []), where, tables)
    if len(opening) > OPENING_DRAWS:
        raise ValueError(f"{where}: opening names {len(opening)} cards; a hand has "
                         f"{OPENING_DRAWS}")
    win = raw.get("win", True)
    if not isinstance(win, bool):
        raise ValueError(f"{where}: win must be true or false")
    if not win and (floor or drops):
        raise ValueError(f"{where}: rank_at_least and drops need win = true")
    return DuelLink(duelist, (frames[0], frames[1]), deck, sort, player, player_as, win,
                    floor, drops, opening, script, fallback)


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
    fallback = raw.get("fallback", "ai")
    if fallback not in FALLBACKS:
        raise ValueError(f"{where}: fallback must be one of {', '.join(FALLBACKS)}")
    return tuple(decode_action(a, f"{where} script action {i}")
                 for i, a in enumerate(actions, 1)), fallback


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected a table of keys")
    return value


def _keys(table: dict[str, Any], where: str, allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (known: "
                         f"{', '.join(sorted(allowed))})")


def _int(table: dict[str, Any], key: str, where: str, lo: int, hi: int) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{where}: {key} must be an integer in {lo}..{hi}")
    return value


def _cards(values: Any, where: str, tables: FmTables) -> tuple[int, ...]:
    if not isinstance(values, list):
        raise ValueError(f"{where}: expected a list of cards (ids or names)")
    try:
        return tuple(tables.card_id(str(v)) for v in values)
    except KeyError as exc:
        raise ValueError(f"{where}: {exc.args[0]}") from None


def _duelist(value: Any, where: str, tables: FmTables) -> int:
    if isinstance(value, int) and 1 <= value <= DUELIST_COUNT:
        return value
    for d in range(1, DUELIST_COUNT + 1):
        if str(value).casefold() == tables.duelist_name(d).casefold():
            return d
    raise ValueError(f"{where}: unknown duelist {value!r} (an id 1..{DUELIST_COUNT} or a name)")


def _rank(value: Any, where: str, tables: FmTables) -> str:
    names = [name for _score, name, _chips, _pool in tables.ranks]
    for name in names:
        if str(value).casefold() == name.casefold():
            return name
    raise ValueError(f"{where}: unknown rank {value!r}; ranks are {', '.join(names)}")
