"""What a capture watches in the original's RAM, and where emucore keeps the same bytes.

One :class:`RamMap` per system. It is the single source of the capture scripts' address
tables (``tools/capture/gen_tables.py`` writes ``tools/capture/<system>_addresses.lua`` from
it) and of the importer's mapping from captured ranges into emucore's state image, so the two
sides cannot drift apart.

FM ranges come from ``emucore.fm.machine.REGIONS`` (the engine's own RAM mirror) plus the scalar
globals of spec/fm-engine.md §11.2; DM1 ranges are the WRAM rows of
reference/dm1/memory_map.csv (the rest of DM1's duel RAM is not public).
"""

from __future__ import annotations

from dataclasses import dataclass

from emucore.dm1 import state as dm1_state
from emucore.fm import machine as fm_machine


@dataclass(frozen=True)
class Range:
    """One watched RAM range.

    ``address`` is the CPU address the original uses; ``target`` is the byte offset in
    emucore's state image holding the same bytes, or None when emucore does not mirror it
    (watched for step detection and the report only).
    """

    name: str
    address: int
    length: int
    target: int | None
    meaning: str


@dataclass(frozen=True)
class Release:
    """The one release of a game emucore's tables describe, by the hash of its content file
    (``capture record`` refuses any other). ``sha1`` is the No-Intro (cartridge) or Redump
    (disc track) SHA-1 of the file; ``content`` says which file is hashed."""

    name: str
    sha1: str
    size: int
    content: str


@dataclass(frozen=True)
class RamMap:
    """A system's capture contract: identity, RNG, pad and watched ranges."""

    system: str
    region: str           # the only region emucore's tables describe
    ident: str            # boot string / ROM title the scripts check
    platform: str         # emulator system id (BizHawk ``emu.getsystemid()``)
    domain: str           # emulator memory domain holding the ranges
    domain_base: int      # CPU address of the domain's byte 0
    domain_mask: int      # CPU address -> domain offset mask (after subtracting the base)
    rng_address: int | None
    pad_bits: tuple[str, ...]   # pad bit i = button name (emulator's naming, without "P1 ")
    pad_active_low: bool
    ranges: tuple[Range, ...]
    # What a libretro core exposes as RETRO_MEMORY_SYSTEM_RAM: the CPU address of its byte 0
    # and its size (Game Boy: the 8 KB work RAM $C000-$DFFF; PlayStation: the 2 MB main RAM).
    system_ram: tuple[int, int]
    release: Release

    def by_name(self) -> dict[str, Range]:
        return {r.name: r for r in self.ranges}

    def ram_offset(self, r: Range) -> int:
        """Where range ``r`` starts in the core's system RAM (ValueError if it lies outside:
        a map entry no libretro core can read)."""
        base, size = self.system_ram
        offset = (r.address - base) & self.domain_mask
        if not 0 <= offset <= size - r.length:
            raise ValueError(f"{self.system}: range {r.name} at {r.address:X} lies outside "
                             f"the system RAM {base:X}+{size:X}")
        return offset


def _fm_global(field: str) -> int:
    """Offset of a globals field in the FM state image."""
    return fm_machine.field_offset("globals", field)


_FM_REGION_MEANING = {
    "side": "side records 2 x 0x20 (DuelSideState)",
    "card": "card records 30 x 0x1C",
    "deck_card": "deck-card records 80 x 6",
    "shuffled_player": "player's shuffled deck 40 x u16",
    "shuffled_cpu": "CPU's shuffled deck 40 x u16",
    "perm_player": "player's shuffle permutation 40 x u8",
    "perm_cpu": "CPU's shuffle permutation 40 x u8",
    "ai_snapshot_cpu": "computer's board snapshot gDuel_aActiveCards 111 x 12",
}

FM = RamMap(
    system="fm", region="NTSC-U", ident="SLUS_014.11", platform="PSX",
    domain="MainRAM", domain_base=0x80000000, domain_mask=0x1FFFFF,
    rng_address=0x800FE6F8,  # gRand_dwSeed
    # The PSX pad word (bit 0 Select ... bit 15 Square), active low as the pad reports it.
    pad_bits=("Select", "L3", "R3", "Start", "Up", "Right", "Down", "Left",
              "L2", "R2", "L1", "R1", "Triangle", "Circle", "Cross", "Square"),
    pad_active_low=True,
    ranges=(
        Range("acting_side", 0x8009B1D5, 1, _fm_global("acting_side"), "acting side"),
        Range("winner", 0x8009B165, 1, _fm_global("winner"), "winner side"),
        Range("opponent", 0x8009B361, 1, _fm_global("opponent"), "opponent id"),
        Range("terrain", 0x8009B364, 1, _fm_global("terrain"), "terrain"),
        Range("main_mode", 0x8009B26C, 1, None, "main mode (low 5 bits: 3 duel, 1 3-D battle)"),
        Range("scene", 0x8009B23A, 2, None, "duel scene state (& 0xF dispatch)"),
        Range("acting_record", 0x8009B1C8, 4, None, "pointer to the acting side record"),
        Range("trap_id", 0x8009B22A, 2, None, "selected trap id"),
        Range("trap_record", 0x8009B1B8, 1, None, "selected trap record"),
        Range("effect_card", 0x8009B1D2, 2, None, "effect card id being resolved"),
        *(Range(name, address, length, fm_machine.OFFSET[name], _FM_REGION_MEANING[name])
          for name, address, length in fm_machine.REGIONS if address is not None),
    ),
    system_ram=(0x80000000, 0x200000),
    # metadat/redump/Sony - PlayStation.dat (libretro-database): serial SLUS-01411
    release=Release("Yu-Gi-Oh! Forbidden Memories (USA)",
                    "D5785A41900A10968D4A28A390666C4B9879B796", 517872768,
                    "the disc's .bin track (the .cue names it)"),
)


