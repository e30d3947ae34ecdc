"""The reading edge and the writing edge: every file a user hands emucore comes in here, and
every file emucore writes for a user goes out here.

Reading bounds what a small file can make us do (size, nesting depth, number sizes,
decompressed sizes), refuses what is not a regular file (a FIFO would block, ``/dev/zero``
never ends) and turns every OS error into a :class:`UserFileError`: one line naming the file
and what is wrong. The ``want_*`` helpers check decoded values field by field (a bool is
not an int).

Writing goes through a temporary file in the target's folder, flushed and fsynced, then
renamed over the target (and the folder fsynced), so a crash or a power cut leaves the old
file or the new one, never a mix. :func:`write_output` adds what a command's output needs:
it refuses to write onto one of the command's inputs, onto a symbolic link or a folder, or
onto an existing file unless the user asked for it (``--force``). Without ``--force`` the
finished file is published with a hard link, which fails when the name exists: the check
and the publication are one atomic step, so of several commands writing the same new file
at once exactly one succeeds and the others are refused in one line.
"""

from __future__ import annotations

import errno
import itertools
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from typing import Any, BinaryIO, TypeVar

    T = TypeVar("T")

MAX_FILE_BYTES = 64 << 20  # the largest user file read (a long replay is a few MB)
MAX_JSON_DEPTH = 32  # the deepest nesting any emucore JSON file needs is 5
MAX_INT_DIGITS = 24  # a JSON integer beyond this is refused before it is converted
MAX_INFLATED_BYTES = 1 << 20  # the largest decompressed blob (an FM state image is 8 KB)


class UserFileError(ValueError):
    """A file a user handed us is wrong. ``str()`` is one line naming the file and the problem."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{path}: {_one_line(message)}")
        self.path = str(path)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def os_problem(exc: OSError) -> str:
    """What an OS error means for a user, in a few words."""
    known = {errno.ENOENT: "no such file", errno.EACCES: "permission denied",
             errno.EPERM: "permission denied", errno.EISDIR: "is a folder",
             errno.ENOTDIR: "a part of the path is not a folder",
             errno.ELOOP: "too many levels of symbolic links",
             errno.ENAMETOOLONG: "file name too long", errno.ENOSPC: "no space left on device",
             errno.EROFS: "read-only file system", errno.EDQUOT: "disk quota exceeded",
             errno.EXDEV: "cannot rename across devices", errno.EEXIST: "already exists"}
    return known.get(exc.errno or 0, exc.strerror or exc.__class__.__name__)


# ----------------------------------------------------------------------------- reading
def _kind(path: Path | str, follow: bool = True) -> int | None:
    """The file-type bits of ``path`` (None when it is not there or cannot be looked at: a
    name too long, a loop of links, a folder without permission, a NUL byte in the name)."""
    try:
        return stat.S_IFMT((os.stat if follow else os.lstat)(path).st_mode)
    except (OSError, ValueError):
        return None


def exists(path: Path | str) -> bool:
    """Whether something is at ``path`` (through links); never an exception, so a check of a
    user's path cannot be a traceback (``Path.exists`` raises on a name too long)."""
    return _kind(path) is not None


def lexists(path: Path | str) -> bool:
    """Whether anything is at ``path`` itself, a dangling link included."""
    return _kind(path, follow=False) is not None


def is_regular_file(path: Path | str) -> bool:
    """Whether ``path`` names a regular file (through links); never an exception."""
    return _kind(path) == stat.S_IFREG


def is_folder(path: Path | str) -> bool:
    """Whether ``path`` names a folder (through links); never an exception."""
    return _kind(path) == stat.S_IFDIR


