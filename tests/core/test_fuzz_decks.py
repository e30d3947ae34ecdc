"""Fuzz cases for the one deck file reader (emucore/duel/deckfile.py) through every system's
deck-taking command (tests/core/fuzz_harness.py checks the house rules on each run: exit 0
or 2, one line on stderr, no input changed, no partial output).

Three kinds of deck text: any text (``deck_text``); decks of the system's real cards near
its rules (around 40 cards, a few copies too many, sections, ids, ``#ids``, names with
'#', comments, CRLF), whose verdict for FM and DM1 is checked against the rules of
docs/decks.md, computed here from the tables' CSV files; and a valid deck file with lines
rewritten. A deck file that ``ocg1999 deck --out`` writes must read back as the same deck,
and the reader's entries must be the deck a generated file describes (source:
docs/decks.md's syntax)."""

from __future__ import annotations

import contextlib
import csv
import io
import random
import re
from collections import Counter
from pathlib import Path

import fuzz_harness
import pytest
from fuzz_harness import REPO, deck_text, fresh, mutated_lines, run_cli
from hypothesis import given
from hypothesis import strategies as st

from emucore import cli
from emucore.duel.deckfile import DeckLine, parse_deck

pytestmark = pytest.mark.fuzz


def _cards(system: str) -> list[tuple[int, str]]:
    """(id, name) of every card of ``system``, from its tables' CSV (roms_tables)."""
    with open(REPO / "roms_tables" / system / "cards.csv", encoding="utf-8") as f:
        return [(int(row["id"]), row["name"]) for row in csv.DictReader(f)]


CARDS = {system: _cards(system) for system in ("fm", "dm1", "ocg1999", "tcglite")}
DECK_COMMANDS = {  # kind -> the command line before the deck file's path
    "fm": ["fm", "deal", "--duelist", "3", "--sort", "none", "--index", "0", "--deck"],
    "fm duel": ["fm", "duel", "--duelist", "3", "--sort", "atk", "--index", "0", "--player",
                "ai", "--max-steps", "3", "--deck"],
    "plan seed": ["plan", "seed", "--count", "500", "--drawn", "1", "--deck"],
    "dm1": ["dm1", "deck"],
    "dm1 duel": ["dm1", "duel", "--auto", "--deck"],
    "ocg1999": ["ocg1999", "deck"],
    "tcglite": ["tcglite", "deck"],
    "tcglite duel": ["tcglite", "duel", "--deck0"],
}
SYSTEM_OF = {"fm": "fm", "fm duel": "fm", "plan seed": "fm", "dm1": "dm1", "dm1 duel": "dm1",
             "ocg1999": "ocg1999", "tcglite": "tcglite", "tcglite duel": "tcglite"}
LINE_FORMS = ("{n}x {card}", "{n} x {card}", "{n}X {card}")


@st.composite
def near_deck(draw: st.DrawFn, system: str) -> tuple[str, list[tuple[str, int]], set[str]]:
    """A deck file of ``system``'s cards around the size its rules want, what it holds as
    (section, card id) per copy, and the sections its headers name. A random stream
    seeded from one drawn number makes it (a draw per card would make hypothesis's
    smallest example too large)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    pool = CARDS[system][:60] if rng.random() < 0.5 else CARDS[system]
    target = rng.choice([39, 40, 40, 40, 41, 42])
    lines = [rng.choice(["", "# my deck", "#  notes: 40 cards"])]
    held: list[tuple[str, int]] = []
    section, named = "main", set()
    while len(held) < target:
        if rng.random() < 0.06:
            section = rng.choice(["main", "side", "fusion"])
            named.add(section)
            lines.append(rng.choice([f"[{section}]", f"[{section.title()}]", f" [{section}] "]))
            continue
        ident, name = rng.choice(pool)
        card = rng.choice([name, name.upper(), str(ident), f"#{ident}"])
        n = min(rng.randint(1, 4), target - len(held))
        line = card if n == 1 and rng.random() < 0.5 else \
            rng.choice(LINE_FORMS).format(n=n, card=card)
        lines.append(line + rng.choice(["", "  # a note", "\t# 3 spare"]))
        held += [(section, ident)] * n
    newline = rng.choice(["\n", "\r\n"])
    return newline.join(lines) + newline, held, named


def _legal_fm_or_dm1(system: str, held: list[tuple[str, int]], named: set[str]) -> bool:
    """docs/decks.md: FM and DM1 decks are one list (no section header but [main]) of
    exactly 40 cards; FM at most 3 copies of a card."""
    if named - {"main"} or len(held) != 40:
        return False
    return system == "dm1" or max(Counter(c for _, c in held).values()) <= 3


def _run_deck(how: str, kind: str, text: str, folder: Path) -> tuple[int, list[str]]:
    """Write ``text`` as the deck file and run ``kind``'s command on it."""
    path = folder / "my.deck"
    path.write_text(text, encoding="utf-8", newline="")
    argv = [*DECK_COMMANDS[kind], str(path)]
    return run_cli(f"deck {how} / {' '.join(argv[:2])}", argv, folder), argv


