"""Fuzzing every user file kind and every CLI argument type through the ``emucore`` command.

Structured fuzzing: valid files (replays of all four systems, duel scripts, deck files,
captures, saves, bindings, pad logs, table CSVs, the ``duel_effects`` overlay on a synthetic
disc and as a folder's ``duel_effects.bin``) are mutated where their structure lives (a
JSON value replaced by any JSON value, a key dropped, a CSV cell or a line rewritten, an
overlay's table bytes overwritten), plus raw bytes. Every example asserts the house rules:
exit 0, 1 (only for verify commands) or 2; for 2 exactly one line on stderr and never a
traceback; no input file changed; no partial output (a failed command leaves no new file).

The normal run uses few examples per test (the ``default`` profile). ``pytest -m fuzz`` (or
``EMUCORE_FUZZ=1``) switches to the ``fuzz`` profile: ``EMUCORE_FUZZ_EXAMPLES`` examples per
test (default 400); the per-kind counts are written to ``EMUCORE_FUZZ_REPORT`` if set."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from emucore import cli

pytestmark = pytest.mark.fuzz

REPO = Path(__file__).resolve().parents[2]
FM_GOLDEN = REPO / "tests" / "fm" / "golden" / "simon_seed1.json"
RUNS: Counter[str] = Counter()
_EXAMPLE = itertools.count()
FINDINGS: Counter[str] = Counter()

settings.register_profile("default", max_examples=12, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.function_scoped_fixture])
settings.register_profile("fuzz", max_examples=int(os.environ.get("EMUCORE_FUZZ_EXAMPLES",
                                                                  "400")),
                          deadline=None, suppress_health_check=list(HealthCheck))
FUZZ = bool(os.environ.get("EMUCORE_FUZZ"))
settings.load_profile("fuzz" if FUZZ else "default")


# --------------------------------------------------------------------------- strategies
json_scalar = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                        st.floats(allow_nan=False), st.text(max_size=12),
                        st.sampled_from(["²", "٣", "５", "1_000", "/etc/passwd", "/dev/zero",
                                         "-1", "0x10", "", "magician", "yugi"]))
json_value = st.recursive(json_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def _paths(data: object, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON tree (as a key path), the root included."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:6]):  # the first steps are enough
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated_json(draw: st.DrawFn, base: object) -> str:
    """``base`` with one to three places replaced by any JSON value or removed; or raw text."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(st.text(max_size=60), st.just("[" * 5000),
                              st.just('{"format": "emucore-replay", "format_version": 1'),
                              st.just("9" * 5000)))
    data = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        places = _paths(data)
        path = draw(st.sampled_from(places))
        if not path:
            data = draw(json_value)
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and draw(st.booleans()) and draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(json_value)
    return json.dumps(data)


@st.composite
def deck_text(draw: st.DrawFn) -> str:
    token = st.one_of(st.integers(-5, 800).map(str), st.sampled_from(
        ["Dark Magician", "Mystical Elf", "B-Eye White Dragon", "²", "٣", "５", "1_000",
         "#1", "[side]", "[fusion]", "[main]", "# note", "", "Mystical Sheep #2"]),
        st.text(max_size=15))
    count = st.one_of(st.just(""), st.integers(0, 300).map(lambda n: f"{n}x "),
                      st.integers(0, 300).map(lambda n: f"{n} x "),
                      st.just("200000000 x "), st.just("99999999999x "))
    lines = draw(st.lists(st.tuples(count, token).map("".join), max_size=45))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


@st.composite
def mutated_lines(draw: st.DrawFn, base: str) -> str:
    """A line-based file with one or two lines rewritten, dropped or duplicated."""
    lines = base.split("\n")
    for _ in range(draw(st.integers(1, 2))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.integers(0, 3))
        if how == 0:
            lines[i] = draw(st.text(max_size=40))
        elif how == 1:
            del lines[i]
            if not lines:
                lines = [""]
        elif how == 2:
            lines.insert(i, lines[i])
        else:
            line = lines[i]
            j = draw(st.integers(0, max(len(line) - 1, 0)))
            lines[i] = line[:j] + draw(st.text(max_size=3)) + line[j + 1:]
    return "\n".join(lines)


