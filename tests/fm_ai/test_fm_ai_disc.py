"""The disc-program path with a synthetic disc built here from small programs of our own:
image reading (ISO and raw BIN), the game and integrity checks, extraction, and duels run
by the machine on those programs."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from fm_ai_util import write_disc

from emucore.cli import main
from emucore.fm.ai import choose_action
from emucore.fm.ai.asm import assemble
from emucore.fm.ai.disc import RETAIL, DiscError, ProgramSpec, read_programs, shape
from emucore.fm.ai.sim import play_duel
from emucore.fm.setup import FmSetup, new_duel

ROOT = Path(__file__).resolve().parents[2]

# Hand: the strongest window card, face-up, to the first free monster slot (else over the
# weakest). Field: one JumpRandom, then a direct attack with the strongest unused monster
# when the player has no monster; else end.
HAND = assemble("""
    Store 2, r1
    Store 2, r2
    Store 1, r3
    FindStrongest r1, r2, r3, r0, r4
    PlayFaceUp r4, r0, r0, r0, r0
    FindFirstCard r0, r0, r5
    JumpNotEqual r5, r0, place
    FindWeakest r1, r0, r3, r0, r5
place:
    SetPosition r5
    EndHand
""")
FIELD = assemble("""
    Store 50, r6
    JumpRandom r6, go
go:
    Store 1, r1
    Store 5, r2
    Store 255, r9
    CountCards r2, r3
    JumpNotEqual r3, r0, end
    FindStrongest r0, r1, r1, r0, r4
    JumpEqual r4, r0, end
    PlayFieldCard r4, r0, r0, r9
end:
    EndField
""")


def specs(hand: bytes = HAND, field: bytes = FIELD) -> tuple[ProgramSpec, ProgramSpec]:
    out = []
    for name, program in (("hand", hand), ("field", field)):
        chunk = program.ljust(0x1800, b"\x00")
        count, last, op = shape(chunk)
        out.append(ProgramSpec(name, hashlib.sha256(chunk).hexdigest()[:16], count, last, op))
    return out[0], out[1]


@pytest.fixture(scope="module")
def disc(tmp_path_factory) -> Path:
    return write_disc(tmp_path_factory.mktemp("disc") / "fm.iso", HAND, FIELD)


def test_reads_and_verifies_our_programs_from_iso_and_raw_bin(disc, tmp_path):
    programs = read_programs(disc, specs())
    assert programs.hand.rstrip(b"\x00") == HAND and programs.field.rstrip(b"\x00") == FIELD
    raw = write_disc(tmp_path / "fm.bin", HAND, FIELD, raw=True)
    from_raw = read_programs(raw, specs())
    assert (from_raw.hand, from_raw.field) == (programs.hand, programs.field)


def test_retail_integrity_check_rejects_other_programs(disc):
    with pytest.raises(DiscError, match="hand AI program fails the integrity check"):
        read_programs(disc, RETAIL)
    bad_shape = (ProgramSpec("hand", specs()[0].sha256_prefix, 99, 0x10, "EndHand"), specs()[1])
    with pytest.raises(DiscError, match="instructions ending"):
        read_programs(disc, bad_shape)


def test_foreign_or_broken_images_are_refused(tmp_path):
    other = write_disc(tmp_path / "other.iso", HAND, FIELD, boot="SLES_039.47")
    with pytest.raises(DiscError, match="not Yu-Gi-Oh! Forbidden Memories NTSC-U"):
        read_programs(other, specs())
    moved = write_disc(tmp_path / "moved.iso", HAND, FIELD, wa_mrg_lba=12345)
    with pytest.raises(DiscError, match="not at LBA 10102"):
        read_programs(moved, specs())
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x01" * 100_000)
    with pytest.raises(DiscError, match="not a CD image"):
        read_programs(junk, specs())
    with pytest.raises(DiscError, match="cannot read"):
        read_programs(tmp_path / "missing.iso", specs())


def test_duels_run_on_the_disc_programs(disc):
    programs = read_programs(disc, specs())
    duel = new_duel(FmSetup(deck=[c for c in range(1, 60) if c not in (17, 18, 19, 20, 21)][:40],
                            duelist=5, state=0xABCDEF, computer=[0, 1]))
    calls = 0
    while not duel.over:
        action = choose_action(duel, programs)
        if duel.phase == 1:
            calls += action.rng_calls
        duel.step(action)
    assert calls > 0                         # the field program's JumpRandom, once per run
    result = play_duel(FmSetup(deck=[c for c in range(22, 62)], duelist=9, state=5), programs)
    assert result.winner in (0, 1) and result.fallbacks == 0


def test_cli_and_extractor(disc, tmp_path, capsys):
    assert main(["fm", "ai", "--disc", str(disc)]) == 2          # retail checks fail: exit 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "integrity check" in err[0]
    tool = [sys.executable, str(ROOT / "tools" / "extract_fm_ai.py")]
    done = subprocess.run([*tool, str(disc), "--out", str(tmp_path / "x")], capture_output=True,
                          text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "integrity check" in done.stderr


def test_extracted_folder_round_trip(disc, tmp_path):
    from emucore.fm.ai.disc import write_programs
    programs = read_programs(disc, specs())
    folder = tmp_path / "ai"
    write_programs(programs, folder)
    again = read_programs(folder, specs())
    assert (again.hand, again.field) == (programs.hand, programs.field)
    (folder / "hand.bin").write_bytes(b"\x0d" * 10)
    with pytest.raises(DiscError, match="0x1800|6144"):
        read_programs(folder, specs())


def test_cli_and_extractor_accept_a_disc_that_passes(disc, tmp_path, capsys, monkeypatch):
    import importlib.util
    import json

    from emucore.fm.ai import disc as disc_module
    monkeypatch.setattr(disc_module, "RETAIL", specs())
    assert main(["fm", "ai", "--disc", str(disc), "--out", str(tmp_path / "cli"), "--list",
                 "field", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["programs"]["hand"]["last"] == f"EndHand at 0x{specs()[0].last_offset:04X}"
    assert out["listing"][0].endswith("Store 50, r6")
    assert (tmp_path / "cli" / "field.bin").read_bytes()[:len(FIELD)] == FIELD
    spec = importlib.util.spec_from_file_location("extract_fm_ai",
                                                  ROOT / "tools" / "extract_fm_ai.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main([str(disc), "--out", str(tmp_path / "tool")]) == 0
    assert (tmp_path / "tool" / "hand.bin").read_bytes()[:len(HAND)] == HAND
    assert capsys.readouterr().out.count("tool") == 2      # the two written paths
    assert main(["fm", "sim", "--duelist", "9", "--deck", str(_deck_file(tmp_path)), "--games",
                 "2", "--disc", str(tmp_path / "tool"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ai"] == "disc"


def _deck_file(tmp_path: Path) -> Path:
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(str(c) for c in range(22, 62)) + "\n")
    return deck


def test_sim_with_a_bad_disc_stops_unless_fallback_is_asked(disc, tmp_path, capsys):
    deck = str(_deck_file(tmp_path))
    assert main(["fm", "sim", "--duelist", "3", "--deck", deck, "--games", "1", "--disc",
                 str(disc)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["fm", "sim", "--duelist", "3", "--deck", deck, "--games", "1", "--disc",
                 str(disc), "--embedded-fallback", "--json"]) == 0
    captured = capsys.readouterr()
    assert "using the embedded AI" in captured.err
    assert '"ai": "embedded"' in captured.out