def _stderr(argv: list[str]) -> str:
    """What a command says on stderr (run again: run_cli keeps it to itself)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        cli.main(argv)
    return err.getvalue()


@pytest.mark.parametrize("kind", list(DECK_COMMANDS))
@given(text=deck_text())
def test_any_deck_text(work, kind, text):
    _run_deck("any text", kind, text, fresh(work))


@pytest.mark.parametrize("kind", list(DECK_COMMANDS))
@given(data=st.data())
def test_decks_near_the_rules(work, kind, data):
    """Every refusal names the deck file; FM's and DM1's verdicts are the rules'."""
    text, held, named = data.draw(near_deck(SYSTEM_OF[kind]))
    code, argv = _run_deck("near the rules", kind, text, fresh(work))
    if code:
        err = _stderr(argv)
        assert argv[-1] in err, err
    if SYSTEM_OF[kind] in ("fm", "dm1"):
        assert (code == 0) == _legal_fm_or_dm1(SYSTEM_OF[kind], held, named), text


VALID = {"fm": "# starter\n" + "".join(f"{c}  # {n}\n" for c, n in CARDS["fm"][200:240]),
         "dm1": "# my deck\n30 x Skull Servant\n5 x 1\n5 x sparks\n",
         "ocg1999": "".join(f"3x {n}\n" for n in (
             "Hitotsu-Me Giant", "Mammoth Graveyard", "Silver Fang", "Tomozaurus", "Dark Gray",
             "Nemuriko", "Fire Reaper", "Firegrass", "Eyearmor", "Petit Dragon", "Meotoko",
             "Haniwa", "Kurama")) + "Mystical Sheep #2\n[side]\n3x Sparks\n3x Hinotama\n"
             "3x Raigeki\nRed Medicine\n[fusion]\nFlame Swordsman\n",
         "tcglite": "".join(f"2 x {n}\n" for _, n in CARDS["tcglite"][:5])}


@pytest.mark.parametrize("system", list(VALID))
def test_the_valid_bases_are_valid(work, system):
    """The decks the next test rewrites hold to their rules as they are."""
    kind = system if system != "tcglite" else "tcglite duel"
    assert _run_deck("valid base", kind, VALID[system], fresh(work))[0] == 0


@pytest.mark.parametrize("kind", list(DECK_COMMANDS))
@given(data=st.data())
def test_valid_decks_with_lines_rewritten(work, kind, data):
    _run_deck("rewritten", kind, data.draw(mutated_lines(VALID[SYSTEM_OF[kind]])),
              fresh(work))


@st.composite
def reworded(draw: st.DrawFn, text: str) -> str:
    """The same deck as ``text`` (``Nx NAME`` lines in sections) written another way: lines
    shuffled within their section, counts as ``Nx``, ``N x`` or repeated lines, names in
    another case, notes after them."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    out: list[str] = []
    for part in re.split(r"(?m)^(?=\[)", text):
        header, *lines = part.splitlines() if part.startswith("[") else ["", *part.splitlines()]
        rng.shuffle(lines)
        out += [header] if header else []
        for line in lines:
            count, name = line.split("x ", 1) if re.match(r"^\d+x ", line) else ("1", line)
            name = rng.choice([name, name.upper(), name.lower()])
            note = rng.choice(["", "  # a note", "\t# 2 more later"])
            out += rng.choice([[f"{count}x {name}{note}"], [f"{count} x {name}{note}"],
                               [name + note] * int(count)])
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("system", ["ocg1999", "tcglite"])
@given(data=st.data())
def test_a_deck_written_by_deck_out_reads_back(work, system, data):
    """``<paper> deck FILE --out OUT``: OUT, when written, is the same deck (written from
    OUT again, it is the same file)."""
    folder = fresh(work)
    path = folder / "my.deck"
    path.write_text(data.draw(st.one_of(near_deck(system).map(lambda d: d[0]),
                                        mutated_lines(VALID[system]),
                                        reworded(VALID[system]))), encoding="utf-8")
    out, again = folder / "out.deck", folder / "again.deck"
    code = run_cli(f"deck --out / {system} deck", [system, "deck", str(path), "--out",
                                                   str(out)], folder, outputs=("out.deck",))
    if code == 0:
        assert run_cli(f"deck --out / {system} deck (its output)",
                       [system, "deck", str(out), "--out", str(again)], folder,
                       outputs=("again.deck",)) == 0
        assert again.read_bytes() == out.read_bytes()


@given(data=st.data())
def test_the_reader_gives_the_deck_a_file_describes(data):
    """The entries :func:`parse_deck` reads are the copies, sections and lines written."""
    text, held, _ = data.draw(near_deck("fm"))
    fuzz_harness.RUNS["deck / deckfile.parse_deck"] += 1
    names = {name.casefold(): ident for ident, name in CARDS["fm"]}

    def card_id(token: str) -> int:
        token = token.removeprefix("#")
        return int(token) if token.isdigit() else names[token.casefold()]

    deck = parse_deck(text, "d", card_id, ("main", "side", "fusion"))
    assert [(c.section, c.card) for c in deck.cards] == held
    assert all(isinstance(c, DeckLine) and c.line > 0 for c in deck.cards)