# ------------------------------------------------------------------------------ harness
def _tree(folder: Path) -> dict[str, bytes | None]:
    out: dict[str, bytes | None] = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink() or p.is_dir():
            out[str(p.relative_to(folder))] = None
        else:
            out[str(p.relative_to(folder))] = p.read_bytes()
    return out


def run_cli(kind: str, argv: list[str], folder: Path, outputs: tuple[str, ...] = (),
            verdict: bool = False) -> int:
    """Run ``emucore argv`` and check the house rules (see the module docstring)."""
    before = _tree(folder)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse usage: exit 2 with usage lines
            code = exc.code
    text = err.getvalue()
    RUNS[kind] += 1
    allowed = (0, 1, 2) if verdict else (0, 2)
    if code not in allowed or "Traceback" in text or "internal error" in text:
        FINDINGS[f"{kind}: traceback or bad exit"] += 1
        _dump(kind, argv, folder, before, text)
    assert code in allowed, (argv, code, text)
    assert "Traceback" not in text and "internal error" not in text, (argv, text)
    if code == 2 and "usage:" not in text:
        assert len(text.strip().splitlines()) == 1, (argv, text)
    after = _tree(folder)
    for name, data in before.items():
        if name in outputs:  # an existing file the command may replace (with --force)
            continue
        if after.get(name, b"gone") != data:
            FINDINGS[f"{kind}: changed input"] += 1
        assert after.get(name, b"gone") == data, f"{name} changed or vanished"
    new = set(after) - set(before)
    if code != 0 and new:
        FINDINGS[f"{kind}: partial output"] += 1
    assert code == 0 or not new, f"a failed command left {new}"
    assert new <= set(outputs), f"unexpected new files {new}"
    return code


def _dump(kind: str, argv: list[str], folder: Path, files: dict, stderr: str) -> None:
    """With EMUCORE_FUZZ_DUMP=DIR, keep a failing example (argv, stderr, inputs) there."""
    target = os.environ.get("EMUCORE_FUZZ_DUMP")
    if not target:
        return
    case = Path(target) / f"{sum(FINDINGS.values()):04d}"
    case.mkdir(parents=True, exist_ok=True)
    (case / "case.txt").write_text(f"{kind}\n{argv}\n\n{stderr}")
    for name, data in files.items():
        if data is not None:
            (case / name.replace("/", "_")).write_bytes(data)


@pytest.fixture(scope="module")
def bases(tmp_path_factory) -> dict[str, object]:
    """Valid files of each kind to mutate."""
    folder = tmp_path_factory.mktemp("bases")
    out: dict[str, object] = {"fm": json.loads(FM_GOLDEN.read_text())}
    with contextlib.redirect_stdout(io.StringIO()):
        for system, extra in (("dm1", ["--seed", "3"]), ("ocg1999", ["--seed", "5"]),
                              ("tcglite", [])):
            path = folder / f"{system}.json"
            assert cli.main(["replay", "record", system, *extra, "--out", str(path)]) == 0
            data = json.loads(path.read_text())
            data["steps"] = data["steps"][:8]
            out[system] = data
    return out


@pytest.fixture
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _fresh(work: Path) -> Path:
    """An empty folder per example (examples share the test's tmp folder)."""
    folder = work / f"ex{next(_EXAMPLE)}"
    folder.mkdir()
    return folder


# --------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("system", ["fm", "dm1", "ocg1999", "tcglite"])
@given(data=st.data())
def test_replay_files(bases, work, system, data):
    folder = _fresh(work)
    path = folder / "r.json"
    path.write_text(data.draw(mutated_json(bases[system])))
    run_cli(f"replay ({system}) / replay verify", ["replay", "verify", str(path), "--json"],
            folder, verdict=True)


@given(data=st.data())
def test_fm_scripts(bases, work, data):
    folder = _fresh(work)
    script = {"setup": bases["fm"]["setup"],
              "actions": [s["action"] for s in bases["fm"]["steps"][:6]]}
    path = folder / "s.json"
    path.write_text(data.draw(mutated_json(script)))
    run_cli("fm script / fm duel", ["fm", "duel", "--script", str(path), "--max-steps", "50"],
            folder)


