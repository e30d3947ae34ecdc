"""Every case listed under "Why" in the hardening issue, reproduced through the public surface:
bad or hostile user files and arguments give one line on stderr and exit 2 (never a
traceback, never exit 1, which means "verified and differs"), and no user file is lost.

Source of each expectation: the house rule "bad input: one line saying what is wrong and
where, exit code 2, no traceback; outputs never overwrite inputs; writes atomic"."""

from __future__ import annotations

import base64
import json
import os
import re
import zlib
from pathlib import Path

import numpy as np
import pytest

from emucore import cli
from emucore.duel import files
from emucore.duel import replay as R

REPO = Path(__file__).resolve().parents[2]
FM_GOLDEN = REPO / "tests" / "fm" / "golden" / "simon_seed1.json"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process; a crash fails the test with its traceback."""
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str, words: str = "") -> str:
    """The command must fail with exit 2 and exactly one line on stderr (holding ``words``)."""
    code, _, err = run(capsys, *argv)
    lines = err.strip().splitlines()
    assert code == 2, (argv, code, err)
    assert "Traceback" not in err and len(lines) == 1, err
    assert words.lower() in err.lower(), err
    return err


def _paper_replay(tmp_path: Path, capsys, deck: object) -> Path:
    path = tmp_path / "p.json"
    assert run(capsys, "replay", "record", "ocg1999", "--seed", "1", "--out", path)[0] == 0
    data = json.loads(path.read_text())
    data["setup"]["decks"][0] = deck
    path.write_text(json.dumps(data))
    return path


# --- 2. a replay names no files ------------------------------------------------------------
@pytest.mark.parametrize("deck", ["/etc/passwd", "/dev/zero", "deck.txt"])
def test_a_replay_deck_is_never_opened_as_a_file(tmp_path, capsys, deck):
    path = _paper_replay(tmp_path, capsys, deck)
    err = refused(capsys, "replay", "verify", path, words="unknown ocg1999 deck")
    assert "root:" not in err


def test_a_fifo_or_a_device_is_not_read(tmp_path, capsys):
    fifo = tmp_path / "deck.fifo"
    os.mkfifo(fifo)
    refused(capsys, "ocg1999", "duel", "--deck0", fifo, words="not a regular file")
    refused(capsys, "dm1", "deck", "/dev/zero", words="not a regular file")
    refused(capsys, "replay", "verify", tmp_path, words="is a folder")


# --- 3. bounded memory and loops ---------------------------------------------------------------
def test_a_state_that_inflates_to_gigabytes_is_refused_without_inflating(tmp_path, capsys):
    rec = json.loads(FM_GOLDEN.read_text())
    bomb = zlib.compressobj(9)
    blob = bomb.compress(b"\0" * (64 << 20)) + bomb.flush()  # 64 MiB of zeros in ~64 KB
    rec["steps"][0]["state"] = base64.b64encode(blob).decode()
    path = tmp_path / "bomb.json"
    path.write_text(json.dumps(rec))
    refused(capsys, "replay", "verify", path, words="state")  # too long to keep
    rec["steps"][0]["state"] = base64.b64encode(zlib.compress(b"\0" * (8 << 20))).decode()
    rec["steps"][0]["digest"] = "0" * 16  # the recorded state is needed for the diff
    path.write_text(json.dumps(rec))
    refused(capsys, "replay", "verify", path, words="inflates past")


def test_huge_copy_counts_in_deck_files(tmp_path, capsys):
    dm1 = tmp_path / "dm1.deck"
    dm1.write_text("200000000 x 1\n")
    refused(capsys, "dm1", "deck", dm1, words="copies")
    paper = tmp_path / "paper.deck"
    paper.write_text("200000000x Dark Magician\n")
    refused(capsys, "ocg1999", "deck", paper, words="copies")
    paper.write_text("99999999999x Dark Magician\n")
    refused(capsys, "ocg1999", "deck", paper)


@pytest.mark.parametrize("duelist", [True, False, 1.0, "1", [1]])
def test_an_fm_script_duelist_must_be_an_integer(tmp_path, capsys, duelist):
    script = json.loads(FM_GOLDEN.read_text())["setup"]
    script["duelist"] = duelist
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"setup": script, "actions": []}))
    refused(capsys, "fm", "duel", "--script", path, words="duelist")


def test_a_pool_too_small_for_a_deck_is_an_error_not_an_endless_draw():
    from emucore.fm import deck
    from emucore.hw.psyq_rand import Rand
    from emucore.tables import TableError

    weights = np.zeros(722, dtype=np.int64)
    weights[1:14] = 2048 // 13  # 13 cards x 3 copies = 39 < 40
    weights[1] += 2048 - weights.sum()
    with pytest.raises(TableError, match="only 13 cards"):
        deck.generate_pool_deck(Rand(1), weights)
    weights[:] = 0
    weights[721] = 2048  # weight only above id 720
    with pytest.raises(TableError, match="only 0 cards"):
        deck.generate_pool_deck(Rand(1), weights)


# --- 4. checked one way, applied another -----------------------------------------------------
def test_done_magic_must_be_a_bool(tmp_path, capsys):
    from emucore.duel.protocol import IllegalAction
    from emucore.fm.actions import Done
    from emucore.fm.replay import ADAPTER

    duel = ADAPTER.new_duel(json.loads(FM_GOLDEN.read_text())["setup"])
    before = duel.digest()
    with pytest.raises(IllegalAction):
        duel.step(Done(0, magic=1))  # type: ignore[arg-type]
    assert duel.digest() == before
    with pytest.raises(ValueError, match="true or false"):
        ADAPTER.decode_action({"kind": "done", "zone": 0, "magic": 1})


# --- 5. outputs never clobber ----------------------------------------------------------------
def test_outputs_refuse_inputs_existing_files_and_symlinks(tmp_path, capsys):
    rec = tmp_path / "r.json"
    rec.write_text(FM_GOLDEN.read_text())
    before = rec.read_bytes()
    refused(capsys, "capture", "import", rec, "--out", rec, words="also an input")
    refused(capsys, "capture", "verify", rec, "--report", rec, words="also an input")
    deck = tmp_path / "my.deck"
    deck.write_text("precious\n")
    refused(capsys, "fm", "starter", "--index", "0", "--out", deck, words="--force")
    assert deck.read_text() == "precious\n" and rec.read_bytes() == before
    assert run(capsys, "fm", "starter", "--index", "0", "--out", deck, "--force")[0] == 0
    assert deck.read_text().startswith("# starter deck")
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    refused(capsys, "replay", "record", "dm1", "--out", link, "--force", words="symbolic link")
    assert not (tmp_path / "elsewhere.json").exists()


@pytest.mark.parametrize("argv", [("ocg1999", "deck"), ("tcglite", "duel", "--deck0"),
                                  ("fm", "ai", "--disc"), ("fm", "effects", "--disc"),
                                  ("dm1", "duel", "--deck"), ("replay", "verify"),
                                  ("plan", "route")], ids=" ".join)
def test_a_name_too_long_for_the_system_is_one_line(argv, capsys):
    """A 300-letter path (longer than a file name may be) is refused in one line: looking at
    it is as careful as reading it (found by hand: ``ocg1999 deck xxx...`` was a traceback,
    ``Path.exists`` raising ENAMETOOLONG before the reading edge was reached)."""
    refused(capsys, *argv, "x" * 300)


def test_force_never_replaces_a_fifo_and_a_missing_folder_is_not_created(tmp_path, capsys):
    """Every command's ``--force`` replaces a regular file only: a FIFO given as ``--out`` is
    refused in one line and is still a FIFO (a rename would have put a file in its place; as
    root the same path replaced ``/dev/null``), and an output in a folder that does not exist
    is refused before any work, the folder not created (source: the README's promise that an
    output never replaces what is not a file; found by hand on ``fm starter`` and ``replay
    record``, which renamed a file over the FIFO)."""
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for argv in (("fm", "starter", "--index", "0"), ("replay", "record", "dm1")):
        refused(capsys, *argv, "--out", fifo, "--force", words="not a regular file")
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
        refused(capsys, *argv, "--out", tmp_path / "typo" / "x.out",
                words="no folder")
        assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize("where", ["", "folder", "file/under", "/proc/nope.json",
                                   "x" * 300 + ".json"])
def test_unwritable_output_paths(tmp_path, capsys, where):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    target = where if where.startswith("/") or not where else tmp_path / where
    refused(capsys, "replay", "record", "dm1", "--out", target)


def test_a_full_disk_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    """The screenshot case: a full disk used to truncate the old PNG and still say "wrote"."""
    import errno

    target = tmp_path / "shot.png"
    target.write_bytes(b"old picture")

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(files.UserFileError, match="no space left"):
        files.write_atomic(target, b"new picture")
    assert target.read_bytes() == b"old picture"
    assert [p.name for p in tmp_path.iterdir()] == ["shot.png"]


def test_bindings_never_replace_a_dangling_symlink(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("EMUCORE_CONFIG_DIR", str(tmp_path))
    (tmp_path / "bindings.json").symlink_to(tmp_path / "gone.json")
    code, out, _ = run(capsys, "play", "--write-bindings")
    assert code == 0 and "kept" in out and (tmp_path / "bindings.json").is_symlink()
    assert not (tmp_path / "gone.json").exists()


# --- 6. saves that crashed the game ----------------------------------------------------------
@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(tmp_path))
    return tmp_path


def _fm_save() -> dict:
    from emucore.frontend.systems.fm.session import FmGame
    game = FmGame()
    game.new_game()
    return game.data


@pytest.mark.parametrize("change", [{"records": {"1": ["a", "b"]}}, {"two_player": None},
                                    {"two_player": [0]}, {"starchips": True},
                                    {"trunk": {"²": 1}}])
def test_fm_saves_that_crashed_continue_are_kept_aside(data_dir, change):
    from emucore.frontend.systems.fm.session import FmGame
    data = {**_fm_save(), **change}
    path = data_dir / "fm" / "save.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data))
    message = FmGame().load()
    assert message and "corrupt save" in message
    assert (path.parent / "save.json.corrupt-1").exists()


def test_deeply_nested_save_and_bindings_do_not_stop_the_game(data_dir, tmp_path):
    from emucore.frontend import bindings
    from emucore.frontend.systems.ocg1999 import OCG, PaperGame
    path = data_dir / "ocg1999" / "save.json"
    path.parent.mkdir(parents=True)
    path.write_text("[" * 100_000 + "]" * 100_000)
    message = PaperGame(OCG).load()
    assert "corrupt save" in message and "nested" in message
    nested = tmp_path / "bindings.json"
    nested.write_text("[" * 100_000)
    loaded, warning = bindings.load("psx", nested)
    assert loaded is not None and "default bindings" in warning


def test_an_unreadable_save_is_not_called_corrupt_nor_moved(data_dir):
    from emucore.frontend.systems.ocg1999 import OCG, PaperGame
    path = data_dir / "ocg1999" / "save.json"
    path.mkdir(parents=True)  # a folder where the save should be: unreadable as a file
    message = PaperGame(OCG).load()
    assert "cannot read" in message and path.is_dir()


def test_saving_into_a_folder_that_is_a_file_reports_and_goes_on(data_dir, capsys):
    from emucore.frontend.systems.ocg1999 import OCG, PaperGame
    (data_dir / "ocg1999").write_text("not a folder")
    game = PaperGame(OCG)
    game.count(0)  # counts the win and saves: must not raise
    assert game.save_file.error and "cannot write" in game.save_file.error
    assert "could not save" in capsys.readouterr().err


# --- 7. tracebacks instead of one line -------------------------------------------------------
@pytest.mark.parametrize("text", ["[" * 50_000 + "]" * 50_000, '{"a": ' + "9" * 5000 + "}",
                                  "NaN", '{"format": "emucore-replay", "format_version": 1e999}'])
def test_hostile_json_is_one_line(tmp_path, capsys, text):
    path = tmp_path / "r.json"
    path.write_text(text)
    refused(capsys, "replay", "verify", path)
    refused(capsys, "fm", "duel", "--script", path)


@pytest.mark.parametrize("field, value", [
    ("action", []), ("action", {"kind": []}), ("action", {"kind": "end_turn", "rng_calls": 1.5}),
    ("state", 1.5), ("digest", 7), ("action", {"kind": "play", "hand": [], "cards": [[0]]}),
])
def test_wrong_step_field_types(tmp_path, capsys, field, value):
    data = json.loads(FM_GOLDEN.read_text())
    data["steps"][0][field] = value
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    refused(capsys, "replay", "verify", path)


@pytest.mark.parametrize("key, value", [("lp", 8000), ("first", 1.0), ("deck", [[0]]),
                                        ("state", 1.5), ("terrain", True),
                                        ("computer", [[1]]), ("computer", [True])])
def test_wrong_setup_field_types(tmp_path, capsys, key, value):
    data = json.loads(FM_GOLDEN.read_text())
    data["setup"][key] = value
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    refused(capsys, "replay", "verify", path)


@pytest.mark.parametrize("token", ["²", "٣", "５", "1_000"])
def test_unicode_digits_are_not_card_numbers_or_arguments(tmp_path, capsys, token):
    refused(capsys, "card", "fm", token, words="unknown card")
    refused(capsys, "fusion", "dm1", token, "1", words="unknown card")
    refused(capsys, "dm1", "stat", token, words="unknown card")
    refused(capsys, "rng", "at", token, words="malformed")
    refused(capsys, "dm1", "duel", "--seed", token, words="malformed")
    deck = tmp_path / "d.deck"
    deck.write_text(f"{token}\n" * 40)
    refused(capsys, "fm", "deal", "--duelist", "1", "--deck", deck, "--sort", "none",
            "--index", "0", words="unknown card")


def test_custom_tables_that_are_wrong_are_one_line(tmp_path, capsys, monkeypatch):
    import shutil

    from emucore import tables
    root = tmp_path / "t"
    shutil.copytree(REPO / "roms_tables", root)
    monkeypatch.setenv("EMUCORE_TABLES", str(root))
    cards = root / "dm1" / "cards.csv"
    lines = cards.read_text().splitlines()
    head = lines[1].split(",")
    head[4] = "99999999999999999999999"  # atk
    cards.write_text("\n".join([lines[0], ",".join(head), *lines[2:]]) + "\n")
    tables._load_cached.cache_clear()
    refused(capsys, "tables", "check", words="cards.csv")
    cards.unlink()
    cards.mkdir()
    refused(capsys, "tables", "check", words="is a folder")
    cards.rmdir()
    cards.symlink_to(cards)
    refused(capsys, "tables", "check", words="symbolic links")
    monkeypatch.setenv("EMUCORE_TABLES", str(REPO / "README.md"))
    refused(capsys, "tables", "check", words="not a folder")
    tables._load_cached.cache_clear()


# --- 8. accepted but wrong -------------------------------------------------------------------
@pytest.mark.parametrize("key, value", [("steps", {}), ("format_version", True),
                                        ("engine_version", "1"), ("rng_version", None),
                                        ("system", "nes"), ("setup", [])])
def test_malformed_replay_headers(tmp_path, capsys, key, value):
    path = tmp_path / "d.json"
    assert run(capsys, "replay", "record", "dm1", "--seed", "3", "--out", path)[0] == 0
    data = json.loads(path.read_text())
    data[key] = value
    path.write_text(json.dumps(data))
    refused(capsys, "replay", "verify", path)


def test_replay_verify_prints_the_same_json_for_every_system(tmp_path, capsys):
    """Issue 12 item 5: one command, dispatching on the file's system field."""
    keys = set()
    for system in ("fm", "dm1", "ocg1999", "tcglite"):
        path = tmp_path / f"{system}.json"
        if system == "fm":
            path.write_text(FM_GOLDEN.read_text())
        else:
            assert run(capsys, "replay", "record", system, "--out", path)[0] == 0
        code, out, _ = run(capsys, "replay", "verify", path, "--json")
        data = json.loads(out)
        assert code == 0 and data["system"] == system and data["ok"] and data["steps"] > 0
        keys.add(tuple(sorted(data)))
        alias = run(capsys, system, "replay", "verify", path, "--json")
        assert alias[0] == 0 and json.loads(alias[1]) == data
    assert keys == {("file", "mismatch", "ok", "steps", "system")}


