"""Verify a Forbidden Memories capture against emucore's FM engine, step by step.

1. **Start.** The first record holding a freshly dealt duel (every deck-card record holds the
   card of the shuffled deck at its position, side 0 at most on turn 1, side 1 on turn 0).
   The player's deck in Build Deck order is the shuffled deck read back through its
   permutation bytes; the deal is then searched backwards from the start record's RNG state
   (:func:`find_deal`), which gives the replay setup (deck, duelist, RNG state before the deal).
2. **Steps.** From each state emucore has matched, every candidate action (the legal list, free
   columns spelled out, the CPU's "done" marks and plays from its look-ahead window) is
   played on a copy; a later record whose
   compared bytes equal one candidate's result is that step. Records in between are the
   original's animations. ``rand()`` calls of a step are those between the record matched by
   the previous step and the one matched by this step: the player's steps must show exactly
   the calls emucore's rules make; a CPU step may show more, the computer's own decision calls
   (``rng_calls`` of the derived action).
3. **Compared bytes.** Every watched range emucore mirrors (rammap.FM ranges with a target),
   minus the fields of the approved known divergences; the RNG state is compared on its own.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from emucore import tables as T
from emucore.capture.approved import Divergence
from emucore.capture.fileformat import Capture, Record
from emucore.capture.rammap import FM
from emucore.duel.files import UserFileError
from emucore.duel.protocol import IllegalAction
from emucore.fm import machine as M
from emucore.fm import state as S
from emucore.fm.actions import AUTO, DECK_PICK, Done, FmAction, Play
from emucore.fm.deck import deal_many
from emucore.fm.engine import FmDuel
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw import psyq_rand
from emucore.hw.psyq_rand import Rand, index_of

DEAL_CALLS = 640          # two swap stages of 160 x 2 calls
DEAL_SEARCH = 4096        # further calls searched for the CPU deck's generation attempts
NEAREST_WINDOW = 400      # records searched for the nearest state after a failed step
BACKTRACK_POINTS = 4      # latest matches a failed scan may back up to
MAX_BACKTRACKS = 8        # rescans per verification
COLUMNS = range(S.ROW_WIDTH)


def field_spans() -> list[tuple[str, int, int]]:
    """Every named field of the FM state image with its byte span (from the machine's one
    declaration, :data:`emucore.fm.machine.SPANS`)."""
    return [(span.name, span.offset, span.size) for span in M.SPANS]


class Images:
    """Captured records as emucore state images, and the bytes that are compared."""

    def __init__(self, approved: tuple[Divergence, ...]) -> None:
        self.spans = field_spans()
        mirrored = np.zeros(M.SIZE, dtype=bool)
        for r in FM.ranges:
            if r.target is not None:
                mirrored[r.target:r.target + r.length] = True
        self.mirrored = mirrored
        mask = mirrored.copy()
        self.approved: dict[str, np.ndarray] = {}
        for entry in approved:
            hit = np.zeros(M.SIZE, dtype=bool)
            for name, at, size in self.spans:
                if entry.matches(name):
                    hit[at:at + size] = True
            self.approved[entry.id] = np.flatnonzero(hit & mirrored)
            mask &= ~hit
        self.mask = mask
        self.idx = np.flatnonzero(mask)
        self.compared = {name for name, at, size in self.spans if mask[at:at + size].all()}

    def captured(self, record: Record) -> np.ndarray:
        image = np.zeros(M.SIZE, dtype=np.uint8)
        for r in FM.ranges:
            if r.target is not None:
                image[r.target:r.target + r.length] = np.frombuffer(record.ranges[r.name],
                                                                     np.uint8)
        return image

    def key(self, image: bytes | np.ndarray) -> bytes:
        return np.frombuffer(bytes(image), np.uint8)[self.idx].tobytes()

    def diff(self, ours: bytes, captured: bytes) -> list[tuple[str, int, int]]:
        """Compared fields that differ: (name, ours, captured)."""
        a, b = M.fields_of(bytes(ours)), M.fields_of(bytes(captured))
        return [(n, a[n], b[n]) for n, _, _ in self.spans
                if n in self.compared and a[n] != b[n]]


@dataclass
class RngGap:
    """``rand()`` calls of one step: emucore's against the capture's."""

    before: int
    ours: int
    captured: int
    ours_calls: int
    captured_calls: int

    def to_json(self) -> dict[str, Any]:
        return {"before": f"0x{self.before:08X}", "ours": f"0x{self.ours:08X}",
                "captured": f"0x{self.captured:08X}", "ours_calls": self.ours_calls,
                "captured_calls": self.captured_calls,
                "calls": [{"state": f"0x{s:08X}", "rand": v}
                          for s, v in calls_from(self.before, self.captured_calls)]}


def calls_from(state: int, count: int, limit: int = 12) -> list[tuple[int, int]]:
    """The first ``min(count, limit)`` ``rand()`` calls from ``state``: (new state, result)."""
    rng = Rand(state)
    return [(rng.state, v) for v in (rng.rand() for _ in range(min(count, limit)))]


@dataclass
class CapturedStep:
    """One action of a capture as emucore replayed it, with both state images."""

    number: int
    line: int
    frame: int
    side: int
    action: FmAction
    rule_calls: int
    ours: bytes      # emucore's state image after the step
    captured: bytes  # the captured record as a state image


@dataclass
class CaptureMismatch:
    """Where a capture first disagrees with emucore (line and frame of the capture file;
    distinct from a replay file's :class:`emucore.duel.replay.Mismatch`)."""

    step: int        # 1-based action number; 0 = the start of the duel
    line: int
    frame: int
    side: int
    reason: str
    action: dict[str, Any] | None = None
    fields: list[tuple[str, int, int]] = field(default_factory=list)
    rng: RngGap | None = None

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "line": self.line, "frame": self.frame, "side": self.side,
                "reason": self.reason, "action": self.action,
                "fields": [{"field": n, "ours": o, "captured": c} for n, o, c in self.fields],
                "rng": self.rng.to_json() if self.rng else None}


