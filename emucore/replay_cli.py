"""``emucore replay record SYSTEM ... --out FILE`` and ``emucore replay verify FILE``: one
replay command for every system. ``verify`` dispatches on the file's ``system`` field and
prints the same JSON for every system; ``<system> replay record|verify`` are aliases built
from the same pieces.

Each system's ``cli`` module declares a :class:`Recorder`: the options that set up and drive
a recorded duel, the function that plays it into a :class:`emucore.duel.replay.Replay`, and
the files those options read (so the output never replaces one of them).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from emucore.cliutil import add_json_flag, add_output, add_path, emit
from emucore.commands import add_command
from emucore.duel import replay as replays
from emucore.duel.files import check_output

# The modules whose RECORDER the unified command offers, in --help order.
SYSTEM_CLIS = ("emucore.fm.cli", "emucore.dm1.cli", "emucore.ocg1999.cli",
               "emucore.tcglite.cli")


@dataclass(frozen=True)
class Recorder:
    """How one system records a replay from the command line."""

    system: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    play: Callable[[argparse.Namespace], replays.Replay]
    inputs: Callable[[argparse.Namespace], list[str | None]]


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``emucore replay record SYSTEM`` and ``emucore replay verify``."""
    group = add_command(sub, "replay")
    rsub = group.add_subparsers(dest="replay_command", metavar="ACTION", required=True)
    record = rsub.add_parser("record", help="play a duel and record it with a digest per step")
    ssub = record.add_subparsers(dest="replay_system", metavar="SYSTEM", required=True)
    for name in SYSTEM_CLIS:
        recorder: Recorder = importlib.import_module(name).RECORDER
        _record_parser(ssub, recorder.system, recorder)
    _verify_parser(rsub, None)


def add_aliases(rsub: argparse._SubParsersAction, recorder: Recorder) -> None:
    """``<system> replay record|verify``: the same commands, the system fixed."""
    _record_parser(rsub, "record", recorder)
    _verify_parser(rsub, recorder.system)


def _record_parser(sub: argparse._SubParsersAction, name: str, recorder: Recorder) -> None:
    p = sub.add_parser(name, help=f"record a duel of {recorder.system} as a replay")
    recorder.add_arguments(p)
    add_output(p, required=True, help="replay file to write", kind="replay")
    if not any(a.dest == "json" for a in p._actions):
        add_json_flag(p)
    p.set_defaults(func=lambda args: _record(args, recorder))


def _verify_parser(sub: argparse._SubParsersAction, system: str | None) -> None:
    p = sub.add_parser("verify", help="replay a file: exit 0 when every step agrees, 1 at the "
                                      "first difference, 2 when the file is bad")
    add_path(p, "file", role="input", kind="replay")
    add_json_flag(p)
    p.set_defaults(func=lambda args: _verify(args, system))


def _record(args: argparse.Namespace, recorder: Recorder) -> int:
    check_output(args.out, recorder.inputs(args), args.force)
    replay = recorder.play(args)
    replay.save(args.out, replace=args.force)
    last = replay.steps[-1].digest if replay.steps else None
    out = {"file": str(args.out), "system": replay.system, "steps": len(replay.steps),
           "digest": last}
    emit(args, out, lambda o: f"recorded {o['steps']} steps to {o['file']}"
                              + (f" (final digest {o['digest']})" if o["digest"] else ""))
    return 0


def verify_file(path: str, system: str | None = None) -> dict[str, Any]:
    """Verify a replay file with its own system's adapter (``system`` given: the file must be
    of that system). The result is the same for every system."""
    replay = replays.load(path)
    adapter = replays.adapter_for(system or replay.system)
    mismatch = replays.verify(adapter, replay)
    return {"file": str(path), "system": replay.system, "ok": mismatch is None,
            "steps": len(replay.steps), "mismatch": mismatch.to_json() if mismatch else None}


def verify_text(out: dict[str, Any]) -> str:
    """The text form of :func:`verify_file`'s result."""
    if out["ok"]:
        return f"{out['file']}: all {out['steps']} steps agree"
    return f"{out['file']}: " + replays.Mismatch.from_json(out["mismatch"]).describe()


def _verify(args: argparse.Namespace, system: str | None) -> int:
    out = verify_file(args.file, system)
    emit(args, out, verify_text)
    return 0 if out["ok"] else 1