#: What ``capture record --from-replay`` reads after every frame to press when the original
#: reads the pad (emucore.fm.padplan's gates; docs/fm-duel-input.md gives each routine): not
#: written to the capture. The main mode and the scene word are the captured ranges'.
FM_INPUT: dict[str, Range] = {r.name: r for r in (
    FM.by_name()["main_mode"], FM.by_name()["scene"],
    Range("duel_runner", 0x8009B26E, 1, None, "Main_RunDuel's step (0 deck screen, 1 duel)"),
    Range("step", 0x8009B174, 1, None, "the scene handler's step D_8009B174"),
    Range("jobs", 0x8009B162, 2, None, "presentation jobs D_8009B162 (0: none busy)"),
    Range("effect_request", 0x8009B260, 1, None, "blocking effect request D_8009B260"),
    Range("card_effect", 0x8009B220, 2, None, "gDuel_wCardEffectFlags"),
    Range("effect_state", 0x8009B254, 1, None, "gDuel_bEffectState (card viewer etc.)"),
    Range("quit_dialog", 0x8009B164, 1, None, "gDuel_bQuitDialogState"),
    Range("activate_arrows", 0x8009B152, 1, None, "func_80020988's state (0x80: reads the pad)"),
    Range("hand", 0x800E9F1E, 1, None, "hand cursor slot (side 0's selection record 0)"),
    Range("field", 0x800E9F57, 2, None, "zone cursor column, row (record D_800E9F48)"),
    Range("field_status", 0x800E9F61, 1, None, "zone cursor status (0x80: moving)"),
    Range("target", 0x800E9F73, 2, None, "target cursor column, row (record D_800E9F64)"),
    Range("target_status", 0x800E9F7D, 1, None, "target cursor status (0x80: moving)"),
    Range("menu_item", 0x80184594, 1, None, "gMain_bMenuID (the frontend overlay's cursor)"),
    Range("menu_busy", 0x80184598, 2, None, "the menu's shade step and slide (0: reads the pad)"),
    Range("grid", 0x8009B366, 2, None, "Free Duel cursor column, row (committed)"),
    Range("grid_target", 0x8009B36C, 2, None, "Free Duel cursor column, row (moving to)"),
    Range("deck", 0x801D0200, 80, None, "the player's deck, 40 x u16 (the save's)"),
)}


def _dm1_field(field: str) -> int:
    return dm1_state.DUEL_DTYPE.fields[field][1]


DM1 = RamMap(
    system="dm1", region="JP", ident="YUGIOU", platform="GB",
    domain="System Bus", domain_base=0, domain_mask=0xFFFF,
    rng_address=None,  # not public (spec/dm1.md): records carry "-"
    # memory_map.csv (DM3 $C5A7 layout, the Game Boy's own button order), active high.
    pad_bits=("A", "B", "Select", "Start", "Right", "Left", "Up", "Down"),
    pad_active_low=False,
    ranges=(
        Range("card_info", 0xCD0F, 9, None, "card-info block: id x2, ATK, DEF (BCD), type"),
        Range("fusion", 0xCECB, 6, _dm1_field("fusion_block"),
              "fusion inputs A, B and result (0x016D empty)"),
        Range("opponent", 0xCEEF, 1, _dm1_field("opponent"), "current opponent"),
        Range("message", 0xCF47, 1, None, "current duel message id"),
        Range("win_counts", 0xCF70, 32, None, "win count per duelist (BCD)"),
        Range("menu_flags", 0xCAA5, 2, None, "player card-menu cursor flags"),
    ),
    system_ram=(0xC000, 0x2000),
    # metadat/no-intro/Nintendo - Game Boy.dat (libretro-database)
    release=Release("Yu-Gi-Oh! Duel Monsters (Japan) (SGB Enhanced)",
                    "07AE4A6437F00F6AF462BF84FD0AC1CF345C8365", 1048576, "the cartridge ROM"),
)

MAPS = {m.system: m for m in (FM, DM1)}


def ram_map(system: str) -> RamMap:
    """The map of ``system`` (KeyError names the systems that have one)."""
    try:
        return MAPS[system]
    except KeyError:
        raise KeyError(f"no capture map for system {system!r} "
                       f"(have {', '.join(sorted(MAPS))})") from None