@dataclass
class Verdict:
    system: str
    start_line: int
    setup: dict[str, Any] | None
    deal: str
    steps: list[CapturedStep]
    mismatch: CaptureMismatch | None
    known: dict[str, int]  # approved divergence id -> records that showed it
    compared: frozenset[str] = frozenset()  # names of the compared fields
    opening: bytes = b""  # emucore's state image before the first step

    @property
    def actions(self) -> list[FmAction]:
        return [s.action for s in self.steps]


@dataclass
class AiPick:
    """emucore's computer opponent's action from one state, with its result."""

    action: FmAction
    key: bytes
    rng: int
    image: bytes


@dataclass
class Cursor:
    """Where a scan (re)starts: record index, emucore's state and what was matched so far."""

    index: int
    base: bytes
    steps: list[CapturedStep]
    known: dict[str, int]
    seen: bool = False
    skip: int | None = None  # a record to take for an animation frame, not a match


@dataclass
class Scan:
    """A scan's outcome. An unexplained record is kept as (base, record index, seen) and
    described (:meth:`FmChecker._nearest`) only for the scan that is reported."""

    steps: list[CapturedStep]
    known: dict[str, int]
    mismatch: CaptureMismatch | None = None
    unexplained: tuple[bytes, int, bool] | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None and self.unexplained is None

    def line(self, records: list[Record]) -> int:
        return self.mismatch.line if self.mismatch else records[self.unexplained[1]].line


class CaptureStartError(UserFileError):
    """The capture lacks the state a verification starts from."""


def _start_index(capture: Capture, images: Images, path: str) -> int:
    state = S.DuelState()
    first_dealt = None
    for j, record in enumerate(capture.records):
        state.load(images.captured(record).tobytes())
        ids = state.deck_cards.card_id.tolist()
        if (min(ids) < 1 or ids[:40] != state.shuffled[0].tolist()
                or ids[40:] != state.shuffled[1].tolist()):
            continue
        turns = state.sides.turns.tolist()
        if turns[0] <= 1 and turns[1] == 0:
            return j
        first_dealt = first_dealt if first_dealt is not None else (record, turns)
    if first_dealt is None:
        raise CaptureStartError(path, "no record holds a dealt duel (the deck-card records "
                                      "never match the shuffled decks): start recording "
                                      "before the duel begins")
    record, turns = first_dealt
    raise CaptureStartError(path, f"the capture starts mid-duel: its first dealt record "
                                  f"(line {record.line}) is at side0.turns {turns[0]}, "
                                  f"side1.turns {turns[1]}; the start of the duel is needed")


