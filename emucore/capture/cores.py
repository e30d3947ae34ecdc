"""The emulators ``emucore capture record`` drives: a libretro core through the ``libretro.py``
binding, or PyBoy for the Game Boy. Each is a :class:`Machine`: one frame at a time with a pad
word, and reads of the watched RAM.

A core is named by a path to its ``.so`` or by a known name looked up in the usual libretro
folders (``$EMUCORE_LIBRETRO_PATH`` first, then RetroArch's and Debian's). Every problem (no
such core, the binding not installed, a core of another machine, no system RAM, a missing
BIOS) is one :class:`~emucore.cliutil.UsageError` line, raised before any frame runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from emucore.capture.rammap import RamMap, Range
from emucore.cliutil import UsageError
from emucore.duel.files import is_regular_file, quoted

PYBOY = "pyboy"
# known name -> (file name of the core, platform it plays, Debian package)
KNOWN_CORES = {
    "gambatte": ("gambatte_libretro.so", "GB", "libretro-gambatte"),
    "mgba": ("mgba_libretro.so", "GB", "libretro-mgba"),
    "beetle-psx": ("mednafen_psx_libretro.so", "PSX", "libretro-beetle-psx"),
    "mednafen_psx": ("mednafen_psx_libretro.so", "PSX", "libretro-beetle-psx"),
}
PLATFORM_NAMES = {"GB": "Game Boy", "PSX": "PlayStation"}
# content a core must accept (its valid_extensions) to play the platform's games
PLATFORM_EXTENSION = {"GB": "gb", "PSX": "cue"}
# Beetle PSX looks for the BIOS of the disc's region by file name in its system folder
# (beetle-psx-libretro's README): NTSC-U discs need SCPH-5501.
PSX_BIOS = "scph5501.bin"
RETRO_MEMORY_SAVE_RAM, RETRO_MEMORY_SYSTEM_RAM = 0, 2  # libretro.h
# pad bit names (RamMap.pad_bits) -> RetroPad buttons (libretro.py's JoypadState fields). The
# PlayStation cores put Cross on the RetroPad's B, Circle on A, Square on Y, Triangle on X.
RETROPAD = {"Cross": "b", "Circle": "a", "Square": "y", "Triangle": "x", "L1": "l", "R1": "r"}
BINDING_HINT = "pip install 'emucore[capture]' (or pip install libretro.py pyboy)"


def core_folders() -> list[Path]:
    """Where known cores are looked for, in order."""
    extra = [Path(p) for p in os.environ.get("EMUCORE_LIBRETRO_PATH", "").split(os.pathsep) if p]
    return [*extra, Path.home() / ".config" / "retroarch" / "cores",
            Path("/usr/lib/x86_64-linux-gnu/libretro"), Path("/usr/lib/libretro")]


@dataclass(frozen=True)
class CoreChoice:
    """What ``--core`` named: a libretro core file, or PyBoy (``path`` None)."""

    label: str
    path: Path | None
    platform: str


def choose(core: str, ram: RamMap) -> CoreChoice:
    """Resolve ``--core`` for a system (UsageError when nothing fits)."""
    wanted = PLATFORM_NAMES[ram.platform]
    if core == PYBOY:
        if ram.platform != "GB":
            raise UsageError(f"--core pyboy plays Game Boy games; {ram.system} needs a "
                             f"{wanted} core (beetle-psx)")
        return CoreChoice("PyBoy", None, "GB")
    if core in KNOWN_CORES:
        filename, platform, package = KNOWN_CORES[core]
        if platform != ram.platform:
            raise UsageError(f"--core {core} plays {PLATFORM_NAMES[platform]} games; "
                             f"{ram.system} needs a {wanted} core")
        folders = core_folders()
        found = next((f / filename for f in folders if is_regular_file(f / filename)), None)
        if found is None:
            raise UsageError(f"--core {core}: {filename} is not in "
                             f"{', '.join(str(f) for f in folders)} (apt-get install "
                             f"{package}, or pass the core's path)")
        return CoreChoice(core, found, platform)
    if "/" not in core and not core.endswith(".so"):
        raise UsageError(f"--core {quoted(core)}: not a path to a libretro core nor one of "
                         f"{', '.join([*KNOWN_CORES, PYBOY])}")
    path = Path(core)
    if not is_regular_file(path):
        raise UsageError(f"--core {quoted(core)}: no such libretro core file")
    return CoreChoice(path.name, path, ram.platform)


class Machine(Protocol):
    """An emulator playing the content, one frame per :meth:`step`."""

    emulator: str

    def step(self, word: int) -> None: ...

    def read(self, r: Range) -> bytes: ...

    def save(self) -> bytes: ...

    def restore(self, state: bytes) -> None: ...


def held_buttons(ram: RamMap, word: int) -> list[str]:
    """The pad bits' names held in a pad word of the map's layout."""
    pressed = ~word if ram.pad_active_low else word
    return [name for i, name in enumerate(ram.pad_bits) if pressed >> i & 1]


def retropad(ram: RamMap, word: int) -> set[str]:
    """The RetroPad buttons (libretro.py's ``JoypadState`` fields) held in a pad word."""
    return {RETROPAD.get(name, name.lower()) for name in held_buttons(ram, word)}


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Cores print their own chatter on the process's stdout ("Plain ROM loaded."): send it to
    stderr so stdout stays the command's answer (``--json``)."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _first_line(exc: BaseException) -> str:
    """An exception's message cut to one short line (its type when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0][:120] if text else type(exc).__name__


def _binding() -> Any:
    try:
        import libretro
    except ImportError:
        raise UsageError(f"the libretro.py binding is not installed: {BINDING_HINT}") from None
    return libretro


def load_core(choice: CoreChoice) -> Any:
    """The libretro core of ``choice`` loaded and checked to play its platform's games."""
    libretro = _binding()
    try:
        core = libretro.Core(str(choice.path))
        info = core.get_system_info()
    except (OSError, AttributeError, TypeError) as exc:
        raise UsageError(f"--core {choice.path}: not a libretro core "
                         f"({_first_line(exc)})") from None
    name = (info.library_name or b"?").decode("ascii", "replace")
    version = (info.library_version or b"").decode("ascii", "replace")
    extensions = (info.valid_extensions or b"").decode("ascii", "replace").lower().split("|")
    if PLATFORM_EXTENSION[choice.platform] not in extensions:
        raise UsageError(f"--core {choice.path}: {name} does not play "
                         f"{PLATFORM_NAMES[choice.platform]} games (it takes "
                         f"{', '.join(extensions) or 'nothing'})")
    core.emucore_label = f"{name} {version}".strip()
    return core


def check_bios(choice: CoreChoice, bios: Path | None) -> Path | None:
    """The folder to give a PlayStation core as its system folder (the BIOS's), None for the
    Game Boy. The BIOS is the user's own dump, named as the core looks for it."""
    if choice.platform != "PSX":
        return None
    if bios is None:
        raise UsageError(f"--core {choice.label}: the PlayStation needs its BIOS: pass --bios "
                         f"PATH/{PSX_BIOS} (SCPH-5501, dumped from your own console)")
    if bios.name.lower() != PSX_BIOS:
        raise UsageError(f"--bios {bios}: Beetle PSX looks for the NTSC-U BIOS by the name "
                         f"{PSX_BIOS}; rename your dump")
    if not is_regular_file(bios):
        raise UsageError(f"--bios {bios}: no such file")
    return bios.parent


class LibretroMachine:
    """A libretro core playing ``content`` (the binding's session), its system RAM read."""

    def __init__(self, core: Any, content: Path, ram: RamMap,
                 system_folder: Path | None) -> None:
        self.core, self.content, self.ram = core, content, ram
        self.system_folder = system_folder
        self.emulator = f"libretro {core.emucore_label}"
        self._pad: Any = None
        self._stack = contextlib.ExitStack()

    def _inputs(self) -> Iterator[Any]:
        while True:
            yield self._pad

    def _paths(self, core: Any) -> Any:
        """Temporary save and system folders for the core, the system folder the BIOS's."""
        base = _binding().TempDirPathDriver
        if self.system_folder is None:
            return base(core)
        folder = os.fsencode(self.system_folder)

        class BiosFolder(base):
            @property
            def system_dir(self) -> bytes:
                return folder

        return BiosFolder(core)

    def __enter__(self) -> LibretroMachine:
        libretro = _binding()
        self._pad = libretro.JoypadState()
        builder = (libretro.defaults(self.core).with_content(str(self.content))
                   .with_input(self._inputs).with_log(None).with_paths(self._paths))
        with _stdout_to_stderr():
            try:
                self.session = self._stack.enter_context(builder.build())
            except Exception as exc:  # the binding raises RuntimeError and others
                raise UsageError(f"{self.content}: {self.core.emucore_label} did not load it "
                                 f"({_first_line(exc)})") from None
        self.memory = self._system_ram()
        if self.memory is None:
            self._stack.close()
            base, size = self.ram.system_ram
            raise UsageError(f"--core {self.core.emucore_label}: the core does not expose the "
                             f"system RAM (neither RETRO_MEMORY_SYSTEM_RAM of {size} bytes nor "
                             f"a memory map of {base:X}-{base + size - 1:X})")
        return self

    def _system_ram(self) -> memoryview | None:
        """The system RAM as the core exposes it: ``retro_get_memory_data`` (Gambatte, Beetle
        PSX), else the descriptors of its memory map when they lay the whole RAM out in one
        piece of the core's memory (mGBA maps the Game Boy's $C000 and $D000 banks so)."""
        base, size = self.ram.system_ram
        memory = self.core.get_memory(RETRO_MEMORY_SYSTEM_RAM)
        if memory is not None and len(memory) >= size:
            return memory
        maps = self.session.memory_maps
        pieces = sorted((d.start, d.len, (d.ptr or 0) + d.offset)
                        for d in (maps.descriptors[i] for i in range(maps.num_descriptors))
                        if not d.select and d.ptr and base <= d.start < base + size) \
            if maps else []
        if not pieces or pieces[0][0] != base:
            return None
        host, reach = pieces[0][2], base
        for start, length, where in pieces:
            if start != reach or where != host + (start - base):
                return None
            reach = start + length
        if reach < base + size:
            return None
        return memoryview((ctypes.c_ubyte * size).from_address(host)).cast("B")

    def __exit__(self, *_: object) -> None:
        with _stdout_to_stderr():
            self._stack.close()

    def step(self, word: int) -> None:
        self._pad = _binding().JoypadState(**{name: True for name in retropad(self.ram, word)})
        with _stdout_to_stderr():
            self.session.run()

    def read(self, r: Range) -> bytes:
        offset = self.ram.ram_offset(r)
        return bytes(self.memory[offset:offset + r.length])

    def insert_memory_card(self, card: bytes) -> None:
        """Put a memory card image in slot 1 before the first frame: the save RAM the core
        exposes (Beetle PSX: memory card 0, as frontends load its ``.srm``)."""
        memory = self.core.get_memory(RETRO_MEMORY_SAVE_RAM)
        if memory is None or len(memory) < len(card):
            raise UsageError(f"--core {self.core.emucore_label}: the core exposes no memory "
                             f"card of {len(card):,} bytes (RETRO_MEMORY_SAVE_RAM)")
        memory[:len(card)] = card

    def save(self) -> bytes:
        """The core's whole state (``retro_serialize``), to rewind to."""
        data = bytearray(self.core.serialize_size())
        if not data or not self.core.serialize(data):
            raise UsageError(f"--core {self.core.emucore_label}: the core cannot save its "
                             "state (retro_serialize), which landing a deal needs")
        return bytes(data)

    def restore(self, state: bytes) -> None:
        if not self.core.unserialize(state):
            raise UsageError(f"--core {self.core.emucore_label}: the core did not take back "
                             "a state it saved (retro_unserialize)")


class PyBoyMachine:
    """PyBoy playing a Game Boy cartridge, with no window and no sound; its bus read."""

    def __init__(self, content: Path, ram: RamMap) -> None:
        self.content, self.ram = content, ram
        self._held: set[str] = set()

    def __enter__(self) -> PyBoyMachine:
        try:
            import pyboy
        except ImportError:
            raise UsageError(f"PyBoy is not installed: {BINDING_HINT}") from None
        self.emulator = f"PyBoy {getattr(pyboy, '__version__', '')}".strip()
        try:
            self.pyboy = pyboy.PyBoy(str(self.content), window="null", sound_emulated=False,
                                     log_level="ERROR")
        except Exception as exc:  # PyBoy raises plain exceptions for bad cartridges
            raise UsageError(f"{self.content}: PyBoy did not load it ({exc})") from None
        return self

    def __exit__(self, *_: object) -> None:
        self.pyboy.stop(save=False)  # never write a .ram file beside the user's cartridge

    def step(self, word: int) -> None:
        held = {name.lower() for name in held_buttons(self.ram, word)}
        for name in sorted(self._held - held):
            self.pyboy.button_release(name)
        for name in sorted(held - self._held):
            self.pyboy.button_press(name)
        self._held = held
        self.pyboy.tick(1, False)

    def read(self, r: Range) -> bytes:
        return bytes(self.pyboy.memory[r.address:r.address + r.length])

    def save(self) -> bytes:
        state = io.BytesIO()
        self.pyboy.save_state(state)
        return state.getvalue()

    def restore(self, state: bytes) -> None:
        self.pyboy.load_state(io.BytesIO(state))