# plan manip --last-turn plays the duel of its file: a step of the fm replay (--step 4 is the
# player's hand phase, 1 the CPU's turn, 64 the end, 65 beyond it) or a state image
LAST_TURN = ["plan", "manip", "--last-turn", "--max-cards", "1", "--budget", "150"]


@given(data=st.data())
def test_last_turn_replays(bases, work, data):
    folder = _fresh(work)
    path = folder / "r.json"
    path.write_text(data.draw(mutated_json(bases["fm"])))
    step = data.draw(st.sampled_from(["4", "4", "8", "1", "-1", "64", "65", "-66"]))
    run_cli("fm replay / plan manip --last-turn --replay",
            [*LAST_TURN, "--replay", str(path), "--step", step, "--json"], folder)


@st.composite
def mutated_state(draw: st.DrawFn) -> bytes:
    """The player's hand-phase state image of the fm replay with one to four runs of bytes
    overwritten, or cut or grown; or any bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=300))
    base = _state_base()
    return _overwritten(draw, base, st.integers(0, len(base) - 1))


def _overwritten(draw: st.DrawFn, base: bytes, where: st.SearchStrategy[int]) -> bytes:
    """``base`` with one to four runs of bytes overwritten at offsets drawn from ``where``,
    then mostly kept whole, sometimes cut or grown by a byte."""
    image = bytearray(base)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(where)
        run = draw(st.binary(min_size=1, max_size=8))
        image[at:at + len(run)] = run
    size = draw(st.sampled_from([len(image)] * 6 + [0, 100, len(image) - 1]))
    return bytes(image[:size]) + draw(st.sampled_from([b"", b"", b"\x00"]))


_STATE: list[bytes] = []


def _state_base() -> bytes:
    if not _STATE:
        from emucore.duel import replay

        _STATE.append(replay.load(FM_GOLDEN).steps[4].state)
    return _STATE[0]


@given(data=st.data())
def test_last_turn_snapshots(work, data):
    folder = _fresh(work)
    path = folder / "s.state"
    path.write_bytes(data.draw(mutated_state()))
    want = data.draw(st.sampled_from([[], ["--want", "1"], ["--want", "Mystical Elf"]]))
    run_cli("state image / plan manip --last-turn --snapshot",
            [*LAST_TURN, "--snapshot", str(path), *want], folder)


@given(data=st.data())
def test_paper_scripts(bases, work, data):
    folder = _fresh(work)
    path = folder / "s.json"
    path.write_text(data.draw(mutated_json([s["action"] for s in bases["ocg1999"]["steps"]])))
    run_cli("paper script / ocg1999 duel", ["ocg1999", "duel", "--script", str(path)], folder)


@pytest.mark.parametrize("command", [
    ("fm deck / fm deal", ["fm", "deal", "--duelist", "3", "--sort", "none", "--index", "0",
                           "--deck"]),
    ("dm1 deck / dm1 deck", ["dm1", "deck"]),
    ("dm1 deck / dm1 duel --deck", ["dm1", "duel", "--deck"]),
    ("paper deck / ocg1999 deck", ["ocg1999", "deck"]),
    ("paper deck / tcglite duel --deck0", ["tcglite", "duel", "--deck0"]),
], ids=lambda c: c[0] if isinstance(c, tuple) else None)
@given(text=deck_text())
def test_deck_files(work, command, text):
    folder = _fresh(work)
    path = folder / "my.deck"
    path.write_text(text, encoding="utf-8")
    run_cli(command[0], [*command[1], str(path)], folder)


@given(data=st.data())
def test_capture_files(work, data):
    sys.path.insert(0, str(REPO / "tests" / "capture"))
    from capture_synth import synth_fm

    base = _capture_base(synth_fm)
    folder = _fresh(work)
    path = folder / "d.cap"
    path.write_text(data.draw(mutated_lines(base)), encoding="utf-8")
    run_cli("capture / capture verify", ["capture", "verify", str(path)], folder,
            verdict=True)


_CAPTURE: list[str] = []


def _capture_base(synth) -> str:
    if not _CAPTURE:
        _CAPTURE.append(synth(steps=3).text)
    return _CAPTURE[0]


@given(data=st.data())
def test_capture_import_outputs(work, data):
    sys.path.insert(0, str(REPO / "tests" / "capture"))
    from capture_synth import synth_fm

    folder = _fresh(work)
    path = folder / "d.cap"
    path.write_text(data.draw(st.one_of(st.just(_capture_base(synth_fm)),
                                        mutated_lines(_capture_base(synth_fm)))))
    out = data.draw(st.sampled_from(["r.json", "d.cap", "", "sub/r.json", "d.cap/x"]))
    run_cli("capture / capture import --out", ["capture", "import", str(path), "--out",
                                                 str(folder / out) if out else ""],
            folder, outputs=("r.json", "sub", "sub/r.json"))


# argument types: every numeric and card-token argument (argv holds no NUL and no lone
# surrogate)
ARG_TEXT = st.characters(blacklist_categories=("Cs",), blacklist_characters="\0")
NUMBER = st.one_of(st.integers(-2**40, 2**40).map(str), st.text(ARG_TEXT, max_size=8),
                   st.sampled_from(["0x", "0xFFFFFFFF", "0x1_0", "٣", "５", "1_000", "²", "-0",
                                    "+1", " 1", "1e3", "0x" + "F" * 40]))
CARD = st.one_of(st.integers(-5, 1000).map(str), st.text(ARG_TEXT, max_size=12),
                 st.sampled_from(["²", "#12", "Dark Magician", "mystical elf", "٣"]))


@pytest.mark.parametrize("command", [
    ["rng", "at"], ["rng", "index"], ["rng", "next", "--count", "3", "--state"],
    ["dm1", "duel", "--seed"], ["dm1", "duel", "--opponent"], ["dm1", "stat", "1", "--level"],
    ["fm", "starter", "--index"], ["fm", "drop", "--duelist", "1", "--pool", "sa_pow",
                                   "--state"],
    ["ocg1999", "duel", "--first"], ["plan", "drops", "--duelist"],
], ids=" ".join)
@given(value=NUMBER)
def test_numeric_arguments(work, command, value):
    assume(not value.startswith("-") or value[1:2].isdigit())  # '-x' reads as an option
    run_cli("argument / " + " ".join(command), [*command, value], _fresh(work))


@pytest.mark.parametrize("command", [["card", "fm"], ["card", "dm1"], ["card", "ocg1999"],
                                     ["fusion", "fm", "1"], ["dm1", "stat"]], ids=" ".join)
@given(token=CARD)
def test_card_arguments(work, command, token):
    assume(not token.startswith("-"))
    run_cli("argument / " + " ".join(command), [*command, token], _fresh(work))


@given(name=st.one_of(st.sampled_from(["out.deck", "", "sub/out.deck", "in.deck", "dir",
                                       "in.deck/x", "link", "x" * 300, "/proc/x.deck"]),
                      st.text(ARG_TEXT, min_size=1, max_size=10).filter(
                          lambda t: "/" not in t and t not in (".", ".."))),
       force=st.booleans())
def test_output_paths(work, name, force):
    folder = _fresh(work)
    (folder / "in.deck").write_text("precious\n")
    (folder / "dir").mkdir()
    (folder / "link").symlink_to(folder / "nowhere")
    target = name if name.startswith("/") or not name else str(folder / name)
    code = run_cli("output path / fm starter --out",
                   ["fm", "starter", "--index", "7", "--out", target,
                    *(["--force"] if force else [])],
                   folder, outputs=(name, "sub", "sub/out.deck"))
    assert (folder / "in.deck").read_text() == "precious\n" or (force and name == "in.deck")
    assert code == 0 or not (folder / "nowhere").exists()


@given(data=st.data())
def test_table_csvs(work, data, monkeypatch):
    root = _fresh(work) / "tables"
    shutil.copytree(REPO / "roms_tables", root)
    name = data.draw(st.sampled_from(sorted(str(p.relative_to(root))
                                            for p in root.rglob("*.csv"))))
    path = root / name
    lines = path.read_text(encoding="utf-8").split("\n")
    row = data.draw(st.integers(0, len(lines) - 1))
    cells = lines[row].split(",")
    col = data.draw(st.integers(0, len(cells) - 1))
    cells[col] = data.draw(st.one_of(st.integers(-2**70, 2**70).map(str),
                                     st.text(max_size=6).filter(lambda t: "\n" not in t),
                                     st.sampled_from(["", "٣", "1_000", "0x", "²"])))
    lines[row] = ",".join(cells)
    path.write_text("\n".join(lines), encoding="utf-8")
    if os.environ.get("EMUCORE_FUZZ_DUMP"):  # a crash of the process leaves its input here
        Path(os.environ["EMUCORE_FUZZ_DUMP"]).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(os.environ["EMUCORE_FUZZ_DUMP"]) / "last-table.csv")
        (Path(os.environ["EMUCORE_FUZZ_DUMP"]) / "last-table.txt").write_text(name)
    monkeypatch.setenv("EMUCORE_TABLES", str(root))
    run_cli("table CSV / tables check", ["tables", "check"], root.parent)


@given(blob=st.binary(max_size=4096), tail=st.sampled_from(["", "YUGIOU"]))
def test_rom_and_disc_images(work, blob, tail):
    folder = _fresh(work)
    image = folder / "x.bin"
    image.write_bytes(blob + tail.encode())
    run_cli("disc image / fm ai --disc", ["fm", "ai", "--disc", str(image)], folder)
    run_cli("disc image / fm effects --disc", ["fm", "effects", "--disc", str(image), "--out",
                                               str(folder / "out")], folder)
    sys.path.insert(0, str(REPO / "tools"))
    import extract_dm1_rom

    before = _tree(folder)
    with contextlib.redirect_stderr(io.StringIO()) as err, \
            contextlib.redirect_stdout(io.StringIO()):
        code = extract_dm1_rom.main([str(image), "--out", str(folder / "out")])
    RUNS["ROM / tools/extract_dm1_rom.py"] += 1
    assert code == 2 and len(err.getvalue().strip().splitlines()) == 1
    assert _tree(folder) == before


@st.composite
def mutated_overlay(draw: st.DrawFn) -> bytes:
    """The built-in tables laid out as an overlay, with one to four runs of bytes overwritten
    (mostly where the tables lie, 0x14400..0x16000), or cut or grown."""
    from emucore.fm import overlay

    return _overwritten(draw, _overlay_base(),
                        st.one_of(st.integers(0x14400, overlay.OVERLAY_BYTES - 1),
                                  st.integers(0, overlay.OVERLAY_BYTES - 1)))


_OVERLAY: list[bytes] = []


def _overlay_base() -> bytes:
    if not _OVERLAY:
        from emucore.fm import overlay

        _OVERLAY.append(overlay.layout(overlay.BUILT_IN))
    return _OVERLAY[0]


@given(data=st.data())
def test_overlay_on_a_disc(work, data):
    """A synthetic NTSC-U disc whose overlay is mutated (in one copy or in all seven)."""
    sys.path.insert(0, str(REPO / "tests" / "fm_ai"))
    from fm_ai_util import write_disc

    from emucore.fm import overlay

    folder = _fresh(work)
    image = data.draw(mutated_overlay()).ljust(overlay.OVERLAY_BYTES, b"\x00")
    image = image[:overlay.OVERLAY_BYTES]
    copies = [image] * 7 if data.draw(st.booleans()) else \
        [_overlay_base()] * 6 + [image]
    disc = write_disc(folder / "fm.bin", b"\x00", b"\x00", raw=data.draw(st.booleans()),
                      overlay=copies)
    out = data.draw(st.sampled_from(["out", "fm.bin", "", "out/x"]))
    run_cli("overlay on a disc / fm effects --disc --out",
            ["fm", "effects", "--disc", str(disc), "--out", str(folder / out) if out else ""],
            folder, outputs=("out", "out/duel_effects.bin", "out/x",
                             "out/x/duel_effects.bin"))


@given(data=st.data())
def test_overlay_files(work, data):
    """A folder's ``duel_effects.bin`` (the folder form of ``--disc``), mutated."""
    folder = _fresh(work)
    (folder / "disc").mkdir()
    (folder / "disc" / "duel_effects.bin").write_bytes(data.draw(mutated_overlay()))
    argv = data.draw(st.sampled_from([
        ["fm", "effects", "--disc", str(folder / "disc"), "--json"],
        ["fm", "effects", "--disc", str(folder / "disc"), "--out", str(folder / "disc")],
        ["fm", "effects", "--disc", str(folder / "disc"), "--out", str(folder / "out"),
         "--force"]]))
    run_cli("overlay file / fm effects --disc DIR", argv, folder,
            outputs=("out", "out/duel_effects.bin"))


