"""``emucore capture verify FILE``, ``emucore capture import FILE --out REPLAY`` and
``emucore capture record SYSTEM --core CORE --content GAME --pad PADLOG --out CAPTURE``."""

from __future__ import annotations

import argparse
from pathlib import Path

from emucore.capture import rammap, report, verify
from emucore.cliutil import add_json_flag, add_output, add_path, emit
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
    add_path(p, "--pad", role="input", kind="pad log", type=Path, required=True,
             metavar="PADLOG", help="pad log to play (as emucore play --record writes it)")
    add_output(p, required=True, metavar="CAPTURE", help="capture file to write",
               kind="capture file", type=Path)
    add_json_flag(p)
    p.set_defaults(func=_record)


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

    check_output(args.out, [args.content, args.bios, args.pad], args.force)
    outcome = record.record(rammap.ram_map(args.system), args.core, args.content, args.pad,
                            args.out, args.bios, args.force)
    data = {"capture": str(args.out), "system": args.system, "emulator": outcome.emulator,
            "media": outcome.media, "frames": outcome.frames, "planned": outcome.planned,
            "records": outcome.records, "partial": outcome.partial}
    emit(args, data, _recorded)
    return 2 if outcome.partial else 0


def _recorded(d: dict) -> str:
    """The summary line of a recording."""
    if d["partial"]:
        return (f"interrupted: kept {d['records']} records of frames 1..{d['frames']} (of "
                f"{d['planned']}) in {d['capture']}, marked partial")
    return (f"wrote {d['capture']}: {d['records']} records over {d['frames']} frames "
            f"({d['emulator']}); check it with: emucore capture verify {d['capture']}")