def test_a_differing_replay_is_exit_1_with_step_and_fields(tmp_path, capsys):
    rec = R.load(FM_GOLDEN)
    rec.steps[4].digest = "0" * 16
    path = tmp_path / "bad.json"
    rec.save(path)
    code, out, _ = run(capsys, "replay", "verify", path, "--json")
    data = json.loads(out)
    assert code == 1 and data["mismatch"]["step"] == 5 and not data["ok"]


def test_found_by_fuzzing_script_kinds_and_an_unfinished_duel(tmp_path, capsys):
    """Found by tests/core/test_fuzz_inputs.py: a script action whose kind is a list (fm duel)
    and an empty paper script (an unfinished duel's text) raised TypeErrors."""
    fm = tmp_path / "fm.json"
    fm.write_text(json.dumps({"setup": json.loads(FM_GOLDEN.read_text())["setup"],
                              "actions": [{"kind": []}]}))
    refused(capsys, "fm", "duel", "--script", fm, words="unknown action kind")
    paper = tmp_path / "paper.json"
    paper.write_text("[]")
    code, out, _ = run(capsys, "ocg1999", "duel", "--script", paper)
    assert code == 0 and "result: unfinished" in out


def test_tables_check_refuses_a_deck_pool_that_cannot_deal_a_deck(tmp_path, capsys,
                                                                   monkeypatch):
    """Issue 17 "Why" 3: custom tables whose duelist has fewer than 14 dealable cards passed
    `tables check` and then dealt forever."""
    import shutil

    root = tmp_path / "t"
    shutil.copytree(REPO / "roms_tables", root)
    pools = root / "fm" / "pools.csv"
    lines = pools.read_text().splitlines()
    header, rows = lines[0], [r for r in lines[1:] if not r.startswith("1,deck,")]
    weights = [2048 // 13] * 13
    weights[0] += 2048 - sum(weights)
    rows += [f"1,deck,{card},{w}" for card, w in enumerate(weights, start=1)]
    pools.write_text("\n".join([header, *rows]) + "\n")
    monkeypatch.setenv("EMUCORE_TABLES", str(root))
    refused(capsys, "tables", "check", words="duelist 1's deck pool has weight on 13 cards")


def test_a_disc_image_that_is_a_fifo_is_refused(tmp_path, capsys):
    fifo = tmp_path / "disc.bin"
    os.mkfifo(fifo)
    refused(capsys, "fm", "ai", "--disc", fifo, words="not a regular file")


def test_a_pool_too_thin_to_deal_stops_at_the_roll_bound(monkeypatch):
    """Every draw-until loop has a bound: 14 dealable cards, 13 of them with weight 1."""
    from emucore.fm import deck
    from emucore.hw.psyq_rand import Rand
    from emucore.tables import TableError

    monkeypatch.setattr(deck, "MAX_DEAL_ROLLS", 2000)
    weights = np.zeros(722, dtype=np.int64)
    weights[1:14] = 1
    weights[14] = 2048 - 13
    with pytest.raises(TableError, match="2000 rolls dealt only"):
        deck.generate_pool_deck(Rand(5), weights)


def test_a_table_that_crashed_numpys_reader_is_one_line(tmp_path):
    """Found by the fuzz profile: fm/pools.csv with one row's first cell a 4-byte UTF-8
    character made numpy's C reader (np.loadtxt) crash the process (a segmentation fault).
    Run in a child process so a regression fails this test instead of the whole run."""
    import shutil
    import subprocess
    import sys

    root = tmp_path / "t"
    shutil.copytree(REPO / "roms_tables", root)
    pools = root / "fm" / "pools.csv"
    lines = pools.read_text().split("\n")
    lines[533] = "\U000ccb45" + lines[533][lines[533].index(","):]
    pools.write_text("\n".join(lines), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "emucore.cli", "tables", "check"],
                          env={**os.environ, "EMUCORE_TABLES": str(root)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr.count("\n") == 1 and "pools.csv line 534" in done.stderr


# --- 8. a disc image is opened through the reading edge (emucore.duel.files.open_image) ------
def test_a_pseudo_file_given_as_the_disc_is_one_line(capsys):
    """The issue's reproduction: ``fm duel --disc /proc/self/mem`` gave an OSError traceback.
    /proc/self/mem is a "regular" file that says it holds 0 bytes: refused by its size,
    before any read."""
    refused(capsys, "fm", "duel", "--disc", "/proc/self/mem", "--script", FM_GOLDEN,
            words="/proc/self/mem: cannot read the disc image: is empty (0 bytes)")


def test_a_disc_image_larger_than_any_cd_is_refused_unread(tmp_path, capsys):
    """A disc image is read by sector, never whole; one over MAX_IMAGE_BYTES (a CD holds at
    most about 850 MB) is refused by its size (a sparse file: no disk is used)."""
    image = tmp_path / "huge.bin"
    with image.open("wb") as handle:
        handle.truncate(files.MAX_IMAGE_BYTES + 1)
    refused(capsys, "fm", "ai", "--disc", image,
            words=f"too large ({files.MAX_IMAGE_BYTES + 1} bytes")


def test_a_read_error_inside_a_disc_image_is_one_line(tmp_path, capsys, monkeypatch):
    """Every OSError of the sector reads becomes one line naming the image."""
    import errno
    import io

    from emucore.fm import disc

    class Failing(io.BytesIO):
        def read(self, size: int = -1) -> bytes:
            raise OSError(errno.EIO, "Input/output error")

    image = tmp_path / "fm.bin"
    image.write_bytes(bytes(disc.SMALLEST_IMAGE))
    monkeypatch.setattr(disc, "open_image", lambda path, smallest: Failing())
    refused(capsys, "fm", "ai", "--disc", image,
            words=f"{image}: cannot read the disc image (Input/output error)")


def test_open_image_opens_only_regular_files_of_an_image_size(tmp_path):
    """The edge refuses what a sector reader must not open (a FIFO would block, a folder is
    named as one) and sizes outside the caller's bounds; a good file reads by offset."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    image = tmp_path / "image.bin"
    image.write_bytes(bytes(range(256)) * 16)
    for path, smallest, words in ((fifo, 1, "not a regular file"),
                                  (tmp_path, 1, "is a folder"),
                                  (tmp_path / "none", 1, "no such file"),
                                  (image, 4097, "too small (4096 bytes, at least 4097)")):
        with pytest.raises(files.UserFileError, match=re.escape(f"{path}: {words}")):
            files.open_image(path, smallest)
    with files.open_image(image, 4096) as handle:
        handle.seek(300)
        assert handle.read(2) == bytes([44, 45])


# --- 9. the DM1 ROM extractor checks every index it reads ----------------------------------
def _extractor_kit():
    """tools/extract_dm1_rom.py and its test's synthetic ROM (our own tables laid out as the
    cartridge: tests/dm1/test_dm1_extract_rom.py)."""
    import importlib.util

    path = REPO / "tests" / "dm1" / "test_dm1_extract_rom.py"
    spec = importlib.util.spec_from_file_location("dm1_extract_rom_kit", path)
    kit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kit)
    return kit


def _point(at: int, value: int):
    """A mutation that writes the u16 ``value`` at ROM offset ``at``."""
    def mutate(rom: bytearray, x) -> None:
        rom[at:at + 2] = value.to_bytes(2, "little")
    return mutate


def _byte(at: int, value: int):
    def mutate(rom: bytearray, x) -> None:
        rom[at] = value
    return mutate


def _count_down(rom: bytearray, x) -> None:
    """Deck table 0 counting to 2048 at card 1, so card 2's weight is negative."""
    at = x.file_offset(x.DECK_BANK, x._u16(rom, x.DECK_POINTERS, 1)[0])
    rom[at:at + 2] = (2048).to_bytes(2, "little")


@pytest.mark.parametrize("mutate, words", [
    (_byte(0x0B734 + 3, 17), "opponent 3 has pool id 17 at 0x0B737 (the deck tables are 0..16)"),
    (_byte(0x0B734, 255), "opponent 0 has pool id 255"),
    (_point(0x2006C + 2 * 5, 0xFFFF), "deck table 5 pointer 0xFFFF is outside bank 8"),
    (_point(0x2006C, 0x0100), "deck table 0 pointer 0x0100 is outside bank 8"),
    (_point(0x26BC8 + 2 * 4, 0x3FFF), "equip list of card 305 pointer 0x3FFF is outside bank 9"),
    (_byte(0x2409E + 9, 21), "card 10 has type byte 21 at 0x240A7 (the types are 0..20)"),
    (_count_down, "counts down at card 2"),
], ids=["pool-id-17", "pool-id-255", "deck-pointer-high", "deck-pointer-low",
        "equip-pointer", "type-byte", "weights-count-down"])
def test_a_rom_with_a_bad_index_is_one_line_naming_the_rom(tmp_path, capsys, mutate, words):
    """The issue's reproduction: a ROM whose pool ids are mutated stopped the extractor with
    an IndexError traceback (``pools[pool_ids[i]]``). Every index read from the ROM is checked
    against the table it indexes; the message names the ROM; the old tables are kept."""
    import hashlib
    import io
    from contextlib import redirect_stderr

    kit = _extractor_kit()
    x = kit.x
    rom = bytearray(kit.synthetic_rom())
    mutate(rom, x)
    image = kit._resign(rom)
    path = tmp_path / "mutated.gb"
    path.write_bytes(image)
    out = tmp_path / "dm1"
    out.mkdir()
    (out / "keep.csv").write_text("the user's tables\n")
    err = io.StringIO()
    with redirect_stderr(err):
        code = x.main([str(path), "--out", str(out), "--accept-sha1",
                       hashlib.sha1(image).hexdigest()])
    lines = err.getvalue().strip().splitlines()
    assert code == 2 and len(lines) == 1, err.getvalue()
    assert lines[0].startswith(f"extract_dm1_rom: error: {path}: ") and words in lines[0]
    assert sorted(p.name for p in out.iterdir()) == ["keep.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dm1", "mutated.gb"]
