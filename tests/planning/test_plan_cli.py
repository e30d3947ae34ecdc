"""``emucore plan ...`` end to end: JSON output, charts, and one-line errors with exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from emucore import tables
from emucore.cli import main
from emucore.duel import replay
from emucore.fm import deck, rank
from emucore.fm.replay import ADAPTER
from emucore.hw import psyq_rand
from emucore.planning import drops, starter

FM = tables.load("fm")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_plan_rank_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "plan", "rank", "--turns", "6", "--lp", "6500", "--cards-drawn", "12",
                   "--target", "s-tec", "--end", "any")
    assert out["score"] == rank.rank_score(FM, out["counters"], 2)
    assert [p["rank"] for p in out["plans"]] == ["S-TEC"] and out["plans"][0]["reachable"]


def test_plan_rank_text_lists_every_rank(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "rank"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("now: score 101 -> S-POW")
    assert all(f"\n{r[1]}:" in text for r in FM.ranks)


def test_plan_rank_from_a_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    setup = {"deck": sorted([int(c) for c in range(1, 21)] * 2), "duelist": 1,
             "state": psyq_rand.BOOT_STATE}
    steps = iter(range(12))

    def choose(duel):  # the first legal action, twelve times
        return duel.legal_actions()[0] if next(steps, None) is not None else None

    rep = replay.record(ADAPTER, setup, choose)
    path = tmp_path / "duel.json"
    rep.save(path)
    out = run_json(capsys, "plan", "rank", "--replay", str(path))
    duel = ADAPTER.new_duel(setup)
    for step in rep.steps:
        duel.step(ADAPTER.decode_action(step.action))
    side = duel.counters(0)
    assert out["counters"]["turns"] == side["turns"]
    assert out["counters"]["cards_used"] == side["draw_cursor"]
    assert out["counters"]["lp"] == side["lp"]
    assert out["counters"]["turns"] >= 2
    card = int(FM.pools[1, drops.POOLS.index("bcd")].argmax())  # Simon's likeliest B/C/D drop
    out = run_json(capsys, "plan", "manip", "--duelist", "1", "--want", str(card), "--rank",
                   "b-pow", "--replay", str(path), "--bound", "5000")
    # mid-duel: the result outro's 14 calls (func_80020F4C) still come before the roll
    assert not duel.over and out["state"] == f"0x{int(psyq_rand.jump(duel.rng.state, 14)):08X}"
    assert out["found"] and all(rank.drop(psyq_rand.Rand(int(r["state"], 16)), FM, 1, "bcd")
                                == card for r in out["offsets"])


def test_plan_drops_duelist_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The chart is a real PNG (checked by reading it back with matplotlib) with one bar per
    listed drop."""
    from matplotlib import image
    png = tmp_path / "seto.png"
    out = run_json(capsys, "plan", "drops", "--duelist", "seto", "--pool", "sa_pow",
                   "--plot", str(png))
    assert {d["pool"] for d in out["drops"]} == {"sa_pow"}
    assert sum(d["probability"] for d in out["drops"]) == pytest.approx(1.0)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = image.imread(png)
    assert pixels.shape[0] > 20 * len(out["drops"]) and pixels.shape[1] >= 700


