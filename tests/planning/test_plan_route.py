"""``emucore plan route``: the example specs end to end, a two-worker Dask cluster against the
serial run, kill-and-resume, and one-line errors.

Sources: the starter deck of an index is ``NameEntry_BuildStarterDeck`` as
:func:`emucore.fm.deck.starter_deck` implements it (its own tests check it against the
starter decks FM-Deck-Check lists); each duel of a route is replayed with ``fm sim``'s
duel (:func:`emucore.fm.ai.sim.play_duel`) from the state the route names, so a route file is
checked against the engine, not against the search that wrote it. A scripted duel is
replayed on the engine itself: the player's recorded actions stepped in order (the first of
them the script's own), the CPU's chosen by the embedded AI.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from emucore import tables
from emucore.cli import main
from emucore.fm import deck
from emucore.fm.ai import choose_action
from emucore.fm.ai.sim import DuelResult, play_duel
from emucore.fm.replay import ADAPTER, ENGINE_VERSION, RNG_VERSION
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw import psyq_rand
from emucore.planning import route, route_spec, starter
from emucore.planning.cli import _route_text
from emucore.planning.route_run import journal_path

FM = tables.load("fm")
REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "routes"
SPECS = sorted(p.name for p in EXAMPLES.iterdir())


def plan_route(capsys: pytest.CaptureFixture[str], spec: Path, out: Path, *extra: str
               ) -> dict:
    assert main(["plan", "route", str(spec), "--out", str(out), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def doc_example(name: str) -> str:
    """The bullet of docs/planning.md's list of examples that describes ``name``, its
    whitespace collapsed."""
    text = (REPO / "docs" / "planning.md").read_text()
    examples = text[text.index("### The examples (`examples/routes/`)"):]
    found = re.search(rf"^- `{re.escape(name)}`:(.*?)(?=^- |^\S)", examples, re.M | re.S)
    assert found, f"docs/planning.md lists no example {name}"
    return " ".join(found.group(1).split())


def check_doc_figures(name: str, summary: dict, first: dict) -> None:
    """docs/planning.md quotes the summary line the command prints (the seconds left out),
    the starts the starter link kept, and the first route of the file."""
    bullet = doc_example(name)
    printed = _route_text(summary).splitlines()[0]
    quoted = re.search(r"`([^`]+ duels simulated, )\.\.\.\)`", bullet)
    assert quoted and printed.startswith(quoted.group(1)), (printed, bullet)
    kept = re.search(r"([\d,]+) starts kept by the starter link", bullet)
    if kept:
        assert int(kept.group(1).replace(",", "")) == summary["kept"][0]["indices"]
    route_figures = re.search(r"first route: (?:index (\d+)|the state), (\d+) frames?, "
                              r"(\d+) turns, ([SABCD]-(?:POW|TEC))", bullet)
    assert route_figures, bullet
    index, frames, turns, rank = route_figures.groups()
    assert (first["index"], first["cost"], first["ranks"][0]) == (
        None if index is None else int(index), {"frames": int(frames), "turns": int(turns)},
        rank)


def small_spec(tmp_path: Path, count: int) -> Path:
    """The two-duels example on fewer indices (12 chunks of 64)."""
    data = tomllib.loads((EXAMPLES / "two-duels.toml").read_text())
    data["start"]["count"], data["chunk"] = count, 64
    path = tmp_path / "small.json"
    path.write_text(json.dumps(data))
    return path


def replay_scripted(setup: FmSetup, link: route_spec.DuelLink, step: dict) -> DuelResult:
    """A scripted duel again on the engine: side 0 steps the route's recorded player actions
    (the first ``scripted`` of them must be the script's), side 1 the embedded AI's."""
    played = step["player_actions"]
    assert played[:step["scripted"]] == [a.to_json() for a in link.script][:step["scripted"]]
    duel = new_duel(FmSetup(deck=setup.deck, duelist=setup.duelist, state=setup.state,
                            computer=[0, 1] if link.fallback == "ai" else [1]))
    actions = iter(played)
    end = None
    while not duel.over:
        action = next(actions) if duel.acting_side == 0 else choose_action(duel)
        events = duel.step(ADAPTER.decode_action(action) if isinstance(action, dict)
                           else action)
        end = next((e for e in events if e.kind == "ended"), end)
    assert next(actions, None) is None and end is not None
    return DuelResult(0, end.winner, end.reason, end.rank, end.drop, 0, 0, 0, duel.digest(),
                      duel.rng.state)


@pytest.mark.parametrize("name", SPECS)
def test_example_routes_replay_on_the_engine(name: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Every route of every example: its starter deck is the engine's deck for its index
    and holds the wanted cards; each duel, played again from the route's state plus its
    frames, gives the recorded outcome; the route meets its link's demands; the file is in
    cost order and every line names the engine and RNG versions; ``--plot`` writes a PNG;
    docs/planning.md's figures for the example are what the command prints (the doc said
    181 routes where the command printed another number)."""
    spec = route_spec.load(EXAMPLES / name, FM)
    out = tmp_path / "routes.jsonl"
    chart = tmp_path / "outcomes.png"
    summary = plan_route(capsys, EXAMPLES / name, out, "--jobs", "1", "--plot", str(chart))
    routes = lines(out)
    assert summary["plot"] == str(chart) and chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert summary["finished"] and summary["routes"] == len(routes) > 0
    assert sum(summary["outcomes"].values()) == summary["duels"]
    check_doc_figures(name, summary, routes[0])
    first = spec.links[0]
    if spec.state is None:  # the lane filter keeps exactly the decks the exact deal holds
        decks = starter.decks_at(range(spec.start, spec.start + spec.count), FM)
        holds = [all(list(d).count(c) >= first.has.count(c) for c in first.has) for d in decks]
        assert summary["kept"][0]["indices"] == sum(holds)
    assert [r["index"] for r in routes] == [r["index"] for r in sorted(routes,
                                                                       key=route.cost_key)]
    for r in routes[:12]:
        assert r["version"] == {"fm_engine": ENGINE_VERSION, "rng": RNG_VERSION}
        state = spec.state if spec.state is not None else int(psyq_rand.state_at(r["index"]))
        rng = psyq_rand.Rand(state)
        starter_deck = deck.starter_deck(rng, FM)
        assert r["links"][0]["deck"] == starter_deck
        state = rng.state
        for link, step in zip(spec.links[1:], r["links"][1:], strict=True):
            start = int(psyq_rand.jump(state, step["frames"]))
            setup = FmSetup(deck=starter_deck, duelist=link.duelist, state=start)
            again = replay_scripted(setup, link, step) if link.script is not None \
                else play_duel(setup)
            assert (again.winner, again.rank, again.drop, again.digest) == (
                step["winner"], step["rank"], step["drop"], step["digest"])
            assert again.winner == 0 and link.frames[0] <= step["frames"] <= link.frames[1]
            if link.rank_at_least:
                assert route_spec.rank_at_least(again.rank, link.rank_at_least)
            if link.drops is not None:
                assert again.drop in link.drops
            state = again.rng_state


def test_two_worker_cluster_finds_what_the_serial_run_finds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A local Dask cluster of two workers writes the same routes file as one process."""
    spec = small_spec(tmp_path, 768)
    serial = plan_route(capsys, spec, tmp_path / "serial.jsonl", "--jobs", "1")
    cluster = plan_route(capsys, spec, tmp_path / "cluster.jsonl", "--jobs", "2")
    assert serial["routes"] > 0 and cluster["chunks"] == serial["chunks"] == 12
    assert (tmp_path / "cluster.jsonl").read_bytes() == (tmp_path / "serial.jsonl").read_bytes()
    assert cluster["kept"] == serial["kept"] and cluster["duels"] == serial["duels"]


def test_killed_run_resumes_to_the_same_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A run killed (SIGKILL) after some chunks, resumed, writes the file an uninterrupted
    run writes; no chunk is lost or counted twice, and a torn last journal line is cut."""
    spec = small_spec(tmp_path, 768)
    whole = plan_route(capsys, spec, tmp_path / "whole.jsonl", "--jobs", "1")
    out = tmp_path / "killed.jsonl"
    journal = journal_path(out)
    proc = subprocess.Popen([sys.executable, "-m", "emucore.cli", "plan", "route", str(spec),
                             "--out", str(out), "--jobs", "1"], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
            not journal.exists() or journal.read_text().count("\n") < 4):
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not out.exists()
    kept = journal.read_text().count("\n") - 1
    assert 3 <= kept < 12
    with journal.open("a") as f:
        f.write('{"start": 99, "cou')  # a line cut short by the kill
    resumed = plan_route(capsys, spec, out, "--jobs", "1", "--resume")
    assert out.read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    assert not journal.exists()
    assert resumed["resumed_chunks"] == kept and resumed["chunks"] == 12
    assert resumed["duels"] == whole["duels"] and resumed["kept"] == whole["kept"]


def test_resume_refuses_a_journal_of_another_spec(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A journal written for another range is refused (one line, exit 2), not mixed in; and
    without --resume an existing journal is refused too."""
    out = tmp_path / "r.jsonl"
    journal_path(out).write_text(json.dumps({"journal": 1, "spec": {}, "chunk": 64}) + "\n")
    spec = small_spec(tmp_path, 128)
    assert main(["plan", "route", str(spec), "--out", str(out), "--jobs", "1", "--resume"]) == 2
    assert "another spec" in capsys.readouterr().err
    assert main(["plan", "route", str(spec), "--out", str(out), "--jobs", "1"]) == 2
    assert "--resume" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_run_stops_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    """Ctrl-C (SIGINT) or a ``kill`` (SIGTERM) ends the run with exit 2 (issue 17: the only
    codes are 0, 1 and 2), one line on stderr saying how to resume, the journal kept (SIGTERM
    killed the process mid-run before, no line said what was kept)."""
    spec = small_spec(tmp_path, 768)
    out = tmp_path / "stopped.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "emucore.cli", "plan", "route", str(spec),
                             "--out", str(out), "--jobs", "1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    journal = journal_path(out)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
            not journal.exists() or journal.read_text().count("\n") < 2):
        time.sleep(0.02)
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1
    assert "--resume" in err and journal.exists() and not out.exists()


@pytest.mark.parametrize(("body", "message"), [
    ('{"start": {"from": 0, "count": 5}, "link": []}', "at least one [[link]]"),
    ('{"start": {"from": 0, "count": 5}, "link": [{"kind": "duel", "duelist": 1}]}',
     'deck = "starter" needs a starter link first'),
    ('{"start": {"from": 0, "count": 5}, "link": [{"kind": "starter", "has": ["Nope"]}]}',
     "link 1"),
    ('{"start": {"from": 0, "count": 5}, "link": [{"kind": "starter"}, {"kind": "duel", '
     '"duelist": 1, "frames": [3, 1]}]}', "link 2: frames [3, 1]: lowest must not exceed"),
    ('{"start": {"from": 0}, "link": [{"kind": "starter"}]}', "start: count is missing"),
    ("{", "not valid JSON"),
    ('{"start": {"state": 1}, "link": [{"kind": "starter"}, {"kind": "duel", "duelist": 1, '
     '"player": "script"}]}', "needs script = [actions]"),
    ('{"start": {"state": 1}, "link": [{"kind": "starter"}, {"kind": "duel", "duelist": 1, '
     '"player": "script", "script": [{"kind": "fly"}]}]}', "link 2 script action 1"),
    ('{"start": {"state": 1}, "link": [{"kind": "starter"}, {"kind": "duel", "duelist": 1, '
     '"script": []}]}', 'need player = "script"'),
])
def test_bad_specs_are_one_line(body: str, message: str, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "bad.json"
    spec.write_text(body)
    code = main(["plan", "route", str(spec), "--out", str(tmp_path / "o.jsonl"), "--jobs", "1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and message in err and "\n" not in err and str(spec) in err


def test_rank_floor_is_per_side() -> None:
    """S > A > B > C > D within POW or TEC (the ranks of ranks.csv); the other side never
    meets a floor."""
    assert route_spec.rank_at_least("A-POW", "B-POW")
    assert not route_spec.rank_at_least("C-POW", "B-POW")
    assert not route_spec.rank_at_least("S-TEC", "B-POW")


def test_out_may_not_be_the_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = small_spec(tmp_path, 64)
    assert main(["plan", "route", str(spec), "--out", str(spec), "--jobs", "1"]) == 2
    assert "is also an input of this command" in capsys.readouterr().err


def test_script_without_fallback_stops_where_the_script_does() -> None:
    """With ``fallback = "none"`` a duel whose script runs out stops unfinished (reason
    script-ended) and one whose first action is illegal (an attack in the hand phase) stops
    at once (script-illegal, nothing played): the engine's legality (``FmDuel.step``)
    decides, so no route is kept. With the AI as fallback that duel is played to its end."""
    setup = FmSetup(deck=deck.starter_deck(psyq_rand.Rand(3431882029), FM), duelist=1,
                    state=3431882029)
    script = (ADAPTER.decode_action({"kind": "play", "cards": [0], "face_down": True}),)
    ended = play_duel(setup, script=script, fallback="none")
    assert (ended.winner, ended.reason, ended.scripted) == (None, "script-ended", 1)
    illegal = (ADAPTER.decode_action({"kind": "attack", "attacker": 0, "target": -1}),)
    stopped = play_duel(setup, script=illegal, fallback="none")
    assert (stopped.winner, stopped.reason, stopped.player_actions) == (
        None, "script-illegal", ())
    with_ai = play_duel(setup, script=illegal, fallback="ai")
    assert with_ai.winner is not None and with_ai.scripted == 0
