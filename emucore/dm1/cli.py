"""``emucore dm1 ...``: headless duels, replays, opponents, drops and rewards, deck checks and
stat look-ups."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from emucore import names as name_search
from emucore.cliutil import UsageError, add_json_flag, add_path, emit, int_arg
from emucore.commands import add_command
from emucore.dm1 import ai, decks, progress, rng
from emucore.dm1.decks import DeckError, read_deck_file
from emucore.dm1.duel import Dm1Duel, default_tables
from emucore.dm1.replay import ADAPTER
from emucore.dm1.setup import Dm1Setup
from emucore.duel import deckfile
from emucore.duel import replay as replays
from emucore.duel.protocol import DRAW
from emucore.hw import gameboy
from emucore.replay_cli import Recorder, add_aliases
from emucore.tables.dm1 import OPPONENT_COUNT, POOL_SUM, REWARD_WINS, TERRAINS

OPPONENT = (0, OPPONENT_COUNT - 1)
DEFAULT_PLAYER_POOL = 9  # Yugi's pool deals side 0's deck when no --deck is given


def _opponent_arg(what: str) -> Callable[[str], int]:
    """An argparse ``type=`` for an opponent: a ROM duelist index 0..15 (decimal or 0x-hex),
    or a name as opponents.csv spells it (the full one or the ROM's), any case; an unknown
    name is answered with the closest names."""
    index = int_arg(what, *OPPONENT)

    def convert(text: str) -> int:
        if text.strip().lstrip("-")[:1].isdigit():
            return index(text)
        rows = default_tables().opponents
        named = [(int(r["id"]), str(r[k])) for r in rows for k in ("name", "rom_name")]
        found = name_search.find(text, named)
        if found is None:
            raise argparse.ArgumentTypeError(name_search.unknown(
                "opponent", text, (n for _, n in named), f"an index {OPPONENT[0]}..{OPPONENT[1]} "
                "or a name, see `emucore dm1 opponents`"))
        return found
    convert.__name__ = what
    return convert


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dm1`` command group."""
    group = add_command(sub, "dm1", epilog=deckfile.EPILOG)
    dsub = group.add_subparsers(dest="dm1_command", metavar="ACTION", required=True)

    p = dsub.add_parser("duel", help="play a computer-vs-computer duel and print the result")
    _setup_args(p)
    p.add_argument("--auto", action="store_true",
                   help="the computer plays both sides (the only headless mode)")
    p.add_argument("--log", action="store_true", help="print every event (text output)")
    add_json_flag(p)
    p.set_defaults(func=_duel)

    p = dsub.add_parser("replay", help="record or verify DM1 replays (= emucore replay)")
    add_aliases(p.add_subparsers(dest="replay_command", metavar="ACTION", required=True),
                RECORDER)

    p = dsub.add_parser("opponents", help="the 16 campaign opponents by stage and how far "
                                          "each deck pool is known")
    add_json_flag(p)
    p.set_defaults(func=_opponents)

    p = dsub.add_parser("drop", help="the card a win against an opponent drops, rolled the "
                                     "cartridge's way on a stream seeded with --seed")
    p.add_argument("--opponent", type=_opponent_arg("opponent"), required=True,
                   help="ROM duelist index 0..15 or name")
    p.add_argument("--seed", type=int_arg("seed", 0, 0xFFFFFFFF), required=True,
                   help="RNG state before the roll (decimal or 0x-hex)")
    add_json_flag(p)
    p.set_defaults(func=_drop)

    p = dsub.add_parser("rewards", help="an opponent's rewards at 10, 20 ... 100 wins")
    p.add_argument("--opponent", type=_opponent_arg("opponent"), required=True,
                   help="ROM duelist index 0..15 or name")
    add_json_flag(p)
    p.set_defaults(func=_rewards)

    p = dsub.add_parser("deck", help="check a deck file (exactly 40 cards, all known)",
                        epilog=deckfile.EPILOG)
    add_path(p, "file", role="input", kind="dm1 deck", help=deckfile.HELP)
    add_json_flag(p)
    p.set_defaults(func=_deck)

    p = dsub.add_parser("stat", help="a monster's ATK/DEF on a terrain at a level")
    p.add_argument("card", help="card number or name")
    p.add_argument("--terrain", type=int_arg("terrain", 0, TERRAINS - 1), default=0,
                   help="0 none, 1 Forest, 2 Wasteland, 3 Mountain, 4 Sogen, 5 Umi, 6 Yami")
    p.add_argument("--level", type=int_arg("level", gameboy.LEVEL_MIN, gameboy.LEVEL_MAX),
                   default=0)
    add_json_flag(p)
    p.set_defaults(func=_stat)


def _setup_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--opponent", type=_opponent_arg("opponent"), default=0,
                   help="ROM duelist index 0..15 or name (see `emucore dm1 opponents`)")
    p.add_argument("--seed", type=int_arg("seed", 0, 0xFFFFFFFF), default=0,
                   help="RNG seed (decimal or 0x-hex)")
    add_path(p, "--deck", role="input", kind="dm1 deck",
             help=f"side 0's deck: {deckfile.HELP}; 40 cards; default: dealt from --as")
    p.add_argument("--as", dest="player_pool", type=_opponent_arg("pool"),
                   default=DEFAULT_PLAYER_POOL,
                   help="opponent whose pool deals side 0's deck when no --deck (default 9)")


RECORDER = Recorder("dm1", _setup_args, lambda a: _replay(a), lambda a: [a.deck])


def _setup(args: argparse.Namespace) -> Dm1Setup:
    if args.deck:
        return Dm1Setup(args.seed, args.opponent,
                        deck=tuple(read_deck_file(args.deck, default_tables())))
    return Dm1Setup(args.seed, args.opponent, player_pool=args.player_pool)


