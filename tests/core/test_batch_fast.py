"""``emucore batch``'s fast path answers byte for byte what argparse's path answers.

Source of the expected answers: argparse itself and the commands' own handlers. A line of
the usual shape skips argparse (``batch.quick_args`` makes the namespace from the command's
own parser) and, for ``rng at``, ``rng index``, ``fm drop`` and ``fm deal``, its handler
(``batch.ANSWERED``); the same random lines, valid and not, are answered once that way and
once with the fast path switched off, and the answers compared as text. A sample is also
compared with the one-shot ``--json`` command run as its own process.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from emucore import batch, cli
from emucore.cli import main

# words a line of each batch command is drawn from: the command's options and choices,
# numbers in and out of range, spellings argparse takes or refuses
WORDS = {
    ("card",): ["fm", "dm1", "ocg1999", "tcglite", "pokemon", "1", "722", "723", "0",
                "Kuriboh", "kuribo", "Blue-eyes White Dragon", "#12", "--json", "-1", ""],
    ("fusion",): ["fm", "dm1", "1", "2", "Mystical Elf", "nothing", "--json", "--", "22"],
    ("fm", "drop"): ["--duelist", "--pool", "--state", "--index", "--json", "--states",
                     "--duel", "--pool=bcd", "1", "7", "39", "40", "0", "-3", "sa_pow", "bcd",
                     "sa_tec", "deck", "0x55555555", "0x1FFFFFFFF", "12345", "0xZZ", "01"],
    ("fm", "rank"): ["--turns", "--effective-attacks", "--defensive-wins", "--face-down",
                     "--pure-magic", "--traps", "--fusions", "--equips", "--cards-drawn",
                     "--lp", "--end", "lp", "exodia", "deckout", "0", "4", "9", "256", "8000",
                     "-500", "--json"],
    ("fm", "starter"): ["--state", "--index", "--out", "--json", "7", "0x1", "-1",
                        "4294967296", "x.deck"],
    ("fm", "deal"): ["--duelist", "--deck", "--sort", "--state", "--index", "--json", "1",
                     "39", "40", "none", "atk", "abc", "ai", "bogus", "77", "0x10", "DECK",
                     "MISSING"],
    ("rng", "index"): ["0x1474D436", "5", "-5", "0xFFFFFFFF", "0x100000000", "--json", "x",
                       "--state"],
    ("rng", "at"): ["0", "5", "14810", "4294967295", "4294967296", "-1", "0x10", "--json",
                    "٣", "1_000", "--index"],
}
# whole lines of the usual shape (so that most random lines are not errors)
VALID = [
    ["card", "fm", "Mystical Elf"], ["card", "dm1", "1"], ["fusion", "fm", "Mystical Elf", "1"],
    ["fm", "drop", "--duelist", "7", "--pool", "sa_pow", "--index", "123456"],
    ["fm", "drop", "--pool", "bcd", "--state", "0x1474D436", "--duelist", "39", "--json"],
    ["fm", "rank", "--turns", "9", "--effective-attacks", "2", "--defensive-wins", "0",
     "--face-down", "0", "--pure-magic", "0", "--traps", "0", "--fusions", "1", "--equips",
     "0", "--cards-drawn", "14", "--lp", "900", "--end", "lp"],
    ["fm", "starter", "--index", "7"], ["rng", "index", "0x1474D436"], ["rng", "at", "14810"],
    ["fm", "deal", "--duelist", "1", "--deck", "DECK", "--sort", "none", "--index", "1000"],
    ["fm", "deal", "--sort", "atk", "--state", "0x5", "--deck", "DECK", "--duelist", "39"],
]


def _line(rng: random.Random, deck: Path) -> str:
    """A random batch line: a valid query, a valid query with a word changed, dropped or
    added, or a command followed by random words of its vocabulary."""
    pick = rng.random()
    if pick < 0.5:
        words = list(rng.choice(VALID))
        if pick < 0.3:
            at = rng.randrange(len(words) + 1)
            path = next(p for p in batch.COMMANDS if tuple(words[:len(p)]) == p)
            change = rng.choice(("swap", "drop", "add"))
            if change == "swap" and at < len(words):
                words[at] = rng.choice(WORDS[path])
            elif change == "drop" and at < len(words):
                del words[at]
            else:
                words.insert(at, rng.choice(WORDS[path]))
    else:
        path = rng.choice(list(WORDS))
        words = [*path, *(rng.choice(WORDS[path]) for _ in range(rng.randrange(8)))]
    words = [str(deck) if w == "DECK" else str(deck.with_name("missing.deck"))
             if w == "MISSING" else w for w in words]
    if rng.random() < 0.05:  # an integer where a string usually is: argparse's path
        return json.dumps([*words[:-1], 5])
    return json.dumps(words)


def _batch_output(queries: Path, fast: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    """What ``emucore batch queries`` prints, with the fast path on or off."""
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(batch, "quick_args", lambda parser, words: None)
            patch.setattr(batch, "_strings", lambda text: None)
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["batch", str(queries)])
    return out.getvalue()


@pytest.fixture
def deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A 40-card deck file, made by ``fm starter --out`` as the README makes one."""
    path = tmp_path / "my.deck"
    assert main(["fm", "starter", "--index", "7", "--out", str(path)]) == 0
    capsys.readouterr()
    return path


