"""``emucore fm sim`` and ``emucore fm ai``; emucore/fm/cli.py calls :func:`register`.

* ``fm sim --duelist ID --deck FILE --games N [--jobs J] [--disc IMAGE] [--json]``: N
  AI-vs-AI duels from consecutive RNG indices, progress on stderr, win rate and rank/drop
  distributions; with ``--disc`` the disc's AI programs and ``duel_effects`` tables.
* ``fm ai --disc IMAGE [--out DIR] [--list hand|field] [--json]``: check a disc image (or an
  extracted folder) and show or extract the original AI programs.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore.cliutil import UsageError, add_json_flag, add_output, add_path, emit, int_arg
from emucore.commands import add_command
from emucore.duel.files import UserFileError, exists, is_folder
from emucore.fm.ai import choices
from emucore.fm.ai import data as ai_data
from emucore.fm.ai.disc import PROGRAM_FILES, Programs, read_programs, shape, write_programs
from emucore.fm.deck import SORT_ORDERS
from emucore.fm.disc import OVERLAY_FILE, add_disc_args, read_effects
from emucore.fm.overlay import BUILT_IN, OverlayTables
from emucore.tables.fm import DUELIST_COUNT

if TYPE_CHECKING:
    from emucore.fm.setup import FmSetup

CHUNK = 25   # duels per job hand-out


def programs_from_args(args: argparse.Namespace) -> Programs | None:
    """The disc programs named by ``--disc``, None for the embedded AI.

    A bad image raises (one line, exit 2) unless ``--embedded-fallback`` was given.
    """
    if not getattr(args, "disc", None):
        return None
    try:
        return read_programs(args.disc)
    except UserFileError as exc:
        if not args.embedded_fallback:
            raise
        print(f"emucore: warning: {exc}; using the embedded AI", file=sys.stderr)
        return None


def effects_from_args(args: argparse.Namespace) -> OverlayTables:
    """The ``duel_effects`` tables of the disc named by ``--disc``, the built-in ones without
    it. A bad disc raises (one line, exit 2; no fallback). A folder holding the AI programs
    but no ``duel_effects.bin`` (written by ``fm ai --out`` or tools/extract_fm_ai.py alone)
    gives the built-in tables, with a warning saying how to add the file. Read it before the
    AI programs, so a foreign disc is one error line, not a fallback warning and an error."""
    disc = getattr(args, "disc", None)
    if not disc:
        return BUILT_IN
    folder = Path(disc)
    if is_folder(folder) and not exists(folder / OVERLAY_FILE) and \
            all(exists(folder / name) for name in PROGRAM_FILES):
        print(f"emucore: warning: {folder} holds no {OVERLAY_FILE}; the built-in duel_effects "
              f"tables are used (emucore fm effects --disc IMAGE --out {folder} adds them)",
              file=sys.stderr)
        return BUILT_IN
    return read_effects(disc)


def disc_setup(setup: FmSetup, effects: OverlayTables) -> FmSetup:
    """``setup`` naming ``effects`` (:attr:`emucore.fm.setup.FmSetup.effects`) when they
    come from a disc, so a replay of the duel asks for the same disc."""
    if effects is not BUILT_IN and setup.effects is None:
        from dataclasses import replace

        return replace(setup, effects=effects.digest())
    return setup


def register(fm_subparsers: Any) -> None:
    """Add ``sim`` and ``ai`` to the ``fm`` command's sub-parsers."""
    sim = add_command(
        fm_subparsers, "fm", "sim",
        description="Plays N duels of your deck (driven by the embedded AI) against a "
                    "duelist, from consecutive RNG indices.")
    sim.add_argument("--duelist", type=int_arg("duelist", 1, DUELIST_COUNT), required=True)
    add_path(sim, "--deck", role="input", kind="fm deck file", type=Path, required=True,
             help="deck file: 40 ids or names")
    sim.add_argument("--games", type=int_arg("game count", 1, 10_000_000), default=100)
    sim.add_argument("--index", type=int_arg("RNG index", 0, 2**32 - 1), default=0,
                     help="RNG index of the first duel (calls after the boot state)")
    sim.add_argument("--sort", default="none", choices=SORT_ORDERS,
                     help="the deck's last Build Deck sort")
    sim.add_argument("--terrain", type=int_arg("terrain", 0, 6),
                     help="terrain 0..6 the duels start on (default 0, a Free Duel's for "
                          "every duelist; a campaign duel's is its story script's)")
    sim.add_argument("--jobs", type=int_arg("job count", 1, 256), default=1)
    sim.add_argument("--player-as", type=int_arg("duelist", 1, DUELIST_COUNT),
                     help="duelist persona of the AI driving your deck (default: the same)")
    add_disc_args(sim)
    add_json_flag(sim)
    sim.set_defaults(func=_cmd_sim)

    ai = add_command(
        fm_subparsers, "fm", "ai",
        description="With --duelist: that duelist's AI facts (window, thresholds, strategy "
                    "splits and their JumpRandom chains). With --disc: checks that IMAGE is "
                    "NTSC-U SLUS-01411 and that its two AI programs pass the integrity checks; "
                    "optionally lists or extracts them.")
    what = ai.add_mutually_exclusive_group(required=True)
    add_path(what, "--disc", role="input", kind="fm disc image or folder", type=Path,
             metavar="IMAGE")
    what.add_argument("--duelist", type=int_arg("duelist", 1, DUELIST_COUNT))
    add_output(ai, help="write hand.bin and field.bin into this folder",
               role="output-folder", kind="folder for the AI programs")
    ai.add_argument("--list", choices=("hand", "field"), help="print the program's listing")
    add_json_flag(ai)
    ai.set_defaults(func=_cmd_ai)


