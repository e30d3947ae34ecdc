"""The command group every paper rule system shares: ``duel`` and ``replay record/verify``.

``emucore <system> duel`` plays a duel between two computer opponents, or the actions of a
script (a JSON list of actions as ``Action.to_json`` writes them, for both players in turn
order) and then, with ``--auto``, lets the computer finish it.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from emucore.cliutil import UsageError, add_json_flag, add_output, add_path, emit, int_arg
from emucore.commands import add_command
from emucore.duel import deckfile
from emucore.duel import replay as replays
from emucore.duel.files import UserFileError, check_output, read_json, write_output
from emucore.duel.protocol import DRAW, Action, Event, IllegalAction
from emucore.paper import ai
from emucore.paper.actions import decode_action
from emucore.paper.decks import check_deck
from emucore.paper.engine import PaperDuel
from emucore.paper.replay import PaperAdapter
from emucore.paper.system import PaperSystem
from emucore.replay_cli import Recorder, add_aliases

MAX_STEPS = 20_000  # a duel longer than this is stopped (a safety net, never reached in play)


def register_system(sub: argparse._SubParsersAction, adapter: PaperAdapter,
                    ante: bool = False) -> argparse._SubParsersAction:
    """Add ``<system> duel`` and ``<system> replay record|verify``; returns the group's
    sub-parsers so a system can add more commands."""
    system = adapter.paper
    group = add_command(sub, system.name, epilog=deckfile.EPILOG)
    gsub = group.add_subparsers(dest=f"{system.name}_command", metavar="ACTION", required=True)
    p = gsub.add_parser("duel", help="play a duel (computer vs computer, or a script)")
    _duel_options(p, system, ante)
    p.set_defaults(func=lambda a: _duel(a, system))
    p = gsub.add_parser("deck", help="check a deck and print it as a deck file",
                        epilog=deckfile.EPILOG)
    add_deck_arg(p, system, "deck", f"a built-in deck ({', '.join(system.decks)}) or "
                                    f"{deckfile.HELP}")
    add_output(p, help="also write it as a deck file to edit (then: --deck0 FILE)",
               kind="paper deck")
    add_json_flag(p)
    p.set_defaults(func=lambda a: _deck(a, system))
    rp = gsub.add_parser("replay", help="record or verify a replay file (= emucore replay)")
    add_aliases(rp.add_subparsers(dest="replay_command", metavar="ACTION", required=True),
                recorder(adapter, ante))
    return gsub


def recorder(adapter: PaperAdapter, ante: bool) -> Recorder:
    """How ``replay record`` records a duel of this paper system."""
    return Recorder(adapter.system, lambda p: _duel_options(p, adapter.paper, ante),
                    lambda args: _replay(args, adapter),
                    lambda args: [args.deck0, args.deck1, args.script])


def add_deck_arg(p: argparse.ArgumentParser, system: PaperSystem, flag: str, text: str,
                 **kwargs: Any) -> None:
    """A deck argument: a built-in deck's name or a deck file of ``system``."""
    add_path(p, flag, role="input", kind=f"{system.name} deck", help=text, **kwargs)


def deck_options(p: argparse.ArgumentParser, system: PaperSystem, more: str = "") -> None:
    """``--deck0`` and ``--deck1``: each player's deck, a built-in one by default."""
    for side, default in enumerate(system.default_decks):
        add_deck_arg(p, system, f"--deck{side}",
                     f"player {side + 1}'s deck: {', '.join(system.decks)} or "
                     f"{deckfile.HELP}{more}; default {default}", default=default)


def _duel_options(p: argparse.ArgumentParser, system: PaperSystem, ante: bool) -> None:
    p.add_argument("--seed", type=int_arg("seed", 0, 0xFFFFFFFF), default=0,
                   help="the duel's rand() seed (decimal or 0x-hex)")
    deck_options(p, system)
    p.add_argument("--first", type=int_arg("first", 0, 1), default=None,
                   help="who goes first (default: decided by the rules' random choice)")
    if ante:
        p.add_argument("--ante", action="store_true", help="play for the top cards (ante)")
    add_path(p, "--script", role="input", kind="paper duel script (JSON)",
             help="JSON file: the list of actions to play")
    p.add_argument("--auto", action="store_true",
                   help="after the script, let the computer play both sides to the end")
    add_json_flag(p)