def _build_order(cards: list[int], perm: list[int], who: str, path: str) -> list[int]:
    """The deck before the shuffle: card ``cards[i]`` came from position ``perm[i]``."""
    if sorted(perm) != list(range(S.DECK_SIZE)):
        raise CaptureStartError(path, f"perm_{who} is not a permutation of 0..39")
    out = [0] * S.DECK_SIZE
    for card, p in zip(cards, perm, strict=True):
        out[p] = card
    return out


def find_deal(player: list[int], duelist: int, after: int, shuffled: tuple[list, list]
              ) -> tuple[int, int] | None:
    """The RNG state before the deal that yields exactly the captured decks, searched among
    the states up to DEAL_CALLS + DEAL_SEARCH calls before ``after``: (state, calls from the
    deal's end to ``after``), or None."""
    tables = T.load("fm")
    count = DEAL_SEARCH + 1
    first = int(psyq_rand.jump(after, (1 << 32) - (DEAL_CALLS + DEAL_SEARCH)))
    states = psyq_rand.consecutive_states(first, count)
    batch = deal_many(states, player, duelist, tables)
    ok = ((batch.player_cards == np.asarray(shuffled[0])).all(axis=1)
          & (batch.cpu_cards == np.asarray(shuffled[1])).all(axis=1))
    lanes = np.flatnonzero(ok)
    if not len(lanes):
        return None
    lane = int(lanes[-1])
    return int(states[lane]), index_of(after, int(batch.state_after[lane]))


class Candidates:
    """Results of candidate actions from one state, computed only as far as a look-up needs:
    result key -> (action, rule ``rand()`` calls, state image)."""

    def __init__(self, duel: FmDuel, base: bytes, actions: Iterable[FmAction],
                 images: Images) -> None:
        self.duel, self.base, self.images = duel, base, images
        self.pending = iter(actions)
        self.results: dict[bytes, tuple[FmAction, int, bytes]] = {}

    def _next(self) -> bool:
        duel = self.duel
        for action in self.pending:
            duel.restore(self.base)
            calls = duel.rng.calls
            try:
                duel.step(action)
            except (IllegalAction, ValueError, IndexError):
                continue
            image = duel.snapshot()
            self.results.setdefault(self.images.key(image),
                                    (action, duel.rng.calls - calls, image))
            return True
        duel.restore(self.base)
        return False

    def get(self, key: bytes) -> tuple[FmAction, int, bytes] | None:
        while key not in self.results:
            if not self._next():
                return None
        self.duel.restore(self.base)
        return self.results[key]

    def values(self) -> list[tuple[FmAction, int, bytes]]:
        while self._next():
            pass
        return list(self.results.values())


#: How many decision calls ``_decision_calls`` tries one by one when its guesses miss (a
#: decision of the computer opponent makes far fewer).
DECISION_SCAN = 4096


