"""Forbidden Memories' main loop, mode by mode: what each mode runner of
``gMain_apfnModeRunner`` (0x80090B64, 17 entries, run by ``Main_Loop``) does to the one
``rand()`` stream on every frame, and the name-entry screen where a new game's starter deck
is dealt. No pygame: the FM screens ask this module how many calls a frame makes.

**A frame** is one pass of ``Main_Loop``: ``Main_AdvanceFrame`` (the vertical blank), then
the current mode's runner. A mode is entered by writing its number with bit 0x80 clear; the
next pass runs ``Main_ResetFrontendRuntime`` *instead of* the runner (no ``rand()``), and the
pass after it the runner's first invocation (its one-time set-up, bit 0x40, then its update).
So every mode entered through ``Main_Loop`` spends its frame 0 in that reset
(:attr:`Mode.reset_pass`).

A blocking fade is no frame here (``fm.choices G1``), and power-on is the title's first
``Main_RunMenu`` pass at the boot state (``srand(0x55555555)``, ``Main_Init``; the logo and
intro before it are not modelled, ``fm.choices G2``), so a frame index here is a starter
"index" (calls after the boot state) as ``plan starter`` counts them.

Sources: krystalgamer/memories-decomp ``src/game/main_modes.h`` (the table),
``src/game/main_loop.c`` (``Main_Loop``), ``src/game/main_run_frontend_menus.c``
(``Main_RunMenu``, ``Main_RunNameEntry``, ``Main_RunGameOver``), ``func_8002D458.c`` (menu
result -> mode), ``src/overlays/password/func_8016AA6C.c`` = ``name_entry_main.c``
(``NameEntry_Main``), ``name_entry_runtime.c`` (the glyph effects),
``name_entry_update_dialog.c``, ``src/candidates/password/func_8016913C.c``
(``NameEntry_UpdateKeyboard``), the runners of the Password shop, Trade and the two-player
set-up (``Main_RunPasswordMenu``, ``Main_RunTrade``, ``Main_RunTwoPlayerDuelSetup``) with
``src/overlays/password/shop.c``, ``src/overlays/main_menu/trade_update.c`` and
``value_setup.c``, ``notes/rng.md``, ``notes/research/the-game.md`` §1, §7.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from emucore.fm.choices import UNREAD_MODE_CALLS as UNREAD

# ----------------------------------------------------------------------------- the modes


@dataclass(frozen=True)
class Mode:
    """One mode of the main loop: its runner, what it changes in the save, and its
    ``rand()`` calls per frame (``per_frame``; ``known`` False where the per-frame use could
    not be read from the resident code and ``per_frame`` is a named choice)."""

    key: str
    number: int | None  # its slot in gMain_apfnModeRunner (None: not a slot of its own)
    routine: str
    address: int | None
    per_frame: int
    known: bool
    saves: str  # what it changes in the save block
    note: str
    reset_pass: bool = True  # entered through Main_Loop: frame 0 is Main_ResetFrontendRuntime

    def calls(self, frame: int) -> int:
        """The ``rand()`` calls the mode makes in its frame ``frame`` (0 = the frame it is
        entered)."""
        return 0 if self.reset_pass and frame == 0 else self.per_frame


POWER_ON_FRAME = 1  # the title's first pass at power-on is its frame 1 (past the reset pass)
MENU, NAME_ENTRY, CAMPAIGN, CAMPAIGN_MAP, DUEL = "menu", "name_entry", "campaign", "map", "duel"
FREE_DUEL, BUILD_DECK, LIBRARY, GAME_OVER, CREDITS = ("free_duel", "build_deck", "library",
                                                      "game_over", "credits")
OPTIONS, TWO_PLAYER_SETUP = "options", "two_player_setup"
PASSWORD, TRADE = "password", "trade"

MODES: dict[str, Mode] = {m.key: m for m in (
    Mode(MENU, 8, "Main_RunMenu", 0x8002D588, 1, True, "nothing itself (Load replaces it)",
         "the title and both main menus: one rand() on every invocation, the set-up one "
         "and the one that takes the choice included (notes/rng.md)"),
    Mode(NAME_ENTRY, None, "NameEntry_Main (func_8016AA6C)", 0x8016AA6C, 1, True,
         "a new save: name, starter deck in deck and chest, 0 starchips, no unlocks",
         "New Game's func_8002D458(0) runs its own frame loop inside Main_RunMenu's last "
         "pass: Main_AdvanceFrame, rand(), NameEntry_PollCompletion, until the name is "
         "confirmed; then NameEntry_BuildStarterDeck. A typed glyph landing on a glyph "
         "already there shatters it: 16 shards x 2 Rand_GetInterval calls "
         "(NameEntry_UpdateGlyphFragment). Main_RunNameEntry (slot 9, 0x8002D62C) runs the "
         "same screen without the loop's rand() and without the deal", reset_pass=False),
    Mode(CAMPAIGN, 2, "Main_RunCampaign", 0x8002CE64, UNREAD, False,
         "campaign progress (story flags), after each duel the duel's rewards",
         "fm.choices G3. Script_RunTick runs the story's event script and dialogue; whether "
         "a dialogue's text effects call rand() every frame was not read"),
    Mode(CAMPAIGN_MAP, 5, "Main_RunCampaignMap", 0x8002D2D8, UNREAD, False, "the map location",
         "fm.choices G3. CampaignMap_UpdateLocation is in the overworld overlay, not read "
         "for rand()"),
    Mode(DUEL, 3, "Main_RunDuel", 0x8002CEE8, UNREAD, False,
         "records, starchips, the drop, unlocks (the shared post-duel path)",
         "fm.choices G3. The duel's calls are made by its actions (the deal, the "
         "AI, animations: emucore.fm.engine); a per-frame call is not established "
         "(spec/fm-engine.md §1.3)"),
    Mode(FREE_DUEL, 6, "Main_RunFreeDuelMenu", 0x8002D3F8, 1, True, "nothing",
         "FreeDuel_Entry (0x80168FB4, Free Duel overlay) makes one discarded rand() per "
         "invocation, before the screen update"),
    Mode(BUILD_DECK, 7, "Main_RunBuildDeckMenu", 0x8002D370, UNREAD, False, "the deck, its sort",
         "fm.choices G3. Its update (func_80033BE8) was not read in full; the one rand() use "
         "known there is the Shuffle sort's keys when chosen (the-game.md §4.1), which "
         "emucore's Build Deck does not offer"),
    Mode(LIBRARY, 4, "Main_RunLibraryMenu", 0x8002D0E0, UNREAD, False, "nothing",
         "fm.choices G3. Its update func_8002BAB4 was not read for rand()"),
    Mode(GAME_OVER, 12, "Main_RunGameOver", 0x8002D730, UNREAD, False,
         "nothing: the save is untouched (progress since the last save is lost)",
         "fm.choices G3. GameOver_Init / func_8003CA5C (the game-over package) not matched. "
         "Its exit resets to the title through longjmp (Main_Init's setjmp comes after "
         "srand, so the stream is not reseeded)"),
    Mode(CREDITS, 15, "Main_RunCredits", 0x8002DA1C, UNREAD, False,
         "the completed-game bits, campaign scene back to 0x30",
         "fm.choices G3. The 3-D credits sequence (func_8006CD78) was not read for rand(); "
         "emucore shows no credits"),
    Mode(OPTIONS, 11, "Main_RunOptionsMenu", 0x8002D6C8, UNREAD, False, "the sound setting",
         "fm.choices G3. Options_Update not read for rand(); emucore shows its Controls "
         "screen instead"),
    Mode(PASSWORD, 10, "Main_RunPasswordMenu", 0x8002D684, 0, True,
         "the chest, starchips and the used passwords (emucore.fm.password)",
         "Password_InitShopScreen once, then Password_UpdateShopScreen every frame; "
         "neither, nor Password_LookupCardID, Duel_AwardCard or the display refreshers, "
         "calls rand() (password.RAND_CALLS_PER_FRAME)"),
    Mode(TRADE, 14, "Main_RunTrade", 0x8002D7CC, 0, True,
         "both saves' chests (emucore.fm.trade)",
         "its opening box (state 1 waits for a press, state 2 slides it out) makes no call, "
         "nor MainMenu_UpdateTradeScreen with sort 0; the list's other sorts call rand() "
         "through qsort's comparators on equal ids, and emucore offers none of them "
         "(trade.RAND_CALLS_PER_FRAME)"),
    Mode(TWO_PLAYER_SETUP, 16, "func_8002DC38 (Main_RunTwoPlayerDuelSetup)", 0x8002DC38, 0,
         True, "nothing (two saves' decks are read)",
         "MainMenu_StartValueSetup once, then MainMenu_UpdateValueSetup every frame: "
         "neither calls rand()"),
)}


def calls(mode: str, frame: int) -> int:
    """``rand()`` calls of ``mode``'s frame ``frame`` (0 = the frame it is entered)."""
    return MODES[mode].calls(frame)