# frontend files: saves, bindings, pad logs (through the functions the game calls)
def _fm_save() -> dict:
    from emucore.frontend.systems.fm.session import FmGame
    game = FmGame()
    game.new_game()
    return game.data


@pytest.mark.parametrize("system", ["fm", "dm1", "ocg1999"])
@given(data=st.data())
def test_saves(work, system, data, monkeypatch):
    from emucore.frontend.systems import dm1 as dm1_screens
    from emucore.frontend.systems.fm.session import FmGame
    from emucore.frontend.systems.ocg1999 import OCG, PaperGame

    folder = _fresh(work)
    monkeypatch.setenv("EMUCORE_DATA_DIR", str(folder))
    make = {"fm": FmGame, "dm1": dm1_screens.Dm1Game, "ocg1999": lambda: PaperGame(OCG)}
    base = {"fm": _fm_save, "dm1": _dm1_save, "ocg1999": lambda: {
        "version": 1, "wins": 1, "losses": 2, "draws": 0}}[system]()
    path = folder / system / "save.json"
    path.parent.mkdir()
    path.write_text(data.draw(mutated_json(base)))
    game = make[system]()
    message = game.load()
    RUNS[f"save ({system}) / Continue"] += 1
    if message is None:  # accepted: saving it again must work
        saved = game.save() if hasattr(game, "save") else game.save_file.save(
            {"version": 1, **game.record})
        assert saved is not False
    else:
        assert not path.exists() or "cannot read" in message


