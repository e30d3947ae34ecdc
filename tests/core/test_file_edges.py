"""Only the file edges touch the file system: every call in emucore/ that opens, writes,
renames or removes a file is in emucore/duel/files.py, or is one of the few listed here
with the reason it is not a user's file. A new command that opens a file itself fails here.

Source: the house rule (README, docs/ARCHITECTURE.md) that every file a user hands emucore
comes in through the reading edge and every file it writes goes out through the writing
edge. The calls are found by reading the source (ast), not by asking the modules."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "emucore"
EDGES = {"duel/files.py"}
# methods of Path (and file objects) that touch the file system
PATH_METHODS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "unlink",
                "rename", "mkdir", "touch", "symlink_to", "hardlink_to", "rmdir",
                # looking is touching too: Path.exists raises on a name too long (a 300-letter
                # --deck was a traceback); the edge's exists/is_regular_file/is_folder never do
                "exists", "is_file", "is_dir", "is_symlink", "stat", "lstat"}
# module functions that do, by module
MODULE_CALLS = {
    "os": {"open", "fdopen", "link", "replace", "rename", "remove", "unlink", "mkdir",
           "makedirs", "rmdir", "symlink", "truncate", "stat", "lstat"},
    "os.path": {"exists", "lexists", "isfile", "isdir", "islink", "getsize"},
    "shutil": None, "tempfile": None,  # every function
    "np": {"load", "save", "savez", "fromfile", "memmap"},
    "json": {"load", "dump"}, "tomllib": {"load"}, "pickle": {"load", "dump"},
    "pygame.image": {"load", "save"},
}
ALLOWED = {
    ("cliutil.py", "json.dump"): "prints a --json answer to stdout",
    ("compiled.py", "pxd.is_file"): "the package's own .pxd files",
    ("compiled.py", "pxd.read_text"): "the cimports of the package's own .pxd files",
    ("compiled.py", "candidate.is_file"): "the package's own cimported .pxd files",
    ("compiled.py", "path.is_file"): "the package's own compiled modules",
    ("compiled.py", "source.is_file"): "the package's own module sources",
    ("frontend/storage.py", "os.stat"): "the save edge's identity of the file it wrote or "
                                        "loaded (an OS error means: look again)",
    ("frontend/systems/dm1.py", "self.game.save_file.exists"): "SaveFile.exists, the save "
                                                               "edge's own check",
    ("frontend/systems/fm/title.py", "self.game.save_file.exists"): "the same",
    ("tables/builders/dm1.py", "reference / 'dm1'.is_dir"): "tools/build_tables.py reads the "
                                                            "project's reference facts",
    ("frontend/recording.py", "tempfile.TemporaryDirectory"): "a private data folder for a "
                                                              "recording's save, removed after",
    ("compiled.py", "source.read_bytes"): "hashes the package's own module sources",
    ("compiled.py", "declarations.read_bytes"): "hashes the package's own .pxd files",
    ("frontend/assets.py", "path.read_text"): "the project's own assets folder",
    ("frontend/display.py", "pygame.image.save"): "encodes a PNG into memory; the file is "
                                                  "written by write_atomic",
    ("tables/builders/__init__.py", "path.read_bytes"): "tools/build_tables.py reads the "
                                                        "project's reference facts",
    ("tables/builders/fm.py", "spec_dir / 'fm-ai.md'.read_text"): "the same",
    ("tables/builders/fm.py", "spec_dir / 'fm-engine.md'.read_text"): "the same",
    ("tables/builders/fm.py", "src / 'enums.json'.read_text"): "the same",
    ("tables/builders/fm.py", "SOURCES_DIR / 'fm.md'.read_text"): "the same",
}


def _calls(path: Path) -> set[str]:
    """The file-system calls of one module, as ``receiver.name`` (or ``open``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            found.add("open")
        elif isinstance(func, ast.Attribute):
            receiver = ast.unparse(func.value)
            if receiver in MODULE_CALLS:
                names = MODULE_CALLS[receiver]
                if names is None or func.attr in names:
                    found.add(f"{receiver}.{func.attr}")
            elif func.attr in PATH_METHODS and receiver not in ("self", "super()"):
                found.add(f"{receiver}.{func.attr}")
    return found


def _everywhere() -> set[tuple[str, str]]:
    out = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module not in EDGES:
            out |= {(module, call) for call in _calls(path)}
    return out


def test_only_the_edges_touch_files():
    outside = _everywhere() - set(ALLOWED)
    assert sorted(outside) == []


def test_the_allowed_list_is_current():
    """Each allowed call still exists (a stale entry would hide a new call of the same
    name)."""
    assert sorted(set(ALLOWED) - _everywhere()) == []


def test_the_scan_finds_what_it_looks_for(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import os, shutil\nopen('x')\nos.replace('a', 'b')\nshutil.rmtree('d')\n"
                     "p.write_text('x')\nself.open()\nplan.replace('a', 'b')\n")
    assert _calls(probe) == {"open", "os.replace", "shutil.rmtree", "p.write_text"}
