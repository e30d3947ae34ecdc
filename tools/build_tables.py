#!/usr/bin/env python3
"""Build ``roms_tables/`` from the shared reference facts.

Usage: python tools/build_tables.py [REFERENCE_DIR] [--out DIR] [--system NAME ...]

REFERENCE_DIR defaults to ``../shared/reference`` beside the checkout; the specifications are
read from its sibling ``spec/`` folder (the FM per-duelist AI table lives there).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from emucore.tables.builders import BUILDERS  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("reference", nargs="?", type=Path,
                        default=REPO.parent / "shared" / "reference")
    parser.add_argument("--out", type=Path, default=REPO / "roms_tables")
    parser.add_argument("--system", action="append", choices=BUILDERS)
    args = parser.parse_args(argv)
    if not args.reference.is_dir():
        print(f"build_tables: error: reference folder {args.reference} not found", file=sys.stderr)
        return 2
    for system in args.system or BUILDERS:
        module = importlib.import_module(f"emucore.tables.builders.{system}")
        counts = module.build(args.reference, args.out / system)
        summary = ", ".join(f"{name} {n}" for name, n in counts.items())
        print(f"{system}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
