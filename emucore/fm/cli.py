"""``emucore fm duel`` and ``emucore fm replay record|verify``: duels played by a script or
the computer opponent (the ``fm`` group and its look-ups are in emucore/fm/lookup_cli.py).

A script file is JSON: ``{"setup": {FmSetup fields}, "actions": [{"kind": "play", ...}]}``;
action fields with defaults may be left out. A deck file lists one card id or name per line.
``--disc IMAGE`` plays with the disc's AI programs and ``duel_effects`` tables; a duel played
with a disc's tables records their digest in its setup, and replaying it asks for the disc.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from dataclasses import MISSING, fields, replace
from pathlib import Path
from typing import Any

from emucore import tables as T
from emucore.cliutil import UsageError, add_json_flag, add_path, emit, int_arg, rng_start
from emucore.commands import add_command
from emucore.duel import replay as R
from emucore.duel.files import UserFileError, read_json
from emucore.fm.actions import ACTION_KINDS, FmAction
from emucore.fm.ai import cli as ai_cli
from emucore.fm.disc import add_disc_args
from emucore.fm.engine import FmDuel
from emucore.fm.lookup_cli import duel_source
from emucore.fm.overlay import OverlayTables
from emucore.fm.replay import ADAPTER, FmAdapter
from emucore.fm.setup import (
    FREE_DUEL,
    FmSetup,
    check_effects,
    new_duel,
    read_deck,
    start_terrain,
)
from emucore.replay_cli import Recorder, add_aliases, verify_text


def register(fsub: argparse._SubParsersAction) -> None:
    """Add ``fm duel`` and ``fm replay record|verify`` to the ``fm`` group."""
    p = add_command(fsub, "fm", "duel")
    _play_args(p)
    add_json_flag(p)
    p.set_defaults(func=_duel)
    p = add_command(fsub, "fm", "replay")
    rsub = p.add_subparsers(dest="replay_command", metavar="ACTION", required=True)
    add_aliases(rsub, RECORDER)
    verify = rsub.choices["verify"]  # the shared verify, plus the disc a replay may name
    add_path(verify, "--disc", role="input", kind="fm disc image or folder", type=Path,
             metavar="IMAGE",
             help="the disc whose duel_effects tables the duel was recorded with")
    verify.set_defaults(func=_verify)


def _play_args(p: argparse.ArgumentParser) -> None:
    add_path(p, "--script", role="input", kind="fm duel script (JSON)",
             help="script file (JSON: setup and actions)")
    p.add_argument("--player", choices=("script", "ai"), default="script",
                   help="who drives side 0 when --duelist is given (side 1 is the AI)")
    p.add_argument("--max-steps", type=int_arg("max-steps", 1, 1_000_000), default=100_000)
    p.add_argument("--terrain", type=int_arg("terrain", 0, 6), default=start_terrain(FREE_DUEL),
                   help="terrain at the start with --duelist (0 normal .. 6 Yami; default 0, "
                        "as every Free Duel starts; a campaign duel's is its story script's)")
    duel_source(p, required=False)
    add_disc_args(p)


def decode_action(data: Any, where: str) -> FmAction:
    """An action from a script: like replay actions, but fields with defaults may be left out."""
    if not isinstance(data, dict):
        raise UsageError(f"{where}: an action is a JSON object")
    by_kind = {cls.kind: cls for cls in ACTION_KINDS}
    kind = data.get("kind")
    cls = by_kind.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise UsageError(f"{where}: unknown action kind {str(kind)[:40]!r} "
                         f"(one of {', '.join(by_kind)})")
    full = dict(data)
    for f in fields(cls):
        if f.name not in full and f.default is not MISSING:
            full[f.name] = f.default
    try:
        action = ADAPTER.decode_action(full)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"{where}: {exc}") from None
    return action  # type: ignore[return-value]


def _script(path: str) -> tuple[dict[str, Any] | None, list[FmAction]]:
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("actions", []), list):
        raise UserFileError(path, "a script is a JSON object with an 'actions' list")
    actions = [decode_action(a, f"{path}: action {i + 1}")
               for i, a in enumerate(data.get("actions", []))]
    setup = data.get("setup")
    if setup is not None and not isinstance(setup, dict):
        raise UserFileError(path, "'setup' must be a JSON object")
    return setup, actions


def _setup(args: argparse.Namespace
           ) -> tuple[FmSetup, Iterator[FmAction] | None, OverlayTables]:
    """The setup, the scripted actions and the duel_effects tables from the command line.
    The computer plays the CPU side of a ``--duelist`` duel, side 0 too with ``--player
    ai``, and whatever sides a script's setup lists in ``computer``."""
    setup_json, actions = (None, []) if not args.script else _script(args.script)
    if args.duelist is not None:
        if args.deck is None or args.sort is None or (args.state is None and args.index is None):
            raise UsageError("--duelist needs --deck, --sort and --state or --index")
        cards = read_deck(args.deck, T.load("fm"))
        setup = FmSetup(deck=cards, duelist=args.duelist, sort=args.sort, state=rng_start(args),
                        terrain=args.terrain, computer=[1])
    elif setup_json is not None:
        try:
            setup = FmSetup.from_json(setup_json)
        except ValueError as exc:
            raise UserFileError(args.script, str(exc)) from None
    else:
        raise UsageError("give --script FILE with a setup, or --duelist/--deck/--sort/--state")
    if args.player == "script" and not args.script:
        raise UsageError("--player script needs --script FILE")
    if args.player == "ai":
        setup = replace(setup, computer=sorted({0, *setup.computer}))
    effects = ai_cli.effects_from_args(args)
    setup = ai_cli.disc_setup(setup, effects)
    try:
        check_effects(setup, effects)
    except ValueError as exc:  # the tables are not the ones the script's setup names
        raise UsageError(str(exc)) from None
    return setup, iter(actions) if args.script else None, effects


