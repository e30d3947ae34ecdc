#!/usr/bin/env python3
"""Screenshots of every screen of every system: ``python tools/gallery.py [--out DIR]
[--scale N] [--system ID]`` writes ``<system>-<screen>.png`` (default 3x, into
``docs/gallery/``) for each stop of :data:`emucore.frontend.tour.STOPS`, each reached headless
through the pad from a fresh title screen, and prints one line per file. Notices passing over
the screen at that moment are left out.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "gallery")
    parser.add_argument("--scale", type=int, default=3)
    parser.add_argument("--system", help="only this system's screens")
    args = parser.parse_args(argv)
    if args.scale < 1:
        print(f"gallery: --scale must be 1 or more, not {args.scale}", file=sys.stderr)
        return 2
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    from emucore.frontend.tour import STOPS, tour
    if args.system and args.system not in STOPS:
        print(f"gallery: unknown system {args.system!r}; choose one of {', '.join(STOPS)}",
              file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="emucore-gallery-") as saves:
        for system, name, app in tour(Path(saves), args.system):
            path = args.out / f"{system}-{name}.png"
            (app.paused or app.screen).draw(app, app.fb)  # without a passing notice
            app.screenshot(path, args.scale)
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