def test_fast_answers_are_the_argparse_answers(tmp_path: Path, deck: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(29)
    lines = [_line(rng, deck) for _ in range(600)]
    queries = tmp_path / "q.jsonl"
    queries.write_text("\n".join(lines) + "\n")
    quick = batch.quick_args
    made = []
    monkeypatch.setattr(batch, "quick_args", lambda parser, words: made.append(
        args := quick(parser, words)) or args)
    fast = _batch_output(queries, True, monkeypatch)
    slow = _batch_output(queries, False, monkeypatch)
    assert fast == slow
    answers = [json.loads(a) for a in fast.splitlines()]
    assert len(answers) == len(lines)
    ok = sum(a["ok"] for a in answers)
    assert 100 < ok < len(lines) - 100  # both kinds of line were asked
    assert sum(args is not None for args in made) > 100  # many went the fast way


def _leaves() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    parser = cli.build_parser(batch.COMMANDS, parser_class=batch._LineParser)
    return {path: batch.leaf_parser(parser, path) for path in batch.COMMANDS}


def test_quick_args_is_argparse_namespace_or_none() -> None:
    """Wherever quick_args answers, argparse answers the same namespace; wherever argparse
    refuses the words, quick_args leaves them to it."""
    leaves = _leaves()
    rng = random.Random(25)
    made = 0
    for _ in range(3000):
        path = rng.choice(list(WORDS))
        words = [rng.choice(WORDS[path]) for _ in range(rng.randrange(12))]
        if rng.random() < 0.5:
            valid = [v for v in VALID if tuple(v[:len(path)]) == path]
            words = valid[0][len(path):] if valid else words
        quick = batch.quick_args(leaves[path], words)
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                parsed = leaves[path].parse_args(words)
        except batch._LineError:
            assert quick is None, (path, words)
            continue
        if quick is not None:
            made += 1
            assert vars(quick) == vars(parsed), (path, words)
    assert made > 300


def test_a_deck_edited_during_a_batch_is_read_again(tmp_path: Path, deck: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The kept sorted deck is keyed by the file's bytes: a line after the file changed
    deals the new deck, as a single call would."""
    query = ["fm", "deal", "--duelist", "1", "--deck", str(deck), "--sort", "none",
             "--index", "5"]
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps(query) + "\n")
    assert main(["batch", str(queries)]) == 0
    first = json.loads(capsys.readouterr().out)["result"]["player_before"]
    deck.write_text("".join(f"{card}\n" for card in reversed(first)))
    assert main(["batch", str(queries)]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["player_before"] == first[::-1]


def test_one_shot_processes_answer_what_the_batch_answers(tmp_path: Path, deck: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    sample = [[str(deck) if w == "DECK" else w for w in q] for q in VALID]
    queries = tmp_path / "q.jsonl"
    queries.write_text("".join(json.dumps(q) + "\n" for q in sample))
    assert main(["batch", str(queries)]) == 0
    answers = [json.loads(a)["result"] for a in capsys.readouterr().out.splitlines()]
    for query, answer in zip(sample, answers, strict=True):
        done = subprocess.run([sys.executable, "-m", "emucore.cli", *query, "--json"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == answer, query
