#!/usr/bin/env python3
"""Extract the DM1 tables from a Yu-Gi-Oh! Duel Monsters (Game Boy) ROM you own.

Usage: python tools/extract_dm1_rom.py ROM --out DIR [--accept-sha1 HASH]

Reads, at the addresses of reference/dm1/memory_map.csv: the type bytes (0x2409E), base and
per-terrain ATK/DEF in BCD (bank 9), the fusion table (bank 0x3B, three arrays of 2159 entries),
the duelist -> pool ids (0x0B734), the 17 opponent deck tables (pointers at 0x2006C, 365
cumulative weights each) and the 26 equip lists (pointers at 0x26BC8). Names, rarities and
passwords are not read (their text encoding is not public): they come from the installed
tables. Everything read from the ROM is written with ``approximate = 0``.

The image must carry the DM1 header (title ``YUGIOU``, MBC1+RAM+BATTERY, 1 MB) with valid
header and global checksums, and its SHA-1 must be a known dump: :data:`KNOWN_DUMPS` (no public
checksum of the retail cartridge was found, so it starts empty) or one given with
``--accept-sha1`` after checking the dump against a trusted list. Every index read from the
ROM is checked against what it indexes before it is used (type bytes against the 21 types,
pool ids against the 17 deck tables, table pointers against their bank, equip entries against
the 365 cards), and every deck table must count up to 2048. Exit 2 with one line naming the
ROM and what is wrong.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from emucore import tables  # noqa: E402
from emucore.duel.files import UserFileError, build_and_swap, read_bytes  # noqa: E402
from emucore.hw import gameboy  # noqa: E402
from emucore.tables.builders import write_csv  # noqa: E402
from emucore.tables.dm1 import TYPE_NAMES  # noqa: E402
from emucore.tables.dm1 import load as load_dm1  # noqa: E402

ROM_SIZE = 0x100000
TITLE = (0x134, b"YUGIOU")
CART_TYPE, ROM_SIZE_CODE = (0x147, 0x03), (0x148, 0x05)
CARDS = 365
TYPES = 0x2409E
BASE_ATK, BASE_DEF = 0x24381, 0x2465D
TERRAIN_TABLES = ((0x24939, 0x24C15), (0x24EF1, 0x251CD), (0x254A9, 0x25785),
                  (0x25A61, 0x25D3D), (0x26019, 0x262F5), (0x265D1, 0x268AD))
FUSION_A, FUSION_B, FUSION_RESULT, FUSIONS = 0x0EC155, 0x0ED233, 0x0EE311, 2159
POOL_IDS, OPPONENTS = 0x0B734, 16
DECK_POINTERS, POOLS, DECK_BANK = 0x2006C, 17, 8
EQUIP_POINTERS, EQUIPS, EQUIP_BANK = 0x26BC8, 26, 9
EQUIP_CARDS = (301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311, 312, 313, 314, 315, 316,
               317, 319, 321, 322, 323, 324, 325, 326, 327, 328)  # equip index order
END = 0xFFFF
# Tables whose ROM addresses the reference does not give: copied from the installed tables.
COPIED = ("magic.csv", "fields.csv", "drops.csv", "rewards.csv", "starter_pool.csv",
          "starter_magic.csv")
KNOWN_DUMPS: dict[str, str] = {}  # sha1 -> name; fill from a trusted dump list


class RomError(ValueError):
    """The image is not a usable DM1 ROM. ``str()`` is one line saying what is wrong (the
    caller names the ROM)."""


def file_offset(bank: int, cpu_address: int) -> int:
    """ROM file offset of a CPU address 0x4000..0x7FFF in switchable ``bank`` (MBC1)."""
    return bank * 0x4000 + (cpu_address - 0x4000)


def bank_table(bank: int, pointer: int, size: int, what: str) -> int:
    """The file offset of a ``size``-byte table at CPU address ``pointer`` of ``bank``, which
    must lie wholly in the switchable bank window 0x4000..0x7FFF (else :class:`RomError`)."""
    if not 0x4000 <= pointer <= 0x8000 - size:
        raise RomError(f"{what} pointer 0x{pointer:04X} is outside bank {bank} "
                       f"(0x4000..0x{0x8000 - size:04X} for {size} bytes)")
    return file_offset(bank, pointer)


def header_checksum(rom: bytes) -> int:
    x = 0
    for b in rom[0x134:0x14D]:
        x = (x - b - 1) & 0xFF
    return x


def global_checksum(rom: bytes) -> int:
    return (sum(rom) - rom[0x14E] - rom[0x14F]) & 0xFFFF


def check_rom(rom: bytes, accept: set[str]) -> str:
    """Validate the image; returns its SHA-1. Raises :class:`RomError`."""
    if len(rom) != ROM_SIZE:
        raise RomError(f"{len(rom)} bytes, a DM1 ROM has {ROM_SIZE} (1 MB)")
    start, title = TITLE
    if rom[start:start + len(title)] != title:
        raise RomError(f"header title {rom[start:start + 16]!r} is not YUGIOU")
    for (at, want), what in ((CART_TYPE, "cartridge type"), (ROM_SIZE_CODE, "ROM size code")):
        if rom[at] != want:
            raise RomError(f"{what} 0x{rom[at]:02X} at 0x{at:04X}, expected 0x{want:02X}")
    if rom[0x14D] != header_checksum(rom):
        raise RomError("header checksum mismatch (damaged or patched image)")
    if int.from_bytes(rom[0x14E:0x150], "big") != global_checksum(rom):
        raise RomError("global checksum mismatch (damaged or patched image)")
    sha1 = hashlib.sha1(rom).hexdigest()
    if sha1 not in KNOWN_DUMPS and sha1 not in accept:
        raise RomError(f"unknown image sha1 {sha1} (sha256 "
                       f"{hashlib.sha256(rom).hexdigest()}); check it against a trusted dump "
                       f"list, then pass --accept-sha1 {sha1}")
    return sha1


def _u16(rom: bytes, at: int, count: int) -> list[int]:
    return [int.from_bytes(rom[at + 2 * i:at + 2 * i + 2], "little") for i in range(count)]


def _bcd(rom: bytes, at: int) -> list[int]:
    return gameboy.from_bcd(_u16(rom, at, CARDS)).tolist()


def read_stats(rom: bytes) -> tuple[list[int], list[list[int]], list[list[int]]]:
    """Type bytes, then ATK and DEF per terrain 0..6 (0 = the base table)."""
    types = list(rom[TYPES:TYPES + CARDS])
    for card, type_id in enumerate(types, start=1):
        if type_id >= len(TYPE_NAMES):
            raise RomError(f"card {card} has type byte {type_id} at 0x{TYPES + card - 1:05X} "
                           f"(the types are 0..{len(TYPE_NAMES) - 1})")
    atk = [_bcd(rom, BASE_ATK)] + [_bcd(rom, a) for a, _ in TERRAIN_TABLES]
    dfn = [_bcd(rom, BASE_DEF)] + [_bcd(rom, d) for _, d in TERRAIN_TABLES]
    return types, atk, dfn


def read_fusions(rom: bytes) -> list[list[int]]:
    """Unordered pairs, first match wins (as the ROM's linear scan); entries >= 365 skipped."""
    seen: dict[tuple[int, int], int] = {}
    for a, b, r in zip(_u16(rom, FUSION_A, FUSIONS), _u16(rom, FUSION_B, FUSIONS),
                       _u16(rom, FUSION_RESULT, FUSIONS), strict=True):
        if max(a, b, r) >= CARDS:
            continue
        seen.setdefault((min(a, b) + 1, max(a, b) + 1), r + 1)
    return [[a, b, r] for (a, b), r in sorted(seen.items())]


def read_pools(rom: bytes) -> tuple[list[int], list[list[int]]]:
    """Pool id per opponent and the weight of each card in each of the 17 pools."""
    pool_ids = list(rom[POOL_IDS:POOL_IDS + OPPONENTS])
    for opponent, pool in enumerate(pool_ids):
        if pool >= POOLS:
            raise RomError(f"opponent {opponent} has pool id {pool} at "
                           f"0x{POOL_IDS + opponent:05X} (the deck tables are 0..{POOLS - 1})")
    pools = []
    for pool, pointer in enumerate(_u16(rom, DECK_POINTERS, POOLS)):
        at = bank_table(DECK_BANK, pointer, 2 * CARDS, f"deck table {pool}")
        cumulative = _u16(rom, at, CARDS)
        weights = [c - p for c, p in zip(cumulative, [0] + cumulative[:-1], strict=True)]
        if min(weights) < 0:
            card = weights.index(min(weights)) + 1
            raise RomError(f"deck table {pool} at 0x{pointer:04X} counts down at card {card}")
        if cumulative[-1] != 2048:
            raise RomError(f"deck table {pool} at 0x{pointer:04X} ends at {cumulative[-1]}, "
                           "not 2048")
        pools.append(weights)
    return pool_ids, pools


def read_equips(rom: bytes) -> list[list[int]]:
    """(equip card, monster) pairs from the 26 0xFFFF-terminated lists."""
    rows = []
    for card, pointer in zip(EQUIP_CARDS, _u16(rom, EQUIP_POINTERS, EQUIPS), strict=True):
        at = bank_table(EQUIP_BANK, pointer, 2, f"equip list of card {card}")
        end = file_offset(EQUIP_BANK, 0x8000)
        for _ in range(CARDS + 1):  # a list names each monster at most once, then 0xFFFF
            if at > end - 2:
                raise RomError(f"equip list of card {card} runs past the end of bank "
                               f"{EQUIP_BANK}")
            index = int.from_bytes(rom[at:at + 2], "little")
            if index == END:
                break
            if index >= CARDS:
                raise RomError(f"equip list of card {card} names card index {index}")
            rows.append([card, index + 1, 0])
            at += 2
        else:
            raise RomError(f"equip list of card {card} at 0x{pointer:04X} has no 0xFFFF end")
    return sorted(rows)


def extract(rom: bytes, base: Path, out: Path) -> dict[str, int]:
    """Write the DM1 tables read from ``rom`` into ``out`` (text columns from the tables
    root ``base``)."""
    data = tables.load("dm1", base)
    out.mkdir(parents=True, exist_ok=True)
    types, atk, dfn = read_stats(rom)
    cards = data.raw["cards.csv"]
    counts = {"cards": write_csv(out / "cards.csv", [c.name for c in cards.schema.columns], (
        [n + 1, cards["name"][n], cards["kind"][n], types[n],
         "" if types[n] == 20 else atk[0][n], "" if types[n] == 20 else dfn[0][n],
         cards["rarity"][n], cards["password"][n], cards["name_full"][n]]
        for n in range(CARDS)))}
    counts["field_stats"] = write_csv(out / "field_stats.csv",
                                      ("card_id", "terrain", "atk", "def", "approximate"),
                                      ([n + 1, t, atk[t][n], dfn[t][n], 0]
                                       for t in range(1, 7) for n in range(CARDS)
                                       if types[n] != 20))
    counts["fusions"] = write_csv(out / "fusions.csv", ("material_low", "material_high",
                                                        "result"), read_fusions(rom))
    counts["equips"] = write_csv(out / "equips.csv", ("equip_id", "monster_id", "approximate"),
                                 read_equips(rom))
    pool_ids, pools = read_pools(rom)
    opp = data.raw["opponents.csv"]
    counts["opponents"] = write_csv(out / "opponents.csv", [c.name for c in opp.schema.columns],
                                    ([i, opp["name"][i], opp["rom_name"][i], pool_ids[i],
                                      opp["stage"][i], sum(1 for w in pools[pool_ids[i]] if w),
                                      opp["drop_cards"][i], "exact"]
                                     for i in range(OPPONENTS)))
    counts["opponent_pools"] = write_csv(
        out / "opponent_pools.csv", ("opponent_id", "card_id", "weight", "approximate"),
        ([i, n + 1, w, 0] for i in range(OPPONENTS) for n, w in enumerate(pools[pool_ids[i]])
         if w))
    src = Path(data.raw["magic.csv"].path).parent
    for name in COPIED:
        shutil.copyfile(src / name, out / name)
    (out / "SOURCES.md").write_text(
        "# Duel Monsters tables extracted from a user's own cartridge\n\n"
        "Written by `tools/extract_dm1_rom.py`. Types, ATK/DEF (base and the six terrain "
        "tables), fusions, equip lists, opponent pool ids and deck weights come from the ROM "
        "(`approximate = 0`); names, rarities, passwords and "
        + ", ".join(COPIED) + " from the installed tables (see their SOURCES.md).\n",
        encoding="utf-8")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("rom", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="folder for the tables")
    parser.add_argument("--accept-sha1", action="append", default=[],
                        help="accept an image with this SHA-1 (after checking the dump)")
    parser.add_argument("--base", type=Path, default=tables.tables_root(),
                        help="tables root providing names and texts (default: installed)")
    args = parser.parse_args(argv)
    try:
        rom = read_bytes(args.rom, ROM_SIZE)
        sha1 = check_rom(rom, {h.lower() for h in args.accept_sha1})
        counts = build_and_swap(args.out, lambda folder: extract(rom, args.base, folder),
                                inputs=[args.rom, args.base, args.base / "dm1"],
                                check=load_dm1)
    except RomError as exc:
        return _error(f"{args.rom}: {exc}")
    except (tables.TableError, UserFileError) as exc:
        return _error(str(exc))
    print(f"{args.rom} (sha1 {sha1}) -> {args.out}: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


def _error(message: str) -> int:
    """Report ``message`` as the one error line; the exit code 2."""
    print(f"extract_dm1_rom: error: {' '.join(message.split())}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
