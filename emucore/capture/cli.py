"""``emucore capture verify FILE`` and ``emucore capture import FILE --out REPLAY``."""

from __future__ import annotations

import argparse

from emucore.capture import report, verify
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
