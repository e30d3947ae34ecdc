"""Building a duel: the setup a replay stores, decks from files, the deal (spec §2)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from emucore import tables as T
from emucore.duel.deckfile import read_deck_file
from emucore.duel.files import is_int, want_int, want_int_list, want_str
from emucore.fm import deck
from emucore.fm.engine import STARTING_LP, FmDuel
from emucore.fm.overlay import BUILT_IN, OverlayTables
from emucore.hw.psyq_rand import BOOT_STATE, Rand
from emucore.tables.fm import DUELIST_COUNT, FmTables

TWO_PLAYER = 0  # setup.duelist for a two-player duel (gDuel_bOpponentID negative)

# How a duel is armed, which decides the terrain it starts on (gDuel_bTerrain):
# func_80024DC8 writes 0 for every opponent; Free Duel's confirm calls it as
# (-1, row * 5 + column, 0x6000, 0x6000), Main_RunTwoPlayerDuelSetup as (-1, -1, 0, 0) and the
# debug menu's duel as (-1, 1, 0x8000, 0x8000). A campaign duel is armed by
# Text_StartCampaignDuel instead, which reads four bytes of the story script's duel command:
# the opponent, the two scenes to go on to after a win and a loss, then the terrain. The
# terrain is the script's, per story duel (not a table of the executable, and not per
# duelist); emucore has no story script data, so the caller names it.
FREE_DUEL, CAMPAIGN, TWO_PLAYER_DUEL = "free", "campaign", "two-player"
ARMED_TERRAIN = 0  # func_80024DC8: gDuel_bTerrain = 0 (the normal field)
TERRAINS = range(7)
EFFECTS_DIGEST_LENGTH = 16  # OverlayTables.digest()


def start_terrain(mode: str, script_terrain: int | None = None) -> int:
    """The terrain a duel armed as ``mode`` starts on: 0 for a Free Duel (any duelist) and a
    two-player duel (``func_80024DC8``); for a campaign duel ``script_terrain``, the byte of
    its story script command (``Text_StartCampaignDuel``). ValueError names a missing or
    unexpected terrain and an unknown mode."""
    if mode in (FREE_DUEL, TWO_PLAYER_DUEL):
        if script_terrain is not None:
            raise ValueError(f"a {mode} duel starts on terrain {ARMED_TERRAIN} "
                             "(func_80024DC8); only a campaign duel takes its script's")
        return ARMED_TERRAIN
    if mode == CAMPAIGN:
        if script_terrain is None:
            raise ValueError("a campaign duel's terrain is its story script's byte "
                             "(Text_StartCampaignDuel): name it")
        if script_terrain not in TERRAINS:
            raise ValueError(f"terrain {script_terrain} outside 0..6")
        return script_terrain
    raise ValueError(f"unknown duel mode {mode!r} (free, campaign, two-player)")


@dataclass(frozen=True)
class FmSetup:
    """Everything that decides a duel before the first action (frozen: a changed setup is
    a new one, ``dataclasses.replace``).

    ``deck`` is the player's 40 cards as the trunk lists them, ``sort`` the last Build Deck
    sort (deck.SORT_ORDERS). ``duelist`` 1..39 is the CPU opponent (its deck is dealt from
    its pool; Duel Master K copies the player's); 0 is a two-player duel whose second deck is
    ``deck2``/``sort2``. ``state`` is the RNG state when the deal starts. ``terrain`` is
    the terrain it starts on (:func:`start_terrain`: 0 for a Free Duel or a two-player
    duel, a campaign duel's from its story script). ``computer`` lists
    the sides the computer plays (the duel exports its board snapshot before each of their
    actions; empty when people or scripts drive both sides).
    """

    deck: list[int]
    duelist: int = 1
    sort: str = "none"
    state: int = BOOT_STATE
    terrain: int = ARMED_TERRAIN
    lp: list[int] = field(default_factory=lambda: [STARTING_LP, STARTING_LP])
    deck2: list[int] | None = None
    sort2: str = "none"
    computer: list[int] = field(default_factory=list)
    effects: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.effects is None:  # the built-in tables: files as they were before the field
            del data["effects"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FmSetup:
        """Rebuild and check a setup (ValueError names what is wrong)."""
        if not isinstance(data, dict):
            raise ValueError("an fm setup is a JSON object")
        try:
            setup = cls(**data)
        except TypeError as exc:
            raise ValueError(f"bad fm setup: {exc}") from None
        setup.check_types()
        setup.check(T.load("fm"))
        return setup

    def check_types(self) -> None:
        """Field by field, as JSON may hold anything (a bool is not an int: ``"duelist":
        true`` would pass the range check and index numpy arrays as a mask)."""
        want_int_list(self.deck, "deck", 0, 0xFFFF, deck.DECK_SIZE)
        want_int(self.duelist, "duelist", 0, DUELIST_COUNT)
        want_str(self.sort, "sort", 20)
        want_str(self.sort2, "sort2", 20)
        want_int(self.state, "state", 0, 0xFFFFFFFF)
        want_int(self.terrain, "terrain", 0, 6)
        want_int_list(self.lp, "lp", 1, 0x7FFF, 2)
        if self.deck2 is not None:
            want_int_list(self.deck2, "deck2", 0, 0xFFFF, deck.DECK_SIZE)
        if self.effects is not None:
            want_str(self.effects, "effects", EFFECTS_DIGEST_LENGTH)
            if len(self.effects) != EFFECTS_DIGEST_LENGTH or \
                    not all(c in "0123456789abcdef" for c in self.effects):
                raise ValueError(f"effects must be a {EFFECTS_DIGEST_LENGTH}-digit hex digest "
                                 "of duel_effects tables")

    def check(self, tables: FmTables) -> None:
        check_deck(self.deck, tables)
        if not 0 <= self.duelist <= DUELIST_COUNT:
            raise ValueError(f"duelist {self.duelist} outside 0..{DUELIST_COUNT}")
        if self.duelist == TWO_PLAYER:
            if self.deck2 is None:
                raise ValueError("a two-player duel (duelist 0) needs deck2")
            check_deck(self.deck2, tables)
        for order in (self.sort, self.sort2):
            if order not in deck.SORT_ORDERS:
                raise ValueError(f"unknown sort order {order!r}")
        if not 0 <= self.state <= 0xFFFFFFFF:
            raise ValueError("state must be a u32")
        if not 0 <= self.terrain <= 6:
            raise ValueError(f"terrain {self.terrain} outside 0..6")
        if len(self.lp) != 2 or not all(1 <= v <= 0x7FFF for v in self.lp):
            raise ValueError("lp must be two values in 1..32767")
        if not isinstance(self.computer, list) or \
                not all(is_int(side) and side in (0, 1) for side in self.computer) or \
                len(set(self.computer)) != len(self.computer):
            raise ValueError("computer lists the computer-played sides: 0, 1 or both")


def check_deck(cards: list[int], tables: FmTables) -> None:
    """A legal deck: 40 real card ids, at most three copies of each (ValueError)."""
    if len(cards) != deck.DECK_SIZE:
        raise ValueError(f"a deck has {deck.DECK_SIZE} cards, not {len(cards)}")
    limit = len(tables.names)
    bad = [c for c in cards if not isinstance(c, int) or not 1 <= c < limit]
    if bad:
        raise ValueError(f"unknown card id {bad[0]!r}")
    counts = Counter(cards)
    if max(counts.values()) > deck.COPY_LIMIT:
        over = [c for c, n in counts.items() if n > deck.COPY_LIMIT]
        raise ValueError(f"more than {deck.COPY_LIMIT} copies of {tables.names[over[0]]} "
                         f"({over[0]})")


def read_deck(path: Path | str, tables: FmTables) -> list[int]:
    """An FM deck file (:mod:`emucore.duel.deckfile`: one card id or name per line, ``2x
    NAME`` for copies, ``#`` comments): 40 cards, at most three copies of each. Any problem
    is one :class:`UserFileError` line naming the file (and the line)."""
    cards = read_deck_file(path, tables.card_id, what="FM decks")
    return cards.check((deck.DECK_SIZE, deck.DECK_SIZE), deck.COPY_LIMIT,
                       lambda card: tables.names[card])


def check_effects(setup: FmSetup, effects: OverlayTables) -> None:
    """Refuse (ValueError, one line) ``effects`` when they are not the tables ``setup`` was
    played with (:attr:`FmSetup.effects`; None: the built-in ones). Tables are compared by
    their values' digest, so a disc whose tables equal the built-in values plays either way."""
    if setup.effects is None and effects is BUILT_IN:
        return
    wanted = setup.effects or BUILT_IN.digest()
    given = effects.digest()
    if given == wanted:
        return
    if setup.effects is None:
        raise ValueError("this duel was played with the built-in duel_effects tables; drop "
                         f"--disc (the disc's tables have digest {given})")
    if effects is BUILT_IN:
        raise ValueError("this duel was played with the duel_effects tables of a disc "
                         f"(digest {setup.effects}); give --disc")
    raise ValueError("this duel was played with the duel_effects tables of another disc "
                     f"(digest {setup.effects}, not {given})")


def new_duel(setup: FmSetup, tables: FmTables | None = None,
             effects: OverlayTables | None = None) -> FmDuel:
    """Deal both decks from ``setup.state`` (player first) and open the duel, its animations
    charged from ``effects`` (default the built-in ``duel_effects`` tables; they must be the
    ones ``setup.effects`` names, :func:`check_effects`)."""
    tables = tables or T.load("fm")
    effects = BUILT_IN if effects is None else effects
    setup.check(tables)
    check_effects(setup, effects)
    rng = Rand(setup.state)
    player_deck = deck.sort_deck(setup.deck, setup.sort, tables)
    if setup.duelist == TWO_PLAYER:
        second = deck.sort_deck(setup.deck2 or [], setup.sort2, tables)
        first = deck.shuffle_deck(rng, player_deck)
        other = deck.shuffle_deck(rng, second)
        opponent = -1
    else:
        dealt = deck.deal(rng, player_deck, setup.duelist, tables)
        first, other, opponent = dealt.player, dealt.cpu, setup.duelist
    return FmDuel(tables, first, other,
                  rng, opponent=opponent, terrain=setup.terrain, lp=(setup.lp[0], setup.lp[1]),
                  computer=tuple(setup.computer), effects=effects)
