"""``plan route`` reads its spec through the reading edge, checks every field for its type, and
bounds the work a spec asks for before any of it starts.

Source of every case: the reproductions listed in the hardening issue ("every command through
one reading edge and one writing edge"), each found by hand on the code before this change
under a 60 s limit (a traceback, a block, a run without end, memory exhausted); and the house
rule for bad input: one line on stderr naming the file and the key, exit 2, no traceback,
nothing written. The limits are the ones docs/planning.md ("Limits") names.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from types import SimpleNamespace

import pytest

from emucore import tables
from emucore.cli import main
from emucore.planning import route, route_run, route_spec

FM = tables.load("fm")
BASE = {"name": "t", "start": {"from": 0, "count": 2},
        "link": [{"kind": "starter", "has": []},
                 {"kind": "duel", "duelist": 1, "frames": [0, 1]}]}
TOML_BASE = ('name = "t"\n[start]\nfrom = 0\ncount = 2\n[[link]]\nkind = "starter"\nhas = []\n'
             '[[link]]\nkind = "duel"\nduelist = 1\nframes = [0, 1]\n')
MEMORY = 3 << 30  # address space of a command run in a subprocess: a runaway read fails fast


def spec_with(tmp_path: Path, change: dict | None = None, text: str | None = None,
              name: str = "s.json") -> Path:
    """A spec file: BASE with the top-level keys of ``change`` (a ``None`` value: deleted),
    or ``text`` as it is."""
    path = tmp_path / name
    if text is None:
        data = json.loads(json.dumps(BASE))
        for key, value in (change or {}).items():
            if value is None:
                data.pop(key)
            else:
                data[key] = value
        text = json.dumps(data)
    path.write_text(text)
    return path


def duel(**keys: object) -> dict:
    """BASE's links with the duel link's keys changed."""
    return {"link": [BASE["link"][0], {**BASE["link"][1], **keys}]}


def refused(capsys: pytest.CaptureFixture[str], spec: Path, *words: str) -> str:
    """The run must fail at once: exit 2, one line naming the spec and holding ``words``,
    nothing written."""
    out = spec.with_name("o.jsonl")
    code = main(["plan", "route", str(spec), "--out", str(out), "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"emucore: error: {spec}: "), err
    for word in words:
        assert word in err, err
    assert not out.exists() and not route_run.journal_path(out).exists()
    return err


def bounded_run(spec: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``plan route SPEC`` in a subprocess with a time limit and an address-space limit: the
    cases that blocked, ran without end or exhausted memory before this change fail there
    instead of taking the test run with them."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run([sys.executable, "-m", "emucore.cli", "plan", "route", str(spec),
                           "--out", str(spec.with_name("o.jsonl")), "--jobs", "1"],
                          capture_output=True, text=True, timeout=timeout, preexec_fn=limit,
                          env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})


def one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr and all(w in done.stderr for w in words), done.stderr


@pytest.mark.parametrize(("change", "words"), [
    ({"chunk": [1]}, ["chunk must be an integer, not a list"]),  # was a TypeError
    ({"chunk": "abc"}, ['chunk must be an integer, not "abc"']),  # was Python's own message
    ({"chunk": 2.0}, ["chunk must be an integer, not 2.0"]),  # a float is not a count
    ({"chunk": 0}, ["chunk 0 outside 1..8192"]),
    (duel(frames=[True, True]), ["link 2: frames entry 1 must be an integer, not true"]),
    (duel(frames=True), ["link 2: frames must be [lowest, highest] or one integer, not true"]),
    (duel(frames=["0", 1]), ['link 2: frames entry 1 must be an integer, not "0"']),
    (duel(duelist=True), ["link 2: duelist must be an id 1..39", "not true"]),  # was "only 0
    (duel(duelist=1.0), ["link 2: duelist must be an id", "not 1.0"]),  # cards can be dealt"
    (duel(duelist=40), ["link 2: duelist 40 outside 1..39"]),
    (duel(win=1), ["link 2: win must be true or false, not 1"]),
    (duel(opening=[True]), ["link 2: opening entry 1 must be a card id or name, not true"]),
    (duel(sort=["id"]), ["link 2: sort must be one of none, id", "not a list"]),
    (duel(rank_at_least=3), ["link 2: rank_at_least must be one of", "not 3"]),
    ({"start": {"from": "0", "count": 2}}, ['start: from must be an integer, not "0"']),
    ({"start": {"from": 0, "count": True}}, ["start: count must be an integer, not true"]),
    ({"start": {"state": 1, "count": 2}}, ["start: a state is one start"]),
    ({"name": ["x"]}, ["name must be a string, not a list"]),
    ({"link": {"kind": "starter"}}, ["at least one [[link]]"]),
])
def test_every_field_is_checked_for_its_type(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             change: dict, words: list[str]) -> None:
    """A bool is not an int, a float is not a count, a string is not a number: each one line
    naming the file and the key."""
    refused(capsys, spec_with(tmp_path, change), *words)


@pytest.mark.parametrize(("name", "text", "words"), [
    ("s.json", json.dumps(BASE)[:-1] + ', "chunk": Infinity}',
     ["Infinity is not a JSON number"]),  # was an OverflowError
    ("s.toml", TOML_BASE.replace('name = "t"\n', 'name = "t"\nchunk = inf\n'),
     ["inf is not a number emucore takes"]),  # was an OverflowError
    ("s.json", "[" * 100_000 + "]" * 100_000, ["nested deeper than 32"]),  # a RecursionError
    ("s.toml", "a = " + "[" * 5000 + "]" * 5000, ["nested deeper than 32"]),  # likewise
    ("s.toml", TOML_BASE.replace('name = "t"', "name = 1979-05-27"),
     ["name must be a string, not date"]),
    ("s.toml", TOML_BASE + 'script = [{kind = "end_turn", at = 1979-05-27}]\nplayer = "script"\n',
     ["link 2 script action 1: unknown key 'at'"]),
])
def test_the_spec_is_read_through_the_reading_edge(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   name: str, text: str,
                                                   words: list[str]) -> None:
    refused(capsys, spec_with(tmp_path, text=text, name=name), *words)


def test_a_device_or_a_fifo_is_refused_without_reading(tmp_path: Path) -> None:
    """``/dev/zero`` was read without a size limit (MemoryError after 6 s) and a FIFO
    blocked: both are refused at once as not regular files."""
    one_line(bounded_run(Path("/dev/zero"), timeout=30), "/dev/zero: not a regular file")
    fifo = tmp_path / "spec.json"
    os.mkfifo(fifo)
    one_line(bounded_run(fifo, timeout=30), f"{fifo}: not a regular file")


@pytest.mark.parametrize(("change", "words"), [
    # frames [0, 10**30] ran without end; 10**30 is past the reading edge's integer bound
    (duel(frames=[0, 10**30]), ["a number has more than 24 digits"]),
    (duel(frames=[0, 10**20]), ["link 2: frames entry 2 100000000000000000000 outside "
                                "0..216000"]),
    (duel(frames=[0, 5000]), ["link 2: frames [0, 5000] holds 5,001 frame counts; a duel link "
                              "tries at most 4,096"]),
    # count 2**32 with chunk 1 was a MemoryError (the chunk list built first), and without
    # chunk 1.9 GB before the first chunk
    ({"start": {"from": 0, "count": 2**32}, "chunk": 1},
     ["start: count 4,294,967,296 with 2 frame choice(s) per start is 8,589,934,592 tries; "
      "a run makes at most 1,000,000"]),
    ({"start": {"from": 0, "count": 2**32}}, ["a run makes at most 1,000,000"]),
])
def test_work_beyond_the_limits_is_refused_before_it_starts(tmp_path: Path, change: dict,
                                                           words: list[str]) -> None:
    one_line(bounded_run(spec_with(tmp_path, change)), *words)


def test_the_frame_choices_of_all_duel_links_are_multiplied(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each link's range fits, their product does not; and a chunk's tries are bounded,
    while a default chunk is lowered to fit."""
    wide = {**BASE["link"][1], "frames": [0, 99]}
    refused(capsys, spec_with(tmp_path, {"link": [BASE["link"][0], wide, wide]}),
            "frames ranges give 10,000 frame choices per start", "at most 4,096")
    refused(capsys, spec_with(tmp_path, {"start": {"from": 0, "count": 1000}, "chunk": 1000,
                                         **duel(frames=[0, 99])}),
            "chunk 1,000 with 100 frame choice(s) per start is 100,000 tries per chunk",
            "use chunk = 81 or less")
    fitted = route_spec.parse({**BASE, "start": {"from": 0, "count": 1000},
                               **duel(frames=[0, 99])}, FM)
    assert fitted.chunk == route_spec.CHUNK_TRIES // 100 == 81