# ------------------------------------------------------------------------ name entry
NAME_LENGTH = 6            # the caret's slots 0..5 (NameEntry_AdjustLength), 6 SJIS chars
BOX_IN_FRAMES = 13         # a dialogue box slides 85 a frame over 1024 (NameEntry_UpdateDialog)
BOX_OUT_FRAMES = 13
CURSOR_MOVE_FRAMES = 8     # a keyboard cursor move tweens 8 frames (NameEntry_UpdateKeyboard)
TRANSFER_FRAMES = 8        # a typed glyph flies 8 frames to the name (NameEntry_UpdateKeyboard)
CARET_FRAMES = 6           # the caret slides 6 frames (NameEntry_AdjustLength(1, 6))
SHARDS = 16                # a shattered 16x16 glyph: sixteen 4x4 shards
SHATTER_CALLS = SHARDS * 2  # each shard: Rand_GetInterval(0x200), Rand_GetInterval(0x180)
# fm.choices G4: the shards draw their two calls two frames after the glyph lands (the
# display list's order inside a frame was not read), and the keyboard ignores presses until
# the glyph has landed and the caret has moved (NameEntry_UpdateDialog returns early while
# the transfer is in flight).
SHATTER_AT = TRANSFER_FRAMES + 2
GLYPH_BUSY = TRANSFER_FRAMES + CARET_FRAMES

