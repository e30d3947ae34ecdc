"""The ``duel_effects`` overlay tables from a disc (emucore/fm/disc.py) with synthetic discs
built here: an overlay laid out from tables of our own (``overlay.layout``) in all seven
package copies, read from ISO and raw BIN, shown by ``fm effects``, handed to the duels of
``fm duel``, ``fm sim``, ``fm replay`` and ``plan route``; copies that differ, a foreign disc,
the folder form and ``--out`` refused or round-tripped as the house rules say.

Source of the expected values: the tables the synthetic overlay was laid out from (not the
reader), and the calls the timeline charges for them (emucore.fm.timeline)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from fm_ai_util import built_in_overlay, write_disc

from emucore.cli import main
from emucore.duel.files import UserFileError
from emucore.fm import overlay as O
from emucore.fm.ai import cli as ai_cli
from emucore.fm.disc import DiscError, read_effects, read_overlay
from emucore.fm.effects_cli import listing, provenance
from emucore.fm.setup import FmSetup, check_effects, new_duel
from emucore.fm.timeline import timeline_for
from emucore.hw import psyq_rand

# Values no check of the reader pins (parse checks what the notes quote): the damage
# numbers' and the field cards' colours, which the damage and field animations' lengths read.
OURS = O.with_tables(
    O.BUILT_IN,
    damage=tuple(replace(d, colour=(128, 128, 128)) for d in O.BUILT_IN.damage),
    field=tuple(replace(f, colour=(100, 60, 30)) for f in O.BUILT_IN.field))
CHANGED = {f"damage[{k}].colour" for k in range(7)} | {f"field[{k}].colour" for k in range(6)}
DECK = [c for c in range(22, 62)]


@pytest.fixture(scope="module")
def image() -> bytes:
    return O.layout(OURS)


@pytest.fixture(scope="module")
def iso(tmp_path_factory, image) -> Path:
    return write_disc(tmp_path_factory.mktemp("disc") / "fm.iso", b"\x00", b"\x00",
                      overlay=image)


def _deck(tmp_path: Path) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text("\n".join(map(str, DECK)) + "\n")
    return path


def _one_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_reads_the_tables_from_iso_and_raw_bin(iso, image, tmp_path):
    tables = read_effects(iso)
    assert {path for path, _, _ in O.differences(O.BUILT_IN, tables)} == CHANGED
    assert tables.values() == OURS.values() and tables.source == str(iso)
    assert tables.estimated == frozenset()           # a disc's tables are all exact
    assert read_overlay(iso) == image
    raw = write_disc(tmp_path / "fm.bin", b"\x00", b"\x00", raw=True, overlay=image)
    assert read_overlay(raw) == image and read_effects(raw).values() == OURS.values()
    assert read_effects(raw).digest() == tables.digest() == OURS.digest()


def test_fm_effects_marks_the_differences(iso, capsys):
    assert main(["fm", "effects", "--disc", str(iso), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = [r for t in data["tables"] for r in t["fields"]]
    assert {r["field"] for r in rows if r["differs"]} == CHANGED
    assert data["differences"] == len(CHANGED) and data["fields"] == len(rows)
    assert data["digest"] == OURS.digest() and data["source"] == str(iso)
    colour = next(r for r in rows if r["field"] == "field[2].colour")
    assert (colour["disc"], colour["built_in"], colour["provenance"]) == (
        [100, 60, 30], [128, 128, 128], "calibrated")
    assert main(["fm", "effects", "--disc", str(iso)]) == 0
    text = capsys.readouterr().out.splitlines()
    marked = [line.split()[1] for line in text if line.startswith("  * ")]
    assert set(marked) == CHANGED
    assert text[-1].startswith(f"{len(CHANGED)} of {len(rows)} fields differ")
    assert "--disc" in text[-1] and "fm duel, fm sim and plan" in text[-1]


def test_built_in_listing_says_where_every_value_came_from(capsys):
    assert main(["fm", "effects"]) == 0
    text = capsys.readouterr().out
    assert "note: notes/overlays/duel-effect-2.md" in text
    assert not any(line.startswith("  * ") for line in text.splitlines())
    data = listing(None)
    kinds = {r["provenance"] for t in data["tables"] for r in t["fields"]}
    assert kinds == {"note", "calibrated", "estimate"}
    assert all(text != "estimate: no source recorded" for text in data["provenance"].values())
    assert data["provenance"].keys() <= O.PROVENANCE.keys()
    # a record taken to be another is an estimate, but what the notes quote for every
    # record stays a note (parse checks it in each)
    assert provenance("trap", 3, "colour")[0] == "trap[1..5]"
    assert provenance("trap", 0, "colour")[0] == "trap.colour"
    assert provenance("trap", 3, "ray_count")[0] == "trap.ray_count"
    assert provenance("trap", 0, "height_step")[0] == "trap.initial_width"
    assert provenance("fusion", 1, "colour")[0] == "fusion[1]"


def test_fm_duel_hands_the_disc_tables_to_its_duel(iso, tmp_path, capsys, monkeypatch):
    from emucore.fm import cli as fm_cli

    built: list = []

    def spy(*args, **kwargs):
        built.append(new_duel(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(fm_cli, "new_duel", spy)
    argv = ["fm", "duel", "--duelist", "5", "--deck", str(_deck(tmp_path)), "--sort", "none",
            "--index", "3", "--player", "ai", "--max-steps", "1", "--json"]
    assert main([*argv, "--disc", str(iso), "--embedded-fallback"]) == 0
    assert "using the embedded AI" in capsys.readouterr().err   # the AI part falls back
    assert main(argv) == 0
    capsys.readouterr()
    disc, plain = built
    assert disc.timeline.tables.source == str(iso) and disc.timeline.tables.values() == \
        OURS.values()
    assert plain.timeline.tables is O.BUILT_IN
    # the charged counts follow the disc's values (a field card's dissolve, 1..6)
    counts = [disc.timeline.field(t).calls for t in range(1, 7)]
    assert counts == [timeline_for(OURS).field(t).calls for t in range(1, 7)]
    assert counts != [plain.timeline.field(t).calls for t in range(1, 7)]


def test_copies_that_differ_are_refused(image, tmp_path, capsys):
    other = bytearray(image)
    other[0x100] ^= 0xFF
    disc = write_disc(tmp_path / "mixed.iso", b"\x00", b"\x00",
                      overlay=[image] * 6 + [bytes(other)])
    with pytest.raises(DiscError, match="seven terrain copies of the duel_effects overlay "
                                        r"differ \(copy 6"):
        read_overlay(disc)
    assert main(["fm", "effects", "--disc", str(disc)]) == 2
    assert "differ" in _one_error(capsys)


def test_a_foreign_or_broken_disc_is_one_line_and_exit_2(tmp_path, capsys):
    foreign = write_disc(tmp_path / "other.iso", b"\x00", b"\x00", boot="SLES_039.47")
    assert main(["fm", "effects", "--disc", str(foreign)]) == 2
    assert "not Yu-Gi-Oh! Forbidden Memories NTSC-U" in _one_error(capsys)
    # the AI part may fall back; the tables may not (one line, not a warning and an error)
    assert main(["fm", "sim", "--duelist", "3", "--deck", str(_deck(tmp_path)), "--games",
                 "1", "--disc", str(foreign), "--embedded-fallback"]) == 2
    assert "not Yu-Gi-Oh!" in _one_error(capsys)
    blank = write_disc(tmp_path / "blank.iso", b"\x00", b"\x00",
                       overlay=bytes(O.OVERLAY_BYTES))
    assert main(["fm", "effects", "--disc", str(blank)]) == 2
    assert "duel_effects overlay" in _one_error(capsys)
    for bad in (tmp_path / "missing.iso", tmp_path):
        assert main(["fm", "effects", "--disc", str(bad)]) == 2
        _one_error(capsys)
    assert main(["fm", "effects", "--out", str(tmp_path / "x")]) == 2   # --out needs --disc
    _one_error(capsys)
    assert not (tmp_path / "x").exists()


def test_out_round_trip_folder_form_and_refusals(iso, image, tmp_path, capsys):
    out = tmp_path / "tables"
    assert main(["fm", "effects", "--disc", str(iso), "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["written"] == str(out / "duel_effects.bin")
    assert (out / "duel_effects.bin").read_bytes() == image
    again = read_effects(out)
    assert again.values() == OURS.values() and again.source == str(out)
    assert main(["fm", "effects", "--disc", str(iso), "--out", str(out)]) == 2
    assert "already exists" in _one_error(capsys)
    assert main(["fm", "effects", "--disc", str(iso), "--out", str(out), "--force"]) == 0
    capsys.readouterr()
    assert main(["fm", "effects", "--disc", str(out), "--out", str(out), "--force"]) == 2
    assert "input" in _one_error(capsys)                            # never onto the input
    assert (out / "duel_effects.bin").read_bytes() == image
    a_file = tmp_path / "file"
    a_file.write_text("keep")
    assert main(["fm", "effects", "--disc", str(iso), "--out", str(a_file)]) == 2
    _one_error(capsys)
    assert a_file.read_text() == "keep"
    (out / "duel_effects.bin").write_bytes(image[:100])
    with pytest.raises(DiscError, match="0x16000"):
        read_effects(out)
    assert main(["fm", "effects", "--disc", str(out)]) == 2
    _one_error(capsys)


def test_a_folder_with_only_the_ai_programs_warns_and_plays_built_in(tmp_path, capsys):
    folder = tmp_path / "ai"
    folder.mkdir()
    for name in ("hand.bin", "field.bin"):
        (folder / name).write_bytes(b"\x00" * 0x1800)

    class Args:
        disc = folder

    assert ai_cli.effects_from_args(Args()) is O.BUILT_IN
    assert "duel_effects.bin" in capsys.readouterr().err
    (folder / "hand.bin").unlink()                        # not an AI folder: an error
    with pytest.raises(UserFileError, match="duel_effects.bin"):
        ai_cli.effects_from_args(Args())


def test_a_setup_names_the_tables_it_was_played_with():
    disc_tables = replace(OURS, estimated=frozenset(), source="disc")
    setup = FmSetup(deck=DECK, duelist=3, effects=disc_tables.digest())
    check_effects(setup, disc_tables)
    with pytest.raises(ValueError, match=r"tables of a disc \(digest [0-9a-f]{16}\); give "
                                         "--disc"):
        check_effects(setup, O.BUILT_IN)
    with pytest.raises(ValueError, match="another disc"):
        check_effects(setup, O.with_tables(OURS, tiles=(O.TileConfig(8, 8, 70),) * 2))
    plain = FmSetup(deck=DECK, duelist=3)
    check_effects(plain, O.BUILT_IN)
    check_effects(plain, O.parse(built_in_overlay(), "disc"))   # equal values: either way
    with pytest.raises(ValueError, match="built-in duel_effects tables; drop --disc"):
        check_effects(plain, disc_tables)
    assert "effects" not in plain.to_json()                       # files as before
    assert FmSetup.from_json(setup.to_json()).effects == setup.effects
    for bad in ("xyz", 5, "0" * 17, "G" * 16):
        with pytest.raises(ValueError, match="effects"):
            FmSetup.from_json({**plain.to_json(), "effects": bad})
    with pytest.raises(ValueError, match="give --disc"):
        new_duel(setup)


def test_replay_records_the_disc_and_asks_for_it(iso, tmp_path, capsys):
    """Plays a few steps: needs the engine's duel to run (tests/fm)."""
    record = tmp_path / "r.json"
    assert main(["fm", "replay", "record", "--duelist", "5", "--deck", str(_deck(tmp_path)),
                 "--sort", "none", "--index", "3", "--player", "ai", "--max-steps", "6",
                 "--disc", str(iso), "--embedded-fallback", "--out", str(record)]) == 0
    capsys.readouterr()
    assert json.loads(record.read_text())["setup"]["effects"] == OURS.digest()
    assert main(["fm", "replay", "verify", str(record)]) == 2
    assert "give --disc" in _one_error(capsys)
    assert main(["replay", "verify", str(record)]) == 2
    assert "give --disc" in _one_error(capsys)
    assert main(["fm", "replay", "verify", str(record), "--disc", str(iso), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_sim_and_route_play_with_the_disc_tables(iso, tmp_path, capsys):
    """Plays whole duels: needs the engine's duel to run (tests/fm)."""
    from emucore.fm.ai.sim import play_duel

    deck = str(_deck(tmp_path))
    assert main(["fm", "sim", "--duelist", "5", "--deck", deck, "--games", "2", "--disc",
                 str(iso), "--embedded-fallback", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["effects"] == OURS.digest()
    spec = tmp_path / "route.json"
    spec.write_text(json.dumps({"name": "disc", "start": {"state": 0x12345678},
                                "link": [{"kind": "duel", "duelist": 5, "deck": DECK,
                                          "frames": [0, 3], "win": True}]}))
    out = tmp_path / "routes.jsonl"
    assert main(["plan", "route", str(spec), "--out", str(out), "--jobs", "1", "--disc",
                 str(iso), "--embedded-fallback", "--json"]) == 0
    capsys.readouterr()
    routes = [json.loads(line) for line in out.read_text().splitlines()]
    assert routes
    tables = read_effects(iso)
    for r in routes:
        assert r["disc"] == {"effects": OURS.digest(), "ai": "embedded"}
        step = r["links"][0]
        setup = FmSetup(deck=DECK, duelist=5, effects=tables.digest(),
                        state=int(psyq_rand.jump(0x12345678, step["frames"])))
        assert play_duel(setup, effects=tables).digest == step["digest"]
