"""``emucore capture record fm --from-replay REPLAY``: the original plays an emucore replay.

:mod:`emucore.fm.padplan` turns the replay into a plan: presses, each waiting for the moment
the original's routine reads it. This module plays the plan on an emulator one frame at a
time: after every frame it reads the plan's RAM words (``rammap.FM_INPUT``) and the RNG state,
decides the next frame's pad word, and records the frame as ``capture record`` does. Where a
deal must land on an RNG index (:class:`~emucore.fm.padplan.Land`) it saves the emulator's
state, plays the lead-in, measures the index reached, and rewinds to wait the difference
(the capture and the pad log drop what the rewind undid).

What it writes: the capture, and with ``--pad-out`` the pad log it played, which plays the
same run again on the same core with ``capture record --pad``. When the original stops
following the plan (a gate not reached in fm.choices P7's frames) the capture so far is
kept, marked partial with the reason: ``capture verify`` shows where the two parted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from emucore.capture import cores
from emucore.capture.fileformat import CaptureWriter
from emucore.capture.rammap import FM_INPUT, RamMap, Range
from emucore.duel import padlog
from emucore.duel.files import UserFileError
from emucore.fm import choices as C
from emucore.fm import padplan as P
from emucore.hw.psyq_lcg import index_of
from emucore.planning.progress import Progress

IDLE = padlog.IDLE["psx"]
MOVE_LIMIT = 48  # steps a cursor may take to its goal (the grids are 5 x 8 at most)
PROBE_FRAMES = 4  # Free Duel: a direction held this long moves the cursor unless a box is up


class Diverged(Exception):
    """The original did not do what the plan expects (the message says where)."""


class Interrupted(Exception):
    """Ctrl-C between two frames."""


@dataclass
class Mark:
    """Where a rewind goes back to."""

    state: bytes
    words: int
    writer: tuple
    look: dict[str, int]


class Run:
    """The emulator, the capture being written and the pad words played, with rewind."""

    def __init__(self, ram: RamMap, machine: cores.Machine, writer: CaptureWriter,
                 asked: list[bool]) -> None:
        from emucore.capture.record import sample  # the one way a frame is recorded

        self.ram, self.machine, self.writer, self.asked = ram, machine, writer, asked
        self._sample = sample
        self._rng = Range("rng", ram.rng_address or 0, 4, None, "RNG state")
        self.words: list[int] = []
        self.look = self._read({}, int.from_bytes(machine.read(self._rng), "little"))

    def _read(self, ranges: dict[str, bytes], rng: int) -> dict[str, int]:
        """The plan's words after a frame, the ones the capture sampled taken from it."""
        look = {name: int.from_bytes(ranges.get(name) or self.machine.read(r), "little")
                for name, r in FM_INPUT.items()}
        look["rng"] = rng
        return look

    def frame(self, word: int = IDLE) -> None:
        """One frame with ``word`` held, recorded; its RAM words read into :attr:`look`."""
        if self.asked[0]:
            raise Interrupted
        self.machine.step(word)
        self.words.append(word)
        ranges, rng = self._sample(self.ram, self.machine)
        self.writer.add(len(self.words), word, rng, ranges)
        self.look = self._read(ranges, rng)

    def idle(self, frames: int) -> None:
        for _ in range(frames):
            self.frame()

    def hold(self, buttons: tuple[str, ...], frames: int) -> None:
        """``buttons`` held ``frames`` frames, then released as long."""
        word = padlog.word_from_buttons("psx", set(buttons))
        for _ in range(frames):
            self.frame(word)
        self.idle(frames)

    def mark(self) -> Mark:
        return Mark(self.machine.save(), len(self.words), self.writer.mark(), dict(self.look))

    def rewind(self, mark: Mark) -> None:
        self.machine.restore(mark.state)
        del self.words[mark.words:]
        self.writer.rewind(mark.writer)
        self.look = dict(mark.look)


def _gate_of(item: P.Item) -> P.Gate:
    return item.start if isinstance(item, P.Land) else item.gate