def read_bytes(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes, at most ``limit`` of them (:class:`UserFileError` otherwise)."""
    if str(path) == "":
        raise UserFileError("''", "empty file name")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UserFileError(path, os_problem(exc)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UserFileError(path, "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise UserFileError(path, "not a regular file")
        if info.st_size > limit:
            raise UserFileError(path, f"too large ({info.st_size} bytes, at most {limit})")
        chunks, total = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise UserFileError(path, f"too large (more than {limit} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise UserFileError(path, os_problem(exc)) from None
    finally:
        os.close(fd)


def read_text(path: Path | str, limit: int = MAX_FILE_BYTES) -> str:
    """A user's UTF-8 text file (a leading BOM dropped); :class:`UserFileError` if unreadable."""
    try:
        return read_bytes(path, limit).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserFileError(path, f"not UTF-8 text (byte {exc.start})") from None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _TooLarge(text)
    return int(text)


class _TooLarge(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, where: Path | str) -> Any:
    """JSON text to values with bounded integers and nesting (:class:`UserFileError`)."""
    import json  # here, as in every user of it below: a look-up that reads no JSON skips it

    try:
        data = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except RecursionError:
        raise UserFileError(where, f"not valid JSON (nested deeper than {MAX_JSON_DEPTH})") \
            from None
    except json.JSONDecodeError as exc:
        raise UserFileError(where, f"not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except _TooLarge:
        raise UserFileError(where, f"a number has more than {MAX_INT_DIGITS} digits") from None
    except ValueError as exc:
        raise UserFileError(where, f"not valid JSON ({exc})") from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise UserFileError(where, f"not valid JSON (nested deeper than {MAX_JSON_DEPTH})")
    return data


def _depth(data: Any) -> int:
    """Nesting depth of decoded JSON, without recursion."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            if depth > MAX_JSON_DEPTH:
                break
            todo += [(v, depth + 1) for v in (value.values() if isinstance(value, dict)
                                               else value)]
    return deepest


def read_json(path: Path | str, limit: int = MAX_FILE_BYTES) -> Any:
    """Parse a JSON file, raising :class:`UserFileError` for a missing or malformed one."""
    return parse_json(read_text(path, limit), path)


def parse_toml(text: str, where: Path | str) -> dict[str, Any]:
    """TOML text to values, bounded as :func:`parse_json` is: nesting, integer sizes, and no
    ``inf``/``nan`` (a float is never a count) (:class:`UserFileError`)."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise UserFileError(where, f"not valid TOML (nested deeper than {MAX_JSON_DEPTH})") \
            from None
    except tomllib.TOMLDecodeError as exc:
        raise UserFileError(where, f"not valid TOML ({exc})") from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise UserFileError(where, f"not valid TOML (nested deeper than {MAX_JSON_DEPTH})")
    for value in _leaves(data):
        if is_int(value) and len(str(abs(value))) > MAX_INT_DIGITS:
            raise UserFileError(where, f"a number has more than {MAX_INT_DIGITS} digits")
        if isinstance(value, float) and (value != value or abs(value) == float("inf")):
            raise UserFileError(where, f"{value} is not a number emucore takes")
    return data


def _leaves(data: Any) -> Iterable[Any]:
    """Every scalar of decoded JSON or TOML, without recursion."""
    todo = [data]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo += value.values()
        elif isinstance(value, list):
            todo += value
        else:
            yield value


def read_structured(path: Path | str, limit: int = MAX_FILE_BYTES) -> Any:
    """A JSON or TOML file (by its suffix: ``.toml``, else JSON), through the bounded readers."""
    text = read_text(path, limit)
    return parse_toml(text, path) if str(path).lower().endswith(".toml") \
        else parse_json(text, path)


MAX_LINE_BYTES = 1 << 16  # the longest line of a line-based input (a batch query, a journal)
SHOWN_CHARS = 60  # how much of a bad input a message quotes


def quoted(text: str) -> str:
    """A user's text for a message: at most :data:`SHOWN_CHARS` characters, then ``...``."""
    return repr(text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "...")


def stream_lines(stream: Any, where: str, longest: int = MAX_LINE_BYTES
                 ) -> Iterable[tuple[int, str | UserFileError]]:
    """The lines of a text stream (stdin, a pipe) as (line number, text without its end), read
    a bounded amount at a time: a line longer than ``longest`` characters is an error for
    that line only (its rest is skipped), so one huge line never holds memory."""
    number = 0
    while True:
        line = stream.readline(longest + 1)
        if not line:
            return
        number += 1
        if len(line) > longest and not line.endswith("\n"):
            while (rest := stream.readline(longest + 1)) and not rest.endswith("\n"):
                pass
            yield number, UserFileError(where, f"line {number}: longer than {longest} "
                                               "characters")
            continue
        yield number, line.rstrip("\r\n")


def read_lines(path: Path | str, limit: int = MAX_FILE_BYTES) -> list[tuple[int, str]]:
    """Non-empty lines with ``#`` comments removed, as (line number, text)."""
    out = []
    for number, raw in enumerate(read_text(path, limit).splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((number, line))
    return out


def inflate(blob: bytes, where: Path | str, limit: int = MAX_INFLATED_BYTES) -> bytes:
    """zlib-decompress at most ``limit`` bytes (a small blob may inflate to gigabytes)."""
    import zlib  # imported by the few commands that inflate (a look-up starts without it)

    try:
        inflater = zlib.decompressobj()
        out = inflater.decompress(blob, limit + 1)
    except zlib.error as exc:
        raise UserFileError(where, f"corrupt compressed data ({exc})") from None
    if len(out) > limit or inflater.unconsumed_tail:
        raise UserFileError(where, f"compressed data inflates past {limit} bytes")
    if not inflater.eof:
        raise UserFileError(where, "compressed data is cut short")
    return out


# ---------------------------------------------------------------------- typed fields
def is_int(value: Any) -> bool:
    """An integer that is not a bool (JSON ``true`` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def want_int(value: Any, what: str, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..hi`` (ValueError naming ``what``)."""
    if not is_int(value):
        raise ValueError(f"{what} must be an integer, not {_shown(value)}")
    if not lo <= value <= hi:
        raise ValueError(f"{what} {value} outside {lo}..{hi}")
    return value


def want_bool(value: Any, what: str) -> bool:
    """``value`` as a bool: ``true`` or ``false`` only (ValueError)."""
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {_shown(value)}")
    return value


def want_str(value: Any, what: str, longest: int = 1000) -> str:
    """``value`` as a string of at most ``longest`` characters (ValueError)."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, not {_shown(value)}")
    if len(value) > longest:
        raise ValueError(f"{what} longer than {longest} characters")
    return value


def want_int_list(value: Any, what: str, lo: int, hi: int, longest: int) -> list[int]:
    """``value`` as a list of at most ``longest`` ints in ``lo..hi`` (ValueError)."""
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, not {_shown(value)}")
    if len(value) > longest:
        raise ValueError(f"{what} holds {len(value)} values, at most {longest}")
    return [want_int(v, f"{what} entry {i + 1}", lo, hi) for i, v in enumerate(value)]


def want_dict(value: Any, what: str) -> dict[str, Any]:
    """``value`` as a JSON object (ValueError)."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object, not {_shown(value)}")
    return value


def decimal(text: str) -> int | None:
    """``text`` as a plain ASCII decimal number, else None (``'²'.isdigit()`` is true, and
    ``int()`` also takes ``'٣'``, ``'５'`` and ``'1_000'``; none of them is a card number)."""
    if text and len(text) <= MAX_INT_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def _shown(value: Any) -> str:
    if isinstance(value, bool | int | float | str | None):
        import json

        text = json.dumps(value)
    else:
        text = {"dict": "an object", "list": "a list"}.get(type(value).__name__,
                                                           type(value).__name__)
    return text if len(text) <= 40 else text[:37] + "..."


# ----------------------------------------------------------------------------- writing
def write_atomic(path: Path | str, data: bytes | str, *, replace: bool = True) -> None:
    """Write via a temporary file in the same folder, flushed and fsynced, then renamed over
    the target and the folder fsynced: a crash or a power cut leaves the old file or the new
    one. With ``replace=False`` the target must not exist when the file is published (a hard
    link that fails on an existing name: no second writer can slip in between a check and
    the rename). Any OS problem is a :class:`UserFileError` naming the file (the old file
    untouched)."""
    if str(path) == "":
        raise UserFileError("''", "empty file name")
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if not isinstance(payload, bytes):
        raise TypeError(f"write_atomic takes bytes or str, not {type(data).__name__}")
    tmp = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            raise UserFileError(target, "is a folder, not a file")
        import tempfile  # a writing command's: a look-up starts without it

        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:100]}.", suffix=".tmp",
                                   dir=target.parent)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if replace:
            os.replace(tmp, target)
            tmp = None
        else:
            _publish_new(tmp, target, path)
        _fsync_folder(target.parent)
    except OSError as exc:
        raise UserFileError(path, f"cannot write ({os_problem(exc)})") from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def _publish_new(tmp: str, target: Path, path: Path | str) -> None:
    """Give the finished temporary file ``tmp`` the name ``target``, which must not exist
    (else :class:`UserFileError`)."""
    if not rename_new(Path(tmp), target):
        raise UserFileError(path, "already exists (pass --force to replace it)")


