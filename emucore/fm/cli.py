"""``emucore fm ...``: deal, starter, drop, rank, duel, replay record/verify.

A script file is JSON: ``{"setup": {FmSetup fields}, "actions": [{"kind": "play", ...}]}``;
action fields with defaults may be left out. A deck file lists one card id or name per line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from dataclasses import MISSING, fields
from typing import Any

from emucore import tables as T
from emucore.cliutil import UsageError, add_json_flag, add_output, add_rng_start, emit, int_arg
from emucore.duel import replay as R
from emucore.duel.files import UserFileError, read_json, write_output
from emucore.fm import deck, rank
from emucore.fm.actions import ACTION_KINDS, FmAction
from emucore.fm.ai import cli as ai_cli
from emucore.fm.engine import FmDuel
from emucore.fm.replay import ADAPTER
from emucore.fm.setup import FmSetup, new_duel, read_deck, start_state
from emucore.fm.state import Shuffle
from emucore.hw.psyq_rand import Rand
from emucore.replay_cli import Recorder, add_aliases
from emucore.tables.fm import DUELIST_COUNT, POOLS


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``fm`` command group (and the computer opponent's commands if present)."""
    fm = sub.add_parser("fm", help="Forbidden Memories: deal, starter, drop, rank, duel, replay")
    fsub = fm.add_subparsers(dest="fm_command", metavar="ACTION", required=True)
    _command(fsub, "deal", "both decks as a duel starts (Duel_ShuffleBothDecks)", _deal,
             _duel_source)
    _command(fsub, "starter", "a new game's 40-card starter deck", _starter, _state_args,
             lambda q: add_output(q, help="also write it as a deck file"))
    _command(fsub, "drop", "the card a win gives (Duel_SelectCardDrop)", _drop, _drop_args)
    _command(fsub, "rank", "score, rank, starchips and drop pool from the counters", _rank,
             _rank_args)
    _command(fsub, "duel", "play a scripted duel (or against the computer opponent)", _duel,
             _play_args)
    p = fsub.add_parser("replay", help="record or verify a replay file (= emucore replay)")
    add_aliases(p.add_subparsers(dest="replay_command", metavar="ACTION", required=True),
                RECORDER)
    ai_cli.register(fsub)


def _command(sub: argparse._SubParsersAction, name: str, text: str,
             func: Callable[[argparse.Namespace], int],
             *arguments: Callable[[argparse.ArgumentParser], object]) -> None:
    """One sub-command: its arguments, ``--json`` and its handler."""
    p = sub.add_parser(name, help=text)
    for add in arguments:
        add(p)
    add_json_flag(p)
    p.set_defaults(func=func)


def _drop_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--duelist", type=int_arg("duelist", 1, DUELIST_COUNT), required=True)
    p.add_argument("--pool", choices=POOLS[1:], required=True)
    _state_args(p)


def _rank_args(p: argparse.ArgumentParser) -> None:
    for name in ("turns", "effective-attacks", "defensive-wins", "face-down", "pure-magic",
                 "traps", "fusions", "equips", "cards-drawn"):
        p.add_argument(f"--{name}", type=int_arg(name, 0, 255), required=True)
    p.add_argument("--lp", type=int_arg("lp", -32768, 65535), required=True)
    p.add_argument("--end", choices=tuple(rank.END_ADJUSTMENT), required=True)


def _state_args(p: argparse.ArgumentParser, required: bool = True) -> None:
    add_rng_start(p, required=required)


def _duel_source(p: argparse.ArgumentParser, required: bool = True) -> None:
    p.add_argument("--duelist", type=int_arg("duelist", 1, DUELIST_COUNT), required=required)
    p.add_argument("--deck", required=required, help="deck file: card ids or names")
    p.add_argument("--sort", choices=deck.SORT_ORDERS, default="none" if not required else None,
                   required=required, help="the last Build Deck sort")
    _state_args(p, required)


def _play_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--script", help="script file (JSON: setup and actions)")
    p.add_argument("--player", choices=("script", "ai"), default="script",
                   help="who drives side 0 when --duelist is given (side 1 is the AI)")
    p.add_argument("--max-steps", type=int_arg("max-steps", 1, 1_000_000), default=100_000)
    p.add_argument("--terrain", type=int_arg("terrain", 0, 6), default=0,
                   help="terrain at the start with --duelist (0 normal .. 6 Yami)")
    _duel_source(p, required=False)
    ai_cli.add_disc_args(p)


# ------------------------------------------------------------------ deck preparation
def _start(args: argparse.Namespace) -> int:
    return start_state(args.state, args.index)


