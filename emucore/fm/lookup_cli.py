"""``emucore fm``: the group, and its look-ups that need no duel engine: deal, starter, drop,
rank.

``fm duel`` and ``fm replay`` (emucore/fm/cli.py) and ``fm sim`` / ``fm ai``
(emucore/fm/ai/cli.py) join the group from their own modules, imported only when named
(:mod:`emucore.commands`), so a look-up starts without importing the engine or the AI. Nor
does building this group import numpy: ``fm drop`` reads the two tables it answers from
as lists (:func:`emucore.tables.fm_lookup.drop_pool`) and rolls on plain ints; ``deal``,
``starter`` and ``rank`` import what they need when they run.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable

from emucore import tables as T
from emucore.cliutil import (
    MAX_STATES,
    add_json_flag,
    add_output,
    add_path,
    add_rng_start,
    emit,
    int_arg,
    read_states,
    rng_start,
)
from emucore.commands import add_command
from emucore.duel import deckfile
from emucore.duel.files import write_output
from emucore.fm import rank
from emucore.hw.psyq_lcg import Rand, next_state
from emucore.tables.fm_lookup import DUELIST_COUNT, POOLS, SORT_ORDERS, drop_pool

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from emucore.fm.deck import Deal
    from emucore.fm.state import Shuffle
    from emucore.tables.fm import FmTables



def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``fm`` command group and its look-ups."""
    fm = add_command(sub, "fm", epilog=deckfile.EPILOG)
    fsub = fm.add_subparsers(dest="fm_command", metavar="ACTION", required=True)
    _command(fsub, "deal", "both decks as a duel starts (Duel_ShuffleBothDecks)", _deal,
             _deal_args)
    _command(fsub, "starter", "a new game's 40-card starter deck", _starter, _state_args,
             lambda q: add_output(q, help="also write it as a deck file", kind="fm deck"))
    _command(fsub, "drop", "the card a win gives (Duel_SelectCardDrop)", _drop, _drop_args)
    _command(fsub, "rank", "score, rank, starchips and drop pool from the counters", _rank,
             _rank_args)


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
    add_path(add_rng_start(p), "--states", role="input", kind="RNG states", metavar="FILE",
             help=f"many RNG states, one per line (decimal or 0x-hex; # comments; at most "
                  f"{MAX_STATES}), '-' for stdin: one answer line per state, in order")


def _rank_args(p: argparse.ArgumentParser) -> None:
    for name in ("turns", "effective-attacks", "defensive-wins", "face-down", "pure-magic",
                 "traps", "fusions", "equips", "cards-drawn"):
        p.add_argument(f"--{name}", type=int_arg(name, 0, 255), required=True)
    p.add_argument("--lp", type=int_arg("lp", -32768, 65535), required=True)
    p.add_argument("--end", choices=tuple(rank.END_ADJUSTMENT), required=True)


def _state_args(p: argparse.ArgumentParser, required: bool = True
                ) -> argparse._MutuallyExclusiveGroup:
    return add_rng_start(p, required=required)


def duel_source(p: argparse.ArgumentParser, required: bool = True
                ) -> argparse._MutuallyExclusiveGroup:
    """A duel's duelist, deck, sort and start state; returns the start state's group."""
    p.add_argument("--duelist", type=int_arg("duelist", 1, DUELIST_COUNT), required=required)
    add_path(p, "--deck", role="input", kind="fm deck", required=required,
             help=f"the player's deck: {deckfile.HELP}; 40 cards, at most 3 copies")
    p.add_argument("--sort", choices=SORT_ORDERS, default="none" if not required else None,
                   required=required, help="the last Build Deck sort")
    return _state_args(p, required)


def _deal_args(p: argparse.ArgumentParser) -> None:
    """``fm deal``: the duel's source, its start state or ``--states``."""
    add_path(duel_source(p), "--states", role="input", kind="RNG states", metavar="FILE",
             help=f"many start states, one per line (decimal or 0x-hex; # comments; at most "
                  f"{MAX_STATES}), '-' for stdin: one line per state, in order, each the "
                  "one-state deal (with --json its object plus the input line number)")


DEALS_AT_ONCE = 4096  # states dealt per deck.deal_many call by `fm deal --states`


def _deal(args: argparse.Namespace) -> int:
    from emucore.fm import deck
    from emucore.fm.setup import read_deck  # imports the engine: only when dealing

    tables = T.load("fm")
    sorted_deck = deck.sort_deck(read_deck(args.deck, tables), args.sort, tables)
    if args.states is not None:
        return _deals(args, sorted_deck, tables)
    emit(args, deal_answer(args, sorted_deck, tables), lambda d: "\n".join([
        f"player before: {_ids(d['player_before'])}", f"player after:  {_ids(d['player_after'])}",
        f"cpu generated: {_ids(d['cpu_generated'])}", f"cpu after:     {_ids(d['cpu_after'])}",
        f"rand() calls {d['rand_calls']}, state {d['state_before']} -> {d['state_after']}"]))
    return 0


def deal_answer(args: argparse.Namespace, sorted_deck: list[int],
                tables: FmTables) -> dict[str, object]:
    """``fm deal``'s answer (its ``--json`` object) for the player's deck as sorted
    (``emucore batch`` keeps each deck file's sorted deck and asks for it directly)."""
    from emucore.fm import deck

    dealt = deck.deal(Rand(rng_start(args)), sorted_deck, args.duelist, tables)
    return _deal_data(args, sorted_deck, dealt)


