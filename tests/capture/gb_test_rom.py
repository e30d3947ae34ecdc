"""A tiny Game Boy program, assembled here byte by byte, that writes DM1's watched WRAM the way
the map names it, so a real emulator's capture can be checked against what the program wrote.

Source of the encodings: the SM83 opcode table (Pan Docs, "CPU Instruction Set"); of the
header: Pan Docs, "The Cartridge Header" (the logo bytes at $0104, the header checksum at
$014D over $0134-$014C, the big-endian global checksum at $014E of every other byte). The pad
routine is the usual one (pret/pokered ``ReadJoypad``): select the d-pad with $20 in P1
($FF00), then the buttons with $10, each nibble active low, into one byte with the d-pad in
the high nibble: bit 0 A, 1 B, 2 Select, 3 Start, 4 Right, 5 Left, 6 Up, 7 Down.

What the program does, once per frame (it waits for LY = 144, the start of VBlank):

* ``$CF47`` (``message``) := the pad byte it just read;
* ``$CD0F`` (``card_info``, 9 bytes) := :data:`CARD_B` while any button is held, else
  :data:`CARD_A`;
* ``$CEEF`` (``opponent``) += 1.

At start it sets ``$CECB`` (``fusion``, 6 bytes) to :data:`FUSION` and clears ``win_counts``
(32 bytes at ``$CF70``) and ``menu_flags`` (2 bytes at ``$CAA5``), and ``opponent`` to 0.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

LOGO = bytes.fromhex("CEED6666CC0D000B03730083000C000D0008111F8889000EDCCC6EE6DDDDD999"
                     "BBBB67636E0EECCCDDDC999FBBB9333E")
START = 0x150


@dataclass(frozen=True)
class Program:
    """The assembled ROM and the constants it writes."""

    rom: bytes
    card_a: bytes
    card_b: bytes
    fusion: bytes

    @property
    def sha1(self) -> str:
        return hashlib.sha1(self.rom).hexdigest().upper()


def _le(value: int) -> list[int]:
    return [value & 0xFF, value >> 8]


def _bcd(value: int) -> int:
    """16-bit BCD, as the cartridge stores ATK and DEF (emucore.hw.gameboy's to_bcd)."""
    return int(str(value), 16)


def card_block(card: int, atk: int, dfn: int, kind: int) -> bytes:
    """The 9-byte card-info block: ROM index (number - 1) twice, ATK, DEF in BCD, type."""
    index = card - 1
    return bytes([*_le(index), *_le(index), *_le(_bcd(atk)), *_le(_bcd(dfn)), kind])


def fusion_block(a: int, b: int, result: int) -> bytes:
    """The fusion block: materials A and B and the result, ROM indices (number - 1)."""
    return bytes([*_le(a - 1), *_le(b - 1), *_le(result - 1)])


def _code(fusion_at: int, card_a_at: int, card_b_at: int) -> list[int]:
    """The program at $0150 (COPY at the end: a byte loop from DE to HL, B bytes)."""
    init = [0xF3,                                   # di
            0x31, 0xF0, 0xDF,                       # ld sp, $DFF0
            0x21, 0xCB, 0xCE, 0x11, *_le(fusion_at), 0x06, 6, 0xCD, None, None,  # fusion
            0x21, 0x70, 0xCF, 0x06, 32, 0xCD, None, None,   # clear win_counts ... (FILL)
            0x21, 0xA5, 0xCA, 0x06, 2, 0xCD, None, None,    # clear menu_flags (FILL)
            0xAF, 0xEA, 0xEF, 0xCE]                 # xor a; ld ($CEEF), a
    loop = [0xF0, 0x44, 0xFE, 0x90, 0x20, 0xFA,    # wait until LY == 144
            0x3E, 0x20, 0xE0, 0x00, 0xF0, 0x00, 0xF0, 0x00,   # d-pad: ld a,$20; ldh ($00),a
            0x2F, 0xE6, 0x0F, 0xCB, 0x37, 0x47,    # cpl; and $0F; swap a; ld b, a
            0x3E, 0x10, 0xE0, 0x00, 0xF0, 0x00, 0xF0, 0x00, 0xF0, 0x00, 0xF0, 0x00,  # buttons
            0x2F, 0xE6, 0x0F, 0xB0,                # cpl; and $0F; or b
            0xEA, 0x47, 0xCF,                      # ld ($CF47), a
            0x47, 0x3E, 0x30, 0xE0, 0x00, 0x78,    # ld b,a; ld a,$30; ldh ($00),a; ld a,b
            0x11, *_le(card_a_at),                 # ld de, CARD_A
            0xA7, 0x28, 0x03,                      # and a; jr z, +3
            0x11, *_le(card_b_at),                 # ld de, CARD_B
            0x21, 0x0F, 0xCD, 0x06, 9, 0xCD, None, None,  # ld hl,$CD0F; ld b,9; call COPY
            0x21, 0xEF, 0xCE, 0x34,                # ld hl, $CEEF; inc (hl)
            0xF0, 0x44, 0xFE, 0x90, 0x28, 0xFA,    # wait until LY != 144
            0x18, None]                            # jr loop
    copy = [0x1A, 0x22, 0x13, 0x05, 0x20, 0xFA, 0xC9]   # ld a,(de); ld (hl+),a; inc de; dec b
    fill = [0xAF, 0x22, 0x05, 0x20, 0xFC, 0xC9]         # xor a ... : ld (hl+),a; dec b; jr nz
    copy_at = START + len(init) + len(loop)
    fill_at = copy_at + len(copy)
    calls = iter([copy_at, fill_at, fill_at, copy_at])
    body = init + loop
    for i, byte in enumerate(body):
        if byte is None and body[i - 1] == 0xCD:
            body[i:i + 2] = _le(next(calls))
    jr = len(init) + len(loop) - 1
    body[jr] = (len(init) - (jr + 1)) & 0xFF          # back to the loop's first byte
    return body + copy + fill


def assemble(card_a: bytes, card_b: bytes, fusion: bytes, title: bytes = b"YUGIOU") -> Program:
    """A 32 KB ROM-only cartridge (type 0, Japan) running the program above."""
    rom = bytearray(0x8000)
    rom[0x100:0x104] = bytes([0x00, 0xC3, *_le(START)])       # nop; jp $0150
    rom[0x104:0x134] = LOGO
    rom[0x134:0x134 + len(title)] = title
    size = len(_code(0, 0, 0))
    data_at = START + size
    code = _code(data_at, data_at + 6, data_at + 15)
    rom[START:START + size] = bytes(code)
    rom[data_at:data_at + 24] = fusion + card_a + card_b
    return Program(checksummed(rom), card_a, card_b, fusion)


def checksummed(rom: bytearray) -> bytes:
    """``rom`` with its header checksum ($014D: 0 - sum of $0134-$014C bytes + 1 each) and
    global checksum ($014E-$014F: the sum of every other byte, big-endian) filled in, as the
    boot ROM and emulators check them (Pan Docs, "The Cartridge Header")."""
    check = 0
    for byte in rom[0x134:0x14D]:
        check = (check - byte - 1) & 0xFF
    rom[0x14D] = check
    rom[0x14E:0x150] = ((sum(rom) - rom[0x14E] - rom[0x14F]) & 0xFFFF).to_bytes(2, "big")
    return bytes(rom)
