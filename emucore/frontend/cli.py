"""``emucore play`` and ``emucore screenshot``.

pygame is imported only when one of these commands runs, so the rest of the CLI starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from emucore import SYSTEMS
from emucore.cliutil import UsageError, add_json_flag, add_output, add_path, emit, int_arg
from emucore.commands import add_command
from emucore.duel.files import check_output, lexists, write_atomic
from emucore.frontend import recording


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``play`` and ``screenshot`` to the ``emucore`` command."""
    play = add_command(
        subparsers, "play",
        description="Play a system with a gamepad or the keyboard. --headless runs the same "
                    "app without a window from a scripted pad log (frame -> pad state).")
    _common(play)
    play.add_argument("--fullscreen", action="store_true", help="start in fullscreen (F11)")
    play.add_argument("--mute", action="store_true", help="start with sound off (F9)")
    play.add_argument("--headless", action="store_true",
                      help="no window (SDL dummy driver), run --script unpaced and exit")
    add_output(play, "--record", metavar="FILE", kind="pad recording",
               help="write the session's pad log to FILE on exit (replay it with "
                    "--headless --script FILE)")
    add_path(play, "--disc", role="input", kind="fm disc image", metavar="IMAGE",
             help="fm: your own disc image; its executable gives the campaign duels' "
                  "terrains (a recording replays with the same --disc)")
    play.add_argument("--write-bindings", action="store_true",
                      help="write the default bindings to the config folder for editing "
                           "(never overwrites an existing file) and exit")
    play.set_defaults(func=_play)

    shot = add_command(
        subparsers, "screenshot",
        description="Run a system headless from its title screen, driven by an optional pad "
                    "script, and write the last frame as a PNG.")
    _common(shot)
    add_output(shot, required=True, help="PNG file to write", kind="PNG screenshot")
    shot.set_defaults(func=_screenshot)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--system", default="fm", help=f"one of {', '.join(SYSTEMS)}")
    parser.add_argument("--machine", choices=("psx", "gb"),
                        help="machine profile (default: the system's own)")
    add_path(parser, "--script", role="input", kind="pad log",
             help="pad log file: lines 'FRAME PAD1 [PAD2]'")
    parser.add_argument("--scale", type=int_arg("scale", 1, 10), default=3,
                        help="integer window scale (default 3)")
    parser.add_argument("--palette", help="palette name (gb: green or grey)")
    add_json_flag(parser)


def _title_options(args: argparse.Namespace) -> dict:
    """What the system's title screen takes from the command line: for fm, the campaign
    terrains of ``--disc`` (emucore.fm.story.campaign_terrains: the image opened by the
    reading edge, a bad one refused in one line before any window opens)."""
    disc = getattr(args, "disc", None)
    if disc is None:
        return {}
    if args.system != "fm":
        raise UsageError(f"--disc is a Forbidden Memories disc image; {args.system} takes none")
    from emucore.fm import story
    return {"terrains": story.campaign_terrains(disc)}


def _start(args: argparse.Namespace, headless: bool, sound: bool = True):
    """Build the app for ``args``; returns (app, first screen, script or None)."""
    from emucore.frontend import systems

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    module = systems.load(args.system)  # an unknown system is refused before any display
    options = _title_options(args)
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    elif _no_display():
        from emucore.frontend.display import NoDisplayError
        raise NoDisplayError("no display found (DISPLAY / WAYLAND_DISPLAY unset); run "
                             "`emucore play --headless --script FILE` instead")
    from emucore.duel import padlog as script_mod
    from emucore.frontend.app import App
    from emucore.frontend.display import init_video
    from emucore.frontend.machine import machine

    name = args.machine or module.MACHINE
    if name not in systems.machines(module):
        raise UsageError(f"{args.system} cannot be shown on the {name} machine "
                         f"(supported: {', '.join(systems.machines(module))})")
    profile = machine(name)
    if args.palette and args.palette not in profile.palettes:
        raise UsageError(f"unknown palette {args.palette!r} for {name} "
                         f"({', '.join(profile.palettes)})")
    pad_script = script_mod.load(name, args.script) if args.script else None
    init_video(headless)
    app = App(profile, args.system, headless=headless, scale=args.scale,
              fullscreen=getattr(args, "fullscreen", False), palette=args.palette,
              sound=sound)
    return app, module.title_screen(app, **options), pad_script


def _no_display() -> bool:
    if os.environ.get("SDL_VIDEODRIVER"):
        return False
    if not sys.platform.startswith("linux"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _summary(app) -> dict:
    return {"system": app.system, "machine": app.machine.name, "frames": app.frame,
            "screen": type(app.screen).__name__ if app.screen else None,
            "framebuffer_sha256": app.fb.digest(), "notices": app.notices}


def _write_bindings(args: argparse.Namespace) -> int:
    from emucore.frontend import bindings, paths
    target = paths.config_dir() / bindings.FILE_NAME
    written = not lexists(target)  # a dangling link is kept too
    if written:
        write_atomic(target, json.dumps(bindings.DEFAULTS, indent=1) + "\n", replace=False)
    emit(args, {"path": str(target), "written": written},
         lambda d: f"{'wrote' if d['written'] else 'kept the existing'} {d['path']}")
    return 0


def _play(args: argparse.Namespace) -> int:
    if args.write_bindings:
        return _write_bindings(args)
    if args.headless and not args.script:
        raise UsageError("--headless needs --script FILE (the pad log to play)")
    if args.record:
        check_output(args.record, [args.script, args.disc], args.force)
        check_output(recording.companion(args.record), [args.script, args.disc], args.force)
    import pygame
    with recording.session_data(args.script, args.system):
        start_save = recording.current_save(args.system) if args.record else None
        app, first, pad_script = _start(args, args.headless, sound=not args.headless)
        if args.mute:
            app.sound.toggle_mute()
        try:
            app.run(first, pad_script)
        finally:
            pygame.quit()
            if args.record:
                recording.write(args.record, args.system, app.pad_log(), start_save,
                                args.force)
    if args.headless or args.json:
        emit(args, _summary(app), lambda d: f"{d['system']}: {d['frames']} frames, "
                                            f"ended on {d['screen']}, framebuffer sha256 "
                                            f"{d['framebuffer_sha256']}")
    return 0


def _screenshot(args: argparse.Namespace) -> int:
    check_output(args.out, [args.script], args.force)
    import pygame
    with recording.session_data(args.script, args.system):
        app, first, pad_script = _start(args, headless=True, sound=False)
        try:
            if pad_script is None:
                app.switch(first)
                app.step((app.pads[0].word, app.pads[1].word))
            else:
                app.run(first, pad_script)
            app.screenshot(args.out, args.scale, replace=args.force)
        finally:
            pygame.quit()
    data = {**_summary(app), "out": args.out}
    emit(args, data, lambda d: f"wrote {d['out']} (frame {d['frames']}, {d['screen']})")
    return 0