def _cmd_ai(args: argparse.Namespace) -> int:
    if args.duelist:
        emit(args, _duelist_facts(args.duelist), _facts_text)
        return 0
    programs = read_programs(args.disc)
    data: dict[str, Any] = {"source": programs.source, "programs": {}}
    for name, chunk in (("hand", programs.hand), ("field", programs.field)):
        count, last, op = shape(chunk)
        data["programs"][name] = {"bytes": len(chunk), "instructions": count,
                                  "last": f"{op} at 0x{last:04X}"}
    if args.out:
        data["written"] = [str(p) for p in write_programs(programs, args.out, args.force)]
    if args.list:
        data["listing"] = [f"{at:04X}  {text}" for at, text in programs.listing(args.list)]

    def text(d: dict) -> str:
        lines = [f"{d['source']}: NTSC-U SLUS-01411, AI programs verified"]
        lines += [f"  {n}: {p['instructions']} instructions, last {p['last']}"
                  for n, p in d["programs"].items()]
        lines += [f"  wrote {p}" for p in d.get("written", [])]
        return "\n".join(lines + d.get("listing", []))

    emit(args, data, text)
    return 0


def _duelist_facts(ident: int) -> dict[str, Any]:
    d = ai_data.load().duelists[ident]
    names = ("window", "lp_threshold", "deck_threshold", "combo_depth", "evaluate_limit",
             "unused_5", "unused_6", "hold_chance", "blind_attack_chance")
    facts: dict[str, Any] = {"id": ident, "name": d.name, **dict(zip(names, d.row, strict=True))}
    facts["lp_threshold"] *= 100
    facts.update(sees_face_down=d.sees_face_down, home_terrain=d.home_terrain)
    for table, split in (("ahead", d.ahead), ("behind", d.behind)):
        facts[table] = {"split": dict(zip("ABC", split, strict=True)),
                        "chain": [f"{n}{p}" for n, p in choices.strategy_chain(split)[:-1]]}
    return facts


def _facts_text(f: dict[str, Any]) -> str:
    lines = [f"{f['id']} {f['name']}: window {f['window']}, sees face-down "
             f"{'yes' if f['sees_face_down'] else 'no'}, home terrain {f['home_terrain']}",
             f"  strategy B below {f['lp_threshold']} LP; fusion depth drops at deck "
             f"<= {f['deck_threshold']}; FindBestCombo depth {f['combo_depth']}, "
             f"EvaluateFusion limit {f['evaluate_limit']}",
             f"  Harpie's / hold roll {f['hold_chance']}%, blind attack "
             f"{f['blind_attack_chance']}%"]
    for table in ("ahead", "behind"):
        split, chain = f[table]["split"], " -> ".join(f[table]["chain"])
        lines.append(f"  {table}: A {split['A']} / B {split['B']} / C {split['C']}  "
                     f"(roll {chain})")
    return "\n".join(lines)