def starter_only(count: int, chunk: int) -> route_spec.RouteSpec:
    """A spec built past the parser's limits: what a chunk generator must cope with."""
    return route_spec.RouteSpec("big", 0, count, (route_spec.StarterLink(()),), chunk=chunk)


def test_chunks_are_made_one_at_a_time() -> None:
    """The chunk list was built before the first chunk ran (2^32 chunks of one: MemoryError):
    ``route.chunks`` is a generator and the count is arithmetic."""
    tracemalloc.start()
    try:
        chunks = route.chunks(starter_only(2**32, 1))
        assert isinstance(chunks, Iterator) and not isinstance(chunks, list)
        assert list(islice(chunks, 3)) == [(0, 1), (1, 1), (2, 1)]
        assert tracemalloc.get_traced_memory()[1] < 1 << 20
    finally:
        tracemalloc.stop()
    assert route.chunk_count(starter_only(2**32, 1)) == 2**32
    assert route.chunk_count(starter_only(1000, 256)) == 4
    assert list(route.chunks(starter_only(600, 256))) == [(0, 256), (256, 256), (512, 88)]


def test_a_run_hands_its_chunks_over_one_at_a_time(tmp_path: Path) -> None:
    """``route_run.run`` gives the searcher an iterator of chunks, never a list of all of
    them: a million chunks take no memory before the first one runs."""
    spec = starter_only(10**6, 1)
    seen: list[object] = []

    def two_then_stop(todo: Iterator[tuple[int, int]]) -> Iterator[route.Chunk]:
        seen.append(todo)
        for start, count in islice(todo, 2):
            yield route.search_chunk(spec, start, count)
        raise KeyboardInterrupt

    result = route_run.run(spec, tmp_path / "o.jsonl", two_then_stop)
    assert not isinstance(seen[0], list) and isinstance(seen[0], Iterator)
    assert not result.finished and len(result.parts) == 2
    assert result.journal == route_run.journal_path(tmp_path / "o.jsonl")


