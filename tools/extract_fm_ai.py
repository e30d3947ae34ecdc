#!/usr/bin/env python3
"""Extract the two Forbidden Memories AI programs from your own disc image.

    python tools/extract_fm_ai.py IMAGE --out DIR

Checks that IMAGE is NTSC-U SLUS-01411 and that both programs pass the integrity checks
(spec/fm-ai.md §0), then writes DIR/hand.bin and DIR/field.bin. ``emucore fm ai --disc DIR``
and ``emucore fm sim --disc DIR`` accept that folder as well as the image itself.
A bad or foreign image: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from emucore.duel.files import UserFileError  # noqa: E402
from emucore.fm.ai.disc import read_programs, write_programs  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("image", type=Path, help="disc image (.bin raw or .iso)")
    parser.add_argument("--out", type=Path, required=True, help="folder for hand.bin/field.bin")
    parser.add_argument("--force", action="store_true", help="replace existing files")
    args = parser.parse_args(argv)
    try:
        programs = read_programs(args.image)
        for path in write_programs(programs, args.out, args.force):
            print(path)
    except UserFileError as exc:
        print(f"extract_fm_ai: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
