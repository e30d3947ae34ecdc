"""Core sub-commands: ``tables check``, ``card``, ``fusion`` and ``rng``."""

from __future__ import annotations

import argparse

from emucore import SYSTEMS, names, tables
from emucore.cliutil import U32, UsageError, add_json_flag, emit, int_arg
from emucore.commands import add_command
from emucore.hw import psyq_lcg  # plain ints: the rng commands import no numpy

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    """Add the core commands."""
    p = add_command(sub, "tables")
    tsub = p.add_subparsers(dest="tables_command", metavar="ACTION", required=True)
    check = tsub.add_parser("check", help="validate every system's tables and count rows")
    add_json_flag(check)
    check.set_defaults(func=_tables_check)

    p = add_command(sub, "card")
    p.add_argument("system", choices=SYSTEMS)
    p.add_argument("card", help="card id or name")
    add_json_flag(p)
    p.set_defaults(func=_card)

    p = add_command(sub, "fusion")
    p.add_argument("system", choices=SYSTEMS)
    p.add_argument("a", help="card id or name")
    p.add_argument("b", help="card id or name")
    add_json_flag(p)
    p.set_defaults(func=_fusion)

    p = add_command(sub, "rng")
    p.add_argument("--seed", type=int_arg("seed", *U32), default=psyq_lcg.BOOT_STATE,
                   help="state to start from (decimal or 0x-hex; default the boot state "
                        "0x55555555)")
    p.add_argument("--count", type=int_arg("count", 0, 1_000_000), default=10)
    add_json_flag(p)
    p.set_defaults(func=_rng_next)
    rsub = p.add_subparsers(dest="rng_command", metavar="ACTION")
    q = rsub.add_parser("next", help="the next K rand() results and states")
    q.add_argument("--state", type=int_arg("state", *U32), default=psyq_lcg.BOOT_STATE)
    q.add_argument("--count", type=int_arg("count", 0, 1_000_000), default=10)
    add_json_flag(q)
    q.set_defaults(func=_rng_next)
    q = rsub.add_parser("at", help="the state after N calls from the boot state")
    q.add_argument("index", type=int_arg("index", *U32))
    add_json_flag(q)
    q.set_defaults(func=_rng_at)
    q = rsub.add_parser("index", help="which index (calls since boot) gives this state")
    q.add_argument("state", type=int_arg("state", *U32))
    add_json_flag(q)
    q.set_defaults(func=_rng_index)


def _tables_check(args: argparse.Namespace) -> int:
    counts = tables.check_all()
    emit(args, counts, lambda c: "\n".join(
        f"{system}: " + ", ".join(f"{name} {n}" for name, n in per.items()) + "  ok"
        for system, per in c.items()))
    return 0


def _resolve(data: Any, system: str, token: str) -> int:
    """A card of ``system`` by id or name; an unknown name offers the closest names."""
    try:
        return names.card(data, token)
    except KeyError as exc:
        raise UsageError(f"{system}: {exc.args[0]}") from None


def _card_text(info: dict[str, Any]) -> str:
    return "\n".join(f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
                     for k, v in info.items())


def _card(args: argparse.Namespace) -> int:
    data = tables.lookup(args.system)
    info = data.card_info(_resolve(data, args.system, args.card))
    emit(args, info, _card_text)
    return 0


def _fusion(args: argparse.Namespace) -> int:
    data = tables.lookup(args.system)
    a, b = (_resolve(data, args.system, t) for t in (args.a, args.b))
    result = data.fusion_result(a, b)
    out = {"system": args.system, "a": a, "a_name": data.card_info(a)["name"], "b": b,
           "b_name": data.card_info(b)["name"], "result": result,
           "result_name": data.card_info(result)["name"] if result else None}
    emit(args, out, lambda o: f"{o['a_name']} + {o['b_name']} -> "
         + (f"{o['result_name']} (#{o['result']})" if o["result"] else "no fusion"))
    return 0


def _twin(state: int) -> int:
    """The state that differs only in bit 31: it yields the same outputs forever."""
    return state ^ 0x80000000


def _rng_next(args: argparse.Namespace) -> int:
    state = args.state if getattr(args, "rng_command", None) else args.seed
    rng = psyq_lcg.Rand(state)
    rows = []
    for _ in range(args.count):
        value = rng.rand()
        rows.append({"call": rng.calls, "value": value, "state": f"0x{rng.state:08X}"})
    emit(args, {"start": f"0x{state:08X}", "calls": rows},
         lambda d: "\n".join(f"{r['call']:>7}  {r['value']:>5}  {r['state']}"
                             for r in d["calls"]))
    return 0


def _rng_at(args: argparse.Namespace) -> int:
    emit(args, rng_at_answer(args),
         lambda o: f"index {o['index']}: state {o['state']} (twin {o['twin']})")
    return 0


def rng_at_answer(args: argparse.Namespace) -> dict[str, Any]:
    """``rng at``'s answer (its ``--json`` object; ``emucore batch`` asks for it directly)."""
    state = psyq_lcg.jump_int(psyq_lcg.BOOT_STATE, args.index)
    return {"index": args.index, "state": f"0x{state:08X}", "twin": f"0x{_twin(state):08X}"}


def _rng_index(args: argparse.Namespace) -> int:
    emit(args, rng_index_answer(args), lambda o: f"state {o['state']}: index {o['index']}\n"
         f"twin {o['twin']} (plays identically): index {o['twin_index']}")
    return 0


def rng_index_answer(args: argparse.Namespace) -> dict[str, Any]:
    """``rng index``'s answer (its ``--json`` object)."""
    index = psyq_lcg.index_of(args.state)
    twin = psyq_lcg.index_of(_twin(args.state))
    return {"state": f"0x{args.state:08X}", "index": index,
            "twin": f"0x{_twin(args.state):08X}", "twin_index": twin}
