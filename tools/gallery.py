#!/usr/bin/env python3
"""Screenshots of every screen of every system: ``python tools/gallery.py [--out DIR]
[--scale N] [--system ID] [--stop NAME] [--look DIR]`` writes ``<system>-<screen>.png``
(default 3x, into ``docs/gallery/``) for each stop of :data:`emucore.frontend.tour.STOPS`,
each reached headless through the pad from a fresh title screen, and prints one line per file.
``--system`` keeps one system's stops, ``--stop`` the stops of one name; ``--look DIR`` also
writes a 3x copy of each into DIR, to look at whatever the gallery's own scale. Every PNG is
written through emucore's writing edge (a whole file or none). Notices passing over the screen
at that moment are left out; an open pause menu is shown over its screen.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LOOK_SCALE = 3


def _parser() -> argparse.ArgumentParser:
    from emucore.cliutil import add_path
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_path(parser, "--out", role="output-folder", kind="gallery folder", type=Path,
             default=ROOT / "docs" / "gallery")
    parser.add_argument("--scale", type=int, default=3)
    parser.add_argument("--system", help="only this system's screens")
    parser.add_argument("--stop", help="only the stops of this name (title, duel, ...)")
    add_path(parser, "--look", role="output-folder", kind="folder of 3x copies", type=Path,
             help=f"also write a {LOOK_SCALE}x copy of each screenshot into this folder")
    return parser


def _refusal(args: argparse.Namespace, stops: dict) -> str | None:
    """Why the arguments cannot be used (None when they can)."""
    if args.scale < 1:
        return f"--scale must be 1 or more, not {args.scale}"
    if args.system and args.system not in stops:
        return f"unknown system {args.system!r}; choose one of {', '.join(stops)}"
    names = {name for system, entries in stops.items() if args.system in (None, system)
             for name, _, _ in entries}
    if args.stop and args.stop not in names:
        return f"no stop {args.stop!r}; choose one of {', '.join(sorted(names))}"
    return None


def main(argv: list[str] | None = None) -> int:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    args = _parser().parse_args(argv)
    from emucore.frontend.tour import STOPS, visit
    problem = _refusal(args, STOPS)
    if problem:
        print(f"gallery: {problem}", file=sys.stderr)
        return 2
    folders = [(args.out, args.scale)] + ([(args.look, LOOK_SCALE)] if args.look else [])
    for folder, _ in folders:
        folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="emucore-gallery-") as saves:
        # the saves' folder is under the home folder, so a screen naming it shows ~/...
        # (the same on every run, not the temporary folder's name)
        os.environ["HOME"] = saves
        for system, stops in STOPS.items():
            for name, profile, presses in stops:
                if args.system in (None, system) and args.stop in (None, name):
                    app = visit(system, profile, presses, Path(saves) / f"{system}-{name}")
                    _photograph(app, f"{system}-{name}.png", folders)
    return 0


def _photograph(app, file_name: str, folders: list[tuple[Path, int]]) -> None:
    """Draw what the player sees (the pause menu over its screen when open; a passing
    notice left out) and write it into each folder at that folder's scale."""
    (app.paused or app.screen).draw(app, app.fb)
    for folder, scale in folders:
        path = folder / file_name
        app.screenshot(path, scale)
        print(path)


if __name__ == "__main__":
    sys.exit(main())