def _deal(args: argparse.Namespace) -> int:
    tables = T.load("fm")
    cards = read_deck(args.deck, tables)
    rng = Rand(_start(args))
    sorted_deck = deck.sort_deck(cards, args.sort, tables)
    dealt = deck.deal(rng, sorted_deck, args.duelist, tables)
    data = {
        "duelist": args.duelist, "sort": args.sort,
        "player_before": sorted_deck, "player_after": list(dealt.player.cards),
        "player_perm": list(dealt.player.perm),
        "cpu_generated": _unshuffle(dealt.cpu), "cpu_after": list(dealt.cpu.cards),
        "cpu_perm": list(dealt.cpu.perm),
        "state_before": f"0x{dealt.state_before:08X}", "rand_calls": dealt.calls,
        "state_after": f"0x{dealt.state_after:08X}",
    }
    emit(args, data, lambda d: "\n".join([
        f"player before: {_ids(d['player_before'])}", f"player after:  {_ids(d['player_after'])}",
        f"cpu generated: {_ids(d['cpu_generated'])}", f"cpu after:     {_ids(d['cpu_after'])}",
        f"rand() calls {d['rand_calls']}, state {d['state_before']} -> {d['state_after']}"]))
    return 0


def _unshuffle(shuffled: Shuffle) -> list[int]:
    """The deck before the swap stage: the permutation byte is each card's old position."""
    before = [0] * deck.DECK_SIZE
    for card, pos in zip(shuffled.cards, shuffled.perm, strict=True):
        before[pos] = card
    return before


def _ids(cards: list[int]) -> str:
    return " ".join(str(c) for c in cards)


def _starter(args: argparse.Namespace) -> int:
    tables = T.load("fm")
    rng = Rand(_start(args))
    cards = deck.starter_deck(rng, tables)
    data = {"deck": cards, "names": [tables.names[c] for c in cards],
            "rand_calls": rng.calls, "state_after": f"0x{rng.state:08X}"}
    if args.out:
        text = f"# starter deck at state 0x{_start(args):08X}\n" + "".join(
            f"{c}  # {tables.names[c]}\n" for c in cards)
        write_output(args.out, text, force=args.force)
    emit(args, data, lambda d: "\n".join(
        [f"{i + 1:2d}. {c:3d} {n}" for i, (c, n) in enumerate(zip(d["deck"], d["names"],
                                                                   strict=True))]
        + [f"rand() calls {d['rand_calls']}, state after {d['state_after']}"]))
    return 0


def _drop(args: argparse.Namespace) -> int:
    tables = T.load("fm")
    rng = Rand(_start(args))
    card = rank.drop(rng, tables, args.duelist, args.pool)
    data = {"card": card, "name": tables.names[card], "state_after": f"0x{rng.state:08X}"}
    emit(args, data, lambda d: f"{d['card']} {d['name']}")
    return 0


def _rank(args: argparse.Namespace) -> int:
    tables = T.load("fm")
    counters = {"turns": args.turns, "effective_attacks": args.effective_attacks,
                "defensive_wins": args.defensive_wins, "face_down_plays": args.face_down,
                "pure_magic": args.pure_magic, "traps_triggered": args.traps,
                "cards_used": args.cards_drawn, "lp": args.lp, "fusions": args.fusions,
                "equips": args.equips}
    score = rank.rank_score(tables, counters, rank.END_ADJUSTMENT[args.end])
    result = rank.rank_result(score)
    data = {"score": score, "rank": result.rank, "starchips": result.starchips,
            "pool": result.pool}
    emit(args, data, lambda d: f"score {d['score']}  rank {d['rank']}  "
                               f"starchips {d['starchips']}  pool {d['pool']}")
    return 0


# ------------------------------------------------------------------ duels
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


def _setup(args: argparse.Namespace) -> tuple[FmSetup, Iterator[FmAction] | None]:
    """The setup and the scripted actions from the command line. The computer plays the
    CPU side of a ``--duelist`` duel, side 0 too with ``--player ai``, and whatever sides a
    script's setup lists in ``computer``."""
    setup_json, actions = (None, []) if not args.script else _script(args.script)
    if args.duelist is not None:
        if args.deck is None or args.sort is None or (args.state is None and args.index is None):
            raise UsageError("--duelist needs --deck, --sort and --state or --index")
        cards = read_deck(args.deck, T.load("fm"))
        setup = FmSetup(deck=cards, duelist=args.duelist, sort=args.sort, state=_start(args),
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
        setup.computer = sorted({0, *setup.computer})
    return setup, iter(actions) if args.script else None


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
    setup, scripted = _setup(args)
    duel = new_duel(setup)
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
    setup, scripted = _setup(args)
    return R.record(ADAPTER, setup.to_json(), _chooser(args, scripted), args.max_steps)


RECORDER = Recorder("fm", _play_args, _replay,
                    lambda a: [a.script, a.deck, getattr(a, "disc", None)])
