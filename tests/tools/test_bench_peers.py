"""``tools/bench.py peers``: the user's timings file read through emucore's reading edge (a
bad file is one line on stderr and exit code 2), and the ratio it prints, peer seconds /
emucore seconds (the definition in issue 29: above 1, emucore is faster). No timed
assertion: the ratio is checked against the figures the same row prints."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))
import bench  # noqa: E402

peers = bench._load("peers")

GOOD = """
[drops_in_process]
peer = "FM-Manip-Tool"
what = "fmmanip_bench drops-inprocess FmDatabase.db 10000 21 1 2"
seconds = 0.25
"""


def run_bench(argv: list[str], capsys) -> tuple[int, str, str]:
    code = bench.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_reads_a_timings_file(tmp_path):
    """Each table of the file is a task's peer, what was timed, and its seconds; TOML and
    JSON alike (the suffix decides)."""
    toml = tmp_path / "t.toml"
    toml.write_text(GOOD + '[full_deals]\npeer = "sg4e"\nwhat = "x"\nseconds = 2\n')
    got = peers.read_timings(toml)
    assert got == {
        "drops_in_process": peers.PeerTiming(
            "FM-Manip-Tool", "fmmanip_bench drops-inprocess FmDatabase.db 10000 21 1 2", 0.25),
        "full_deals": peers.PeerTiming("sg4e", "x", 2.0)}
    as_json = tmp_path / "t.json"
    as_json.write_text(json.dumps({"seed_search": {"peer": "p", "what": "w", "seconds": 1.5}}))
    assert peers.read_timings(as_json) == {"seed_search": peers.PeerTiming("p", "w", 1.5)}


@pytest.mark.parametrize(("text", "says"), [
    ("[drops_in_process]\npeer = 'p'\nwhat = 'w'\nseconds = true\n", "seconds must be"),
    ("[drops_in_process]\npeer = 'p'\nwhat = 'w'\nseconds = 0\n", "seconds must be"),
    ("[drops_in_process]\npeer = 'p'\nwhat = 'w'\nseconds = -1.0\n", "seconds must be"),
    ("[drops_in_process]\npeer = 'p'\nwhat = 'w'\nseconds = '1'\n", "seconds must be"),
    ("[drops_in_process]\npeer = 'p'\nwhat = 'w'\n", "seconds is missing"),
    ("[drops_in_process]\npeer = 3\nwhat = 'w'\nseconds = 1\n", "peer must be a string"),
    ("[drops_in_process]\npeer = 'p'\nwhat = 'w'\nseconds = 1\nrun = 2\n", "unknown key"),
    ("[warp_drive]\npeer = 'p'\nwhat = 'w'\nseconds = 1\n", "unknown task"),
    ("drops_in_process = 4\n", "must be an object"),
    ("", "names no task"),
    ("[drops_in_process\n", "t.toml"),
])
def test_a_bad_timings_file_is_one_line_and_exit_2(tmp_path, capsys, text, says):
    """A mistake in the file stops the mode before anything is timed: one line naming the
    file and what is wrong, exit code 2, no traceback (the house rule for bad input)."""
    path = tmp_path / "t.toml"
    path.write_text(text)
    code, out, err = run_bench(["peers", "--timings", str(path), "--repeat", "1"], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"bench: error: {path}: ")
    assert says in err


def test_no_timings_file_is_one_line_and_exit_2(capsys):
    code, _, err = run_bench(["peers"], capsys)
    assert code == 2 and err.startswith("bench: error: ") and err.count("\n") == 1


def test_ratio_row_is_peer_over_emucore():
    """ratio = peer seconds / emucore seconds, also against emucore's slowest run."""
    timing = peers.PeerTiming("FM-Manip-Tool", "w", 0.058)
    title, ratio, worst, unit, words = peers.ratio_row("drops_process", timing, 0.029, 0.058)
    assert (ratio, worst, unit) == (pytest.approx(2.0), pytest.approx(1.0), "x")
    assert title == peers.TASKS["drops_process"].title
    assert words == "FM-Manip-Tool 0.058 s / emucore 0.029 s"


def test_prints_the_ratio_of_a_cheap_task(tmp_path, capsys):
    """The mode end to end on 10,000 drops in this process (a few milliseconds): one row per
    task of the file, its ratio the peer's seconds over the emucore seconds it prints."""
    path = tmp_path / "t.toml"
    path.write_text(GOOD)
    code, out, err = run_bench(["peers", "--timings", str(path), "--repeat", "2", "--json"],
                               capsys)
    assert (code, err) == (0, "")
    [row] = json.loads(out)
    assert row["measure"] == "10,000 drops, in-process"
    emucore = float(re.fullmatch(r"FM-Manip-Tool 0\.25 s / emucore (\S+) s", row["goal"])[1])
    assert row["median"] == pytest.approx(0.25 / emucore, rel=1e-3)
    assert row["max"] <= row["median"]


def test_task_picks_one_entry(tmp_path, capsys):
    """``--task`` times only that task; a task the file does not name is one line, exit 2."""
    path = tmp_path / "t.toml"
    path.write_text(GOOD + '[starter_one_core]\npeer = "p"\nwhat = "w"\nseconds = 30\n')
    code, out, _ = run_bench(["peers", "--timings", str(path), "--repeat", "1", "--task",
                              "drops_in_process"], capsys)
    assert code == 0 and out.count("\n") == 1 and "10,000 drops, in-process" in out
    code, _, err = run_bench(["peers", "--timings", str(path), "--task", "seed_search"],
                             capsys)
    assert code == 2 and "has no seed_search entry" in err


def test_the_example_timings_file_reads():
    """The example the docs point at is a good timings file naming every task."""
    got = peers.read_timings(TOOLS / "peer_timings.example.toml")
    assert sorted(got) == sorted(peers.TASKS)