def _deal_data(args: argparse.Namespace, sorted_deck: list[int], dealt: Deal
               ) -> dict[str, object]:
    """What ``fm deal`` answers for one deal."""
    return {
        "duelist": args.duelist, "sort": args.sort,
        "player_before": sorted_deck, "player_after": list(dealt.player.cards),
        "player_perm": list(dealt.player.perm),
        "cpu_generated": _unshuffle(dealt.cpu), "cpu_after": list(dealt.cpu.cards),
        "cpu_perm": list(dealt.cpu.perm),
        "state_before": f"0x{dealt.state_before:08X}", "rand_calls": dealt.calls,
        "state_after": f"0x{dealt.state_after:08X}",
    }


def _deals(args: argparse.Namespace, sorted_deck: list[int], tables: FmTables) -> int:
    """``fm deal --states FILE``: :func:`emucore.fm.deck.deal_many` over the listed states,
    :data:`DEALS_AT_ONCE` at a time, one line per state: with ``--json`` the one-state JSON
    object plus the input ``line``, else ``STATE player CARDS cpu CARDS calls N -> AFTER``."""
    import json

    import numpy as np

    from emucore.fm import deck

    lines, given = read_states(args.states)
    for at in range(0, len(given), DEALS_AT_ONCE):
        block = np.array(given[at : at + DEALS_AT_ONCE], dtype=np.uint32)
        batch = deck.deal_many(block, sorted_deck, args.duelist, tables)
        out = []
        for lane, line in enumerate(lines[at : at + DEALS_AT_ONCE]):
            data = _deal_data(args, sorted_deck, batch.deal(lane))
            out.append(json.dumps({"line": line, **data}) if args.json else
                       f"{data['state_before']} player {_ids(data['player_after'])} cpu "
                       f"{_ids(data['cpu_after'])} calls {data['rand_calls']} -> "
                       f"{data['state_after']}")
        sys.stdout.write("\n".join(out) + "\n")
    return 0


def _unshuffle(shuffled: Shuffle) -> list[int]:
    """The deck before the swap stage: the permutation byte is each card's old position."""
    before = [0] * len(shuffled.cards)
    for card, pos in zip(shuffled.cards, shuffled.perm, strict=True):
        before[pos] = card
    return before


def _ids(cards: list[int]) -> str:
    return " ".join(str(c) for c in cards)


def _starter(args: argparse.Namespace) -> int:
    from emucore.fm import deck

    tables = T.load("fm")
    rng = Rand(rng_start(args))
    cards = deck.starter_deck(rng, tables)
    data = {"deck": cards, "names": [tables.names[c] for c in cards],
            "rand_calls": rng.calls, "state_after": f"0x{rng.state:08X}"}
    if args.out:
        text = f"# starter deck at state 0x{rng_start(args):08X}\n" + "".join(
            f"{c}  # {tables.names[c]}\n" for c in cards)
        write_output(args.out, text, force=args.force)
    emit(args, data, lambda d: "\n".join(
        [f"{i + 1:2d}. {c:3d} {n}" for i, (c, n) in enumerate(zip(d["deck"], d["names"],
                                                                   strict=True))]
        + [f"rand() calls {d['rand_calls']}, state after {d['state_after']}"]))
    return 0


def _drop(args: argparse.Namespace) -> int:
    if args.states is not None:
        return _drops(args)
    emit(args, drop_answer(args), lambda d: f"{d['card']} {d['name']}")
    return 0


def drop_answer(args: argparse.Namespace) -> dict[str, object]:
    """``fm drop``'s answer for one state (its ``--json`` object; ``emucore batch`` asks
    for it directly)."""
    names, table = drop_roll(os.environ.get("EMUCORE_TABLES"), args.duelist, args.pool)
    start = rng_start(args)
    card = rank.drops_from((start,), table)[0]
    return {"card": card, "name": names[card], "state_after": f"0x{next_state(start):08X}"}


@functools.cache
def drop_roll(root: str | None, duelist: int, pool: str) -> tuple[list[str], list[int]]:
    """The card names and ``pool``'s :func:`emucore.fm.rank.drop_table` of ``duelist``, from
    the FM tables under ``root`` (``EMUCORE_TABLES``; None or empty: the built-in ones), made
    once per process and pool."""
    tables = drop_pool(T.folder("fm", root or None), duelist, pool)
    return tables.names, rank.drop_table(tables.weights)


def _drops(args: argparse.Namespace) -> int:
    """``fm drop --states FILE``: the roll from every listed state
    (:func:`emucore.fm.rank.drops_from`, checked equal to the one-state roll), one line per
    state: ``STATE CARD NAME``, or with ``--json`` the one-state JSON object plus the input
    ``line`` and the ``state``."""
    lines, states = read_states(args.states)
    names, table = drop_roll(os.environ.get("EMUCORE_TABLES"), args.duelist, args.pool)
    cards = rank.drops_from(states, table)
    if args.json:  # written by hand: json.dumps per line would be most of the run time
        import json

        quoted = {card: json.dumps(names[card]) for card in set(cards)}
        text = "".join(f'{{"line": {line}, "state": "0x{state:08X}", "card": {card}, '
                       f'"name": {quoted[card]}, "state_after": "0x{next_state(state):08X}"}}\n'
                       for line, state, card in zip(lines, states, cards, strict=True))
    else:  # each card's " CARD NAME" once, not once a line
        tail = {card: f" {card} {names[card]}\n" for card in set(cards)}
        text = "".join([f"0x{state:08X}{tail[card]}"
                        for state, card in zip(states, cards, strict=True)])
    sys.stdout.write(text)
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
