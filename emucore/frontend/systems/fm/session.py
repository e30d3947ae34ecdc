"""The Forbidden Memories game a player carries between screens: the machine's one RNG
stream, the trunk, the deck and its sort, starchips, records, campaign progress - and its save.

The RNG starts at the boot state and, as in the original, advances once per frame on the
title and menu screens (``Main_RunMenu``) and on the Free Duel grid (``FreeDuel_Entry``), so a
duel's deal depends on how many frames the player spent there (spec/fm-engine.md §1.3).
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
from emucore.fm import password, rank, trade
from emucore.fm.engine import FmDuel
from emucore.fm.setup import FREE_DUEL, FmSetup, check_deck, new_duel, start_terrain
from emucore.frontend.storage import MAX_SAVE_BYTES, SaveFile
from emucore.hw.psyq_rand import BOOT_STATE, Rand
from emucore.tables.fm import CARD_COUNT, DUELIST_COUNT

SAVE_VERSION = 2
# Version 1 saves (before the Password shop) are read as having used no password.
READ_VERSIONS = (1, SAVE_VERSION)
# Choice: the campaign plays the duelists in the duelist table's id order, which follows the
# story (Teana ... Nitemare); the original lets the player visit the five mage shrines in any
# order, here they come in table order. Simon Muran (1) is open for Free Duel from the start,
# Duel Master K (39) opens when the campaign is finished.
CAMPAIGN_ORDER = tuple(range(2, 39))
START_UNLOCKED = (1,)
POST_GAME = (39,)
# Free Duels and two-player duels start on terrain 0, as the original arms them
# (func_80024DC8, emucore.fm.setup.start_terrain). Choice: our campaign duels start there too;
# the original's come from the story script's duel command (Text_StartCampaignDuel), whose
# bytes are not in our tables.
FREE_DUEL_TERRAIN = start_terrain(FREE_DUEL)


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
    progress = data.get("campaign")
    if not is_int(progress) or not 0 <= progress <= len(CAMPAIGN_ORDER):
        raise ValueError(f"campaign must be 0..{len(CAMPAIGN_ORDER)}")
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

    # --- the RNG ------------------------------------------------------------------------
    def menu_frame(self) -> None:
        """One frame of a menu that calls ``rand()`` every frame (Main_RunMenu,
        FreeDuel_Entry): the result is discarded."""
        self.rng.rand()

    # --- save data ----------------------------------------------------------------------
    def new_game(self) -> list[int]:
        """Deal the starter deck from the RNG as it stands (NameEntry_BuildStarterDeck)."""
        cards = fm_deck.starter_deck(self.rng, self.tables)
        trunk = Counter(cards)
        self.data = {"version": SAVE_VERSION, "trunk": {str(c): n for c, n in trunk.items()},
                     "deck": list(cards), "sort": "none", "starchips": 0,
                     "unlocked": list(START_UNLOCKED), "campaign": 0, "records": {},
                     "two_player": [0, 0]}
        return cards

    def load(self) -> str | None:
        """Load the save; returns a message when it was corrupt (and moved aside)."""
        data, message = self.save_file.load()
        if data is not None:
            self.data = data
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

    def next_campaign_duelist(self) -> int | None:
        progress = self.data["campaign"]
        return CAMPAIGN_ORDER[progress] if progress < len(CAMPAIGN_ORDER) else None

    def start_duel(self, duelist: int, deck2: list[int] | None = None):
        """Deal a duel from the RNG's current state (the player's deck sorted as last
        sorted); ``duelist`` 0 with ``deck2`` is a two-player duel."""
        setup = FmSetup(deck=list(self.deck), duelist=duelist, sort=self.data["sort"],
                        state=self.rng.state, terrain=FREE_DUEL_TERRAIN, deck2=deck2,
                        sort2=self.data["sort"], computer=[1] if duelist else [])
        return new_duel(setup, self.tables)

    def duel_finished(self, duelist: int, winner: int, rng_state: int, starchips: int,
                      drop: int, campaign: bool) -> list[str]:
        """Record a finished duel; returns the lines the result screen adds (unlocks)."""
        self.rng.state = rng_state
        notes = []
        data = self.data
        if duelist == 0:
            data["two_player"][winner] = min(data["two_player"][winner] + 1, 9999)
            return notes
        wins, losses = data["records"].get(str(duelist), [0, 0])
        data["records"][str(duelist)] = [wins + (winner == 0), losses + (winner == 1)]
        if winner != 0:
            return notes
        data["starchips"] = rank.add_starchips(data["starchips"], starchips)
        if drop:
            data["trunk"][str(drop)] = rank.award_card(self.trunk_count(drop))
        if campaign and duelist == self.next_campaign_duelist():
            data["campaign"] += 1
            if duelist not in data["unlocked"]:
                data["unlocked"].append(duelist)
                notes.append(f"{self.tables.duelist_name(duelist)} joins Free Duel")
            if self.next_campaign_duelist() is None:
                for extra in POST_GAME:
                    if extra not in data["unlocked"]:
                        data["unlocked"].append(extra)
                        notes.append(f"{self.tables.duelist_name(extra)} joins Free Duel")
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
        duel_setup = FmSetup(deck=list(self.deck), duelist=0, sort=self.data["sort"],
                             state=self.rng.state, terrain=FREE_DUEL_TERRAIN,
                             lp=list(setup.lp), deck2=list(second["deck"]),
                             sort2=second["sort"])
        return new_duel(duel_setup, self.tables)