def _new_duel(setup: Dm1Setup) -> Dm1Duel:
    try:
        return setup.new_duel()
    except (ValueError, DeckError) as exc:
        raise UsageError(str(exc)) from None


def _duel(args: argparse.Namespace) -> int:
    setup = _setup(args)
    duel = _new_duel(setup)
    log = [e.to_json() for e in duel.opening_events]
    steps = 0
    while not duel.over:
        action = ai.choose_action(duel)
        log.append({"side": duel.acting_side, "action": action.to_json()})  # type: ignore
        log += [e.to_json() for e in duel.step(action)]  # type: ignore[arg-type]
        steps += 1
    out = _result(duel, setup, steps)
    out["log"] = log
    emit(args, out, lambda o: _result_text(o, args.log))
    return 0


def _result(duel: Dm1Duel, setup: Dm1Setup, steps: int) -> dict[str, Any]:
    names = default_tables()
    return {"system": "dm1", "seed": setup.seed, "opponent": setup.opponent,
            "opponent_name": names.opponent(setup.opponent)["name"],
            "winner": duel.winner, "reason": duel.end_reason,
            "lp": [duel.lp(0), duel.lp(1)], "turns": duel.v.turn[0], "steps": steps,
            "rng_calls": duel.v.rng_calls[0], "digest": duel.digest()}


def _result_text(o: dict[str, Any], with_log: bool) -> str:
    who = {0: "side 0 wins", 1: f"{o['opponent_name']} (side 1) wins",
           DRAW: "draw"}[o["winner"]]
    lines = [f"dm1 duel vs {o['opponent_name']} seed {o['seed']}: {who} by {o['reason']} "
             f"after {o['turns']} turns; LP {o['lp'][0]} / {o['lp'][1]}; digest {o['digest']}"]
    if with_log:
        lines += [" ".join(f"{k}={v}" for k, v in e.items()) for e in o["log"]]
    return "\n".join(lines)


def _replay(args: argparse.Namespace) -> replays.Replay:
    """A computer-vs-computer duel recorded as a replay."""
    setup = _setup(args)
    _new_duel(setup)  # report a bad setup in one line before playing
    return replays.record(ADAPTER, setup.to_json(), ai.choose_action)  # type: ignore


def _opponents(args: argparse.Namespace) -> int:
    """The 16 campaign opponents by stage (then ROM index, the number ``--opponent``
    takes), each with how far its deck pool is known."""
    rows = sorted(default_tables().opponents, key=lambda r: (r["stage"], r["id"]))
    emit(args, rows, lambda rs: "\n".join(
        f"stage {r['stage']}  --opponent {r['id']:<2}  {r['name']:<20}  deck pool {r['pool']}"
        for r in rs))
    return 0


def _drop(args: argparse.Namespace) -> int:
    t = default_tables()
    weights = t.drops[args.opponent]
    value = decks.roll(rng.Stream(args.seed))
    card = decks.card_at(weights, value)
    out = {"opponent": args.opponent, "opponent_name": t.opponent(args.opponent)["name"],
           "seed": args.seed, "roll": value, "card": card, "name": t.names[card],
           "weight": int(weights[card]), "chance": int(weights[card]) / POOL_SUM}
    emit(args, out, lambda o: f"{o['opponent_name']} drops #{o['card']} {o['name']} (roll "
                              f"{o['roll']} of 0..2047; weight {o['weight']}/2048)")
    return 0


def _rewards(args: argparse.Namespace) -> int:
    t = default_tables()
    rows = [{"wins": w, "card": c, "name": t.names[c]}
            for w in REWARD_WINS if (c := progress.reward(t, args.opponent, w)) is not None]
    out = {"opponent": args.opponent, "opponent_name": t.opponent(args.opponent)["name"],
           "rewards": rows}
    emit(args, out, lambda o: "\n".join([f"{o['opponent_name']}: rewards by wins"] + [
        f"{r['wins']:>4}  #{r['card']:<3} {r['name']}" for r in o["rewards"]]))
    return 0


def _deck(args: argparse.Namespace) -> int:
    data = default_tables()
    cards = read_deck_file(Path(args.file), data)
    out = {"file": args.file, "cards": len(cards),
           "monsters": sum(1 for c in cards if data.is_monster(c)),
           "magic": sum(1 for c in cards if not data.is_monster(c))}
    emit(args, out, lambda o: f"{o['file']}: {o['cards']} cards ({o['monsters']} monsters, "
                              f"{o['magic']} magic) ok")
    return 0


def _stat(args: argparse.Namespace) -> int:
    data = default_tables()
    try:
        card = name_search.card(data, args.card)
    except KeyError as exc:
        raise UsageError(f"dm1: {exc.args[0]}") from None
    if not data.is_monster(card):
        raise UsageError(f"dm1: #{card} {data.names[card]} is a magic card (no ATK/DEF)")
    stored = data.stat[args.terrain, card]
    out = {"id": card, "name": data.names[card], "terrain": args.terrain, "level": args.level,
           "rounding": gameboy.ROUNDING}
    for i, key in enumerate(("atk", "def")):
        raw = int(gameboy.scaled_stat_raw(int(stored[i]), args.level, 0))
        out[key] = int(gameboy.truncate_display(raw))
        out[f"{key}_before_truncation"] = raw
    emit(args, out, lambda o: f"#{o['id']} {o['name']} terrain {o['terrain']} level "
                              f"{o['level']}: ATK {o['atk']} DEF {o['def']}"
                              + (" (9999 glitch)" if max(o['atk_before_truncation'],
                                                         o['def_before_truncation']) > 9999
                                 else ""))
    return 0