def _cmd_sim(args: argparse.Namespace) -> int:
    from emucore import tables
    from emucore.fm.ai.sim import summarize
    from emucore.fm.setup import FREE_DUEL, FmSetup, read_deck, start_terrain

    t = tables.load("fm")
    cards = read_deck(args.deck, t)
    terrain = args.terrain
    if terrain is None:   # the duels are Free Duels: func_80024DC8 arms them on terrain 0
        terrain = start_terrain(FREE_DUEL)
    setup = FmSetup(deck=cards, duelist=args.duelist, sort=args.sort, terrain=terrain)
    try:
        setup.check(t)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    effects = effects_from_args(args)
    setup = disc_setup(setup, effects)
    programs = programs_from_args(args)
    end = args.index + args.games
    chunks = [(first, min(CHUNK, end - first)) for first in range(args.index, end, CHUNK)]
    job = functools.partial(_play_chunk, setup, programs, effects, args.player_as)
    bar = _Progress(args.games)
    if args.jobs == 1:
        summary = summarize(args.duelist, (r for batch in map(job, chunks) for r in batch),
                            bar.update)
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            summary = summarize(args.duelist,
                                (r for batch in pool.map(job, chunks) for r in batch),
                                bar.update)
    bar.close()
    data = summary.to_json(t.names)
    data["duelist_name"] = t.duelist_name(args.duelist)
    data["first_index"] = args.index
    data["ai"] = "disc" if programs else "embedded"
    data["effects"] = "built-in" if effects is BUILT_IN else effects.digest()
    data["terrain"] = terrain
    emit(args, data, _sim_text)
    return 0


def _play_chunk(setup: Any, programs: Programs | None, effects: OverlayTables,
                player_as: int | None, chunk: tuple[int, int]) -> list:
    """One job: duels from RNG indices ``chunk[0] .. chunk[0] + chunk[1] - 1`` (the tables
    travel to a worker process as data, with the job)."""
    from emucore.fm.ai.sim import play_range

    return play_range(setup, chunk[0], chunk[1], programs, player_as, effects)


def _sim_text(d: dict) -> str:
    tables = "" if d["effects"] == "built-in" else f", the disc's duel_effects {d['effects']}"
    lines = [f"{d['games']} duels vs {d['duelist_name']} ({d['ai']} AI{tables}) from RNG "
             f"index {d['first_index']}: {d['wins']} won ({100 * d['win_rate']:.1f}%), "
             f"{d['mean_turns']:.1f} turns on average"]
    if d["unfinished"] or d["engine_refusals"]:
        lines.append(f"unfinished: {d['unfinished']}, plays refused: {d['engine_refusals']}")
    lines.append("ranks on wins: " + (", ".join(f"{r} {n}" for r, n in d["ranks"].items())
                                      or "-"))
    lines.append("drops:")
    lines += [f"  {x['count']:>6}  {x['name']} ({x['id']})" for x in d["drops"]] or ["  -"]
    return "\n".join(lines)


class _Progress:
    """A progress bar on stderr, redrawn at most ten times a second; only when stderr is a
    terminal (a log file or a pipe gets none)."""

    def __init__(self, total: int) -> None:
        self.total, self.start, self.shown = total, time.perf_counter(), 0.0
        self.live = sys.stderr.isatty()

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if not self.live or now - self.shown < 0.1 and done < self.total:
            return
        self.shown = now
        filled = 30 * done // self.total
        rate = done / max(now - self.start, 1e-9)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} "
                         f"{rate:.0f} duels/s")
        sys.stderr.flush()

    def close(self) -> None:
        if self.live:
            sys.stderr.write("\n")
            sys.stderr.flush()
