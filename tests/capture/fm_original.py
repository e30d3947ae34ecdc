"""A stand-in for the original FM (NTSC-U) on a PlayStation, for tests of ``emucore capture
record fm --from-replay``: a :class:`~emucore.capture.cores.Machine` that plays the title
menu, Free Duel, the pre-duel deck screen and the duel scene frame by frame, reading the pad
only where and when the original does, and writing the RAM words the recorder watches.

It is written from the accounts of the original's routines in docs/fm-duel-input.md and the
research notes (menus, duel input, pre-duel screen), not from emucore's pad planner, so a test
driving it checks the planner against an independent reading. The duel's rules are emucore's
own :class:`~emucore.fm.engine.FmDuel`; every decision the pad makes is turned into an action
and stepped, and kept in :attr:`FmOriginal.actions`. A press the original would not act on
does nothing; a press that would take the game somewhere a test never goes (New Game, Build
Deck, back to the main menu) raises AssertionError. Frame counts the notes give are used;
the others are the named constants below (plausible, not measured).
"""

from __future__ import annotations

import dataclasses
import pickle

from emucore import tables as T
from emucore.capture.rammap import FM, FM_INPUT
from emucore.duel.protocol import IllegalAction
from emucore.fm import actions as A
from emucore.fm import deck as fm_deck
from emucore.fm.ai import choose_action
from emucore.fm.engine import FmDuel
from emucore.fm.overlay import BUILT_IN
from emucore.hw.psyq_rand import BOOT_STATE, Rand, index_of, next_state

RAM_BASE, RAM_SIZE, RNG = 0x80000000, 0x200000, 0x800FE6F8
# pad bits (emucore.duel.padlog.PSX_BUTTONS), as held = the complement of the active-low word
START, UP, RIGHT, DOWN, LEFT = 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7
L1, R1, CIRCLE, CROSS, SQUARE = 1 << 10, 1 << 11, 1 << 13, 1 << 14, 1 << 15
CONFIRM = CROSS | SQUARE
DIRECTIONS = ((UP, 0, -1), (LEFT, -1, 0), (DOWN, 0, 1), (RIGHT, 1, 0))  # func_80023D08 order
MAGIC, TRAP, RITUAL, EQUIP = 20, 21, 22, 23
MENU_NAMES = ("New Game", "Load", "2P Duel", "Trade", "Option", "Campaign", "Free Duel",
              "Build Deck", "Library", "Password", "Save")

INTRO = 40            # power-on frames before the title's "press START" reads the pad
SLIDE = 16            # MainMenu_StartFrontendEntryTransition: countdown 16 per entry
LOAD = 60             # SaveData_PollLoad frames (0x8018459B busy)
FADE = 32             # Fade_WaitOut / Fade_WaitIn, blocking (no runner, no rand)
BOX_TYPE = 30         # "SELECT OPPONENT!" typing before the box waits for Cross/Square
GLIDE = 8             # FreeDuel_UpdateCursorTween: timer 8
PREDUEL_FADE = 48     # Main_RunDuel step 0 -> 1: SD_BGMFadeOut, Fade_WaitOut, reset
STARTUP = 300         # func_80018608: camera 0x16C0 -> 0x400 in steps of 0x10
OPENING_DRAW = 45     # func_80018DB4: cards at calls 1, 9, .. 33, then a 12-step fly-in
REFILL = 17           # func_8001898C: D_8009B162 = 2 (k = 17)
TWEEN, FLIP = 13, 8   # hand step 3: step += 0xAA to 0x800; face += 0x10 to 0x80
ZONE_ENTRY = 20       # func_8001B938: D_8009B162 = 3 (field-view tween + panel)
MOVE, ROW_MOVE, ROW_CROSS = 8, 9, 17  # grid cursor moves (func_80023D08)
STAR_TWEEN, STAR_SLIDE = 16, 50       # func_8001B170 steps 1 and 4
ANIM = 60             # placement / card use / battle animations (states 6, 7, 9)
FIELD_ENTRY = 22      # DuelScene_UpdateFieldActions entry: D_8009B162 = 3
SPIN = 24             # func_8001D240 position-change spin (tag 0xF object)
TARGET_IN, TARGET_OUT = 17, 18        # field step 4 (0x52) and step 6 cancel (0x58)
ZOOM, UNDIM = 24, 12  # field step 7: zoom + dim, and the un-dim
THREE_D = 120         # Main_RunAnimatedBattle length when nobody presses Circle
TURN_SWITCH = 49      # func_800208D4: 48-frame view rotation + 1
CPU_THINK = 40        # frames per computer action
RESULT_IN, BANNER, REWARDS_IN = 30, 600, 20  # func_80020F4C, func_800218F0