NO_HARD_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK)


def rename_new(source: Path, target: Path) -> bool:
    """Rename ``source`` to ``target`` unless that name is taken (then False), never
    replacing a file: a hard link, then the old name removed; where the file system has no
    hard links, an exclusive create of ``target`` (the atomic claim) and a rename onto it.
    OS errors other than a taken name are raised."""
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        return False
    except OSError as exc:
        if exc.errno not in NO_HARD_LINKS:
            raise
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            return False
        try:
            os.replace(source, target)
        except OSError:
            target.unlink(missing_ok=True)  # our empty claim, nothing of the user's
            raise
        return True
    source.unlink()
    return True


def move_aside(path: Path, label: str) -> Path:
    """Rename the file ``path`` to the first free ``NAME.LABEL-N`` (N = 1, 2, ...), never
    replacing a file; the new path. OS errors are raised."""
    names = (path.with_name(f"{path.name}.{label}-{n}") for n in itertools.count(1))
    return next(aside for aside in names if rename_new(path, aside))


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: some file systems refuse)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output(path: Path | str, inputs: Iterable[Path | str | None] = (),
                 force: bool = False, makes_folder: bool = False) -> Path:
    """Refuse an output path that would lose a user's file or could not be written: empty,
    one of the command's ``inputs``, a symbolic link (even a dangling one), a folder, a device
    or a FIFO (not even with ``force``: a rename would replace the node, and as root even
    ``/dev/null``), an existing file without ``force``, or a place whose folder does not exist
    (a mistyped path is refused, not created), unless ``makes_folder``: a file of an
    output-folder argument, whose folder the write creates. Returns the path. Call it before
    the work, so nothing is wasted."""
    if str(path) == "":
        raise UserFileError("''", "empty output file name")
    target = Path(path)
    for source in inputs:
        if source is not None and str(source) != "" and _same_file(target, Path(source)):
            raise UserFileError(target, "is also an input of this command; "
                                        "choose another output file")
    try:
        if target.is_symlink():
            raise UserFileError(target, "is a symbolic link; not replaced (remove it first)")
        if target.is_dir():
            raise UserFileError(target, "is a folder, not a file")
        if os.path.lexists(target) and not stat.S_ISREG(os.lstat(target).st_mode):
            raise UserFileError(target, "is not a regular file; not replaced")
        if target.exists() and not force:
            raise UserFileError(target, "already exists (pass --force to replace it)")
        folder = target.parent
        if os.path.lexists(folder) and not folder.is_dir():
            raise UserFileError(target, f"{folder} is not a folder")
        if not makes_folder and not os.path.lexists(folder):
            raise UserFileError(target, f"no folder {folder} (create it first)")
    except OSError as exc:
        raise UserFileError(target, os_problem(exc)) from None
    return target


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def write_output(path: Path | str, data: bytes | str,
                 inputs: Iterable[Path | str | None] = (), force: bool = False) -> None:
    """A command's output file: :func:`check_output`, then :func:`write_atomic` (which, without
    ``force``, refuses a file that appeared meanwhile)."""
    write_atomic(check_output(path, inputs, force), data, replace=force)