def test_a_cluster_gets_a_few_chunks_per_worker_at_a_time() -> None:
    """The Dask path pulls chunks from the iterator as earlier ones finish: with one worker,
    at most ``WINDOW_PER_WORKER`` + 1 chunks were taken when the first result arrives. And
    one client searches the same spec twice, every chunk found each time (its copy on the
    workers was keyed by its contents, and the second search lost it to the first one's
    release: "lost dependencies", found while checking tools/benches/plan_route.py)."""
    from distributed import Client, LocalCluster

    spec = starter_only(10**6, 1)
    taken = 0

    def todo() -> Iterator[tuple[int, int]]:
        nonlocal taken
        for piece in route.chunks(spec):
            taken += 1
            yield piece

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        found = route_run.cluster_chunks(client, spec, todo())
        first = next(found)
        assert first.count == 1 and taken <= route_run.WINDOW_PER_WORKER + 1
        found.close()
        small = starter_only(4, 2)
        for _ in range(2):
            # yielded as they finish, so in any order (one worker may finish the second
            # chunk first)
            assert sorted(c.start for c in route_run.cluster_chunks(client, small,
                                                                    route.chunks(small))) == [0, 2]


def test_a_worker_that_dies_is_one_line_and_the_journal_is_kept(tmp_path, monkeypatch) -> None:
    """A Dask worker killed under a chunk (out of memory, a machine gone) ends the run with
    one line saying so and how to resume, and the chunks finished before it stay in the
    journal (found by hand: a KilledWorker came out as a traceback). The death is staged by a
    chunk that raises Dask's own KilledWorker on an in-process cluster."""
    from distributed import Client, KilledWorker, LocalCluster

    from emucore.cliutil import UsageError

    search = route.search_chunk

    def dies_on_the_second(spec, start, count, disc=None):
        if start > 0:
            raise KilledWorker(f"search_chunk-{start}", SimpleNamespace(address="tcp://w:1"), 3)
        return search(spec, start, count, disc)

    monkeypatch.setattr(route, "search_chunk", dies_on_the_second)
    spec = starter_only(4, 2)
    out = tmp_path / "o.jsonl"
    with (LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                       dashboard_address=None) as cluster, Client(cluster) as client,
          pytest.raises(UsageError, match="a Dask worker died") as caught):
        route_run.run(spec, out, lambda todo: route_run.cluster_chunks(client, spec, todo))
    assert "--resume" in str(caught.value) and "\n" not in str(caught.value)
    journal = route_run.journal_path(out)
    assert len(route_run.read_journal(journal, spec, None)) == 1 and not out.exists()


def test_docs_name_the_limits_the_code_has() -> None:
    """docs/planning.md's table of limits gives each constant's value (source: the doc a
    user reads; the constants are what the code checks)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "planning.md").read_text()
    table = text[text.index("### Limits"):text.index("Choices where the game")]
    named = {}
    for row in table.splitlines():
        cells = row.split("|")[1:-1]
        names = re.findall(r"`([A-Z_]+)`", row)
        if len(cells) == 3 and names:
            numbers = re.findall(r"\d[\d,]*", cells[1])
            value = numbers[1] if cells[1].strip().startswith("0..") else numbers[0]
            named |= {name: int(value.replace(",", "")) for name in names}
    assert named == {name: getattr(route_spec, name) for name in (
        "WAIT_LIMIT", "FRAME_CHOICES", "RUN_TRIES", "CHUNK_TRIES", "LINK_LIMIT",
        "CARD_LIST_LIMIT", "SCRIPT_LIMIT")}
