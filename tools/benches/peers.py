"""emucore against the speedrunners' own tools on the tasks they share: ratio = the peer's
seconds / emucore's seconds (above 1: emucore is faster).

``python tools/bench.py peers --timings FILE`` reads the peers' seconds from FILE (TOML or
JSON: one table per task, ``peer``, ``what`` was timed, ``seconds``, the median of the user's
own runs; docs/planning.md, "Measuring against the peers", says how to build and time them;
tools/peer_timings.example.toml is an example), times emucore here on the same tasks and
prints one ratio per task found in the file. The peers are never part of emucore: only their
figures are read. ``--task NAME`` times one task (to alternate with the peer's own runs).

The starter-deck filter over all 2^27 indices takes tens of seconds; without ``--full`` it is
timed over 2^22 indices and scaled to 2^27, and its row says so.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from bench import measure

STARTER_QUERY = (100, 100, 8, 337)
STARTER_FULL = 1 << 27
STARTER_QUICK = 1 << 22
DROPS = 10_000
DEALS = 1_000
SEED_SPACE = 5_000_000
SEED_AT = 4_999_000  # the index whose opening draws the seed search looks for
DUELIST = 1  # Simon Muran: the drop pool and the deal's duelist of every task
PLAYER_DECK = sorted(list(range(1, 21)) * 2)  # cards 1..20 twice, sorted by attack to deal
MAX_SECONDS = 1e6


@dataclass(frozen=True)
class PeerTiming:
    """A peer's figure for one task, as the user's timings file gives it."""

    peer: str
    what: str
    seconds: float


@dataclass(frozen=True)
class Task:
    """A shared task: what it is in words, and how emucore's side is made ready to time
    (``prepare(folder, full)`` gives the work to time once and the factor that scales its
    seconds to the whole task, with a note when it is scaled)."""

    title: str
    prepare: Callable[[Path, bool], tuple[Callable[[], object], float, str]]


def _starter(jobs: int) -> Callable[[Path, bool], tuple[Callable[[], object], float, str]]:
    """The starter-deck filter on ``jobs`` cores (1: in this process; else the process pool
    ``plan starter --jobs`` uses)."""

    def prepare(_folder: Path, full: bool) -> tuple[Callable[[], object], float, str]:
        from emucore import tables
        from emucore.planning import progress, starter

        fm = tables.load("fm")
        want = starter.Want.of(STARTER_QUERY, starter.plan(fm))
        starter.search(0, starter.LANES, want, fm)  # tables and lane offsets built once
        count = STARTER_FULL if full else STARTER_QUICK
        note = "" if full else f" (timed on 2^{count.bit_length() - 1}, scaled)"
        if jobs == 1:
            return (lambda: starter.search(0, count, want, fm)), STARTER_FULL / count, note
        return (lambda: progress.run_pieces(
            starter.search_piece, 0, count, (STARTER_QUERY,), jobs, 1 << 21,
            progress.Progress(count, enabled=False))), STARTER_FULL / count, note
    return prepare


def _seed(_folder: Path, _full: bool) -> tuple[Callable[[], object], float, str]:
    """``plan seed``'s search: the first five draws dealt at :data:`SEED_AT`, over
    :data:`SEED_SPACE` indices on one core."""
    from emucore import tables
    from emucore.fm import deck
    from emucore.hw import psyq_rand
    from emucore.planning import seed

    fm = tables.load("fm")
    cards = tuple(deck.sort_deck(PLAYER_DECK, "atk", fm))
    drawn = tuple(deck.deal(psyq_rand.Rand(int(psyq_rand.state_at(SEED_AT))), cards, DUELIST,
                            fm).player.cards[:5])
    return (lambda: seed.match_piece(0, SEED_SPACE, cards, drawn)), 1.0, ""


def random_states(count: int) -> np.ndarray:
    """``count`` unrelated RNG states (the same every run)."""
    return np.random.default_rng(16).integers(0, 2**32, count, dtype=np.uint64
                                              ).astype(np.uint32)


def _drops(_folder: Path, _full: bool) -> tuple[Callable[[], object], float, str]:
    """``fm drop`` on :data:`DROPS` unrelated states in this process (the vectorised roll)."""
    from emucore import tables
    from emucore.fm import rank

    weights = tables.load("fm").pools[DUELIST, 1]  # SA-POW
    states = random_states(DROPS)
    return (lambda: rank.drops_at(states, weights)), 1.0, ""


def emucore_command() -> list[str]:
    """How this Python runs the ``emucore`` command: the script installed beside it, else
    the CLI's ``main`` through ``python -c``."""
    script = Path(sys.executable).with_name("emucore")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from emucore.cli import main; sys.exit(main())"]


def _process(argv: list[str]) -> Callable[[], object]:
    """One whole ``emucore`` process with ``argv``, its answers thrown away."""
    command = [*emucore_command(), *argv]
    return lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def _states_file(folder: Path) -> Path:
    path = folder / "states.txt"
    path.write_text("".join(f"0x{s:08X}\n" for s in random_states(DROPS).tolist()))
    return path


def _drops_process(folder: Path, _full: bool) -> tuple[Callable[[], object], float, str]:
    """``emucore fm drop --states FILE``: :data:`DROPS` states, start-up included."""
    states = _states_file(folder)
    return _process(["fm", "drop", "--duelist", str(DUELIST), "--pool", "sa_pow",
                     "--states", str(states)]), 1.0, ""


