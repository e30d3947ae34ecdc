"""``emucore capture record``: play a pad log on a real emulator and write the capture the Lua
scripts would have written.

The emulator (:mod:`emucore.capture.cores`) runs the user's own cartridge or disc one frame at
a time, the pad held as the pad log says for that frame (the format ``emucore play --record``
writes, :mod:`emucore.duel.padlog`; buttons by bit position in the map's pad layout).
After each frame the watched ranges of the system's :class:`~emucore.capture.rammap.RamMap`
are read, the moment ``mgba_capture.lua`` samples (its frame callback), and a record is added
whenever anything changed (:class:`~emucore.capture.fileformat.CaptureWriter`): the record's
frame is the number of frames run, its pad the word held during the last of them.

Before any frame runs the content is identified by its SHA-1, against the release the map
declares (``RamMap.release``: the one emucore's tables describe); tests pass a map whose
release is their own generated ROM. Ctrl-C stops the run after the frame in progress and
keeps the records so far as a capture whose header says ``partial``. The capture is written
once, at the end, through the writing edge.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from emucore.capture import cores
from emucore.capture.fileformat import CaptureWriter
from emucore.capture.rammap import RamMap, Range
from emucore.cliutil import UsageError
from emucore.duel import padlog as pad_script
from emucore.duel.files import (
    UserFileError,
    open_image,
    os_problem,
    read_bytes,
    read_text,
    write_atomic,
)
from emucore.planning.progress import Progress

SCRIPT = "emucore capture record 1"
MACHINE = {"GB": "gb", "PSX": "psx"}  # the pad log's machine (emucore.duel.padlog)
MAX_ROM_BYTES = 8 << 20  # the largest Game Boy cartridge
HASH_CHUNK = 1 << 22
_RECORDING = re.compile(r"# emucore recording: system (\w+)")
_CUE_FILE = re.compile(r'\s*FILE\s+"([^"]+)"\s+BINARY\s*$|\s*FILE\s+(\S+)\s+BINARY\s*$',
                       re.IGNORECASE)


@dataclass
class Outcome:
    """What a recording run produced."""

    frames: int          # frames run
    planned: int         # frames the pad log asked for
    records: int
    media: str
    emulator: str
    partial: bool
    reason: str | None = None  # why it stopped early


def load_pad(ram: RamMap, path: Path) -> pad_script.PadScript:
    """The pad log, checked for the system (a recording names the system it was made for)."""
    first = read_text(path).split("\n", 1)[0].strip()
    named = _RECORDING.match(first)
    if named and named.group(1) != ram.system:
        raise UserFileError(path, f"a pad log recorded for {named.group(1)}, not {ram.system}")
    return pad_script.load(MACHINE[ram.platform], path)


def _sha1_of_image(path: Path) -> str:
    """SHA-1 of a disc track, read through the image edge a piece at a time (it is ~500 MB)."""
    digest = hashlib.sha1()
    with open_image(path) as image:
        try:
            while chunk := image.read(HASH_CHUNK):
                digest.update(chunk)
        except OSError as exc:
            raise UserFileError(path, os_problem(exc)) from None
    return digest.hexdigest().upper()


def cue_track(cue: Path) -> Path:
    """The first data track a .cue sheet names (the file a disc's Redump hash is of)."""
    for line in read_text(cue, 1 << 20).splitlines():
        match = _CUE_FILE.match(line)
        if match:
            return cue.parent / (match.group(1) or match.group(2))
    raise UserFileError(cue, "names no FILE ... BINARY track (give the disc's .cue sheet)")


def content_sha1(ram: RamMap, content: Path) -> str:
    """SHA-1 of what the release's hash is of: the cartridge ROM, or a disc's first track."""
    if ram.platform == "GB":
        return hashlib.sha1(read_bytes(content, MAX_ROM_BYTES)).hexdigest().upper()
    if content.suffix.lower() != ".cue":
        raise UserFileError(content, "give the disc's .cue sheet (the core loads the disc "
                                     "from it)")
    return _sha1_of_image(cue_track(content))


def check_content(ram: RamMap, content: Path) -> str:
    """The ``media`` header value; UserFileError when the content is not the map's release."""
    release = ram.release
    sha1 = content_sha1(ram, content)
    if sha1 != release.sha1.upper():
        raise UserFileError(content, f"sha1 {sha1} is not {release.name} (sha1 "
                                     f"{release.sha1}, {release.content} of {release.size:,} "
                                     f"bytes): emucore's {ram.system} tables describe that "
                                     f"release only")
    return f"sha1:{sha1}"


def open_machine(ram: RamMap, core: str, content: Path, bios: Path | None
                 ) -> tuple[cores.Machine, str]:
    """The emulator for ``--core`` and the content's ``media`` value, checked in the order a
    tester fixes them (core, BIOS, content) but not started."""
    choice = cores.choose(core, ram)
    if choice.path is None:
        return cores.PyBoyMachine(content, ram), check_content(ram, content)
    loaded = cores.load_core(choice)
    folder = cores.check_bios(choice, bios)
    media = check_content(ram, content)
    return cores.LibretroMachine(loaded, content, ram, folder), media


def sample(ram: RamMap, machine: cores.Machine) -> tuple[dict[str, bytes], int | None]:
    """Every watched range and the RNG state, as they stand now."""
    ranges = {r.name: machine.read(r) for r in ram.ranges}
    if ram.rng_address is None:
        return ranges, None
    raw = machine.read(Range("rng", ram.rng_address, 4, None, "RNG state"))
    return ranges, int.from_bytes(raw, "little")


@contextlib.contextmanager
def stop_on_ctrl_c() -> Iterator[list[bool]]:
    """While recording, Ctrl-C (SIGINT) only raises a flag the frame loop reads between
    frames: an interrupt inside the core (a ctypes callback cannot raise) is never lost, and
    the frame in progress finishes, so the records kept are whole."""
    asked = [False]

    def ask(*_: object) -> None:
        asked[0] = True

    try:
        previous = signal.signal(signal.SIGINT, ask)
    except ValueError:  # not the main thread: Ctrl-C is not ours to catch
        yield asked
        return
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, previous)


