"""One deck file format for every system (emucore/duel/deckfile.py, docs/decks.md).

Sources: the issue "the README's promises kept word for word" (a newcomer's ocg1999 deck,
``2x Gaia The Fierce Knight`` lines, was refused by FM: two deck formats); the card names
as the games' tables spell them (roms_tables/*/cards.csv, from shared/reference), e.g.
"Mystical Sheep #2", and DM1's "Rock Ogre Grotto#1" without a space; the rules each
system's page states (FM and DM1 decks of exactly 40 cards, FM at most 3 copies; the 1999
rulebook's 3 copies over deck and side deck)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emucore import cli
from emucore import tables as T
from emucore.duel.deckfile import DeckLine, parse_deck

# Fourteen cards every one of fm, dm1 and ocg1999 has (none a Fusion Monster): 13x3 + 1 = 40.
SHARED = ["Hitotsu-Me Giant", "Mammoth Graveyard", "Silver Fang", "Tomozaurus", "Dark Gray",
          "Nemuriko", "Fire Reaper", "Firegrass", "Eyearmor", "Petit Dragon", "Meotoko",
          "Haniwa", "Kurama", "Mystical Sheep #2"]
SHARED_DECK = ("\ufeff# one deck for three games\r\n"
               + "".join(f"3x {name}\r\n" for name in SHARED[:-1])
               + "\r\n1 x Mystical Sheep #2   # a name with a sharp, then a note\r\n")


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str, name: str = "my.deck") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def fm_deck(capsys, path: Path) -> list[int]:
    """The deck ``fm deal`` reads from ``path`` (unsorted: in file order)."""
    code, out, err = run(capsys, "fm", "deal", "--duelist", "1", "--deck", path, "--sort",
                         "none", "--index", "0", "--json")
    assert code == 0, err
    return json.loads(out)["player_before"]


def test_one_file_is_a_deck_of_fm_dm1_and_ocg1999(capsys, tmp_path):
    """The issue: a deck made for one system is read by the others when they have its cards
    (counts, names with '#', a BOM, CRLF, comments and blank lines)."""
    path = write(tmp_path, SHARED_DECK)
    fm = T.load("fm")
    expected = [fm.card_id(n) for n in SHARED[:-1] for _ in range(3)] + [282]
    assert fm_deck(capsys, path) == expected
    code, out, err = run(capsys, "dm1", "deck", path, "--json")
    assert code == 0 and json.loads(out)["cards"] == 40, err
    code, out, err = run(capsys, "ocg1999", "deck", path, "--json")
    assert code == 0, err
    main = json.loads(out)["main"]
    assert sum(r["copies"] for r in main) == 40 and len(main) == 14


def test_fm_reads_the_deck_the_ocg1999_command_writes(capsys, tmp_path):
    """The issue's second half: FM refused "2x Gaia..." lines. Now the counts read; a card
    FM lacks is named with its line."""
    path = write(tmp_path, "".join(f"2x {n}\n" for n in SHARED[:-1]) + "4 x Kurama\n"
                 + "10x Haniwa\n")
    code, _, err = run(capsys, "fm", "deal", "--duelist", "1", "--deck", path, "--sort", "none",
                       "--index", "0")
    assert code == 2 and f"{path} line 14: 6 copies of Kurama" in err, err
    path = write(tmp_path, "".join(f"3x {n}\n" for n in SHARED[:-1]) + "Trap Hole\n")
    code, _, err = run(capsys, "fm", "deal", "--duelist", "1", "--deck", path, "--sort", "none",
                       "--index", "0")
    assert code == 2 and f"{path} line 14: unknown card 'Trap Hole'" in err, err


def test_the_ocg1999_deck_out_file_reads_back(capsys, tmp_path):
    """``ocg1999 deck dragon --out FILE`` writes a file that reads back as the same deck, and
    never over an existing file or its own input."""
    out = tmp_path / "dragon.deck"
    code, shown, err = run(capsys, "ocg1999", "deck", "dragon", "--out", out, "--json")
    assert code == 0, err
    code, again, err = run(capsys, "ocg1999", "deck", out, "--json")
    assert code == 0 and json.loads(again) == json.loads(shown), err
    before = out.read_bytes()
    code, _, err = run(capsys, "ocg1999", "deck", "magician", "--out", out)
    assert code == 2 and "already exists" in err and out.read_bytes() == before
    code, _, err = run(capsys, "ocg1999", "deck", out, "--out", out, "--force")
    assert code == 2 and "also an input" in err and out.read_bytes() == before


@pytest.mark.parametrize(("system", "text", "where", "words"), [
    ("fm", "Mystical Sheep #2\n" * 40, "line 4", "40 copies of Mystical Sheep #2"),
    ("dm1", "2x 17\nRock Ogre Grotto#1\n" * 13 + "[side]\n", "line 27",
     "unknown section '[side]' (DM1 decks have no sections but [main])"),
    ("dm1", "2x 17\n" * 19 + "Rock Ogre Grotto#1\n2 x 1\n", "line 21",
     "41 cards, a deck needs exactly 40 cards"),
    ("ocg1999", SHARED_DECK + "[side]\nKurama\n3x Sparks\n3x Hinotama\n3x Raigeki\n",
     "line 18",
     "4 copies of Kurama; no more than 3 copies of a card across deck and side deck"),
    ("ocg1999", "3x Kurama\n[Fusion]\nKurama\n", "line 3",
     "the Fusion Deck holds only Fusion Monsters"),
    ("tcglite", "3x Feral Imp\n4 x Feral Imp\n", "line 2", "7 copies of Feral Imp"),
])
def test_each_system_names_the_file_and_line(capsys, tmp_path, system, text, where, words):
    """Each system's own rules over the one reader, one line naming the file and the line
    (before, FM and DM1 cut "Mystical Sheep #2" and "Rock Ogre Grotto#1" at the '#',
    DM1 read no "2x" and the paper copy limit named no line)."""
    path = write(tmp_path, text)
    argv = {"fm": ["fm", "deal", "--duelist", "1", "--sort", "none", "--index", "0", "--deck"],
            "dm1": ["dm1", "deck"], "ocg1999": ["ocg1999", "deck"],
            "tcglite": ["tcglite", "deck"]}[system]
    code, _, err = run(capsys, *argv, path)
    assert code == 2 and err.count("\n") == 1, err
    assert f"{path} {where}".strip() in err and words in err, err


def test_a_tcglite_deck_with_a_side_section_is_wrong_at_its_first_side_card(capsys, tmp_path):
    """tcglite has no side deck (docs/paper.md): the first side card's line is named."""
    path = write(tmp_path, "3x Feral Imp\n3x Great White\n[side]\nFeral Imp\n")
    code, _, err = run(capsys, "tcglite", "deck", path)
    assert code == 2 and f"{path} line 4: the tcglite rules have no side deck" in err, err


def test_the_reader_keeps_each_copy_with_its_line():
    """docs/decks.md's syntax, line by line."""
    text = ("# a comment\n\n2x 17\n2 X 18\n3x #19\n#20\n# 21 spare\n"
            "[Side]\n  Mystical Sheep #2  # note\n[fusion]\n1x 5\n")
    deck = parse_deck(text, "d", int_or_name, ("main", "side", "fusion"))
    assert deck.cards == (DeckLine(17, 3), DeckLine(17, 3), DeckLine(18, 4), DeckLine(18, 4),
                          *[DeckLine(19, 5)] * 3, DeckLine(20, 6),
                          DeckLine(282, 9, "side"), DeckLine(5, 11, "fusion"))
    assert deck.ids("side") == [282] and deck.where(deck.cards[-1]) == "d line 11"


def int_or_name(token: str) -> int:
    """FM's own lookup (ids, '#ids' and names)."""
    return T.load("fm").card_id(token)