def _drops_batch(folder: Path, _full: bool) -> tuple[Callable[[], object], float, str]:
    """``emucore batch FILE``: one ``fm drop --state`` line per state, start-up included."""
    lines = folder / "drops.jsonl"
    lines.write_text("".join(
        f'["fm","drop","--duelist","{DUELIST}","--pool","sa_pow","--state","0x{s:08X}"]\n'
        for s in random_states(DROPS).tolist()))
    return _process(["batch", str(lines)]), 1.0, ""


def _deals(_folder: Path, _full: bool) -> tuple[Callable[[], object], float, str]:
    """:data:`DEALS` full deals (player's shuffle, the CPU's deck, its shuffle) from unrelated
    states in this process, all at once (``deal_many``)."""
    from emucore import tables
    from emucore.fm import deck

    fm = tables.load("fm")
    cards = deck.sort_deck(PLAYER_DECK, "atk", fm)
    states = random_states(DEALS)
    return (lambda: deck.deal_many(states, cards, DUELIST, fm)), 1.0, ""


TASKS = {
    "starter_one_core": Task("starter-deck filter {100,100,8,337}, all 2^27 indices, 1 core",
                             _starter(1)),
    "starter_all_cores": Task("the same, all cores", _starter(os.cpu_count() or 1)),
    "seed_search": Task("seed search from 5 draws over 5,000,000 indices", _seed),
    "drops_in_process": Task("10,000 drops, in-process", _drops),
    "drops_process": Task("10,000 drops, whole process (fm drop --states)", _drops_process),
    "drops_batch": Task("10,000 drops through emucore batch, one line each", _drops_batch),
    "ai_deck_deals": Task("1,000 AI deck deals, in-process (emucore: full deals)", _deals),
    "full_deals": Task("1,000 full deals, in-process", _deals),
}
TIMING_KEYS = {"peer", "what", "seconds"}


def read_timings(path: Path) -> dict[str, PeerTiming]:
    """The user's timings file, through emucore's reading edge: one table per task of
    :data:`TASKS`, each with ``peer``, ``what`` and ``seconds`` (a positive number). A bad
    file is one :class:`emucore.duel.files.UserFileError` naming the file and the entry."""
    from emucore.duel.files import UserFileError, read_structured, want_dict

    data = read_structured(path)
    try:
        data = want_dict(data, "the timings file")
        if not data:
            raise ValueError(f"names no task (known: {', '.join(TASKS)})")
        return {task: _timing(task, entry) for task, entry in data.items()}
    except ValueError as exc:
        raise UserFileError(path, str(exc)) from None


def _timing(task: str, entry: Any) -> PeerTiming:
    """One task's entry (ValueError naming the task and the field)."""
    from emucore.duel.files import quoted, want_dict, want_str

    if task not in TASKS:
        raise ValueError(f"unknown task {quoted(task)} (known: {', '.join(TASKS)})")
    entry = want_dict(entry, task)
    unknown = sorted(set(entry) - TIMING_KEYS)
    if unknown:
        raise ValueError(f"{task}: unknown key {quoted(unknown[0])} (known: peer, what, "
                         "seconds)")
    missing = sorted(TIMING_KEYS - set(entry))
    if missing:
        raise ValueError(f"{task}: {missing[0]} is missing")
    seconds = entry["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
            or not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"{task}: seconds must be a number above 0 and at most "
                         f"{MAX_SECONDS:g}, not {quoted(repr(seconds))}")
    return PeerTiming(want_str(entry["peer"], f"{task}: peer", 100),
                      want_str(entry["what"], f"{task}: what"), float(seconds))


def ratio_row(task: str, timing: PeerTiming, median: float, worst: float, note: str = ""
              ) -> tuple[str, float, float, str, str]:
    """A bench row: ``ratio`` = the peer's seconds / emucore's median seconds (and over
    emucore's slowest run), with both figures in words."""
    return (TASKS[task].title + note, timing.seconds / median, timing.seconds / worst, "x",
            f"{timing.peer} {timing.seconds:.4g} s / emucore {median:.4g} s")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """bench.py's options for this mode."""
    from emucore.cliutil import add_path

    add_path(parser, "--timings", role="input", kind="peer timings", type=Path,
             help="the peers' seconds per task (TOML or JSON; "
                  "tools/peer_timings.example.toml)")
    parser.add_argument("--task", choices=sorted(TASKS),
                        help="time only this task of the file")
    parser.add_argument("--full", action="store_true",
                        help="the starter filter over all 2^27 indices (tens of seconds)")


def run(repeat: int, args: argparse.Namespace) -> list[tuple[str, float, float, str, str]]:
    """bench.py's entry: the ratio of every task in the timings file (or ``--task``)."""
    from emucore.cliutil import UsageError

    if args.timings is None:
        raise UsageError("peers: give --timings FILE (tools/peer_timings.example.toml)")
    timings = read_timings(args.timings)
    if args.task is not None and args.task not in timings:
        raise UsageError(f"{args.timings}: has no {args.task} entry")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for task, timing in timings.items():
            if args.task not in (None, task):
                continue
            work, scale, note = TASKS[task].prepare(Path(folder), args.full)
            work()  # warm: tables loaded, files cached, compiled paths ready
            median, worst = measure(work, repeat)
            rows.append(ratio_row(task, timing, median * scale, worst * scale, note))
    return rows
