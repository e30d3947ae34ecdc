"""Fuzzing every user file kind and every CLI argument type through the ``emucore`` command.

Structured fuzzing: valid files (replays of all four systems, duel scripts, deck files,
captures, saves, bindings, pad logs, table CSVs, the ``duel_effects`` overlay on a synthetic
disc and as a folder's ``duel_effects.bin``) are mutated where their structure lives (a
JSON value replaced by any JSON value, a key dropped, a CSV cell or a line rewritten, an
overlay's table bytes overwritten), plus raw bytes. Every example asserts the house rules
(tests/core/fuzz_harness.py: exit codes, one line on stderr, no changed input, no partial
output); the profiles and the report are the harness's too."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from fuzz_harness import (
    FM_GOLDEN,
    REPO,
    RUNS,
    deck_text,
    fresh,
    mutated_json,
    mutated_lines,
    run_cli,
    tree,
)
from hypothesis import assume, given
from hypothesis import strategies as st

from emucore import cli

pytestmark = pytest.mark.fuzz


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
        # an FM duel the original can play from its title (capture record --from-replay)
        deck, script = folder / "fm.deck", folder / "fm_script.json"
        deck.write_text("\n".join(str(c) for c in out["fm"]["setup"]["deck"]) + "\n")
        script.write_text(json.dumps({"actions": [{"kind": "play", "cards": [0]},
                                                  {"kind": "end_turn"}]}))
        path = folder / "fm_title.json"
        assert cli.main(["replay", "record", "fm", "--duelist", "39", "--deck", str(deck),
                         "--index", "40000", "--script", str(script), "--out",
                         str(path)]) == 0
        out["fm_title"] = json.loads(path.read_text())
    return out


# --------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("system", ["fm", "dm1", "ocg1999", "tcglite"])
@given(data=st.data())
def test_replay_files(bases, work, system, data):
    folder = fresh(work)
    path = folder / "r.json"
    path.write_text(data.draw(mutated_json(bases[system])))
    run_cli(f"replay ({system}) / replay verify", ["replay", "verify", str(path), "--json"],
            folder, verdict=True)


@given(data=st.data())
def test_fm_scripts(bases, work, data):
    folder = fresh(work)
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
    folder = fresh(work)
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
    folder = fresh(work)
    path = folder / "s.state"
    path.write_bytes(data.draw(mutated_state()))
    want = data.draw(st.sampled_from([[], ["--want", "1"], ["--want", "Mystical Elf"]]))
    run_cli("state image / plan manip --last-turn --snapshot",
            [*LAST_TURN, "--snapshot", str(path), *want], folder)


@given(data=st.data())
def test_paper_scripts(bases, work, data):
    folder = fresh(work)
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
    folder = fresh(work)
    path = folder / "my.deck"
    path.write_text(text, encoding="utf-8")
    run_cli(command[0], [*command[1], str(path)], folder)


@given(data=st.data())
def test_capture_files(work, data):
    sys.path.insert(0, str(REPO / "tests" / "capture"))
    from capture_synth import synth_fm

    base = _capture_base(synth_fm)
    folder = fresh(work)
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

    folder = fresh(work)
    path = folder / "d.cap"
    path.write_text(data.draw(st.one_of(st.just(_capture_base(synth_fm)),
                                        mutated_lines(_capture_base(synth_fm)))))
    out = data.draw(st.sampled_from(["r.json", "d.cap", "", "sub/r.json", "d.cap/x"]))
    run_cli("capture / capture import --out", ["capture", "import", str(path), "--out",
                                                 str(folder / out) if out else ""],
            folder, outputs=("r.json", "sub", "sub/r.json"))


CARD_BYTES = 128 * 1024


def _on_the_original(folder: Path, replay: Path, card: Path) -> list[list[str]]:
    """The commands that read a replay to play it on the original (no core installed at
    ``none.so``: a good replay and card get as far as the core and stop there)."""
    return [["capture", "plan", str(replay), "--json"],
            ["capture", "record", "fm", "--core", str(folder / "none.so"), "--content",
             str(folder / "fm.cue"), "--from-replay", str(replay), "--memory-card", str(card),
             "--out", str(folder / "c.cap"), "--pad-out", str(folder / "p.pad")]]


@given(data=st.data())
def test_replays_played_on_the_original(bases, work, data):
    folder = fresh(work)
    path, card = folder / "r.json", folder / "card.mcr"
    path.write_text(data.draw(mutated_json(bases["fm_title"])))
    card.write_bytes(b"MC" + bytes(CARD_BYTES - 2))
    for argv in _on_the_original(folder, path, card):
        run_cli("replay / capture plan, record --from-replay", argv, folder)


@given(blob=st.one_of(st.binary(max_size=64),
                      st.binary(min_size=CARD_BYTES - 2, max_size=CARD_BYTES + 2)))
def test_memory_cards(bases, work, blob):
    folder = fresh(work)
    path, card = folder / "r.json", folder / "card.mcr"
    path.write_text(json.dumps(bases["fm_title"]))
    card.write_bytes(blob)
    run_cli("memory card / record --from-replay", _on_the_original(folder, path, card)[1],
            folder)


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
    run_cli("argument / " + " ".join(command), [*command, value], fresh(work))


@pytest.mark.parametrize("command", [["card", "fm"], ["card", "dm1"], ["card", "ocg1999"],
                                     ["fusion", "fm", "1"], ["dm1", "stat"]], ids=" ".join)
@given(token=CARD)
def test_card_arguments(work, command, token):
    assume(not token.startswith("-"))
    run_cli("argument / " + " ".join(command), [*command, token], fresh(work))


@given(name=st.one_of(st.sampled_from(["out.deck", "", "sub/out.deck", "in.deck", "dir",
                                       "in.deck/x", "link", "x" * 300, "/proc/x.deck",
                                       "pipe"]),
                      st.text(ARG_TEXT, min_size=1, max_size=10).filter(
                          lambda t: "/" not in t and t not in (".", ".."))),
       force=st.booleans())
def test_output_paths(work, name, force):
    folder = fresh(work)
    (folder / "in.deck").write_text("precious\n")
    (folder / "dir").mkdir()
    (folder / "link").symlink_to(folder / "nowhere")
    os.mkfifo(folder / "pipe")  # never replaced, not even with --force
    target = name if name.startswith("/") or not name else str(folder / name)
    code = run_cli("output path / fm starter --out",
                   ["fm", "starter", "--index", "7", "--out", target,
                    *(["--force"] if force else [])],
                   folder, outputs=(*([name] if name != "pipe" else []), "sub", "sub/out.deck"))
    assert (folder / "in.deck").read_text() == "precious\n" or (force and name == "in.deck")
    assert code == 0 or not (folder / "nowhere").exists()


@given(data=st.data())
def test_table_csvs(work, data, monkeypatch):
    root = fresh(work) / "tables"
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
    folder = fresh(work)
    image = folder / "x.bin"
    image.write_bytes(blob + tail.encode())
    run_cli("disc image / fm ai --disc", ["fm", "ai", "--disc", str(image)], folder)
    run_cli("disc image / fm effects --disc", ["fm", "effects", "--disc", str(image), "--out",
                                               str(folder / "out")], folder)
    sys.path.insert(0, str(REPO / "tools"))
    import extract_dm1_rom

    before = tree(folder)
    with contextlib.redirect_stderr(io.StringIO()) as err, \
            contextlib.redirect_stdout(io.StringIO()):
        code = extract_dm1_rom.main([str(image), "--out", str(folder / "out")])
    RUNS["ROM / tools/extract_dm1_rom.py"] += 1
    assert code == 2 and len(err.getvalue().strip().splitlines()) == 1
    assert tree(folder) == before


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

    folder = fresh(work)
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
    folder = fresh(work)
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

    folder = fresh(work)
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
    folder = fresh(work)
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
    folder = fresh(work)
    path = folder / "s.pad"
    path.write_text(data.draw(mutated_lines("0 -\n2 start\n4 cross\n6 cross+up\n8 0x0010\n"
                                            "12 end")), encoding="utf-8")
    run_cli("pad log / screenshot --script", ["screenshot", "--system", "ocg1999", "--script",
                                              str(path), "--out", str(folder / "shot.png")],
            folder, outputs=("shot.png",))