def _deck(args: argparse.Namespace, system: PaperSystem) -> int:
    """``<system> deck DECK [--out FILE]``: check a deck, print it (and write it) as a deck
    file."""
    if args.out:
        check_output(args.out, [args.deck], args.force)
    try:
        deck = system.deck(args.deck)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    check_deck(system.profile, system.catalogue, deck, args.deck)
    parts = {"main": deck.main, "side": deck.side, "fusion": deck.fusion}
    out = {part: [{"id": c, "name": system.catalogue.name(c), "copies": n}
                  for c, n in sorted(Counter(cards).items())] for part, cards in parts.items()}
    if args.out:
        write_output(args.out, _deck_text(out) + "\n", [args.deck], args.force)
    emit(args, out, _deck_text)
    return 0


def _deck_text(out: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for part, rows in out.items():
        if rows and part != "main":
            lines.append(f"[{part}]")
        lines += [f"{r['copies']}x {r['name']}" for r in rows]
    return "\n".join(lines)


def _script(path: str | None) -> list[Action]:
    if path is None:
        return []
    data = read_json(path)
    if isinstance(data, dict):
        data = data.get("actions")
    if not isinstance(data, list):
        raise UserFileError(path, "a script is a JSON list of actions")
    try:
        return [decode_action(item) for item in data]
    except ValueError as exc:
        raise UserFileError(path, f"bad action: {exc}") from None


def _setup(args: argparse.Namespace, system: PaperSystem) -> dict[str, Any]:
    try:
        return system.setup(args.seed, (args.deck0, args.deck1), args.first,
                            getattr(args, "ante", False)).to_json()
    except (ValueError, KeyError) as exc:
        raise UsageError(str(exc.args[0] if isinstance(exc, KeyError) else exc)) from None


def _actions(args: argparse.Namespace) -> Callable[[PaperDuel], Iterator[Action]]:
    """The action source: the script, then (with --auto or without a script) the computer."""
    script = _script(args.script)
    computer = args.auto or args.script is None

    def source(duel: PaperDuel) -> Iterator[Action]:
        yield from script
        while computer:
            yield ai.choose(duel)

    return source


def _play(duel: PaperDuel, actions: Iterator[Action],
          on_step: Callable[[Action], None] | None = None) -> list[Event]:
    events = list(duel.opening)
    for number, action in enumerate(actions, start=1):
        if duel.over or number > MAX_STEPS:
            break
        try:
            events += duel.step(action)
        except IllegalAction as exc:
            raise IllegalAction(exc.rule, f"step {number} ({action.kind}): "
                                          f"{str(exc).rsplit(' [', 1)[0]}") from None
        if on_step:
            on_step(action)
    return events


def _summary(duel: PaperDuel, system: PaperSystem, events: list[Event]) -> dict[str, Any]:
    return {"system": system.name, "winner": duel.winner, "reason": duel.end_reason,
            "turns": duel.state.turn, "lp": [s.lp for s in duel.state.sides],
            "digest": duel.digest(), "events": [e.to_json() for e in events]}


def _event_text(event: dict[str, Any], system: PaperSystem) -> str:
    parts = [event["kind"]]
    for key, value in event.items():
        if key == "kind":
            continue
        if key == "card" and value:
            value = system.catalogue.name(value)
        parts.append(f"{key}={value}")
    return " ".join(parts)


def winner_text(winner: int | None) -> str:
    """``unfinished``, ``draw`` or ``player N wins`` for a duel's or a match's winner."""
    if winner is None:
        return "unfinished"
    return "draw" if winner == DRAW else f"player {winner + 1} wins"


def _result_text(out: dict[str, Any], system: PaperSystem) -> str:
    lines = [_event_text(e, system) for e in out["events"]]
    lines.append(f"result: {winner_text(out['winner'])} ({out['reason'] or 'running'}) after "
                 f"{out['turns']} turns, "
                 f"LP {out['lp'][0]} / {out['lp'][1]}")
    lines.append(f"digest: {out['digest']}")
    return "\n".join(lines)


def _new_duel(setup: dict[str, Any], system: PaperSystem) -> PaperDuel:
    try:
        return system.duel_from_setup(setup)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _duel(args: argparse.Namespace, system: PaperSystem) -> int:
    duel = _new_duel(_setup(args, system), system)
    events = _play(duel, _actions(args)(duel))
    out = _summary(duel, system, events)
    emit(args, out, lambda o: _result_text(o, system))
    return 0


def _replay(args: argparse.Namespace, adapter: PaperAdapter) -> replays.Replay:
    setup = _setup(args, adapter.paper)
    duel = _new_duel(setup, adapter.paper)
    replay = replays.Replay(adapter.system, adapter.engine_version, adapter.rng_version, setup)
    _play(duel, _actions(args)(duel), lambda action: replay.steps.append(
        replays.Step(action.to_json(), duel.digest(), duel.snapshot())))
    return replay
