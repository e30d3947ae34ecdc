"""``emucore plan ...``: rank planner, drop odds, drop manipulation, starter-deck and seed
searches. Every command has ``--json``; user mistakes are one line and exit code 2."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from emucore import names
from emucore import tables as loader
from emucore.cliutil import (
    UsageError,
    add_json_flag,
    add_output,
    add_path,
    add_rng_start,
    emit,
    int_arg,
    rng_start,
)
from emucore.commands import add_command
from emucore.duel.files import UserFileError, check_output, decimal, lexists, read_bytes
from emucore.fm import rank
from emucore.fm.disc import add_disc_args
from emucore.fm.state import PHASE_OVER
from emucore.hw import psyq_rand
from emucore.planning import chart, drops, rankplan
from emucore.tables.fm import DUELIST_COUNT, FmTables

if TYPE_CHECKING:
    from emucore.planning import route

COUNTER_FLAGS = {  # flag -> (counter, default at the start of a duel)
    "turns": ("turns", 0), "effective-attacks": ("effective_attacks", 0),
    "defensive-wins": ("defensive_wins", 0), "face-down": ("face_down_plays", 0),
    "pure-magic": ("pure_magic", 0), "traps": ("traps_triggered", 0),
    "cards-drawn": ("cards_used", 5), "lp": ("lp", 8000), "fusions": ("fusions", 0),
    "equips": ("equips", 0),
}
STARTER_PIECE = 1 << 21  # indices per pool task (about half a second)
SEED_PIECE = 1 << 21
STARTER_SAMPLE = 20_000  # candidate decks dealt to find the best splitting cards
LISTED = 1000  # indices a --json answer lists at most
SNAPSHOT_BYTES = 1 << 20  # the largest state image file read (an fm state is 4 KB)
# plan manip --last-turn (emucore.planning.last_turn, imported when it runs: it needs the engine)
LAST_TURN_CARDS = 5  # the most cards a hand play raises
LAST_TURN_BUDGET = 100_000  # sequences played at most by default


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``plan`` command group."""
    plan = add_command(sub, "plan")
    psub = plan.add_subparsers(dest="plan_command", metavar="ACTION", required=True)
    _add(psub, "rank", "score, rank now and the cheapest way to every rank", _rank_args, _rank)
    _add(psub, "drops", "drop odds of a duelist, or who drops a card", _drops_args, _drops)
    _add(psub, "manip", "extra rand() calls that make the drop roll give a card",
         _manip_args, _manip)
    _add(psub, "starter", "RNG indices whose starter deck holds given cards", _starter_args,
         _starter)
    _add(psub, "seed", "RNG index of a duel from the player's first draws", _seed_args, _seed)
    _add(psub, "route", "whole-run routes: starter deck, waits and simulated duels",
         _route_args, _route)


def _add(psub: argparse._SubParsersAction, name: str, text: str,
         args: Callable[[argparse.ArgumentParser], None],
         run: Callable[[argparse.Namespace], int]) -> None:
    p = psub.add_parser(name, help=text, description=text)
    args(p)
    add_json_flag(p)
    p.set_defaults(func=_user_errors(run))