def test_plan_drops_plot_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Without the plot extra, --plot is one line saying how to get it, exit 2, nothing written."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    png = tmp_path / "seto.png"
    assert main(["plan", "drops", "--duelist", "seto", "--plot", str(png)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and 'pip install -e ".[plot]"' in err[0]
    assert not png.exists()


def test_plan_drops_card(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "plan", "drops", "--card", "Meteor B. Dragon")
    assert out["drops"] and out["drops"][0]["expected_wins"] == pytest.approx(
        2048 / out["drops"][0]["weight"])


def test_plan_manip(capsys: pytest.CaptureFixture[str]) -> None:
    state = 0x2468ACE1
    weights = FM.pools[7, drops.POOLS.index("sa_pow")]
    card = int(drops.drops_after(state, 50, weights)[17])
    out = run_json(capsys, "plan", "manip", "--duelist", "7", "--want", str(card), "--rank",
                   "a-pow", "--state", hex(state), "--bound", "400")
    assert out["pool"] == "sa_pow"
    for row in out["offsets"]:
        rng = psyq_rand.Rand(int(row["state"], 16))
        assert rank.drop(rng, FM, 7, "sa_pow") == card
    assert 17 in [r["k"] for r in out["offsets"]] or out["offsets"][-1]["k"] < 17


def test_plan_starter(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "plan", "starter", "--has", "100", "--has", "100", "--has", "8",
                   "--has", "337", "--from", "329000", "--count", "1000", "--jobs", "1")
    assert out["indices"] == [329_877, 329_884, 329_915, 329_920] and len(out["decks"]) == 4
    for d in out["decks"]:
        assert d["deck"] == starter.decks_at([d["index"]], FM)[0].tolist()


def test_plan_starter_many_matches_gives_splits(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "plan", "starter", "--has", "Raigeki", "--count", "2000",
                   "--jobs", "2")
    assert out["matches"] > 500 and "decks" not in out
    assert all(0 < s["share"] < 1 for s in out["splits"])


def test_plan_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = sorted([int(c) for c in range(30, 50)] * 2)
    path = tmp_path / "deck.txt"
    path.write_text("\n".join(map(str, cards)) + "\n")
    index = 4321
    dealt = deck.deal(psyq_rand.Rand(int(psyq_rand.state_at(index))),
                      deck.sort_deck(cards, "atk", FM), 7, FM)
    first = [str(c) for c in dealt.player.cards[:5]]
    out = run_json(capsys, "plan", "seed", "--deck", str(path), "--sort", "atk", "--duelist",
                   "7", "--drawn", *first, "--count", "20000", "--jobs", "1")
    assert index in out["indices"]
    row = next(r for r in out["deals"] if r["index"] == index)
    assert row["cpu_first"] == list(dealt.cpu.cards[:5])


@pytest.mark.parametrize(("argv", "message"), [
    (["plan", "drops", "--card", "Not A Card"], "unknown card"),
    (["plan", "drops", "--duelist", "40"], "unknown duelist 40"),
    (["plan", "drops", "--duelist", "Nobody"], "unknown duelist"),
    (["plan", "rank", "--target", "S-BCD"], "unknown rank"),
    (["plan", "rank", "--lp", "0"], "outside 1..32767"),
    (["plan", "manip", "--duelist", "7", "--want", "1", "--rank", "X-POW", "--index", "5"],
     "unknown rank"),
    (["plan", "starter", "--has", "8", "--from", "4294967000", "--count", "1000"], "past 2^32"),
    (["plan", "starter", "--has", "721"], "no starter group"),
    (["plan", "starter", "--has", "8", "--has", "8", "--has", "8", "--has", "8"], "at most 3"),
    (["plan", "manip", "--duelist", "7", "--want", "1", "--rank", "S-POW", "--state", "0xZZ"],
     "malformed state"),
    (["plan", "manip", "--duelist", "7", "--want", "1", "--rank", "S-POW", "--state",
      "0x100000000"], "outside"),
    (["plan", "manip", "--duelist", "7", "--want", "1", "--rank", "S-POW", "--index", "9"],
     "never drops"),
    (["plan", "seed", "--deck", "/nonexistent/deck.txt", "--drawn", "1"], "no such file"),
    (["plan", "rank", "--replay", "/nonexistent/r.json"], "no such file"),
])
def test_bad_input_is_one_line_exit_2(argv: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        code = main(argv)
        raise SystemExit(code)
    assert raised.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err.splitlines()[-1]
    assert "Traceback" not in err


def test_snapshot_that_is_not_a_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "junk.bin"
    bad.write_bytes(b"\x00" * 7)
    assert main(["plan", "rank", "--snapshot", str(bad)]) == 2
    assert "junk.bin" in capsys.readouterr().err


def test_plan_rank_takes_the_end_from_a_finished_state(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from emucore.fm.machine import field_offset
    from emucore.fm.setup import FmSetup, new_duel

    duel = new_duel(FmSetup(deck=sorted(list(range(1, 21)) * 2), duelist=1), FM)
    image = bytearray(duel.snapshot())
    assert field_offset("side", "end_adjust") == 0  # side 0's record +0 opens the image
    image[0] = 0xD8  # -40: the player won by the opponent's deck-out
    path = tmp_path / "state.bin"
    path.write_bytes(bytes(image))
    out = run_json(capsys, "plan", "rank", "--snapshot", str(path))
    assert out["end"] == "deckout"
    assert out["score"] == rank.rank_score(FM, out["counters"], -40)
    out = run_json(capsys, "plan", "rank", "--snapshot", str(path), "--end", "lp")
    assert out["end"] == "lp"
