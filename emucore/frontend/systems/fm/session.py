"""The Forbidden Memories game a player carries between screens: the machine's one RNG
stream, the trunk, the deck and its sort, starchips, records, the name, campaign progress -
and its save.

The RNG starts at the boot state and advances as the original's main loop advances it: each
screen names its mode every frame (:meth:`FmGame.mode_frame`) and makes the calls
:mod:`emucore.fm.mainloop` gives that mode's frame (one on the title and menus,
``Main_RunMenu``; one on the Free Duel grid, ``FreeDuel_Entry``; none in the frame a mode is
entered), so a duel's deal depends on how many frames the player spent there
(spec/fm-engine.md §1.3). The campaign follows :mod:`emucore.fm.story`.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from emucore import tables as T
from emucore.duel.files import (
    UserFileError,
    decimal,
    is_int,
    is_regular_file,
    parse_json,
    read_text,
    write_atomic,
)
from emucore.fm import deck as fm_deck
from emucore.fm import mainloop, password, rank, story, trade
from emucore.fm.engine import FmDuel
from emucore.fm.setup import CAMPAIGN, FREE_DUEL, FmSetup, check_deck, new_duel, start_terrain
from emucore.frontend.storage import MAX_SAVE_BYTES, SaveFile
from emucore.hw.psyq_rand import BOOT_STATE, Rand, jump_int
from emucore.tables.fm import CARD_COUNT, DUELIST_COUNT

SAVE_VERSION = 2
# Version 1 saves (before the Password shop) are read as having used no password.
READ_VERSIONS = (1, SAVE_VERSION)
# Free Duel opens a duelist when the campaign beats them (story.outcome); Duel Master K has
# no unlock bit (0x6E0 + id covers ids 1..38, the-game.md §1) and is always open.
START_UNLOCKED = (story.DUEL_MASTER_K,)
# Free Duels and two-player duels start on terrain 0, as the original arms them
# (func_80024DC8, emucore.fm.setup.start_terrain); campaign duels on their story command's
# terrain (story.terrain: the user's disc when given, else story.KNOWN_TERRAINS).
FREE_DUEL_TERRAIN = start_terrain(FREE_DUEL)
LEGACY_CAMPAIGN = 37  # an older save's "campaign" counted duelists 2..38 in table order
NAME_GLYPHS = frozenset("".join(mainloop.GLYPH_ROWS) + mainloop.EXTRA_GLYPHS + " ")


def default_path(steps: int) -> list[int]:
    """The first ``steps`` story duels taking always the first one offered (the shrines in
    table order, the labyrinth in the finale): how a save without a ``story`` path (an
    older one, which counted its progress only) is read."""
    path: list[int] = []
    while len(path) < steps and (upcoming := story.next_duels(path)):
        path.append(upcoming[0])
    return path


def validate_save(data: Any) -> None:
    """Check a save payload; ValueError names the first problem."""
    if not isinstance(data, dict) or data.get("version") not in READ_VERSIONS:
        raise ValueError(f"not an emucore fm save (version {SAVE_VERSION} expected)")
    trunk = data.get("trunk")
    if not isinstance(trunk, dict):
        raise ValueError("trunk must be an object of card id -> copies")
    for key, copies in trunk.items():
        if not 1 <= (decimal(key) or 0) <= CARD_COUNT:
            raise ValueError(f"trunk: unknown card id {key[:20]!r}")
        if not is_int(copies) or not 0 <= copies <= rank.TRUNK_CAP:
            raise ValueError(f"trunk: card {key} has {copies!r} copies (0..{rank.TRUNK_CAP})")
    cards = data.get("deck")
    if not isinstance(cards, list):
        raise ValueError("deck must be a list of card ids")
    check_deck(cards, T.load("fm"))
    for card, n in Counter(cards).items():
        owned = trunk.get(str(card), 0)
        if owned < n:
            raise ValueError(f"deck holds {n} x card {card} but the trunk only {owned}")
    if data.get("sort") not in fm_deck.SORT_ORDERS:
        raise ValueError(f"unknown deck sort {data.get('sort')!r}")
    chips = data.get("starchips")
    if not is_int(chips) or not 0 <= chips <= rank.STARCHIP_CAP:
        raise ValueError("starchips must be 0..999999")
    unlocked = data.get("unlocked")
    if not isinstance(unlocked, list) or not all(
            is_int(d) and 1 <= d <= DUELIST_COUNT for d in unlocked):
        raise ValueError("unlocked must be a list of duelist ids 1..39")
    _check_story(data)
    records = data.get("records")
    if not isinstance(records, dict) or not all(
            1 <= (decimal(k) or 0) <= DUELIST_COUNT and _counts(v, 2)
            for k, v in records.items()):
        raise ValueError("records must map duelist ids to [wins, losses]")
    if not _counts(data.get("two_player"), 2):
        raise ValueError("two_player must be two win counts")
    _check_passwords(data)


def _check_passwords(data: dict[str, Any]) -> None:
    """The used passwords: a list of distinct card ids. A save without the list (version 1,
    from before the shop, or a new game) has used none; it is given the empty list and is
    written back as version 2."""
    used = data.setdefault(password.SAVE_FIELD, [])
    data["version"] = SAVE_VERSION
    if not isinstance(used, list) or not all(is_int(c) and 1 <= c <= CARD_COUNT
                                             for c in used) or len(set(used)) != len(used):
        raise ValueError(f"{password.SAVE_FIELD} must list distinct card ids 1..{CARD_COUNT}")


def _check_story(data: dict[str, Any]) -> None:
    """The campaign: ``story`` (absent in older saves) a path of story duels the story
    offers in turn (story.check_path), ``campaign`` its length; the ``name`` (absent in
    older saves) up to six glyphs of the name-entry keyboard."""
    progress = data.get("campaign")
    path = data.get("story")
    if path is None:
        if not is_int(progress) or not 0 <= progress <= LEGACY_CAMPAIGN:
            raise ValueError(f"campaign must be 0..{LEGACY_CAMPAIGN}")
    else:
        if not isinstance(path, list) or not all(is_int(d) for d in path):
            raise ValueError("story must be a list of duelist ids")
        story.check_path(path)
        if progress != len(path):
            raise ValueError(f"campaign must be {len(path)}, the story duels passed")
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > mainloop.NAME_LENGTH or \
            not set(name) <= NAME_GLYPHS:
        raise ValueError(f"name must be up to {mainloop.NAME_LENGTH} name-entry glyphs")


def _counts(value: Any, n: int) -> bool:
    """``n`` counts 0..9999 (a record the screens add to and show)."""
    return isinstance(value, list) and len(value) == n and all(
        is_int(v) and 0 <= v <= 9999 for v in value)


class FmGame:
    """Everything the FM screens share."""

    def __init__(self) -> None:
        self.tables = T.load("fm")
        self.rng = Rand(BOOT_STATE)
        self.save_file = SaveFile("fm", validate_save)
        self.data: dict[str, Any] | None = None  # None until a new game or a load
        self.faces: dict[int, Any] = {}  # card id -> CardFace, filled by the screens
        # power-on: the title's first Main_RunMenu pass comes next (mainloop: power-on)
        self.mode, self.mode_frames = mainloop.MENU, mainloop.POWER_ON_FRAME
        self.terrains: dict[int, int] | None = None  # the user's disc's campaign terrains
        # D_8009B230, the two-player set-up's shared choice: Main_Init stores 1 and the set-up
        # writes it back on leaving (MainMenu_FinishValueSetup); RAM only, never saved
        self.view_mode = trade.VIEW_MODE_START
        self.game_over: int | None = None  # the campaign duelist just lost to

    # --- the RNG ------------------------------------------------------------------------
    def mode_frame(self, mode: str) -> int:
        """One frame of main-loop mode ``mode`` (emucore.fm.mainloop): a frame of another
        mode than the last one's enters it (its frame 0); the mode's calls for the frame are
        made and discarded. Returns them."""
        if mode != self.mode:
            self.enter(mode)
        made = mainloop.calls(mode, self.mode_frames)
        self.advance(made)
        self.mode_frames += 1
        return made

    def enter(self, mode: str) -> None:
        """The main loop switches to ``mode``: its next frame is its frame 0."""
        self.mode, self.mode_frames = mode, 0

    def advance(self, calls: int) -> None:
        """Make ``calls`` discarded ``rand()`` calls."""
        self.rng.state = jump_int(self.rng.state, calls)
        self.rng.calls += calls

    def menu_frame(self) -> None:
        """One frame of the title or a main menu (``Main_RunMenu``)."""
        self.mode_frame(mainloop.MENU)

    # --- save data ----------------------------------------------------------------------
    def new_game(self, name: str = "") -> list[int]:
        """A new save named ``name``, its starter deck dealt from the RNG as it stands
        (NameEntry_BuildStarterDeck, after NameEntry_Main's last frame)."""
        cards = fm_deck.starter_deck(self.rng, self.tables)
        trunk = Counter(cards)
        self.data = {"version": SAVE_VERSION, "trunk": {str(c): n for c, n in trunk.items()},
                     "deck": list(cards), "sort": "none", "starchips": 0,
                     "unlocked": list(START_UNLOCKED), "campaign": 0, "story": [],
                     "name": name, "records": {}, "two_player": [0, 0],
                     password.SAVE_FIELD: []}
        self.game_over = None
        return cards

    def load(self) -> str | None:
        """Load the save; returns a message when it was corrupt (and moved aside)."""
        data, message = self.save_file.load()
        if data is not None:
            self.data = data
            self.game_over = None
        return message

    def save(self) -> bool:
        """Save; False (the reason in ``save_file.error``) when it could not be written."""
        return self.save_file.save(self.data)

    # --- queries and updates ------------------------------------------------------------
    @property
    def deck(self) -> list[int]:
        return self.data["deck"]

    def trunk_count(self, card: int) -> int:
        return int(self.data["trunk"].get(str(card), 0))

    def unlocked(self) -> set[int]:
        return set(self.data["unlocked"])

    # --- the campaign -------------------------------------------------------------------
    def story_path(self) -> list[int]:
        """The story duels passed, in order (an older save's count read as default_path)."""
        path = self.data.get("story")
        return list(path) if path is not None else default_path(self.data["campaign"])

    def story_duels(self) -> list[int]:
        """The story duels offered next (several: the player's choice); [] at the end."""
        return story.next_duels(self.story_path())

    def start_duel(self, duelist: int, campaign: bool = False) -> FmDuel:
        """Deal a duel against ``duelist`` from the RNG's current state (the player's deck
        sorted as last sorted). A campaign duel starts on its story terrain."""
        terrain = start_terrain(CAMPAIGN, story.terrain(duelist, self.terrains)) \
            if campaign else FREE_DUEL_TERRAIN
        return self._deal(duelist=duelist, terrain=terrain, computer=[1])

    def _deal(self, **fields: Any) -> FmDuel:
        """A duel of this game's deck, sort and RNG state with the other setup ``fields``;
        the main loop is in the duel mode from here."""
        setup = FmSetup(deck=list(self.deck), sort=self.data["sort"], state=self.rng.state,
                        **fields)
        self.enter(mainloop.DUEL)
        return new_duel(setup, self.tables)

    def duel_finished(self, duelist: int, winner: int, rng_state: int, starchips: int,
                      drop: int, campaign: bool) -> list[str]:
        """Record a finished duel; returns the lines the result screen adds (unlocks)."""
        self.rng.state = rng_state
        data = self.data
        if duelist == 0:
            data["two_player"][winner] = min(data["two_player"][winner] + 1, 9999)
            return []
        wins, losses = data["records"].get(str(duelist), [0, 0])
        data["records"][str(duelist)] = [wins + (winner == 0), losses + (winner == 1)]
        if winner == 0:
            data["starchips"] = rank.add_starchips(data["starchips"], starchips)
            if drop:
                data["trunk"][str(drop)] = rank.award_card(self.trunk_count(drop))
        return self._campaign_outcome(duelist, winner == 0) if campaign else []

    def _campaign_outcome(self, duelist: int, won: bool) -> list[str]:
        """What a campaign duel's end does to the story (story.outcome): the path grows,
        a duelist opens for Free Duel, or the game is over (:attr:`game_over`)."""
        path = self.story_path()
        result = story.outcome(duelist, won, duelist in story.next_duels(path))
        notes = []
        if result.passed:
            path.append(duelist)
            self.data["story"], self.data["campaign"] = path, len(path)
        if result.unlock is not None and result.unlock not in self.data["unlocked"]:
            self.data["unlocked"].append(result.unlock)
            notes.append(f"{self.tables.duelist_name(result.unlock)} joins Free Duel")
        if result.game_over:
            self.game_over = duelist
        return notes

    # --- the Password shop and Trade ----------------------------------------------------
    def password_shop(self) -> password.PasswordShop:
        """The shop over this game's save (Main_RunPasswordMenu); it calls no rand()."""
        return password.PasswordShop(self.tables, self.data)

    def trade_partners(self) -> list[Path]:
        """The other saves in this game's save folder (``*.json`` files other than its own):
        the second memory card is one of them."""
        folder = self.save_file.path.parent
        try:
            found = sorted(folder.glob("*.json"))
        except OSError:
            return []
        return [p for p in found if p.name != self.save_file.path.name and is_regular_file(p)]

    def read_partner(self, path: Path) -> tuple[dict[str, Any], str]:
        """(save, its text) of a second save, read through the reading edge and checked by
        :func:`validate_save`; a bad file is one UserFileError line naming it (the file is
        left as it is). A save cannot meet itself (SaveData_HasSameDuelistCode)."""
        if os.path.realpath(path) == os.path.realpath(self.save_file.path):
            raise UserFileError(path, "this game's own save (a save cannot trade with itself)")
        text = read_text(path, MAX_SAVE_BYTES)
        data = parse_json(text, path)
        try:
            validate_save(data)
        except (ValueError, TypeError, KeyError) as exc:  # as SaveFile reads a save
            raise UserFileError(path, str(exc)) from None
        return data, text

    def commit_trade(self, deal: trade.Trade, path: Path, text: str) -> str | None:
        """Write both saves after a confirmed trade (SaveData_RequestTradeWrite): the second
        save first, atomically, then this game's; if this one cannot be written the second
        is put back, so both stand or neither. Returns None, or the one line why nothing
        changed. The second save must still be the file that was read."""
        mine, theirs = deal.result()
        try:
            if read_text(path, MAX_SAVE_BYTES) != text:
                raise UserFileError(path, "changed since it was read; nothing was traded")
            write_atomic(path, json.dumps(theirs, indent=1, sort_keys=True) + "\n")
        except UserFileError as exc:
            return str(exc)
        if not self.save_file.save(mine):
            try:
                write_atomic(path, text)
            except UserFileError as exc:
                return f"{self.save_file.error}; and {exc}"
            return f"{self.save_file.error}; nothing was traded"
        self.data = mine
        return None

    def start_two_player_duel(self, second: dict[str, Any],
                              setup: trade.TwoPlayerSetup) -> FmDuel:
        """A two-player duel as Main_RunTwoPlayerDuelSetup arms it: player 2's deck and sort
        from the second save, each side's life points from the set-up, terrain 0."""
        trade.check_duel_pair(self.data, second)
        return self._deal(duelist=0, terrain=FREE_DUEL_TERRAIN, lp=list(setup.lp),
                          deck2=list(second["deck"]), sort2=second["sort"])