def _monsters(duel: FmDuel) -> list[tuple[int, int, int] | None]:
    views = (duel.card(0, "monster", c) for c in range(5))
    return [(v.card, v.deck_index, v.card_type) if v else None for v in views]


class FmOriginal:
    """The original's machine: :meth:`step` one frame with a pad word (active low).

    ``deck`` is the player's 40 cards as the memory card's save holds them (loaded by the
    title's Load, dealt as they are); ``unlocked`` the Free Duel cells that may be chosen
    (a new save: Duel Master K, 39). ``actions`` lists every action stepped (both sides),
    ``log`` notable events.
    """

    emulator = "fm-original stand-in"

    def __init__(self, deck: list[int], unlocked: set[int] | frozenset[int] = frozenset({39}),
                 tables=None) -> None:
        self.tables = tables or T.load("fm")
        self.save_deck, self.unlocked = list(deck), set(unlocked)
        self.ram = bytearray(RAM_SIZE)
        self.actions: list = []
        self.log: list[str] = []
        self.card: bytes | None = None
        self.duel: FmDuel | None = None
        self.dealt = None
        self.seed, self.ticking, self.prev, self.frame = BOOT_STATE, True, 0, 0
        self.phase, self.timer, self.after, self.sets = "", 0, "", {}
        self.mode, self.menu, self.shade, self.slide, self.loading = 0xC8, 0, 8, 0, 0
        self.deck_loaded, self.grid, self.grid_target, self.glide = False, [0, 0], [0, 0], 0
        self.opponent, self.runner, self.scene, self.sub, self.jobs = 0, 0, 0, 0, 0
        self.shown_side, self.first_turn, self.slot, self.raised = 0, False, 0, []
        self.cards, self.kind, self.face_down, self.choice, self.count = (), 0, False, 0, 0
        self.zc, self.tc = [0, 2, 0, 0], [0, 1, 0, 0]  # col, row, status, frames left
        self.arrows, self.shows_face, self.equip_zone, self.pending = 0, False, None, None
        self._after(INTRO, "prompt", shade=0)

    # ------------------------------------------------------------------ Machine
    def __enter__(self) -> FmOriginal:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def insert_memory_card(self, card: bytes) -> None:
        self.card = bytes(card)

    def read(self, r) -> bytes:
        offset = (r.address - RAM_BASE) & (RAM_SIZE - 1)
        return bytes(self.ram[offset:offset + r.length])

    def save(self) -> bytes:
        state = {k: v for k, v in vars(self).items() if k not in ("tables", "duel")}
        state["duel_image"] = self.duel.snapshot() if self.duel else None
        return pickle.dumps(state)

    def restore(self, state: bytes) -> None:
        data = pickle.loads(state)
        image = data.pop("duel_image")
        self.__dict__.update(data)
        self.duel = None
        if image is not None:
            self.duel = self._new_duel()
            self.duel.restore(image)

    def step(self, word: int) -> None:
        """One pass of Main_Loop: Input_UpdatePads (Pressed = down now, not last frame),
        then the mode's runner; Main_RunMenu, FreeDuel_Entry and func_80033BE8 call rand()
        once each call (``ticking``); the blocking fades call nothing."""
        held = ~word & 0xFFFF
        pressed, self.prev = held & ~self.prev, held
        self.frame += 1
        if self.ticking:
            self.seed = next_state(self.seed)
        if self.timer:
            self.timer -= 1
            if not self.timer:
                self.__dict__.update(self.sets)
                self._go(self.after)
        else:
            handler = getattr(self, "_p_" + self.phase, None)
            if handler:
                handler(pressed, held)
        self._publish()

    # ------------------------------------------------------------------ plumbing
    def _after(self, frames: int, then: str, **sets: object) -> None:
        """The next ``frames`` frames read no pad; the last one sets ``sets`` (attributes)
        and enters ``then``."""
        self.phase, self.timer, self.after, self.sets = "wait", frames, then, sets

    def _go(self, name: str) -> None:
        self.phase = name
        entry = getattr(self, "_e_" + name, None)
        if entry:
            entry()

    def _w(self, address: int, value: int, length: int = 1) -> None:
        offset = address - RAM_BASE
        self.ram[offset:offset + length] = value.to_bytes(length, "little")

    def _publish(self) -> None:
        words = {"main_mode": self.mode, "menu_item": self.menu, "duel_runner": self.runner,
                 "scene": self.scene, "step": self.sub, "jobs": self.jobs,
                 "hand": self.slot, "field": self.zc[0] | self.zc[1] << 8,
                 "field_status": self.zc[2], "target": self.tc[0] | self.tc[1] << 8,
                 "target_status": self.tc[2], "activate_arrows": self.arrows,
                 "grid": self.grid[0] | self.grid[1] << 8,
                 "grid_target": self.grid_target[0] | self.grid_target[1] << 8}
        for name, value in words.items():
            r = FM_INPUT[name]
            self._w(r.address, value, r.length)
        busy = (self.shade, self.slide, 0, self.loading, 0, 0)
        self.ram[0x184598:0x18459E] = bytes(busy)
        self._w(0x8009B361, self.opponent)
        self._w(0x8009B1D5, self.shown_side)
        self._w(RNG, self.duel.rng.state if self.duel else self.seed, 4)
        if self.deck_loaded:
            self.ram[0x1D0200:0x1D0250] = b"".join(c.to_bytes(2, "little")
                                                   for c in self.save_deck)

    def _mirror(self) -> None:
        """The duel's RAM records at their addresses (emucore.capture.rammap.FM ranges)."""
        image = self.duel.snapshot()
        for r in FM.ranges:
            if r.target is not None:
                offset = r.address - RAM_BASE
                self.ram[offset:offset + r.length] = image[r.target:r.target + r.length]

    # ------------------------------------------------------------------ title and menus
    def _p_prompt(self, pressed: int, held: int) -> None:
        """MainMenu_UpdateFrontendMenu with gMain_bMenuID 0: "press START" first."""
        if pressed & START:
            self.slide = 1
            self._after(SLIDE + 1, "menu", slide=0)

    def _p_menu(self, pressed: int, held: int) -> None:
        """MainMenu_UpdateFrontendMenu: Repeat Up/Down move -1/+1 wrapping in the group (ids
        0..4, 5..10), instantly; else Pressed Cross/Square/Start confirms."""
        lo, n = (0, 5) if self.menu < 5 else (5, 6)
        if pressed & (UP | DOWN):
            self.menu = lo + (self.menu - lo + (1 if pressed & DOWN else -1)) % n
        elif pressed & (CONFIRM | START):
            if self.menu == 1:
                if not (self.card or b"").startswith(b"MC"):
                    raise AssertionError("Load chosen with no memory card inserted")
                self.loading = 1
                self._after(LOAD, "loaded")
            elif self.menu == 6:
                self.slide = 1
                self._after(SLIDE + 1, "menu_exit")
            else:
                raise AssertionError(f"menu item {self.menu} ({MENU_NAMES[self.menu]}) chosen")
        elif pressed & CIRCLE and self.menu >= 5:
            raise AssertionError("Circle in the main menu (back to the title)")

    def _e_loaded(self) -> None:
        """SaveData_PollLoad() == 1: the slide-out, then the main group with the cursor on 5."""
        self.loading, self.slide, self.deck_loaded = 0, 1, True
        self.log.append("save loaded")
        self._after(SLIDE, "regroup")

    def _e_regroup(self) -> None:
        self.menu = 5
        self._after(SLIDE + 1, "menu", slide=0)

    def _e_menu_exit(self) -> None:
        """Main_RunMenu: Fade_WaitOut, Main_ApplyMenuSelection(6) (mode 6), a reset pass."""
        self.ticking = False
        self._after(FADE, "fd_reset")

    def _e_fd_reset(self) -> None:
        self.mode, self.slide = 0x86, 0
        self._after(1, "fd_init")

    def _e_fd_init(self) -> None:
        """FreeDuel_Init: cursor and target (0, 0), the "SELECT OPPONENT!" box (flag 0x20)."""
        self.mode, self.ticking, self.grid, self.grid_target = 0xC6, True, [0, 0], [0, 0]
        self._after(BOX_TYPE, "box")

    def _p_box(self, pressed: int, held: int) -> None:
        """func_80039794: a complete box waits for Pressed Cross/Square; the next frame
        destroys it and places the cursor (no pad)."""
        if pressed & CONFIRM:
            self._after(1, "grid")

    def _p_grid(self, pressed: int, held: int) -> None:
        """FreeDuel_UpdateScreen: Held directions move the target (clamped) and start an
        8-frame tween, after which committed := target; buttons only with no direction."""
        if self.glide:
            self.glide -= 1
            if self.glide:
                return
            self.grid = list(self.grid_target)
        if held & (UP | DOWN | LEFT | RIGHT):
            col, row = self.grid_target
            col += bool(held & RIGHT) - bool(held & LEFT)
            row += bool(held & DOWN) - bool(held & UP)
            self.grid_target = [min(max(col, 0), 4), min(max(row, 0), 7)]
            if self.grid_target != self.grid:
                self.glide = GLIDE
            return
        cell = self.grid[1] * 5 + self.grid[0]
        if pressed & CIRCLE:
            raise AssertionError("Circle in Free Duel (back to the main menu)")
        if pressed & CONFIRM:
            if cell == 0:
                raise AssertionError("Build Deck chosen in Free Duel")
            if cell in self.unlocked and all(self.save_deck):
                self.opponent, self.mode, self.ticking = cell, 0x03, False
                self.log.append(f"duel with {cell}")
                self._after(FADE, "duel_reset")

    def _e_duel_reset(self) -> None:
        self.mode = 0x83
        self._after(1, "duel_init")

    def _e_duel_init(self) -> None:
        """Main_RunDuel's init pass, then step 0's func_800323F8 and Fade_WaitIn."""
        self.mode, self.runner = 0xC3, 0
        self._after(FADE, "deck_screen", runner=0x80, ticking=True)

    def _p_deck_screen(self, pressed: int, held: int) -> None:
        """BuildDeck_UpdateChestPaneInput: Pressed Circle -> exit step func_800339D0, which
        with a full deck returns 0 the next frame (func_80033BE8 still calls rand() then)."""
        if pressed & CIRCLE:
            self._after(1, "deck_exit")

    def _e_deck_exit(self) -> None:
        self.ticking = False
        self._after(PREDUEL_FADE, "deal")

    # ------------------------------------------------------------------ duel start
    def _new_duel(self) -> FmDuel:
        d = self.dealt
        return FmDuel(self.tables, d.player, d.cpu, Rand(d.state_after), opponent=self.opponent,
                      terrain=0, lp=(8000, 8000), computer=(1,), effects=BUILT_IN)

    def _e_deal(self) -> None:
        """Duel_InitScene: Duel_ShuffleBothDecks last (player deck as the save holds it);
        side 0 moves first; D_8009B16C |= 0x1000 (no attack on the first turn)."""
        self.runner, self.scene, self.first_turn = 0x81, 1, True
        self.log.append(f"deal at index {index_of(self.seed)}")
        self.dealt = fm_deck.deal(Rand(self.seed), self.save_deck, self.opponent, self.tables)
        self.duel = self._new_duel()
        self._mirror()
        self._after(1, "startup")

    def _e_startup(self) -> None:
        self.scene = 0x8001
        self._after(STARTUP, "opening_draw")

    def _e_opening_draw(self) -> None:
        self.scene = 0x8003
        self._after(OPENING_DRAW, "hand_in")

    # ------------------------------------------------------------------ hand phase
    def _e_hand_in(self) -> None:
        """DuelScene_UpdateHandActions' first call: slot 0, no marks, step 1 (no pad)."""
        self.scene, self.shown_side = 0x0004, 0
        self._after(1, "hand", scene=0x8004, sub=0x01, jobs=0, slot=0, raised=[])

    def _p_hand(self, pressed: int, held: int) -> None:
        """Step 1: Repeat Right/Left move the slot (0..4); Pressed == Held == Up raises;
        Circle or a lone Down lowers; Cross/Square plays (0 raised: face choice, >= 2: zone,
        exactly 1: ignored)."""
        if pressed & RIGHT:
            self.slot = min(self.slot + 1, 4)
        elif pressed & LEFT:
            self.slot = max(self.slot - 1, 0)
        elif pressed == UP and held == UP:
            if self.slot not in self.raised:
                self.raised.append(self.slot)
        elif pressed & CIRCLE or (pressed == DOWN and held == DOWN):
            if self.slot in self.raised:
                self.raised.remove(self.slot)
        elif pressed & CONFIRM and len(self.raised) != 1 and self.duel.hand(0)[self.slot] >= 0:
            if self.raised:
                self.cards, self.face_down = tuple(self.raised), False
                self._go("zone_in")
                return
            self.cards = (self.slot,)
            self.kind = self.duel.facts.type[self.duel.hand(0)[self.slot]]
            self.sub, self.face_down = 0xC3, False
            self._after(TWEEN, "face_arrive")

    def _e_face_arrive(self) -> None:
        """Step 3: after the tween a monster or a trap turns itself face down (8 frames)."""
        if self.kind < MAGIC or self.kind == TRAP:
            self.sub, self.face_down = 0xA3, True
            self._after(FLIP, "face", sub=0x83)
        else:
            self.sub, self.phase = 0x83, "face"

    def _p_face(self, pressed: int, held: int) -> None:
        """Step 3: Repeat Left/Right flips; Circle backs out; Cross/Square: a face-up magic
        or ritual is used from the hand (step 5), else the tween home and step 4."""
        if pressed & (LEFT | RIGHT):
            self.sub, self.face_down = 0xA3, not self.face_down
            self._after(FLIP, "face", sub=0x83)
        elif pressed & CIRCLE:
            self.sub = 0xD3
            self._after(TWEEN + FLIP * self.face_down, "hand", sub=0x01, jobs=0)
        elif pressed & CONFIRM:
            if not self.face_down and self.kind in (MAGIC, RITUAL):
                self._commit(A.Play(cards=self.cards, zone=-1, face_down=False))
            else:
                self.sub = 0xD3
                self._after(TWEEN, "zone_in")

    def _e_zone_in(self) -> None:
        """func_8001B938: row 2, or 3 for a single magic-or-above set face down or a trap;
        the column = the row's first empty zone (kept when the row is full)."""
        single = len(self.cards) == 1
        row = 3 if single and self.kind >= MAGIC and (self.face_down or self.kind == TRAP) else 2
        name = "monster" if row == 2 else "magic"
        free = [c for c in range(5) if self.duel.card(0, name, c) is None]
        self.zc = [free[0] if free else self.zc[0], row, 0, 0]
        self.sub, self.jobs = 0xC4, 3
        self._after(ZONE_ENTRY, "zone", sub=0x84, jobs=0)

    def _grid_move(self, cur: list[int], held: int, rows: range) -> bool:
        """func_80023FBC/func_80023D08 on Held (Up > Left > Down > Right): True while a move
        runs (callers skip their buttons); the frame it ends reads the buttons, not a move."""
        if cur[3]:
            cur[3] -= 1
            if not cur[3]:
                cur[2] = self.jobs = 0
            return bool(cur[3])
        for bit, dc, dr in DIRECTIONS:
            if held & bit:
                col, row = cur[0] + dc, cur[1] + dr
                if not 0 <= col <= 4 or row not in rows:
                    return False
                frames = MOVE if dc else ROW_CROSS if {row, cur[1]} == {1, 2} else ROW_MOVE
                cur[:] = [col, row, 0xC0 if dr else 0x80, frames]
                self.jobs = 0x50 if dr else 0x40
                return True
        return False

    def _p_zone(self, pressed: int, held: int) -> None:
        """Step 4: the zone cursor (one row); Circle backs out; Cross/Square places (a single
        equip onto an empty monster zone is refused)."""
        if self._grid_move(self.zc, held, range(self.zc[1], self.zc[1] + 1)):
            return
        if pressed & CIRCLE:
            self.jobs = 12
            self._after(12, "face" if len(self.cards) == 1 else "hand",
                        sub=0x83 if len(self.cards) == 1 else 0x01, jobs=0)
        elif pressed & CONFIRM:
            if len(self.cards) == 1 and self.kind == EQUIP and self.zc[1] == 2 \
                    and self.duel.card(0, "monster", self.zc[0]) is None:
                return
            self._commit(A.Play(cards=self.cards, zone=self.zc[0], face_down=self.face_down))

    # ------------------------------------------------------------------ committing
    def _star_dialog(self, action) -> bool:
        """State 7 -> 8 (func_8001B170): the dialog comes for a monster result: a monster new
        on the field, a fusion or failure (D_8009B218 nonzero), a ritual's; an equip onto a
        monster already there (D_8009B218 == 0, state 0x4008) and magic results skip it."""
        duel, before = self.duel, _monsters(self.duel)
        snap = duel.snapshot()
        events = self._apply(action, trial=True)
        after = _monsters(duel)
        duel.restore(snap)
        if any(isinstance(e, A.RitualSummon) and e.side == 0 and e.result for e in events):
            return True
        chained = any(isinstance(e, (A.Fusion, A.Failure)) and e.side == 0 for e in events)
        return any(a is not None and a[2] < MAGIC and (a != b or chained)
                   for a, b in zip(after, before, strict=True))

    def _apply(self, action, trial: bool = False) -> list:
        try:
            events = self.duel.step(action)
        except IllegalAction as exc:
            raise AssertionError(f"the original would not do {action!r}: {exc}") from exc
        if not trial:
            self.actions.append(action)
            self._mirror()
        return events

    def _commit(self, action) -> None:
        """The play or activation as decided; the star dialog first if it comes."""
        self.pending, self.jobs = action, 0
        if self._star_dialog(action):
            self.log.append("star dialog")
            self.scene, self.sub, self.choice = 0x8008, 0x03, 0
            self._after(STAR_TWEEN + 1, "star", sub=0x83)
        else:
            self._apply(action)
            self.scene, self.jobs = 0x8007, 12
            self._after(ANIM, "after_action")

    def _p_star(self, pressed: int, held: int) -> None:
        """Dialog_ReadChoiceInput: Repeat Up/Down (clamped), R1 (wraps) swallow the frame;
        else Pressed Cross/Square confirms (star 2 iff the choice is 1). No cancel."""
        if pressed & R1:
            self.choice ^= 1
        elif pressed & DOWN:
            self.choice = 1
        elif pressed & UP:
            self.choice = 0
        elif pressed & CONFIRM:
            self.sub = 0x93
            self._after(STAR_SLIDE, "star_done")

    def _e_star_done(self) -> None:
        self._apply(dataclasses.replace(self.pending, star=self.choice))
        self.scene, self.jobs = 0x8007, 12
        self._after(ANIM, "after_action")

    def _e_after_action(self) -> None:
        self.arrows, self.equip_zone = 0, None
        self._go("results" if self.duel.over else "field_in")

    # ------------------------------------------------------------------ field phase
    def _e_field_in(self) -> None:
        """DuelScene_UpdateFieldActions entry: D_8009B162 = 3, step 1 waits it out; the zone
        cursor keeps its column and row (the hand phase's)."""
        self.scene, self.sub, self.jobs, self.zc[2:] = 0x8005, 0x01, 3, [0, 0]
        self._after(FIELD_ENTRY, "browse")

    def _e_browse(self) -> None:
        self.sub, self.jobs = 0x83, 0

    def _p_browse(self, pressed: int, held: int) -> None:
        """Step 3: the grid cursor over rows 0..3; then Start ends the turn, L1/R1 change an
        own monster's position, Cross/Square attack (row 2) or activate a set card (row 3)."""
        if self._grid_move(self.zc, held, range(0, 4)):
            return
        col, row = self.zc[:2]
        own = self.duel.card(0, "monster", col) if row == 2 else None
        if pressed & START:
            self._apply(A.EndTurn())
            self.first_turn, self.scene, self.sub, self.jobs = False, 0x800A, 0x0B, 12
            self._after(TURN_SWITCH, "cpu_turn")
        elif pressed & (L1 | R1):
            if own is not None and not own.used:
                self._apply(A.ChangePosition(zone=col))
                self._after(SPIN, "browse")
        elif pressed & CONFIRM:
            if row == 2 and own and not (self.first_turn or self.duel.swords(0) or own.used
                                         or own.defending):
                self.tc[1:] = [1, 0, 0]
                self.sub, self.jobs = 0xC4, 0x52
                self._after(TARGET_IN, "target", sub=0x06, jobs=0)  # never 0x86
            elif row == 3 and (magic := self.duel.card(0, "magic", col)) and magic.face_down:
                self.sub, self.arrows, self.shows_face = 0xA7, 0, False
                self._after(ZOOM, "activate", sub=0x87, arrows=0x80)

    def _p_target(self, pressed: int, held: int) -> None:
        """Step 6: the target cursor on one row; Circle backs out; Cross commits (2-D),
        Square asks for the 3-D battle; an empty zone buzzes unless the opponent has no
        monster (a direct attack). For an equip (row 2) Cross puts it on the monster."""
        if self._grid_move(self.tc, held, range(self.tc[1], self.tc[1] + 1)):
            return
        if pressed & CIRCLE:
            self.sub, self.jobs, self.equip_zone = 0x46, 0x58, None
            self._after(TARGET_OUT, "browse")
        elif not pressed & CONFIRM:
            return
        elif self.equip_zone is not None:
            if self.duel.card(0, "monster", self.tc[0]) is not None:
                self._commit(A.Activate(zone=self.equip_zone, target=self.tc[0]))
        else:
            foes = [self.duel.card(1, "monster", c) for c in range(5)]
            if any(foes) and foes[self.tc[0]] is None:
                return
            attack = A.Attack(attacker=self.zc[0], target=self.tc[0] if any(foes) else -1,
                            view="2d" if pressed & CROSS else "3d")
            self.pending, self.scene, self.jobs = attack, 0x8009, 12
            if attack.view == "3d" and attack.target >= 0 and not self._trap_springs(attack):
                self.mode, self.count = 0xC1, 0
                self.log.append("3-D battle")
                self.phase = "battle_3d"
            else:
                self._battle(attack)

    def _trap_springs(self, attack: A.Attack) -> bool:
        snap = self.duel.snapshot()
        events = self._apply(attack, trial=True)
        self.duel.restore(snap)
        return any(isinstance(e, A.Trap) for e in events)

    def _p_battle_3d(self, pressed: int, held: int) -> None:
        """func_800534B8: Pressed Circle ends the 3-D scene (from its second frame)."""
        self.count += 1
        skip = bool(pressed & CIRCLE) and self.count >= 2
        if skip or self.count >= THREE_D:
            self.mode = 0xC3
            self._battle(dataclasses.replace(self.pending, view="3d_skip" if skip else "3d"))

    def _battle(self, attack: A.Attack) -> None:
        self._apply(attack)
        self.scene, self.jobs = 0x8009, 12
        self._after(ANIM, "after_action")

    def _p_activate(self, pressed: int, held: int) -> None:
        """func_80020988: Repeat Left/Right flips the shown card (8 frames); Circle cancels;
        Cross/Square activates only if the card shows its face (else cancels)."""
        if pressed & (LEFT | RIGHT):
            self.arrows, self.shows_face = 0x40, not self.shows_face
            self._after(FLIP, "activate", arrows=0x80)
        elif pressed & (CIRCLE | CONFIRM):
            self.arrows = 0
            col = self.zc[0]
            if pressed & CIRCLE or not self.shows_face:
                self.sub = 0x97
                self._after(UNDIM, "browse")
            elif self.duel.card(0, "magic", col).card_type == EQUIP:
                self.equip_zone, self.tc[1:] = col, [2, 0, 0]
                self.sub, self.jobs = 0xC7, 0x52
                self._after(UNDIM + TARGET_IN, "target", sub=0x06, jobs=0)
            else:
                self._commit(A.Activate(zone=col))

    # ------------------------------------------------------------------ the computer, results
    def _e_cpu_turn(self) -> None:
        """func_800208D4 toggled the side; func_8001898C + func_80018DB4 draw for it."""
        if self.duel.over:
            self._go("results")
            return
        self.shown_side, self.scene, self.sub, self.jobs = 1, 0x8002, 0, 2
        self._after(REFILL + OPENING_DRAW, "cpu_act")

    def _e_cpu_act(self) -> None:
        self.scene, self.sub, self.jobs = 0x8004 + self.duel.phase, 0x02, 0
        self._after(CPU_THINK, "cpu_step")

    def _e_cpu_step(self) -> None:
        self._apply(choose_action(self.duel))
        if self.duel.over:
            self._go("results")
        elif self.duel.acting_side == 0:
            self.scene, self.sub, self.jobs = 0x800A, 0, 12
            self._after(TURN_SWITCH, "player_draw")
        else:
            self._go("cpu_act")

    def _e_player_draw(self) -> None:
        self.shown_side, self.scene, self.sub, self.jobs = 0, 0x8002, 0, 2
        self._after(REFILL + OPENING_DRAW, "hand_in")

    def _e_results(self) -> None:
        """func_80020F4C: banner (step 3 holds 600 frames, Circle/Cross/Square end it)."""
        self.log.append(f"duel over, winner {self.duel.winner}")
        self.mode, self.scene, self.sub, self.jobs = 0xC3, 0x800C, 0x01, 8
        self._after(RESULT_IN, "banner", sub=0x03, jobs=0, count=BANNER)

    def _p_banner(self, pressed: int, held: int) -> None:
        self.count -= 1
        if pressed & (CIRCLE | CONFIRM) or not self.count:
            self.scene, self.sub = 0x800D, 0x01
            self._after(REWARDS_IN, "rewards", sub=0x83)

    def _p_rewards(self, pressed: int, held: int) -> None:
        """func_800218F0: Pressed Cross only leaves; then the fade and mode D_8009B368 = 6."""
        if pressed & CROSS:
            self.sub = 0x93
            self._after(FADE, "fd_back")

    def _e_fd_back(self) -> None:
        self.seed, self.duel, self.dealt = self.duel.rng.state, None, None
        self.mode, self.runner, self.scene, self.sub = 0x86, 0x82, 0, 0
        self._after(1, "fd_return")

    def _e_fd_return(self) -> None:
        """Back in Free Duel with ReturnFlags 0x80: the previous cell, no text box."""
        self.mode, self.runner, self.ticking = 0xC6, 0, True
        self.phase = "grid"