def _dm1_save() -> dict:
    from emucore.frontend.systems import dm1 as dm1_screens
    game = dm1_screens.Dm1Game()
    game.new_game()
    return {"version": dm1_screens.SAVE_VERSION, "deck": game.deck, "wins": game.wins,
            "rng": game.rng, "trunk": {str(k): v for k, v in game.trunk.items()}}


@given(data=st.data())
def test_bindings(work, data):
    from emucore.frontend import bindings
    folder = _fresh(work)
    path = folder / "bindings.json"
    path.write_text(data.draw(mutated_json(bindings.DEFAULTS)))
    before = path.read_bytes()
    for machine in ("psx", "gb"):
        loaded, _warning = bindings.load(machine, path)
        assert loaded is not None
    RUNS["bindings / play"] += 1
    assert path.read_bytes() == before


@given(data=st.data())
def test_pad_logs(work, data):
    folder = _fresh(work)
    path = folder / "s.pad"
    path.write_text(data.draw(mutated_lines("0 -\n2 start\n4 cross\n6 cross+up\n8 0x0010\n"
                                            "12 end")), encoding="utf-8")
    run_cli("pad log / screenshot --script", ["screenshot", "--system", "ocg1999", "--script",
                                              str(path), "--out", str(folder / "shot.png")],
            folder, outputs=("shot.png",))


def test_zz_report():
    """Writes the per-kind example counts (the fuzz profile's note) when asked."""
    target = os.environ.get("EMUCORE_FUZZ_REPORT")
    if target:
        Path(target).write_text(json.dumps({"runs": dict(sorted(RUNS.items())),
                                            "findings": dict(FINDINGS)}, indent=1))
    assert not FINDINGS