def wait_for(run: Run, gate: P.Gate, why: str, skip: P.Gate | None = None) -> bool:
    """Idle frames until ``gate`` holds (True), or ``skip`` does first (False)."""
    for _ in range(C.WAIT_LIMIT):
        if gate.holds(run.look):
            return True
        if skip is not None and skip.holds(run.look):
            return False
        run.frame()
    raise Diverged(f"frame {len(run.words)}: waited {C.WAIT_LIMIT} frames for {why} "
                   f"({gate.terms()})")


def _press(run: Run, item: P.Press, skip: P.Gate | None) -> None:
    if wait_for(run, item.gate, item.why, skip if item.optional else None):
        run.idle(item.after)
        run.hold(item.buttons, item.hold)
        if item.leaves:
            _until_left(run, item)


def _until_left(run: Run, item: P.Press) -> None:
    """A press that leaves its step, pressed again every RETRY_FRAMES while the step has
    not been left (fm.choices P2: it came while the routine was still busy and was dropped;
    once it is taken, a press in the fade or the next step's set-up reads nothing)."""
    for frame in range(C.WAIT_LIMIT):
        if not item.gate.holds(run.look):
            return
        if frame and frame % C.RETRY_FRAMES == 0:
            run.hold(item.buttons, item.hold)
        run.frame()
    raise Diverged(f"frame {len(run.words)}: {item.why}: the press was not taken, "
                   f"{item.gate.describe()} still holds after {C.WAIT_LIMIT} frames")


_AXES = {"hand": ("left", "right", None, None), "menu": (None, None, "up", "down"),
         "field": ("left", "right", "up", "down"), "target": ("left", "right", "up", "down"),
         "grid": ("left", "right", "up", "down")}


def where(look: dict[str, int], cursor: str) -> tuple[int, int]:
    """A cursor's (column, row) as the RAM holds it (the hand's slot and the menu's item
    as the column)."""
    word = look[cursor if cursor != "menu" else "menu_item"]
    return (word, 0) if cursor in ("hand", "menu") else (word & 0xFF, word >> 8)


def _step_towards(cursor: str, at: tuple[int, int], goal: tuple[int, int]) -> tuple[str, ...]:
    """The direction(s) one step takes: the grid cursor of the duel reads one (Up > Left >
    Down > Right), Free Duel's both axes at once, the menu wraps (the shorter way)."""
    left, right, up, down = _AXES[cursor]
    horizontal = (right,) if goal[0] > at[0] else (left,) if goal[0] < at[0] else ()
    vertical = (down,) if goal[1] > at[1] else (up,) if goal[1] < at[1] else ()
    if cursor == "menu":  # the group's items wrap
        span = len(P.TITLE_ITEMS if goal[0] in P.TITLE_ITEMS else P.MAIN_ITEMS)
        ahead = (goal[0] - at[0]) % span
        return (down,) if ahead <= span - ahead else (up,)
    if cursor == "grid":
        return horizontal + vertical
    return (vertical or horizontal)[:1]


def _move(run: Run, item: P.Move) -> None:
    for _ in range(MOVE_LIMIT):
        wait_for(run, item.gate, item.why)
        if item.cursor == "grid":
            _settle_grid(run)
        at = where(run.look, item.cursor)
        if at == item.goal:
            return
        buttons = _step_towards(item.cursor, at, item.goal)
        watched = "grid_target" if item.cursor == "grid" else item.cursor
        before = where(run.look, watched)
        if item.cursor == "grid":  # Held: one step, then the glide ignores the pad
            word = padlog.word_from_buttons("psx", set(buttons))
            for _ in range(PROBE_FRAMES):
                run.frame(word)
            run.idle(P.HOLD_FRAMES)
        else:
            run.hold(buttons, P.HOLD_FRAMES)
        if where(run.look, watched) == before and item.opener:  # a prompt takes the pad
            run.hold(item.opener, P.HOLD_FRAMES)
    raise Diverged(f"frame {len(run.words)}: the {item.cursor} cursor did not reach "
                   f"{item.goal} ({item.why}); it is at {where(run.look, item.cursor)}")