def play(ram: RamMap, machine: cores.Machine, pads: pad_script.PadScript,
         writer: CaptureWriter, progress: Progress, asked: list[bool]) -> None:
    """Run the pad log's frames, adding a record after each (Ctrl-C stops the run after the
    frame in progress: the records so far are kept)."""
    hint = 0
    frame = 0
    while frame < pads.end and not asked[0]:
        (word, _), hint = pads.words_at(frame, hint)
        machine.step(word)
        frame += 1
        ranges, rng = sample(ram, machine)
        writer.add(frame, word, rng, ranges)
        progress.advance(1)


def record(ram: RamMap, core: str, content: Path, pad: Path, out: Path,
           bios: Path | None = None, force: bool = False, show_progress: bool = True,
           card: bytes | None = None) -> Outcome:
    """Record a capture of ``content`` on ``core`` playing ``pad`` into ``out`` (the caller
    has checked ``out`` with :func:`~emucore.duel.files.check_output`), with the memory
    card image ``card`` in slot 1 when given."""
    pads = load_pad(ram, pad)

    def drive(machine: cores.Machine, writer: CaptureWriter, asked: list[bool]
              ) -> tuple[int, str | None]:
        progress = Progress(pads.end, "frames", enabled=show_progress)
        play(ram, machine, pads, writer, progress, asked)
        progress.finish()
        frames = progress.done
        return frames, (f"interrupted after frame {frames} of {pads.end}"
                        if frames < pads.end else None)

    return _recording(ram, core, content, bios, out, force, pads.end, drive, card)


MEMORY_CARD_BYTES = 128 * 1024  # a PlayStation memory card: 16 blocks of 8 KiB
CARD_MAGIC = b"MC"  # its header frame's first bytes


def read_memory_card(path: Path) -> bytes:
    """A raw PlayStation memory card image (.mcr, .mcd, .srm: 128 KiB starting "MC")."""
    card = read_bytes(path, MEMORY_CARD_BYTES)
    if len(card) != MEMORY_CARD_BYTES or not card.startswith(CARD_MAGIC):
        raise UserFileError(path, f"not a raw memory card image ({MEMORY_CARD_BYTES:,} "
                                  "bytes whose header starts 'MC': .mcr, .mcd or .srm)")
    return card


def record_plan(ram: RamMap, core: str, content: Path, items: list, out: Path,
                card: bytes, bios: Path | None = None, force: bool = False,
                show_progress: bool = True, pad_out: Path | None = None) -> Outcome:
    """Record a capture of ``content`` on ``core`` playing a plan of
    :mod:`emucore.fm.padplan` (:mod:`emucore.capture.from_replay`), and with ``pad_out``
    the pad log it played; a plan the original stopped following keeps its capture so far,
    marked partial with the reason."""
    from emucore.capture import from_replay as F

    def drive(machine: cores.Machine, writer: CaptureWriter, asked: list[bool]
              ) -> tuple[int, str | None]:
        run = F.Run(ram, machine, writer, asked)
        progress = Progress(len(items), "presses", enabled=show_progress)
        why = None
        try:
            F.play(run, items, progress)
        except F.Interrupted:
            why = f"interrupted after frame {len(run.words)}"
        except F.Diverged as exc:
            why = f"the original left the plan: {exc}"
        progress.finish()
        if pad_out is not None and run.words:
            write_atomic(pad_out, F.pad_log(run.words), replace=force)
        return len(run.words), why

    return _recording(ram, core, content, bios, out, force, 0, drive, card)


def _recording(ram: RamMap, core: str, content: Path, bios: Path | None, out: Path,
               force: bool, planned: int, drive, card: bytes | None = None) -> Outcome:
    """Open the emulator (a memory card in slot 1 when given), let ``drive`` play it into a
    capture, write the capture."""
    machine, media = open_machine(ram, core, content, bios)
    with machine as running, stop_on_ctrl_c() as asked:
        if card is not None:
            insert = getattr(running, "insert_memory_card", None)
            if insert is None:
                raise UsageError(f"{running.emulator} takes no memory card: --memory-card "
                                 "is for a PlayStation core")
            insert(card)
        writer = CaptureWriter(ram, emulator=running.emulator, script=SCRIPT, media=media)
        frames, why = drive(running, writer, asked)
    if not writer.count:
        raise UsageError("stopped before the first frame: nothing recorded, nothing written"
                         + (f" ({why})" if why else ""))
    if why:
        writer.mark_partial(why)
    write_atomic(out, writer.text(), replace=force)
    return Outcome(frames, planned or frames, writer.count, media, running.emulator,
                   why is not None, why)