def _user_errors(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Report the planner's ValueErrors (bad cards, ranks, ranges) as usage errors."""
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except UserFileError:
            raise
        except (ValueError, KeyError) as exc:
            raise UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    return wrapped


def _fm() -> FmTables:
    return loader.load("fm")


def _card(tables: FmTables, token: str) -> int:
    """An FM card by id or name; an unknown name offers the closest names."""
    try:
        return names.card(tables, token)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None


def _duelist(tables: FmTables, token: str) -> int:
    """An FM duelist by id (1..39) or name; an unknown name offers the closest names."""
    if (number := decimal(token.strip())) is not None:
        drops.check_duelist(number)
        return number
    named = [(d, tables.duelist_name(d)) for d in range(1, DUELIST_COUNT + 1)]
    found = names.find(token, named)
    if found is None:
        raise UsageError(names.unknown("duelist", token, (n for _, n in named),
                                       f"an id 1..{DUELIST_COUNT} or a name"))
    return found


def _state_args(p: argparse.ArgumentParser, what: str) -> None:
    group = add_rng_start(p, what)
    add_path(group, "--replay", role="input", kind="fm replay", type=Path,
                       help="an fm replay: the drop roll's state at a step (see --step): "
                            "after the result outro's calls, before the roll; with "
                            "--last-turn the duel at that step")
    add_path(group, "--snapshot", role="input", kind="fm duel state image", type=Path,
                       help="a duel state image (FmDuel.snapshot() bytes), read as --replay's "
                            "step is")
    p.add_argument("--step", type=int_arg("step", -200_000, 200_000), default=None,
                   help="with --replay: the step whose state to read (default the last; with "
                        "--last-turn the start of the player's last turn)")


def _state_of(args: argparse.Namespace) -> int:
    if args.replay or args.snapshot:  # the drop roll's state: after the result outro
        where = args.replay or args.snapshot
        image = (_replay_image(args.replay, -1 if args.step is None else args.step)
                 if args.replay else _snapshot_image(args.snapshot))
        return rank.drop_roll_state(_image_fields(image, where))
    return rng_start(args)


def _image_fields(image: bytes, where: Path | str) -> dict[str, int]:
    """Every named field of an fm state image (``emucore.fm.machine.fields_of``)."""
    from emucore.fm import machine

    try:
        return machine.fields_of(image)
    except (ValueError, IndexError, KeyError) as exc:
        raise UserFileError(where, f"not an fm duel state ({exc})") from None


def _replay_image(path: Path, step: int) -> bytes:
    """The state image stored with step ``step`` (Python-style index) of an fm replay."""
    return _replay_step(path, step)[1]


def _replay_step(path: Path, step: int | None) -> tuple[Any, bytes, int]:
    """An fm replay, the state image stored with its step ``step`` (Python-style) and that
    step's number; ``None`` is the step that starts the player's last turn (its state is the
    player's hand phase)."""
    from emucore.duel import replay

    rep = replay.load(path)
    if rep.system != "fm":
        raise UserFileError(path, f"a {rep.system} replay, not fm")
    if not rep.steps:
        raise UserFileError(path, "the replay has no steps")
    if step is None:
        step = _last_player_turn(rep.steps, path)
    if not -len(rep.steps) <= step < len(rep.steps):
        raise UsageError(f"--step {step} outside the replay's {len(rep.steps)} steps")
    return rep, rep.steps[step].state, step % len(rep.steps)


def _last_player_turn(steps: list[Any], path: Path) -> int:
    """The last step whose state is the player's hand phase."""
    from emucore.fm.state import PHASE_HAND

    for n in reversed(range(len(steps))):
        fields = _image_fields(steps[n].state, f"{path} step {n}")
        if fields["phase"] == PHASE_HAND and fields["acting_side"] == 0:
            return n
    raise UserFileError(path, "no step of the replay is the player's hand phase")


def _snapshot_image(path: Path) -> bytes:
    """A state image file's bytes, through the reading edge (a state image is 4 KB)."""
    return read_bytes(path, SNAPSHOT_BYTES)


def _range_args(p: argparse.ArgumentParser, count: int, jobs: int) -> None:
    p.add_argument("--from", dest="start", type=int_arg("start index", 0, 2**32 - 1),
                   default=0, help="first RNG index (default 0)")
    p.add_argument("--count", type=int_arg("count", 1, 2**32), default=count,
                   help=f"how many indices (default {count:,})")
    p.add_argument("--jobs", type=int_arg("jobs", 1, 256), default=jobs,
                   help=f"worker processes (default {jobs})")


def _cores() -> int:
    """The cores this process may run on (the default ``--jobs`` of long searches)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _check_range(args: argparse.Namespace) -> None:
    if args.start + args.count > 2**32:
        raise UsageError(f"index range {args.start}+{args.count} goes past 2^32 "
                         f"(last index {2**32 - 1})")


# ----------------------------------------------------------------------------- rank

def _rank_args(p: argparse.ArgumentParser) -> None:
    for flag, (counter, default) in COUNTER_FLAGS.items():
        p.add_argument(f"--{flag}", type=int_arg(flag), default=None,
                       help=f"{counter} now (default {default})")
    source = p.add_mutually_exclusive_group()
    add_path(source, "--replay", role="input", kind="fm replay", type=Path,
             help="read the player's counters from an fm replay")
    add_path(source, "--snapshot", role="input", kind="fm duel state image", type=Path,
                        help="read them from a duel state image (FmDuel.snapshot() bytes)")
    p.add_argument("--step", type=int_arg("step", -200_000, 200_000), default=-1,
                   help="replay step whose state to read (default the last)")
    p.add_argument("--end", choices=(*rank.END_ADJUSTMENT, "any"), default=None,
                   help="how the win comes: lp (+2), deckout (-40), exodia (+40) or any "
                        "(default: how a finished replay/snapshot ended, else lp)")
    p.add_argument("--target", help="plan only this rank (e.g. S-TEC)")


ENDS_BY_ADJUSTMENT = {value: name for name, value in rank.END_ADJUSTMENT.items()}


def _counters_from_image(image: bytes, where: str) -> tuple[dict[str, int], str | None]:
    """The player's counters and, once the duel is over, how it ended (side record +0)."""
    fields = _image_fields(image, where)
    if fields["phase"] == PHASE_OVER and fields["winner"] != 0:
        raise UsageError(f"{where}: the player lost this duel, and only a win is ranked; "
                         "plan from an earlier step (--step N)")
    side = {name.split(".", 1)[1]: v for name, v in fields.items() if name.startswith("side0.")}
    return rankplan.counters_from_side(side), ENDS_BY_ADJUSTMENT.get(side["end_adjust"])


def _read_counters(args: argparse.Namespace) -> tuple[dict[str, int], str | None]:
    counters: dict[str, int] = {c: d for c, d in COUNTER_FLAGS.values()}
    ended = None
    if args.replay:
        counters, ended = _counters_from_image(_replay_image(args.replay, args.step),
                                               str(args.replay))
    elif args.snapshot:
        image = _snapshot_image(args.snapshot)
        counters, ended = _counters_from_image(image, str(args.snapshot))
    for flag, (counter, _default) in COUNTER_FLAGS.items():
        given = getattr(args, flag.replace("-", "_"))
        if given is not None:
            counters[counter] = given
    return counters, ended


def _rank(args: argparse.Namespace) -> int:
    tables = _fm()
    counters, ended = _read_counters(args)
    chosen = args.end or ended or rankplan.DEFAULT_END
    now_end = rankplan.DEFAULT_END if chosen == "any" else chosen
    now = rankplan.standing(tables, counters, now_end)
    targets = ([rankplan.find_rank(tables, args.target)] if args.target
               else rankplan.rank_ranges(tables))
    end = None if chosen == "any" else chosen
    plans = [rankplan.plan_rank(tables, counters, t, end) for t in targets]
    out = {"counters": counters, "end": now_end, "score": now.score, "rank": now.result.rank,
           "starchips": now.result.starchips, "pool": now.result.pool,
           "plans": [p.to_json() for p in plans]}
    emit(args, out, lambda o: "\n".join(
        [f"now: score {o['score']} -> {o['rank']} ({o['starchips']} starchips, "
         f"{o['pool']} pool) on a win by {o['end']}"] + [p.text() for p in plans]))
    return 0


# ----------------------------------------------------------------------------- drops

def _drops_args(p: argparse.ArgumentParser) -> None:
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--duelist", help="duelist id or name: each pool's cards and odds")
    who.add_argument("--card", help="card id or name: every duelist and rank that drops it")
    p.add_argument("--pool", choices=drops.DROP_POOLS, help="only this pool")
    p.add_argument("--top", type=int_arg("top", 1), default=None,
                   help="list at most this many per pool")
    add_output(p, "--plot", metavar="FILE.png", help="also draw a bar chart", kind="PNG chart")


def _odds_json(o: drops.Odds, tables: FmTables) -> dict[str, Any]:
    return {"duelist": o.duelist, "duelist_name": tables.duelist_name(o.duelist),
            "pool": o.pool, "ranks": drops.POOL_RANKS[o.pool], "card": o.card,
            "card_name": tables.names[o.card], "weight": o.weight,
            "probability": o.probability, "expected_wins": o.expected_wins}


def _drops(args: argparse.Namespace) -> int:
    if args.plot:
        check_output(args.plot, force=args.force)
    tables = _fm()
    if args.duelist:
        duelist = _duelist(tables, args.duelist)
        pools = drops.duelist_odds(tables, duelist)
        rows = [o for pool, odds in pools.items() if args.pool in (None, pool)
                for o in odds[: args.top]]
        title = f"{tables.duelist_name(duelist)} (#{duelist})"
        text = _duelist_text
        labels = [f"{drops.POOL_SHORT[o.pool]} #{o.card} {tables.names[o.card]}"
                  for o in rows]
    else:
        card = _card(tables, args.card)
        rows = [o for o in drops.card_odds(tables, card) if args.pool in (None, o.pool)]
        rows = rows[: args.top]
        title = f"{tables.names[card]} (#{card})"
        text = _card_text
        labels = [f"{tables.duelist_name(o.duelist)} (#{o.duelist}) {drops.POOL_SHORT[o.pool]}"
                  for o in rows]
    if args.plot:
        chart.write_bar_chart(args.plot, labels, [100 * o.probability for o in rows],
                              title=f"Drops: {title}", xlabel="chance per win (%)",
                              force=args.force)
    out = {"title": title, "drops": [_odds_json(o, tables) for o in rows],
           "plot": str(args.plot) if args.plot else None}
    emit(args, out, text)
    return 0


def _duelist_text(o: dict[str, Any]) -> str:
    lines, pool = [f"drops of {o['title']}"], None
    for d in o["drops"]:
        if d["pool"] != pool:
            pool = d["pool"]
            lines.append(f"{pool} ({d['ranks']}):")
        lines.append(f"  {d['card']:>3} {d['card_name']:<28} {d['weight']:>4}/2048 "
                     f"{100 * d['probability']:6.2f}%")
    return "\n".join(lines)


def _card_text(o: dict[str, Any]) -> str:
    if not o["drops"]:
        return f"{o['title']} is in no drop pool"
    lines = [f"who drops {o['title']}, best first:"]
    lines += [f"  {d['duelist']:>2} {d['duelist_name']:<22} {d['ranks']:<17} "
              f"{d['weight']:>4}/2048 {100 * d['probability']:6.2f}%  "
              f"~{d['expected_wins']:.1f} wins" for d in o["drops"]]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- manip

K_MEANS = ("k counts the rand() calls still to come before the result outro (its 14 calls "
           "are already in the roll state) and the drop roll")


def _manip_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--duelist", help="duelist id or name (with --last-turn: the duel's own)")
    p.add_argument("--want", help="the card wanted (id or name); optional with --last-turn, "
                                  "which then lists every winning sequence's drop")
    p.add_argument("--rank", help="the rank the win will have (e.g. S-TEC; with --last-turn: "
                                  "each sequence's own)")
    _state_args(p, "just before the drop roll would happen")
    p.add_argument("--bound", type=int_arg("bound", 0, 10_000_000), default=None,
                   help="largest number of extra calls tried (default 1000)")
    p.add_argument("--limit", type=int_arg("limit", 1), default=10,
                   help="list at most this many offsets or sequences (default 10)")
    p.add_argument("--spend-with", action="append", metavar="NAME",
                   choices=[e.name for e in drops.EVENTS if e.at_will],
                   help="spend k only with these fixed-cost actions (repeat; default all: "
                        + ", ".join(e.name for e in drops.EVENTS if e.at_will) + ")")
    add_path(p, "--disc", role="input", kind="fm disc image or folder", type=Path,
             metavar="IMAGE",
                   help="your own disc image (or a folder with its duel_effects.bin): the "
                        "animations' rand() calls from its duel_effects tables")
    last = p.add_argument_group("the last turn")
    last.add_argument("--last-turn", action="store_true",
                      help="play every legal sequence of the player's turn from the duel of "
                           "--replay/--snapshot on the engine and list the ones that win, "
                           "with the card each drops, cheapest first")
    last.add_argument("--max-cards", type=int_arg("max-cards", 1, LAST_TURN_CARDS),
                      default=None, help="hand plays of at most this many cards (default 5)")
    last.add_argument("--budget", type=int_arg("budget", 1, 10_000_000), default=None,
                      help=f"play at most this many sequences (default {LAST_TURN_BUDGET:,}; "
                           "each action played counts one)")


def _manip_effects(args: argparse.Namespace) -> Any:
    """The duel_effects tables of ``--disc`` (the built-in ones without it)."""
    if not args.disc:
        from emucore.fm.overlay import BUILT_IN

        return BUILT_IN
    from emucore.fm.ai import cli as ai_cli

    return ai_cli.effects_from_args(args)


def _manip(args: argparse.Namespace) -> int:
    if args.last_turn:
        return _last_turn(args)
    for flag in ("duelist", "want", "rank"):
        if getattr(args, flag) is None:
            raise UsageError(f"plan manip needs --{flag} (or --last-turn with --replay FILE "
                             "or --snapshot FILE)")
    for flag in ("max_cards", "budget"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag.replace('_', '-')} goes with --last-turn")
    tables = _fm()
    duelist = _duelist(tables, args.duelist)
    want = _card(tables, args.want)
    target = rankplan.find_rank(tables, args.rank)
    pool = rank.rank_result(max(target.low, -1)).pool  # any score of the range: same pool
    state = _state_of(args)
    bound = 1000 if args.bound is None else args.bound
    costs = drops.fixed_costs(_manip_effects(args))
    usable = [c for c in costs if c.at_will and (not args.spend_with or c.name in args.spend_with)]
    weights = tables.pools[duelist, drops.POOLS.index(pool)]
    if not weights[want]:
        raise UsageError(f"{tables.duelist_name(duelist)} (#{duelist}) never drops "
                         f"{tables.names[want]} (#{want}) at {target.name} ({pool}); see "
                         f"`emucore plan drops --card {want}`")
    offsets = drops.manip_offsets(state, want, weights, bound)
    spender = drops.Spender(int(offsets[: args.limit].max(initial=0)), usable)
    reached = offsets[spender.reaches(offsets)] if spender.ones else offsets[:0]
    if not spender.ones:  # only some k can be reached: the table up to the bound says which
        spender = drops.Spender(bound, usable)
        reached = offsets[spender.reaches(offsets)]
    calls = {c.name: c.calls for c in costs}

    def row(k: int) -> dict[str, Any]:
        how = spender.way(k)
        return {"k": k, "state": f"0x{int(psyq_rand.jump(state, k)):08X}",
                "how": None if how is None else [{"event": e, "times": n, "calls": calls[e]}
                                                 for e, n in how]}

    rows = [row(int(k)) for k in offsets[: args.limit]]
    out = {"duelist": duelist, "want": want, "want_name": tables.names[want],
           "rank": target.name, "pool": pool, "state": f"0x{state:08X}",
           "weight": int(weights[want]), "bound": bound, "found": len(offsets),
           "k_means": K_MEANS, "offsets": rows, "reachable": len(reached),
           "nearest_reachable": [] if all(r["how"] is not None for r in rows)
           else [row(int(k)) for k in reached[: args.limit]],
           "events": [{"event": e.name, "what": e.what, "calls": e.calls,
                       "at_will": e.at_will and e in usable} for e in costs]}
    emit(args, out, _manip_text)
    return 0


def _manip_text(o: dict[str, Any]) -> str:
    head = (f"{o['want_name']} (#{o['want']}) from duelist {o['duelist']} at {o['rank']} "
            f"({o['pool']}, weight {o['weight']}/2048), roll state {o['state']}:")
    if not o["offsets"]:
        return head + f"\n  no k in 0..{o['bound']} gives it"
    def shown(r: dict[str, Any]) -> str:
        if r["how"] is None:
            how = "no combination of the fixed-cost actions adds up to it"
        else:
            how = " + ".join(f"{h['times']} x {h['event']}" for h in r["how"]) or "roll now"
        return f"  k={r['k']:<6} state {r['state']}  {how}"

    lines = [head, f"  {o['k_means']}.", f"  {o['found']} offsets in 0..{o['bound']}; nearest:"]
    lines += [shown(r) for r in o["offsets"]]
    if o["nearest_reachable"]:
        lines.append(f"  {o['reachable']} of them reached by the fixed costs offered; nearest:")
        lines += [shown(r) for r in o["nearest_reachable"]]
    elif o["reachable"] == 0:
        lines.append("  none of them is reached by the fixed costs offered")
    lines.append("  fixed costs offered:")
    lines += [f"    {e['event']:<12} {e['calls']:>5}  {e['what']}"
              for e in o["events"] if e["at_will"]]
    lines.append("  each is the action's own animation: one that also springs a trap or breaks "
                 "a card costs more, and a hand play makes at most 4 combination steps "
                 "(DUMP, EQUIP, FUSION); plan manip --last-turn plays the real board")
    return "\n".join(lines)


def _last_turn(args: argparse.Namespace) -> int:
    """``plan manip --last-turn``: every winning sequence of the player's turn, played on
    the engine from the duel of --replay/--snapshot (emucore.planning.last_turn)."""
    from emucore.planning import last_turn

    if args.state is not None or args.index is not None:
        raise UsageError("--last-turn plays the duel itself: give --replay FILE [--step N] or "
                         "--snapshot FILE, not --state/--index")
    for flag in ("duelist", "rank"):
        if getattr(args, flag) is not None:
            raise UsageError("--last-turn reads the duelist from the duel and the rank from "
                             f"each sequence; drop --{flag}")
    if args.bound is not None or args.spend_with:
        raise UsageError("--bound and --spend-with plan extra calls from a roll state; "
                         "--last-turn plays the sequences instead")
    tables = _fm()
    want = _card(tables, args.want) if args.want else None
    effects = _manip_effects(args)
    duel, where = _last_turn_duel(args, effects)
    try:
        phase = last_turn.check_start(duel)
    except last_turn.NotALastTurn as exc:
        raise UsageError(f"{where}: {exc}") from None
    duelist = duel.opponent
    if want is not None and not tables.pools[duelist, 1:, want].any():
        raise UsageError(f"{tables.duelist_name(duelist)} (#{duelist}) never drops "
                         f"{tables.names[want]} (#{want}) at any rank; see "
                         f"`emucore plan drops --card {want}`")
    max_cards = args.max_cards or LAST_TURN_CARDS
    budget = args.budget or LAST_TURN_BUDGET
    try:
        result = last_turn.search(duel, max_cards, budget)
        lines = [ln for ln in result.lines if want is None or ln.end.drop == want]
        rows = [_line_json(duel, tables, n, ln) for n, ln in enumerate(lines[: args.limit], 1)]
    except (IndexError, KeyError, ValueError, OverflowError) as exc:  # a state no duel has
        raise UserFileError(where, f"the duel state cannot be played "
                                   f"({exc.__class__.__name__}: {exc})") from None
    out = {"mode": "last-turn", "file": str(args.replay or args.snapshot),
           "step": args.step if args.replay else None, "phase": phase,
           "duelist": duelist, "duelist_name": tables.duelist_name(duelist),
           "lp": [duel.lp(0), duel.lp(1)], "want": want,
           "want_name": tables.names[want] if want is not None else None,
           "max_cards": max_cards, "budget": budget, "played": result.played,
           "bound_reached": result.bound_reached, "wins": len(result.lines),
           "matching": len(lines), "listed": len(rows),
           "views_changed_outcome": result.views_changed_outcome,
           "hand_plays": result.plays, "hand_plays_searched": result.plays_searched,
           "drops": _drop_summary(tables, result.lines), "sequences": rows}
    emit(args, out, _last_turn_text)
    return 0


def _last_turn_duel(args: argparse.Namespace, effects: Any) -> tuple[Any, str]:
    """The duel of ``--replay FILE [--step N]`` or ``--snapshot FILE``, at that state, with
    the player's side played by a person (views allowed), and where it was read from."""
    from emucore.fm import state as S
    from emucore.fm.engine import FmDuel
    from emucore.fm.setup import FmSetup, check_effects
    from emucore.hw.psyq_rand import Rand

    if args.replay:
        rep, image, args.step = _replay_step(args.replay, args.step)
        where = f"{args.replay} step {args.step}"
        try:
            setup = FmSetup.from_json(rep.setup)
        except ValueError as exc:
            raise UserFileError(args.replay, f"bad setup: {exc}") from None
        try:
            check_effects(setup, effects)
        except ValueError as exc:  # the tables are not the ones the duel was played with
            raise UsageError(str(exc)) from None
    elif args.snapshot:
        image, where = _snapshot_image(args.snapshot), str(args.snapshot)
    else:
        raise UsageError("--last-turn needs --replay FILE [--step N] or --snapshot FILE")
    fields = _image_fields(image, where)  # a state image of the right shape, or one line
    ranges = (("phase", 0, 2), ("acting_side", 0, 1), ("opponent", -128, DUELIST_COUNT))
    for name, lo, hi in ranges:
        if not lo <= fields[name] <= hi:
            raise UserFileError(where, f"not an fm duel state ({name} {fields[name]} outside "
                                       f"{lo}..{hi})")
    blank = S.Shuffle(tuple(range(1, S.DECK_SIZE + 1)), tuple(range(S.DECK_SIZE)))
    duel = FmDuel(_fm(), blank, blank, Rand(0), opponent=1, effects=effects)
    duel.restore(image)  # every record, the RNG and the globals: the duel at that state
    return duel, where


def _line_json(duel: Any, tables: FmTables, number: int, line: Any) -> dict[str, Any]:
    from emucore.planning import last_turn

    end = line.end
    return {"number": number, "actions": last_turn.describe(duel, line),
            "script": [a.to_json() for a in line.actions], "action_count": len(line.steps),
            "rand_calls": line.rand_calls, "drop": end.drop, "drop_name": tables.names[end.drop],
            "drop_state": end.drop_state, "rank": end.rank, "pool": end.pool,
            "score": end.scores[0], "exact": end.exact}


def _drop_summary(tables: FmTables, lines: list[Any]) -> list[dict[str, Any]]:
    """Every card some winning sequence drops, with how many do and the cheapest one."""
    seen: dict[int, dict[str, Any]] = {}
    for n, line in enumerate(lines, 1):  # cheapest first: the first seen is the cheapest
        row = seen.setdefault(line.end.drop, {
            "card": line.end.drop, "name": tables.names[line.end.drop], "sequences": 0,
            "cheapest": n, "actions": len(line.steps), "rand_calls": line.rand_calls})
        row["sequences"] += 1
    return list(seen.values())


def _last_turn_text(o: dict[str, Any]) -> str:
    place = o["file"] + (f" step {o['step']}" if o["step"] is not None else "")
    lines = [f"last turn against {o['duelist_name']} (#{o['duelist']}) from {place}: the "
             f"player's {o['phase']} phase, LP {o['lp'][0]} vs {o['lp'][1]}",
             "  every sequence played on the engine: its animations' rand() calls, the result "
             "outro (14) and the drop roll"]
    bound = (f"stopped at the bound of {o['budget']:,} (--budget)" if o["bound_reached"]
             else f"bound {o['budget']:,} not reached")
    if o["hand_plays"]:
        bound += (f"; {o['hand_plays_searched']:,} of the {o['hand_plays']:,} hand plays "
                  "searched to the end")
    lines.append(f"  {o['played']:,} sequences played ({bound}); {o['wins']:,} win"
                 + (f", {o['matching']:,} drop {o['want_name']} (#{o['want']})"
                    if o["want"] is not None else ""))
    if o["views_changed_outcome"]:
        lines.append(f"  {o['views_changed_outcome']} view variants did not win as their 2-D "
                     "sequence did (left out)")
    if not o["sequences"]:
        lines.append("  no winning sequence" + (" drops it" if o["want"] is not None else ""))
        return "\n".join(lines)
    if o["want"] is None:
        lines.append("  drops (sequences; the cheapest):")
        lines += [f"    {d['card']:>3} {d['name']:<28} {d['sequences']:>6}  #{d['cheapest']} "
                  f"({d['actions']} actions, {d['rand_calls']:,} calls)" for d in o["drops"]]
    for s in o["sequences"]:
        exact = "exact" if s["exact"] else "not exact (a count rests on an estimate)"
        lines.append(f"#{s['number']}  {s['action_count']} actions, {s['rand_calls']:,} calls "
                     f"-> {s['drop_name']} (#{s['drop']}) rolled at {s['drop_state']}, "
                     f"{s['rank']} ({s['pool']}), {exact}")
        lines += [f"    {i}. {a['words']}  [{a['rand_calls']:,} calls]"
                  for i, a in enumerate(s["actions"], 1)]
        lines.append("    script: " + json.dumps(s["script"]))
    if o["matching"] > o["listed"]:
        lines.append(f"  {o['matching'] - o['listed']:,} more (--limit)")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- starter

def _starter_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--has", action="append", metavar="CARD",
                   help="a card the deck must hold (repeat it for more copies)")
    _range_args(p, 1 << 27, _cores())
    p.add_argument("--show", type=int_arg("show", 0), default=10,
                   help="print the decks when at most this many match (default 10)")
    p.add_argument("--pad-log", nargs="?", const=-1, default=None,
                   type=int_arg("pad-log index", 0, 2**32 - 1), metavar="INDEX",
                   help="print the pad log from power-on that deals the starter deck of "
                        "INDEX (no search), or with --has and no INDEX of the first match: "
                        "the frames to wait on the title, then the quickest name entry")


def _starter(args: argparse.Namespace) -> int:
    from emucore.planning import starter  # the searches: imported only when one runs
    from emucore.planning.progress import Progress, run_pieces

    tables = _fm()
    if args.pad_log is not None and args.pad_log >= 0:
        if args.has:
            raise UsageError("--pad-log INDEX prints that index's pad log: leave out --has "
                             "(or give --has and --pad-log alone for the first match)")
        emit(args, _pad_log(args.pad_log, tables), _pad_log_text)
        return 0
    if not args.has:
        raise UsageError("give the cards the deck must hold (--has CARD), or --pad-log INDEX")
    _check_range(args)
    cards = tuple(_card(tables, c) for c in args.has)
    starter.Want.of(cards, starter.plan(tables))  # bad wishes fail before any work
    progress = Progress(args.count)
    pieces = -(-args.count // STARTER_PIECE)
    per_piece = -(-STARTER_SAMPLE // pieces)
    first = max(args.show, LISTED)
    found = starter.Found.join(
        run_pieces(starter.summary_piece, args.start, args.count, (cards, first, per_piece),
                   args.jobs, STARTER_PIECE, progress), first, STARTER_SAMPLE)
    elapsed = progress.finish()
    out: dict[str, Any] = {"has": list(cards), "from": args.start, "count": args.count,
                           "matches": found.total, "seconds": round(elapsed, 3),
                           "indices": found.first[:LISTED].tolist()}
    if 0 < found.total <= args.show:
        decks = starter.decks_at(found.first, tables)
        out["decks"] = [{"index": int(i), "deck": d.tolist()}
                        for i, d in zip(found.first, decks, strict=True)]
    elif found.total > args.show:
        splits = starter.best_splits(starter.decks_at(found.sample, tables))
        out["sampled"] = len(found.sample)
        out["splits"] = [{"card": c, "name": tables.names[c], "share": n / len(found.sample)}
                         for c, n in splits]
    if args.pad_log is not None:
        from emucore.fm.mainloop import EARLIEST_DEAL
        reachable = [int(i) for i in found.first if i >= EARLIEST_DEAL]
        if not reachable:
            raise UsageError(f"no index from {EARLIEST_DEAL} on (the earliest deal from "
                             f"power-on) among the first {len(found.first)} matches: no pad "
                             "log to print (try --from)")
        out["pad_log"] = _pad_log(reachable[0], tables)
    emit(args, out, lambda o: _starter_text(o, tables) + (
        "\n" + _pad_log_text(o["pad_log"]) if "pad_log" in o else ""))
    return 0


def _pad_log(index: int, tables: FmTables) -> dict[str, Any]:
    """The pad log from power-on dealing the starter deck of ``index``
    (emucore.fm.mainloop.starter_script): the screens and their waits, the log, the deck."""
    from emucore.duel.padlog import write
    from emucore.fm import deck as fm_deck
    from emucore.fm import mainloop

    try:
        wait, presses = mainloop.starter_script(index)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    changes = [(0, "-")] if presses[0][0] > 0 else []
    pressed = {f for f, _ in presses}
    for frame, button in presses:
        changes.append((frame, button))
        if frame + 1 not in pressed:
            changes.append((frame + 1, "-"))
    name0 = wait + mainloop.TITLE_TO_NAME
    steps, now = [], 0
    for frame, button in mainloop.QUICK_NAME:
        steps.append({"wait": frame - now, "press": button})
        now = frame + 1
    deck = fm_deck.starter_deck(psyq_rand.Rand(int(psyq_rand.jump(psyq_rand.BOOT_STATE,
                                                                   index))), tables)
    end = name0 + mainloop.QUICK_NAME_FRAMES
    return {"index": index, "title_wait": wait, "name_entry": steps, "deal_frame": end - 1,
            "deck": deck, "log": write("psx", changes, end + 1)}


def _pad_log_text(o: dict[str, Any]) -> str:
    name = ", ".join(f"wait {s['wait']}, {s['press'].capitalize()}" for s in o["name_entry"])
    return "\n".join([  # the summary as comments: the whole text plays with play --script
        f"# pad log from power-on for starter index {o['index']} (no save on the card):",
        f"#   title: wait {o['title_wait']} frames, Start, then Cross (New Game) the next frame",
        f"#   name entry: {name} (the deck is dealt after frame {o['deal_frame']})",
        "#   deck: " + " ".join(str(c) for c in o["deck"]),
        o["log"].rstrip("\n")])


def _starter_text(o: dict[str, Any], tables: FmTables) -> str:
    names = ", ".join(f"{tables.names[c]} (#{c})" for c in o["has"])
    lines = [f"{o['matches']} of {o['count']:,} indices from {o['from']} hold {names}"]
    for d in o.get("decks", []):
        lines.append(f"index {d['index']}: " + " ".join(str(c) for c in d["deck"]))
    if o.get("splits"):
        lines.append(f"cards that best split them (share of {o['sampled']} decks):")
        lines += [f"  {s['card']:>3} {s['name']:<28} {100 * s['share']:5.1f}%"
                  for s in o["splits"]]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- seed

def _seed_args(p: argparse.ArgumentParser) -> None:
    from emucore.fm.deck import SORT_ORDERS

    add_path(p, "--deck", role="input", kind="fm deck", type=Path, required=True,
             help="the player's deck file")
    p.add_argument("--sort", choices=SORT_ORDERS, default="none",
                   help="the last Build Deck sort (default none)")
    p.add_argument("--duelist", default="1", help="the opponent (id or name; default 1)")
    p.add_argument("--drawn", nargs="+", required=True, metavar="CARD",
                   help="the player's first draws in order (ids or names)")
    _range_args(p, 5_000_000, 1)  # a second on one core: worker start-up would not pay
    p.add_argument("--show", type=int_arg("show", 0), default=10,
                   help="deal out at most this many matches (default 10)")


def _seed(args: argparse.Namespace) -> int:
    from emucore.fm import deck as fm_deck
    from emucore.fm.setup import read_deck
    from emucore.planning import seed
    from emucore.planning.progress import Progress, run_pieces

    tables = _fm()
    _check_range(args)
    duelist = _duelist(tables, args.duelist)
    drawn = tuple(_card(tables, c) for c in args.drawn)
    if len(drawn) > fm_deck.DECK_SIZE:
        raise UsageError(f"{len(drawn)} draws given; a deck has {fm_deck.DECK_SIZE} cards")
    sorted_deck = tuple(fm_deck.sort_deck(read_deck(args.deck, tables), args.sort, tables))
    progress = Progress(args.count)
    found = np.concatenate(run_pieces(seed.match_piece, args.start, args.count,
                                      (sorted_deck, drawn), args.jobs, SEED_PIECE, progress))
    progress.finish()
    rows = []
    for index in found[: args.show].tolist():
        state = int(psyq_rand.jump(psyq_rand.BOOT_STATE, index))
        dealt = fm_deck.deal(psyq_rand.Rand(state), sorted_deck, duelist, tables)
        rows.append({"index": index, "state": f"0x{state:08X}",
                     "player_first": list(dealt.player.cards[:5]),
                     "cpu_first": list(dealt.cpu.cards[:5]),
                     "after_deal": f"0x{dealt.state_after:08X}", "deal_calls": dealt.calls})
    out = {"drawn": list(drawn), "duelist": duelist, "from": args.start, "count": args.count,
           "matches": len(found), "indices": found[:LISTED].tolist(), "deals": rows}
    emit(args, out, _seed_text)
    return 0


def _seed_text(o: dict[str, Any]) -> str:
    lines = [f"{o['matches']} of {o['count']:,} indices from {o['from']} open with "
             + " ".join(map(str, o["drawn"]))]
    lines += [f"index {r['index']} (state {r['state']}): CPU opens "
              + " ".join(map(str, r["cpu_first"]))
              + f"; {r['deal_calls']} calls to deal, then {r['after_deal']}"
              for r in o["deals"]]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- route

def _route_args(p: argparse.ArgumentParser) -> None:
    add_path(p, "spec", role="input", kind="route spec", type=Path,
             help="the route spec (.toml or .json; docs/planning.md)")
    add_output(p, "--out", kind="routes file", type=Path, default=None,
               help="routes file, one JSON line per route (default: the spec file's name "
                    "with .routes.jsonl, in the current folder); the run's journal is "
                    "OUT.part")
    p.add_argument("--jobs", type=int_arg("jobs", 1, 256), default=_cores(),
                   help="worker processes of the local Dask cluster; 1 runs in this process "
                        f"(default every core: {_cores()})")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on the Dask cluster at this scheduler (e.g. tcp://host:8786)")
    p.add_argument("--resume", action="store_true",
                   help="keep the chunks a stopped run finished (OUT.part) and do the rest")
    add_output(p, "--plot", kind="chart (PNG)", type=Path, metavar="FILE.png",
               help="also draw the outcome distribution of the simulated duels")
    add_disc_args(p)


def _route_outputs(args: argparse.Namespace, out: Path) -> None:
    """Check every file a route run writes before any work: ``--out`` and ``--plot`` (not
    an input, a symbolic link, a folder or a device; an existing file only with ``--force``;
    in a folder that exists: a mistyped path is refused, not created) and the journal
    ``OUT.part`` (not a link, a folder or an input; there only with ``--resume``)."""
    from emucore.planning.route_run import journal_path

    inputs, journal = (args.spec, args.disc), journal_path(out)
    for path in (out, args.plot):
        if path is not None:
            check_output(path, inputs, args.force)
    check_output(journal, inputs, force=True)
    if args.plot is not None and any(os.path.realpath(args.plot) == os.path.realpath(p)
                                     for p in (out, journal)):
        raise UsageError(f"--plot {args.plot} is the routes file or its journal; name "
                         "another file")
    if lexists(journal) and not args.resume:
        raise UsageError(f"{journal} holds a stopped run: add --resume to finish it, or "
                         "remove it")


def _route_disc(args: argparse.Namespace) -> route.DiscData | None:
    """The ``--disc`` data every duel of the run plays with (None without ``--disc``): the
    duel_effects tables first (a bad disc is one error line), then the AI programs (with
    ``--embedded-fallback`` a bad one is a warning and the embedded AI)."""
    if not args.disc:
        return None
    from emucore.fm.ai import cli as ai_cli
    from emucore.planning import route

    effects = ai_cli.effects_from_args(args)
    return route.DiscData(effects, ai_cli.programs_from_args(args))


def _route(args: argparse.Namespace) -> int:
    from emucore.planning import route_run, route_spec

    spec = route_spec.load(args.spec, _fm())
    out = args.out or Path(f"{args.spec.stem}.routes.jsonl")
    _route_outputs(args, out)
    if args.plot:
        chart.check_available()
    disc = _route_disc(args)

    def search(found: Callable[[Any], Any]) -> route_run.RunResult:
        return route_run.run(spec, out, found, args.resume, sys.stderr.isatty(), disc,
                             args.force)

    if args.jobs == 1 and not args.scheduler:
        result = search(lambda todo: route_run.serial_chunks(spec, todo, disc))
    else:
        with route_run.dask_client(args.jobs, args.scheduler) as client:
            result = search(lambda todo: route_run.cluster_chunks(client, spec, todo, disc))
    outcomes = result.outcomes().most_common()
    if args.plot and result.finished:
        chart.write_bar_chart(args.plot, [k for k, _ in outcomes], [n for _, n in outcomes],
                              title=f"Duel outcomes: {spec.name}", xlabel="duels",
                              force=args.force)
    kept = result.kept()
    out_json = {"spec": spec.name, "from": spec.start, "count": spec.count,
                "finished": result.finished, "chunks": len(result.parts),
                "chunks_total": result.chunks_total, "resumed_chunks": result.resumed,
                "routes": result.routes, "duels": sum(c.duels for c in result.parts),
                "kept": [{"link": n, "kind": link.kind, "indices": k} for n, (link, k)
                         in enumerate(zip(spec.links, kept, strict=True), 1)],
                "outcomes": dict(outcomes), "seconds": round(result.seconds, 3),
                "indices_per_second": round(result.searched / result.seconds, 2)
                if result.seconds else None,
                "output": str(out) if result.finished else None,
                "journal": None if result.journal is None else str(result.journal),
                "plot": str(args.plot) if args.plot and result.finished else None}
    emit(args, out_json, _route_text)
    return 0 if result.finished else 2  # interrupted: the house's only codes are 0, 1, 2


def _route_text(o: dict[str, Any]) -> str:
    lines = [f"{o['spec']}: {o['routes']} routes from {o['count']:,} start(s) "
             f"({o['chunks']}/{o['chunks_total']} chunks, {o['duels']} duels simulated, "
             f"{o['seconds']} s)"]
    lines += [f"  link {k['link']} ({k['kind']}): {k['indices']:,} starts kept"
              for k in o["kept"]]
    lines.append(f"routes in {o['output']}" if o["finished"]
                 else f"stopped: finished chunks in {o['journal']}" if o["journal"]
                 else "stopped before any chunk finished")
    return "\n".join(lines)