# Our own keyboard: six rows of glyphs, then a row of three keys.
GLYPH_ROWS = ("ABCDEFGHIJK", "LMNOPQRSTUV", "WXYZ.-!?&'+", "abcdefghijk", "lmnopqrstuv",
              "wxyz0123456")
EXTRA_GLYPHS = "789"
KEYS = ("Back", "Next", "End")
COLUMNS = 11
KEY_ROW = len(GLYPH_ROWS)


def key_at(row: int, col: int) -> str:
    """The glyph or key under the cursor (the key row is three keys wide)."""
    if row == KEY_ROW:
        return KEYS[min(col * len(KEYS) // COLUMNS, len(KEYS) - 1)]
    return GLYPH_ROWS[row][col]


@dataclass
class Keys:
    """What the pad did this frame, as the keyboard reads it: directions *held*
    (``gInput_wPad1Held``), confirm/cancel *repeating* (``gInput_wPad1Repeat``), Start
    *pressed* (``gInput_wPad1Pressed``)."""

    held: frozenset[str] = frozenset()
    repeat: frozenset[str] = frozenset()
    pressed: frozenset[str] = frozenset()


@dataclass
class NameEntry:
    """The name-entry screen frame by frame (``NameEntry_Main``'s loop over
    ``NameEntry_UpdateDialog`` and ``NameEntry_UpdateKeyboard``): an opening box that
    waits for a press, the keyboard, and a closing box; the name is done on the frame after
    the closing box is dismissed (the starter deck is dealt after that frame's call).

    :meth:`step` runs one frame and returns the ``rand()`` calls of the shards landing in
    it; the loop's own call of every frame is the mode's (:data:`MODES`)."""

    frame: int = 0
    phase: str = "intro"          # intro, intro_out, keyboard, confirm, closing, done
    since: int = 0                # the frame the phase began
    slots: list[str | None] = field(default_factory=lambda: [None] * NAME_LENGTH)
    caret: int = 0
    row: int = 0
    col: int = 0
    busy_until: int = 0           # the keyboard reads no press before this frame
    shatters: list[int] = field(default_factory=list)  # frames whose shards draw
    error: bool = False           # the last press was refused (the error sound)

    @property
    def name(self) -> str:
        """The name as saved: an empty slot is a space, trailing ones dropped."""
        return "".join(c or " " for c in self.slots).rstrip()

    @property
    def done(self) -> bool:
        return self.phase == "done"

    def box_waiting(self) -> bool:
        """Whether a box is fully in and waits for its press."""
        if self.phase == "intro":
            return self.frame - self.since > BOX_IN_FRAMES
        return self.phase == "confirm" and self.frame - self.since > BOX_IN_FRAMES + 1

    def step(self, keys: Keys) -> int:
        """One frame's poll; returns the calls of the shards drawing now
        (:data:`SHATTER_CALLS` per shattered glyph)."""
        if self.done:
            raise ValueError("the name is already entered")
        self.error = False
        made = SHATTER_CALLS * self.shatters.count(self.frame)
        self.shatters = [f for f in self.shatters if f > self.frame]
        self._poll(keys)
        self.frame += 1
        return made

    def _enter(self, phase: str) -> None:
        self.phase, self.since = phase, self.frame

    def _poll(self, keys: Keys) -> None:
        confirm = bool(keys.repeat & {"cross", "circle"}) or bool(keys.pressed & {"cross",
                                                                                   "circle"})
        if self.phase in ("intro", "confirm"):
            if self.box_waiting() and confirm:
                self._enter("intro_out" if self.phase == "intro" else "closing")
        elif self.phase == "intro_out":
            if self.frame - self.since >= BOX_OUT_FRAMES:
                self._enter("keyboard")
        elif self.phase == "closing":
            self._enter("done")  # flag 0x10 the frame after the box is dismissed
        if self.phase == "keyboard" and self.frame >= self.busy_until \
                and self.frame > self.since:
            self._keyboard(keys)

    def _keyboard(self, keys: Keys) -> None:
        """``NameEntry_UpdateKeyboard``: a held direction moves the cursor (then 8 frames
        of tween), Start jumps to End, confirm types or presses a key, cancel steps back."""
        moves = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
        held = [d for d in moves if d in keys.held]
        if held:
            dr, dc = moves[held[0]]
            self.row = (self.row + dr) % (KEY_ROW + 1)
            self.col = (self.col + dc) % COLUMNS
            self.busy_until = self.frame + CURSOR_MOVE_FRAMES
        elif "start" in keys.pressed:
            self.row, self.col = KEY_ROW, COLUMNS - 1
            self.busy_until = self.frame + CURSOR_MOVE_FRAMES
        elif keys.repeat & {"cross"}:
            self._confirm()
        elif keys.repeat & {"circle"}:
            self._move_caret(-1)

    def _confirm(self) -> None:
        key = key_at(self.row, self.col)
        if key == "End":
            if self.name:
                self._enter("confirm")
            else:
                self.error = True  # a blank name is refused (SE 9)
        elif key in ("Back", "Next"):
            self._move_caret(-1 if key == "Back" else 1)
        else:
            if self.slots[self.caret] is not None:
                self.shatters.append(self.frame + SHATTER_AT)  # quirk: the old glyph shatters
            self.slots[self.caret] = key
            self.caret = min(self.caret + 1, NAME_LENGTH - 1)
            self.busy_until = self.frame + GLYPH_BUSY

    def _move_caret(self, step: int) -> None:
        """``NameEntry_AdjustLength``: the caret moves within 0..5, else the error sound."""
        target = self.caret + step
        if 0 <= target < NAME_LENGTH:
            self.caret = target
            self.busy_until = self.frame + CARET_FRAMES
        else:
            self.error = True


# The shortest name entry (name-frame, buttons): close the opening box as soon as it is in,
# type the glyph under the cursor ("A"), Start to End, End, and close the last box as soon
# as it waits.
_OPEN_WAIT = BOX_IN_FRAMES + 1
_KEYBOARD = _OPEN_WAIT + BOX_OUT_FRAMES + 1
_END_AT = _KEYBOARD + GLYPH_BUSY + CURSOR_MOVE_FRAMES
QUICK_NAME: tuple[tuple[int, str], ...] = (
    (_OPEN_WAIT, "cross"), (_KEYBOARD, "cross"), (_KEYBOARD + GLYPH_BUSY, "start"),
    (_END_AT, "cross"), (_END_AT + BOX_IN_FRAMES + 2, "cross"))
QUICK_NAME_FRAMES = QUICK_NAME[-1][0] + 2  # the close press, then the frame that finishes
TITLE_TO_NAME = 2  # the title: Start opens the menu, Cross on New Game the next frame
EARLIEST_DEAL = TITLE_TO_NAME + QUICK_NAME_FRAMES  # the first starter index from power-on


def starter_script(index: int) -> tuple[int, list[tuple[int, str]]]:
    """The pad presses from power-on (no save: the title's menu holds New Game alone) that
    deal the starter deck of ``index``: (frames waited on the title first, [(frame,
    button)]), each press held one frame. The title's frames and the name's each make one
    call, the name QUICK_NAME (no glyph is overwritten), so the deal comes after
    ``wait + TITLE_TO_NAME + QUICK_NAME_FRAMES`` calls. ValueError below that."""
    wait = index - EARLIEST_DEAL
    if wait < 0:
        raise ValueError(f"index {index} is before the earliest deal from power-on "
                         f"({EARLIEST_DEAL}: the title's {TITLE_TO_NAME} frames and a "
                         f"{QUICK_NAME_FRAMES}-frame name entry)")
    name0 = wait + TITLE_TO_NAME
    presses = [(wait, "start"), (wait + 1, "cross")]
    presses += [(name0 + f, button) for f, button in QUICK_NAME]
    return wait, presses