class _TablesAdapter(FmAdapter):
    """The replay adapter with the duel_effects tables of ``--disc``."""

    def __init__(self, effects: OverlayTables) -> None:
        self.effects = effects

    def new_duel(self, setup: dict[str, Any]) -> FmDuel:
        return new_duel(FmSetup.from_json(setup), effects=self.effects)


def _chooser(args: argparse.Namespace, scripted: Iterator[FmAction] | None
             ) -> Callable[[FmDuel], FmAction | None]:
    """Who picks each action: the computer for the duel's computer sides, else the script."""
    from emucore.fm.ai import choose_action

    programs = ai_cli.programs_from_args(args)

    def choose(duel: FmDuel) -> FmAction | None:
        if duel.acting_side in duel.computer_sides:
            return choose_action(duel, programs)
        return next(scripted, None) if scripted is not None else None
    return choose


def _event_line(event: Any) -> str:
    data = event.to_json()
    kind = data.pop("kind")
    return f"{kind:8s} " + " ".join(f"{k}={v}" for k, v in data.items())


def _duel(args: argparse.Namespace) -> int:
    setup, scripted, effects = _setup(args)
    duel = new_duel(setup, effects=effects)
    choose = _chooser(args, scripted)
    events = list(duel.opening_events)
    steps = 0
    while not duel.over and steps < args.max_steps:
        action = choose(duel)
        if action is None:
            break
        events += duel.step(action)
        steps += 1
    data = {"steps": steps, "events": [e.to_json() for e in events], "over": duel.over,
            "winner": duel.winner, "lp": [duel.lp(0), duel.lp(1)], "digest": duel.digest()}
    emit(args, data, lambda d: "\n".join(
        [_event_line(e) for e in events]
        + [f"steps {d['steps']}  over {d['over']}  winner {d['winner']}  lp {d['lp']}",
           f"digest {d['digest']}"]))
    return 0


def _replay(args: argparse.Namespace) -> R.Replay:
    setup, scripted, effects = _setup(args)
    return R.record(_TablesAdapter(effects), setup.to_json(), _chooser(args, scripted),
                    args.max_steps)


def _verify(args: argparse.Namespace) -> int:
    """``fm replay verify FILE [--disc IMAGE]``: as ``emucore replay verify``, with the
    disc's duel_effects tables when the replay was recorded with them."""
    effects = ai_cli.effects_from_args(args)
    replay = R.load(args.file)
    mismatch = R.verify(_TablesAdapter(effects), replay)
    out = {"file": str(args.file), "system": replay.system, "ok": mismatch is None,
           "steps": len(replay.steps), "mismatch": mismatch.to_json() if mismatch else None}
    emit(args, out, verify_text)
    return 0 if out["ok"] else 1


RECORDER = Recorder("fm", _play_args, _replay,
                    lambda a: [a.script, a.deck, getattr(a, "disc", None)])
