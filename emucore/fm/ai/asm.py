"""A small readable assembly for the AI machine, and its disassembler.

One instruction per line: ``Name operand, operand ...`` in the operand order of
:mod:`emucore.fm.ai.opcodes`; registers are ``r0``..``r19``, targets are labels (``name:`` on
a line of its own) or numbers, immediates and raw bytes are numbers (decimal or 0x-hex);
``;`` starts a comment. Used for test programs and to list the original programs.
"""

from __future__ import annotations

from emucore.fm.ai.opcodes import BY_NAME, OPS


class AsmError(ValueError):
    """A line the assembler cannot read (names the line)."""


def _number(text: str, line: int) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise AsmError(f"line {line}: {text!r} is not a number") from None


def _parse(source: str) -> list[tuple[int, str, list[str]]]:
    out = []
    for n, raw in enumerate(source.splitlines(), 1):
        text = raw.split(";", 1)[0].strip()
        if text:
            name, _, rest = text.partition(" ")
            out.append((n, name, [t.strip() for t in rest.split(",") if t.strip()]))
    return out


def assemble(source: str) -> bytes:
    """Bytes of a program; labels resolve to offsets from the program start."""
    lines = _parse(source)
    labels: dict[str, int] = {}
    at = 0
    for n, name, args in lines:
        if name.endswith(":") and not args:
            labels[name[:-1]] = at
        elif name in BY_NAME:
            at += BY_NAME[name].length
        else:
            raise AsmError(f"line {n}: unknown instruction {name!r}")
    out = bytearray()
    for n, name, args in lines:
        if name.endswith(":"):
            continue
        op = BY_NAME[name]
        if len(args) != len(op.operands):
            raise AsmError(f"line {n}: {name} takes {len(op.operands)} operands")
        out.append(op.code)
        for kind, arg in zip(op.operands, args, strict=True):
            if kind in "rd":
                if not arg.lower().startswith("r"):
                    raise AsmError(f"line {n}: {arg!r} is not a register")
                out.append(_number(arg[1:], n))
            elif kind == "L":
                out += (labels[arg] if arg in labels else _number(arg, n)).to_bytes(2, "little")
            elif kind == "i":
                out += (_number(arg, n) & 0xFFFF).to_bytes(2, "little")
            else:
                out.append(_number(arg, n) & 0xFF)
    return bytes(out)


def disassemble(program: bytes, stop: tuple[str, ...] = ()) -> list[tuple[int, str]]:
    """``(offset, text)`` per instruction, a linear sweep from offset 0.

    Stops at the end, at an unknown opcode or after an instruction named in ``stop``.
    """
    out: list[tuple[int, str]] = []
    at = 0
    while at < len(program) and program[at] < len(OPS):
        op = OPS[program[at]]
        raw = program[at + 1: at + op.length]
        if len(raw) < op.length - 1:
            break
        args, i = [], 0
        for kind in op.operands:
            if kind in "Li":
                value = raw[i] | raw[i + 1] << 8
                args.append(f"0x{value:04X}" if kind == "L" else str(value))
                i += 2
            else:
                args.append(f"r{raw[i]}" if kind in "rd" else str(raw[i]))
                i += 1
        out.append((at, f"{op.name} {', '.join(args)}".rstrip()))
        at += op.length
        if op.name in stop:
            break
    return out