class FmChecker:
    """One verification run over a parsed capture."""

    def __init__(self, capture: Capture, approved: tuple[Divergence, ...], path: str,
                 ai: bool = False) -> None:
        self.capture, self.path, self.ai = capture, path, ai
        self.ai_pick: AiPick | None = None
        self.images = Images(approved)
        self.records = capture.records
        self.known = {d.id: 0 for d in approved}

    # ----------------------------------------------------------------- start
    def opening(self, record: Record) -> tuple[FmDuel, dict[str, Any] | None, str]:
        """emucore's duel from the start record: dealt from the RNG state the deal search
        finds (then the setup is a replay's), else built from the captured decks. The CPU's
        snapshot array starts as the record shows it (whatever earlier duels left there; the
        original's contents at duel start are unknown, fm-ai.md §2.5)."""
        duel, setup, deal = self._opening_duel(record)
        cpu = S.AI_SNAPSHOT.index("ai_snapshot_cpu")
        at, length = M.OFFSET["ai_snapshot_cpu"], M.LENGTH["ai_snapshot_cpu"]
        duel.st.ai_snapshot[cpu][:] = self.images.captured(record)[at:at + length]
        return duel, setup, deal

    def _opening_duel(self, record: Record) -> tuple[FmDuel, dict[str, Any] | None, str]:
        state = S.DuelState()
        state.load(self.images.captured(record).tobytes())
        opponent = state.globals.opponent[0]
        if not 1 <= opponent <= 39:
            raise CaptureStartError(self.path, f"line {record.line}: opponent id {opponent} "
                                               f"is not a CPU duelist 1..39 (two-player "
                                               f"captures are not supported)")
        decks = (state.shuffled[0].tolist(), state.shuffled[1].tolist())
        perms = (state.perm[0].tolist(), state.perm[1].tolist())
        player = _build_order(decks[0], perms[0], "player", self.path)
        _build_order(decks[1], perms[1], "cpu", self.path)
        terrain = state.globals.terrain[0]
        lp = state.sides.max_lp.tolist()
        try:
            found = find_deal(player, opponent, record.rng, decks)
            if found is not None:
                before, extra = found
                setup = FmSetup(deck=player, duelist=opponent, sort="none", state=before,
                                terrain=terrain, lp=lp, computer=[1])
                deal = (f"deal found: RNG 0x{before:08X}, {extra} more call(s) before the "
                        f"first record of the duel")
                return new_duel(setup), setup.to_json(), deal
            duel = FmDuel(T.load("fm"), S.Shuffle(tuple(decks[0]), tuple(perms[0])),
                          S.Shuffle(tuple(decks[1]), tuple(perms[1])), Rand(record.rng),
                          opponent=opponent, terrain=terrain, lp=(lp[0], lp[1]),
                          computer=(1,))
        except (ValueError, IndexError) as exc:
            raise CaptureStartError(self.path, f"line {record.line}: the duel's start state is "
                                               f"not usable ({exc})") from None
        return duel, None, ("deal not found: no RNG state within "
                            f"{DEAL_CALLS + DEAL_SEARCH} calls deals these decks")

    # ----------------------------------------------------------------- candidates
    def candidates(self, duel: FmDuel, base: bytes, target: np.ndarray) -> Candidates:
        """The actions that could lead from ``base`` toward ``target``, played lazily (the
        duel exports the CPU's snapshot before each of them: side 1 is computer-played)."""
        return Candidates(duel, base, self._actions(duel, base, target), self.images)

    def _consumed(self, duel: FmDuel, base: bytes, target: np.ndarray) -> frozenset | None:
        """Hand positions whose card record differs between ``base`` and ``target`` (the
        cards a hand-phase play used); None in the field phase."""
        if duel.phase != S.PHASE_HAND:
            return None
        ours, mask = np.frombuffer(base, np.uint8), self.images.mask
        first = duel.acting_side * S.RECORDS_PER_SIDE + S.HAND
        spans = [duel.st.cards.span(first + j) for j in COLUMNS]
        return frozenset(j for j, at in enumerate(spans)
                         if not np.array_equal(ours[at][mask[at]], target[at][mask[at]]))

    def _actions(self, duel: FmDuel, base: bytes, target: np.ndarray) -> Iterable[FmAction]:
        consumed = self._consumed(duel, base, target)
        legal = duel.legal_actions()
        side = duel.acting_side
        if consumed is None:
            extra = [Done(c, magic=m) for c in COLUMNS for m in (False, True)] if side else []
            return [*self._ai_first(), *legal, *extra]
        out: list[FmAction] = [*self._ai_first()]
        for action in legal:
            if set(action.cards) != consumed:
                continue
            out.append(action)
            if action.zone == AUTO:
                out += [dataclasses.replace(action, zone=c) for c in COLUMNS]
        return itertools.chain(out, self._deep_plays(duel, consumed) if side == 1 else ())

    def _deep_plays(self, duel: FmDuel, consumed: frozenset) -> Iterator[FmAction]:
        """CPU plays that take a card still in the deck (fm-ai §2.4: it trades places with the
        lowest unselected hand card): one deck card alone, or with one hand card before or
        after it. Tried after every ordinary play; longer such chains need ``--ai``. The
        board is read now: the plays are generated while candidates change the duel."""
        held = [j for j, card in enumerate(duel.hand(1)) if card >= 0]
        picks = [DECK_PICK + index - S.DECK_SIZE for _, index in duel.deck_remaining(1)]
        chains: list[tuple[int, ...]] = []
        for real in [None, *held]:
            free = [j for j in held if j != real]
            if not free or {free[0]} | ({real} - {None}) != consumed:
                continue
            for pick in picks:
                chains += [(pick,)] if real is None else [(real, pick), (pick, real)]
        return (Play(cards, zone, face_down, star) for cards in chains
                for zone in (AUTO, *COLUMNS) for face_down in (False, True) for star in (0, 1))

    def _ai_first(self) -> list[FmAction]:
        """emucore's computer's choice as a candidate (its own calls are the step's RNG gap)."""
        return [dataclasses.replace(self.ai_pick.action, rng_calls=0)] if self.ai_pick else []

    def _choose(self, duel: FmDuel, base: bytes) -> AiPick:
        """What emucore's computer opponent does from ``base`` (result and RNG after)."""
        from emucore.fm.ai import choose_action

        duel.restore(base)
        action = choose_action(duel)
        duel.restore(base)
        duel.step(action)
        image = duel.snapshot()
        pick = AiPick(action, self.images.key(image), duel.rng.state, image)
        duel.restore(base)
        return pick

    # ----------------------------------------------------------------- run
    def run(self) -> Verdict:
        """Scan the records; when a scan fails, back up to one of the last matches and take
        that record for an animation frame instead (a chain's partial state can equal the
        result of a shorter play). The result that got furthest is reported."""
        records = self.records
        start = _start_index(self.capture, self.images, self.path)
        duel, setup, deal = self.opening(records[start])
        self.duel = duel
        points: deque[Cursor] = deque(maxlen=BACKTRACK_POINTS)
        first = Cursor(start, duel.snapshot(), [], dict(self.known))
        best = scan = self._scan(first, points)
        for _ in range(MAX_BACKTRACKS):
            if scan.ok or not points:
                break
            scan = self._scan(points.pop(), points)
            if scan.ok or scan.line(records) > best.line(records):
                best = scan
        mismatch = best.mismatch
        if best.unexplained is not None:
            base, index, seen = best.unexplained
            duel.restore(base)
            mismatch = self._nearest(duel, base, index, len(best.steps), seen)
        return Verdict("fm", records[start].line, setup, deal, best.steps, mismatch,
                       best.known, frozenset(self.images.compared), first.base)

    def _scan(self, at: Cursor, points: deque[Cursor]) -> Scan:
        """Match records from ``at`` on; a match pushes a choice point onto ``points``."""
        images, records, duel = self.images, self.records, self.duel
        base, steps, known = at.base, list(at.steps), dict(at.known)
        duel.restore(base)
        self.ai_pick = None
        current = images.key(base)
        seen, pending = at.seen, None
        cache: dict[frozenset | None, Candidates] = {}
        for j in range(at.index, len(records)):
            record = records[j]
            image = images.captured(record)
            key = images.key(image)
            if key == current and j != at.skip:
                seen, pending = True, None
                self._note_known(base, image, known)
                continue
            if duel.over and seen:
                break  # the game leaves the duel scene
            hit = None
            if seen and j != at.skip:
                if self.ai and duel.acting_side == 1 and self.ai_pick is None:
                    self.ai_pick = self._choose(duel, base)
                group = self._consumed(duel, base, image)
                if group not in cache:
                    cache[group] = self.candidates(duel, base, image)
                hit = cache[group].get(key)
            if hit is None:
                pending = j if pending is None else pending
                continue
            action, rule_calls, _ = hit
            side = duel.acting_side
            number = len(steps) + 1
            if side == 1:
                action, rule_calls = self._decision_calls(duel, base, action,
                                                          index_of(record.rng, duel.rng.state),
                                                          rule_calls)
            gap = self._rng_gap(duel, record, action.rng_calls + rule_calls, side)
            if gap is not None:
                return Scan(steps, known, CaptureMismatch(
                    number, record.line, record.frame, side, "rand() calls differ",
                    action.to_json(), [("rng_state", gap.ours, gap.captured)], gap))
            if side == 1 and self.ai_pick and (self.ai_pick.key != key or
                                               self.ai_pick.rng != record.rng):
                return Scan(steps, known, self._ai_mismatch(number, record, image, action))
            points.append(Cursor(j, base, list(steps), dict(known), seen=True, skip=j))
            duel.restore(base)
            duel.step(action)
            base = duel.snapshot()
            current = images.key(base)
            steps.append(CapturedStep(number, record.line, record.frame, side, action,
                              rule_calls, base, image.tobytes()))
            cache.clear()
            self.ai_pick = None
            seen, pending = True, None
        if pending is not None or not seen:
            return Scan(steps, known, None, (base, at.index if not seen else pending, seen))
        return Scan(steps, known)

    def _ai_mismatch(self, number: int, record: Record, image: np.ndarray,
                     action: FmAction) -> CaptureMismatch:
        pick = self.ai_pick
        fields = self.images.diff(pick.image, image.tobytes())
        if pick.rng != record.rng:
            fields.append(("rng_state", pick.rng, record.rng))
        return CaptureMismatch(number, record.line, record.frame, 1,
                        f"emucore's computer opponent chooses {pick.action.to_json()}; the "
                        f"capture shows {action.to_json()}", action.to_json(), fields)

    @staticmethod
    def _decision_calls(duel: FmDuel, base: bytes, action: FmAction, total: int,
                        rule_calls: int) -> tuple[FmAction, int]:
        """The computer's decision calls ``k`` of an action whose step made ``total`` calls in
        the capture: ``k`` plus what the rules and animations call after them. Some
        animations' counts depend on the state they start from (the destruction tiles, the
        star flash), so the rules' share is measured for each ``k`` tried: first the guesses
        ``total - rules``, then every ``k`` up to :data:`DECISION_SCAN`; the first that adds
        up is taken (the last guess stands, and the step is reported, if none does)."""
        def rules(k: int) -> int:
            duel.restore(base)
            before = duel.rng.calls
            duel.step(dataclasses.replace(action, rng_calls=k))
            return duel.rng.calls - before - k

        tried: dict[int, int] = {}
        guess = total - rule_calls
        for _ in range(4):
            if guess < 0 or guess in tried:
                break
            tried[guess] = made = rules(guess)
            if guess + made == total:
                duel.restore(base)
                return dataclasses.replace(action, rng_calls=guess), made
            guess = total - made
        for k in range(min(total, DECISION_SCAN) + 1):
            made = tried[k] if k in tried else rules(k)
            if k + made == total:
                duel.restore(base)
                return dataclasses.replace(action, rng_calls=k), made
        duel.restore(base)
        return dataclasses.replace(action, rng_calls=max(total - rule_calls, 0)), rule_calls

    def _rng_gap(self, duel: FmDuel, record: Record, rule_calls: int, side: int
                 ) -> RngGap | None:
        before = duel.rng.state
        n = index_of(record.rng, before)
        if n == rule_calls:
            return None
        ours = int(psyq_rand.jump(before, rule_calls))
        return RngGap(before, ours, record.rng, rule_calls, n)

    def _note_known(self, ours: bytes, image: np.ndarray, known: dict[str, int]) -> None:
        a = np.frombuffer(ours, np.uint8)
        for ident, idx in self.images.approved.items():
            if len(idx) and not np.array_equal(a[idx], image[idx]):
                known[ident] += 1

    def _nearest(self, duel: FmDuel, base: bytes, first: int, done: int, seen: bool
                 ) -> CaptureMismatch:
        """The first step that no candidate explains: the candidate and record (within a
        window) that differ in the fewest compared bytes."""
        images = self.images
        window = self.records[first:first + NEAREST_WINDOW]
        captured = np.stack([images.captured(r)[images.idx] for r in window])
        options: list[tuple[FmAction | None, int, bytes]] = [(None, 0, base)]
        if seen and not duel.over:
            for record in window[:8]:
                options += self.candidates(duel, base, images.captured(record)).values()
        best = None
        for action, _, image in options:
            ours = np.frombuffer(image, np.uint8)[images.idx]
            counts = (captured != ours).sum(axis=1)
            k = int(np.argmin(counts))
            if best is None or counts[k] < best[0]:
                best = (int(counts[k]), action, image, k)
        _, action, image, k = best
        record = window[k]
        fields = images.diff(image, images.captured(record).tobytes())
        side = duel.acting_side
        before = duel.rng.state
        calls_at = M.field_offset("globals", "rng_calls")
        ours_calls = int(np.frombuffer(image, "<u4", 1, calls_at)[0]) - duel.rng.calls
        gap = RngGap(before, int(psyq_rand.jump(before, ours_calls)), record.rng,
                     ours_calls, index_of(record.rng, before))
        if not seen:
            return CaptureMismatch(0, record.line, record.frame, side,
                            "the opening state differs", None, fields, gap)
        what = (f"no action of side {side} explains the captured state; nearest: "
                f"{'no action' if action is None else action.to_json()}")
        return CaptureMismatch(done + 1, record.line, record.frame, side, what,
                        action.to_json() if action else None, fields, gap)


def verify(capture: Capture, approved: tuple[Divergence, ...], path: str,
           ai: bool = False) -> Verdict:
    """Verify an FM capture (raises :class:`CaptureStartError` without a duel start).

    With ``ai`` the CPU's steps must also be what emucore's computer opponent chooses (same
    result and the same decision ``rand()`` calls); its choice is tried first, which also
    derives the hand executor's deep-card picks that the legal list never offers."""
    return FmChecker(capture, approved, path, ai).run()
