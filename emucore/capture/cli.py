"""``emucore capture verify FILE``, ``emucore capture import FILE --out REPLAY`` and
``emucore capture record SYSTEM --core CORE --content GAME --pad PADLOG --out CAPTURE``."""

from __future__ import annotations

import argparse
from pathlib import Path

from emucore.capture import rammap, report, verify
from emucore.cliutil import UsageError, add_json_flag, add_output, add_path, emit
from emucore.commands import add_command
from emucore.duel.files import check_output


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``capture`` command group."""
    cap = add_command(sub, "capture")
    csub = cap.add_subparsers(dest="capture_command", metavar="ACTION", required=True)

    p = csub.add_parser("verify", help="replay a capture step by step: exit 0 when emucore "
                                       "agrees, 1 at the first difference")
    add_path(p, "file", role="input", kind="capture file",
             help="capture file written by a tools/capture script")
    add_output(p, "--report", metavar="FILE.html", help="write a step-by-step HTML page",
               kind="HTML report")
    p.add_argument("--no-approved", action="store_true",
                   help="compare the approved known divergences too")
    p.add_argument("--ai", action="store_true",
                   help="also require the CPU's steps to be what emucore's computer "
                        "opponent chooses (embedded AI)")
    add_json_flag(p)
    p.set_defaults(func=_verify)

    p = csub.add_parser("import", help="turn a verified capture into an emucore replay")
    add_path(p, "file", role="input", kind="capture file", help="capture file")
    add_output(p, required=True, metavar="REPLAY", help="replay file to write", kind="replay")
    add_json_flag(p)
    p.set_defaults(func=_import)

    p = csub.add_parser("record", help="play a pad log on a real emulator (a libretro core "
                                       "or PyBoy) and write its capture")
    p.add_argument("system", choices=sorted(rammap.MAPS), help="the game to record")
    p.add_argument("--core", required=True, metavar="CORE",
                   help="a libretro core's .so, a known core (gambatte, mgba, beetle-psx, "
                        "mednafen_psx) from the usual libretro folders or "
                        "$EMUCORE_LIBRETRO_PATH, or pyboy (dm1)")
    add_path(p, "--content", role="input", kind="cartridge ROM or disc .cue", type=Path,
             required=True, metavar="GAME",
             help="your own cartridge dump (.gb) or disc (.cue with its .bin)")
    add_path(p, "--bios", role="input", kind="PlayStation BIOS", type=Path, metavar="FILE",
             help="your console's BIOS, scph5501.bin (fm with beetle-psx)")
    source = p.add_mutually_exclusive_group(required=True)
    add_path(source, "--pad", role="input", kind="pad log", type=Path, metavar="PADLOG",
             help="pad log to play (as emucore play --record writes it)")
    add_path(source, "--from-replay", role="input", kind="replay", type=Path,
             metavar="REPLAY", help="an emucore FM replay to play from power-on: the presses "
                                    "of its choices in the original's screens (fm)")
    add_path(p, "--memory-card", role="input", kind="memory card image", type=Path,
             metavar="CARD", help="your memory card (.mcr/.srm) in slot 1 (fm); --from-replay "
                                  "Continues its save, which must hold the replay's deck")
    add_output(p, "--pad-out", metavar="PADLOG", kind="pad log", type=Path,
               help="with --from-replay: write the pad log played (it plays the same run "
                    "again with --pad)")
    add_output(p, required=True, metavar="CAPTURE", help="capture file to write",
               kind="capture file", type=Path)
    add_json_flag(p)
    p.set_defaults(func=_record)

    p = csub.add_parser("plan", help="print the presses that play an FM replay on the "
                                     "original from power-on (what record --from-replay does)")
    add_path(p, "file", role="input", kind="replay", type=Path, help="emucore FM replay")
    add_json_flag(p)
    p.set_defaults(func=_plan)


def _verify(args: argparse.Namespace) -> int:
    if args.report:
        check_output(args.report, [args.file], args.force)
    capture, verdict = verify.verify_file(args.file, approved=not args.no_approved,
                                          ai=args.ai)
    if args.report:
        report.write(args.report, capture, verdict, args.force)
    emit(args, verify.to_json(capture, verdict), lambda _: verify.describe(capture, verdict))
    return 0 if verdict.mismatch is None else 1


def _import(args: argparse.Namespace) -> int:
    check_output(args.out, [args.file], args.force)
    replay = verify.import_capture(args.file, args.out, args.force)
    emit(args, {"replay": args.out, "steps": len(replay.steps), "setup": replay.setup},
         lambda d: f"wrote {d['replay']}: {d['steps']} steps "
                   f"(check with: emucore fm replay verify {d['replay']})")
    return 0


def _record(args: argparse.Namespace) -> int:
    from emucore.capture import record  # the pad-log parser and the progress line

    ram = rammap.ram_map(args.system)
    inputs = [args.content, args.bios, args.pad, args.from_replay, args.memory_card]
    check_output(args.out, inputs, args.force)
    if args.from_replay is None and args.pad_out:
        raise UsageError("--pad-out writes the pad log a --from-replay run played")
    if args.pad_out is not None:
        if args.pad_out == args.out:
            raise UsageError("--pad-out and --out name the same file")
        check_output(args.pad_out, [*inputs, args.out], args.force)
    if args.from_replay is not None:
        if args.system != "fm":
            raise UsageError("--from-replay plays an FM replay: the system is fm")
        from emucore.capture import from_replay

        items = from_replay.plan_of(args.from_replay)
        if args.memory_card is None:
            raise UsageError("--from-replay starts at the title with Continue: give the "
                             "memory card holding the save (--memory-card CARD)")
        outcome = record.record_plan(ram, args.core, args.content, items, args.out,
                                     record.read_memory_card(args.memory_card), args.bios,
                                     args.force, pad_out=args.pad_out)
    else:
        card = record.read_memory_card(args.memory_card) if args.memory_card else None
        outcome = record.record(ram, args.core, args.content, args.pad, args.out, args.bios,
                                args.force, card=card)
    data = {"capture": str(args.out), "system": args.system, "emulator": outcome.emulator,
            "media": outcome.media, "frames": outcome.frames, "planned": outcome.planned,
            "records": outcome.records, "partial": outcome.partial,
            "reason": outcome.reason}
    if args.pad_out is not None:
        data["pad_log"] = str(args.pad_out)
    emit(args, data, _recorded)
    return (1 if outcome.reason and not outcome.reason.startswith("interrupted") else 2) \
        if outcome.partial else 0


def _plan(args: argparse.Namespace) -> int:
    from emucore.capture import from_replay
    from emucore.fm import padplan

    items = from_replay.plan_of(args.file)
    lines = [padplan.describe(item) for item in items]
    emit(args, {"replay": str(args.file), "items": len(items), "plan": lines},
         lambda d: "\n".join(f"{n:4}. {line}" for n, line in enumerate(d["plan"], 1)))
    return 0


def _recorded(d: dict) -> str:
    """The summary line of a recording."""
    if d["partial"] and not d["reason"].startswith("interrupted"):
        return (f"{d['reason']}: kept {d['records']} records of frames 1..{d['frames']} in "
                f"{d['capture']}, marked partial; check it with: emucore capture verify "
                f"{d['capture']}")
    if d["partial"]:
        return (f"interrupted: kept {d['records']} records of frames 1..{d['frames']} (of "
                f"{d['planned']}) in {d['capture']}, marked partial")
    return (f"wrote {d['capture']}: {d['records']} records over {d['frames']} frames "
            f"({d['emulator']}); check it with: emucore capture verify {d['capture']}")
