"""``emucore ocg1999 ...``: duels, replays and matches under the 1999 Official Rules."""

from __future__ import annotations

import argparse
from typing import Any

from emucore.cliutil import UsageError, add_json_flag, emit, int_arg
from emucore.duel.protocol import IllegalAction
from emucore.ocg1999.match import Match, chip_value, computer_make_up, computer_swaps
from emucore.ocg1999.replay import ADAPTER
from emucore.ocg1999.system import SYSTEM
from emucore.paper import ai
from emucore.paper.cli import MAX_STEPS, deck_options, recorder, register_system, winner_text

RECORDER = recorder(ADAPTER, ante=True)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``ocg1999`` command group."""
    gsub = register_system(sub, ADAPTER, ante=True)
    p = gsub.add_parser("match", help="a best-of-three match between two computer players")
    p.add_argument("--seed", type=int_arg("seed", 0, 0xFFFFFFFF), default=0)
    deck_options(p, SYSTEM, ", with a [side] section")
    for side in (0, 1):
        p.add_argument(f"--wager{side}", default="",
                       help="star chips wagered, e.g. gold,silver,bronze (10, 5, 1)")
    p.add_argument("--ante", action="store_true", help="each duel's top cards are the bet")
    add_json_flag(p)
    p.set_defaults(func=_match)


def _match(args: argparse.Namespace) -> int:
    try:
        decks = [SYSTEM.deck(args.deck0), SYSTEM.deck(args.deck1)]
        wagers = (chip_value(args.wager0), chip_value(args.wager1))
    except (ValueError, KeyError) as exc:
        raise UsageError(str(exc.args[0] if isinstance(exc, KeyError) else exc)) from None
    match = Match(SYSTEM, decks, args.seed, args.ante, wagers)
    duels: list[dict[str, Any]] = []
    while not match.over:
        swaps = [computer_swaps(match, side) for side in (0, 1)]
        for side, pairs in enumerate(swaps):
            for out_card, in_card in pairs:
                match.swap(side, out_card, in_card)
        made_up = [computer_make_up(match, side) for side in (0, 1)]
        for side, cards in enumerate(made_up):
            for card in cards:
                match.make_up(side, card)
        duel = match.next_duel()
        for _ in range(MAX_STEPS):
            if duel.over:
                break
            duel.step(ai.choose(duel))
        if not duel.over:
            raise IllegalAction("duel-too-long", f"duel {len(duels) + 1} did not end")
        match.finish()
        duels.append({"winner": duel.winner, "reason": duel.end_reason,
                      "turns": duel.state.turn, "lp": [s.lp for s in duel.state.sides],
                      "ante": [list(s.ante) for s in duel.state.sides],
                      "swaps_before": [[list(p) for p in pairs] for pairs in swaps],
                      "made_up_before": made_up})
    out = {"winner": match.winner, "duels": duels, "chips": list(match.chips()),
           "ante_won": match.won}
    emit(args, out, _text)
    return 0


def _text(out: dict[str, Any]) -> str:
    name = SYSTEM.catalogue.name
    lines = []
    for number, d in enumerate(out["duels"], start=1):
        swaps = "; ".join(f"player {s + 1}: {name(a)} -> {name(b)}"
                          for s, pairs in enumerate(d["swaps_before"]) for a, b in pairs)
        if swaps:
            lines.append(f"side deck: {swaps}")
        made_up = "; ".join(f"player {s + 1}: {name(c)} in" for s, cards in
                            enumerate(d["made_up_before"]) for c in cards)
        if made_up:
            lines.append(f"deck made up: {made_up}")
        lines.append(f"duel {number}: {winner_text(d['winner'])} ({d['reason']}) after "
                     f"{d['turns']} turns, LP {d['lp'][0]} / {d['lp'][1]}")
    lines.append(f"match: {winner_text(out['winner'])}; star chips {out['chips'][0]:+d} / "
                 f"{out['chips'][1]:+d}")
    for side, cards in enumerate(out["ante_won"]):
        if cards:
            lines.append(f"player {side + 1} takes " + ", ".join(name(c) for c in cards))
    return "\n".join(lines)