def _settle_grid(run: Run) -> None:
    """Free Duel's cursor glides 8 frames a step: wait until it stands on its target."""
    for _ in range(C.WAIT_LIMIT):
        if run.look["grid"] == run.look["grid_target"]:
            return
        run.frame()
    raise Diverged(f"frame {len(run.words)}: the Free Duel cursor never came to rest")


def _deck(run: Run) -> tuple[int, ...]:
    raw = run.machine.read(FM_INPUT["deck"])
    return tuple(int.from_bytes(raw[i:i + 2], "little") for i in range(0, len(raw), 2))


def _land(run: Run, item: P.Land) -> None:
    wait_for(run, item.start, item.why)
    start = run.mark()
    wait = item.guess
    for _ in range(C.LAND_TRIES):
        run.idle(wait)
        play(run, list(item.lead))
        wait_for(run, item.arrive, item.why)
        reached = index_of(run.look["rng"])
        if reached == item.index:
            if _deck(run) != item.deck:
                raise Diverged(f"frame {len(run.words)}: {item.why}: RNG index {reached:,} "
                               "as planned, but the deck in RAM is not the replay's")
            return
        earliest = reached - wait
        wait = item.index - earliest
        if not 0 <= wait <= C.LAND_LIMIT:
            when = "after" if wait < 0 else f"{wait:,} frames before"
            raise Diverged(f"frame {len(run.words)}: {item.why}: the original reaches RNG "
                           f"index {earliest:,} at the earliest, {when} the replay's "
                           f"{item.index:,} (at most {C.LAND_LIMIT:,} frames are waited)")
        run.rewind(start)
    raise Diverged(f"{item.why}: RNG index {item.index:,} not landed in {C.LAND_TRIES} tries")


def play(run: Run, items: list[P.Item], progress: Progress | None = None) -> None:
    """Play ``items`` in order (an optional press gives way to the next item's gate)."""
    for k, item in enumerate(items):
        following = next((i for i in items[k + 1:]
                          if not (isinstance(i, P.Press) and i.optional)), None)
        skip = _gate_of(following) if following is not None else None
        if isinstance(item, P.Press):
            _press(run, item, skip)
        elif isinstance(item, P.Move):
            _move(run, item)
        else:
            _land(run, item)
        if progress is not None:
            progress.advance(1)


def pad_log(words: list[int]) -> str:
    """The words played as a pad log (``emucore.duel.padlog``'s format)."""
    changes: list[tuple[int, str]] = []
    last = None
    for frame, word in enumerate(words):
        if word != last:
            held = padlog.buttons_from_word("psx", word)
            changes.append((frame, "+".join(held) if held else "-"))
            last = word
    header = "# emucore recording: system fm, played by capture record --from-replay\n"
    return header + padlog.write("psx", changes or [(0, "-")], len(words))


def plan_of(path: Path) -> list[P.Item]:
    """The plan that plays the FM replay at ``path`` from the title (UserFileError naming
    the file when it is not an FM replay, does not replay in this emucore as recorded, or
    cannot start from the title)."""
    from emucore import tables as T
    from emucore.duel import replay as replays
    from emucore.fm.replay import ADAPTER
    from emucore.fm.setup import FmSetup

    replay = replays.load(path)
    if replay.system != ADAPTER.system:
        raise UserFileError(path, f"a {replay.system} replay: only Forbidden Memories "
                                  "duels are played on the original from a replay")
    mismatch = replays.verify(ADAPTER, replay)  # the duel emucore predicts, step by step
    if mismatch is not None:
        raise UserFileError(path, f"does not replay in this emucore: {mismatch.describe()}")
    setup = FmSetup.from_json(replay.setup)
    actions = [ADAPTER.decode_action(step.action) for step in replay.steps]
    try:
        return P.plan(setup, actions, T.load("fm"))
    except P.PlanError as exc:
        raise UserFileError(path, f"not playable from the title: {exc}") from None