def build_and_swap(out: Path | str, build: Callable[[Path], T],
                   inputs: Iterable[Path | str | None] = (),
                   check: Callable[[Path], object] | None = None) -> T:
    """Build a folder of outputs into a new sibling folder, ``check`` it, then swap it in for
    ``out``: on any failure ``out`` is untouched and the half-built folder removed. ``out``
    may not be (or hold) one of the command's inputs, nor a symbolic link."""
    import shutil  # a writing command's (with tempfile): a look-up starts without them
    import tempfile

    target = Path(out)
    if str(out) == "":
        raise UserFileError("''", "empty output folder name")
    for source in inputs:
        if source is not None and (_same_file(target, Path(source)) or
                                   _inside(Path(source), target)):
            raise UserFileError(target, "holds an input of this command; choose another "
                                        "output folder")
    if target.is_symlink():
        raise UserFileError(target, "is a symbolic link; not replaced (remove it first)")
    if target.exists() and not target.is_dir():
        raise UserFileError(target, "is a file, not a folder")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name[:100]}.new-", dir=target.parent))
    except OSError as exc:
        raise UserFileError(target, f"cannot create ({os_problem(exc)})") from None
    old = None
    try:
        result = build(fresh)
        if check is not None:
            check(fresh)
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name[:100]}.old-",
                                        dir=target.parent))
            os.replace(target, old / target.name)
        os.replace(fresh, target)
        fresh = None
    except OSError as exc:
        if old is not None and (old / target.name).exists() and not target.exists():
            os.replace(old / target.name, target)  # put the user's folder back
        raise UserFileError(target, f"cannot write ({os_problem(exc)})") from None
    finally:
        if fresh is not None:
            shutil.rmtree(fresh, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    _fsync_folder(target.parent)
    return result


def _inside(path: Path, folder: Path) -> bool:
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except (OSError, ValueError):
        return False


# ---- large images
MAX_IMAGE_BYTES = 1 << 30  # a CD image: 80 minutes of 2352-byte sectors is 847 MB


def open_image(path: Path | str, smallest: int = 1,
               largest: int = MAX_IMAGE_BYTES) -> BinaryIO:
    """Open a user's large image (a disc image, too large to read whole) for reads by
    offset: a regular file only (a FIFO would block, a device never end) of ``smallest`` to
    ``largest`` bytes by its size (a file of /proc or /sys says it holds none), else a
    :class:`UserFileError` naming the file. The caller closes it and turns an ``OSError`` of
    its reads into a :class:`UserFileError` with :func:`os_problem`."""
    if str(path) == "":
        raise UserFileError("''", "empty file name")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise UserFileError(path, os_problem(exc) if isinstance(exc, OSError)
                            else "bad file name") from None
    try:
        problem = _image_problem(os.fstat(fd), smallest, largest)
        if problem is None:
            return os.fdopen(fd, "rb")
    except OSError as exc:
        problem = os_problem(exc)
    os.close(fd)
    raise UserFileError(path, problem)


def _image_problem(info: os.stat_result, smallest: int, largest: int) -> str | None:
    """Why a file of this kind and size is no image of ``smallest`` to ``largest`` bytes."""
    if stat.S_ISDIR(info.st_mode):
        return "is a folder, not a file"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size == 0:
        return "is empty (0 bytes)"
    if info.st_size < smallest:
        return f"too small ({info.st_size} bytes, at least {smallest})"
    if info.st_size > largest:
        return f"too large ({info.st_size} bytes, at most {largest})"
    return None


# ---------------------------------------------------------------------------- journals
MAX_JOURNAL_LINE = MAX_FILE_BYTES  # the longest record of a journal (one chunk of results)
_JOURNAL_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _open_journal(path: Path | str, flags: int) -> int:
    """``path`` opened with ``flags`` as a journal: never through a symbolic link, a regular
    file only; any OS error a :class:`UserFileError` naming the file."""
    if str(path) == "":
        raise UserFileError("''", "empty file name")
    try:
        fd = os.open(path, flags | _JOURNAL_FLAGS, 0o666)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EEXIST) and os.path.islink(path):
            raise UserFileError(path, "is a symbolic link; not used as a journal") from None
        raise UserFileError(path, os_problem(exc)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise UserFileError(path, "is a folder, not a file" if stat.S_ISDIR(info.st_mode)
                            else "not a regular file")
    return fd


class Journal:
    """An append-only journal of JSON records, one a line, that a long command keeps so a
    stopped run can resume. ``new``: the file is created and must not exist yet (two runs
    never share one); else it must exist, and a torn last line (a kill in mid-write) is cut
    off. Opened with ``O_APPEND | O_NOFOLLOW`` (never through a symbolic link; every record
    lands at the end), and every record is fsynced before :meth:`append` returns: a kill or
    a power cut loses at most the record being written. Use it as a context manager."""

    def __init__(self, path: Path | str, *, new: bool) -> None:
        self.path = Path(path)
        flags = os.O_RDWR | os.O_APPEND | (os.O_CREAT | os.O_EXCL if new else 0)
        self._fd = _open_journal(path, flags)
        try:
            if new:
                _fsync_folder(self.path.parent)
            else:
                self._cut_torn_line()
        except OSError as exc:
            self.close()
            raise UserFileError(path, os_problem(exc)) from None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def empty(self) -> bool:
        """Whether the journal holds nothing yet (a new one, or one cut to nothing)."""
        return os.fstat(self._fd).st_size == 0

    def append(self, record: Any) -> None:
        """Add ``record`` as one JSON line, on disk when this returns."""
        import json

        line = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
        if len(line) > MAX_JOURNAL_LINE:
            raise UserFileError(self.path, f"a record of {len(line)} bytes is longer than a "
                                           f"journal line may be ({MAX_JOURNAL_LINE})")
        try:
            rest = memoryview(line)
            while rest:
                rest = rest[os.write(self._fd, rest):]
            os.fsync(self._fd)
        except OSError as exc:
            raise UserFileError(self.path, f"cannot write ({os_problem(exc)})") from None

    def close(self) -> None:
        """Close the file (again: nothing)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _cut_torn_line(self) -> None:
        """Cut the file after its last newline (every whole record ends with one), reading
        back from the end a block at a time."""
        size = end = os.fstat(self._fd).st_size
        while end > 0:
            begin = max(0, end - (1 << 16))
            newline = os.pread(self._fd, end - begin, begin).rfind(b"\n")
            if newline >= 0:
                end = begin + newline + 1
                break
            end = begin
        if end < size:
            os.ftruncate(self._fd, end)
            os.fsync(self._fd)


def journal_records(path: Path | str, longest: int = MAX_JOURNAL_LINE
                    ) -> Iterable[tuple[int, Any]]:
    """The records of a journal as (line number, value), read one line at a time: a regular
    file only (not a symbolic link, a FIFO or a folder), each line at most ``longest`` bytes
    and parsed with :func:`parse_json`'s bounds. A last line without its newline (torn by a
    kill) is left out; any other bad line is a :class:`UserFileError` naming the journal
    and the line."""
    with os.fdopen(_open_journal(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as stream:
        number = 0
        while True:
            try:
                line = stream.readline(longest + 1)
            except OSError as exc:
                raise UserFileError(path, os_problem(exc)) from None
            number += 1
            if not line.endswith(b"\n"):
                if len(line) > longest:
                    raise UserFileError(path, f"line {number}: longer than {longest} bytes")
                return  # the end, or a last line torn by a kill
            try:
                text = line[:-1].decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UserFileError(path, f"line {number}: not UTF-8 text (byte "
                                          f"{exc.start})") from None
            yield number, parse_json(text, f"{path}: line {number}")


def remove_journal(path: Path | str) -> None:
    """Remove a journal there is nothing left to resume from (a finished run's, or one no
    chunk was written to); a missing one is fine, any other problem one line."""
    try:
        Path(path).unlink(missing_ok=True)
    except OSError as exc:
        raise UserFileError(path, f"cannot remove ({os_problem(exc)})") from None
