"""Every computer-vs-computer paper duel ends; what ends a duel the rulebook lets run forever.

Sources: the issue's reproduction (ocg1999 seed 364522461, magician vs magician: both sides at
7300 LP with one card left, and neither computer ever drew it); the 1999 rulebook's deck-out
rule (spec/ocg1999-tcglite.md §2.4: when a deck runs out, more LP wins; equal LP is emucore's
draw) and its optional draw ("may draw 1"), which lets two players who never draw play forever;
docs/paper.md for the turn limit emucore adds (TURN_LIMIT).

The sample of computer duels with random decks runs in the default run; ``pytest -m fuzz`` (or
EMUCORE_FUZZ=1) plays the full thousand per system and prints how long they took and the
longest duel in turns.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter

import pytest
from paper_kit import board, duel

from emucore import cli
from emucore.duel.protocol import DRAW
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper import engine
from emucore.paper.actions import Draw, Ended, EndTurn, NextPhase
from emucore.paper.ai import choose
from emucore.paper.cards import FUSION
from emucore.paper.decks import DeckList
from emucore.paper.state import END_REASONS, fields_of
from emucore.paper.system import PaperSystem
from emucore.tcglite.system import SYSTEM as TCG

FULL = 1000  # duels per system with -m fuzz
SAMPLE = 200  # duels per system in the default run (about a second each)
DUELS = FULL if os.environ.get("EMUCORE_FUZZ") else SAMPLE
STEP_BOUND = 100_000  # a duel still running after this many actions does not end


def _play_out(d) -> int:
    """Let the computer play both sides until the duel ends (or STEP_BOUND actions)."""
    for steps in range(STEP_BOUND):
        if d.over:
            return steps
        d.step(choose(d))
    return STEP_BOUND


def test_the_reported_magician_mirror_ends_by_deck_out() -> None:
    """The issue's duel: at 7300 LP each with one card left, the side with nothing else to do
    draws its last card, and the deck-out rule ends the duel: equal LP is a draw."""
    d = OCG.new_duel(364522461, ("magician", "magician"))
    _play_out(d)
    assert d.over and d.winner == DRAW and d.end_reason == "deck_out"
    assert [s.lp for s in d.state.sides] == [7300, 7300]
    assert d.state.turn < engine.TURN_LIMIT


def _last_card_table(hand: list[str], foe_deck: list[str]) -> object:
    """Player 2's draw phase: one card in its deck, 7300 LP each, nothing on the field, and
    nothing it could attack with."""
    d = duel()
    d.step(EndTurn())
    board(d, 1, deck=["Haniwa"], hand=hand, lp=7300, monsters=[], spells=[])
    board(d, 0, deck=foe_deck, lp=7300, hand=[], monsters=[], spells=[])
    assert d.phase == "draw" and d.acting_side == 1
    return d


def test_the_last_card_is_drawn_when_waiting_cannot_change_anything() -> None:
    """Both decks at their last card and no play in the hand: waiting changes nothing, so the
    computer draws (and the deck-out rule ends the duel as a draw at equal LP)."""
    d = _last_card_table(hand=[], foe_deck=["Kurama"])
    assert choose(d) == Draw()
    events = d.step(Draw())
    assert Ended(DRAW, "deck_out") in events


def test_the_last_card_waits_while_the_turn_holds_a_play_or_the_opponent_draws() -> None:
    """Skipping the draw keeps the duel going only while something can still change: a
    monster to place this turn, or an opponent who still draws new cards."""
    assert choose(_last_card_table(hand=["Kurama"], foe_deck=["Haniwa"])) == NextPhase()
    assert choose(_last_card_table(hand=[], foe_deck=["Haniwa", "Kurama"])) == NextPhase()


def _never_drawing_script(tmp_path, turns: int):
    path = tmp_path / "s.json"
    path.write_text(json.dumps([{"kind": "end_turn"}] * turns))
    return path


def test_two_players_who_never_draw_reach_the_turn_limit_a_draw(tmp_path, capsys) -> None:
    """The rulebook lets a duel without draws run forever; emucore ends it as a draw once turn
    TURN_LIMIT has ended, and the event stream and the result say why."""
    script = _never_drawing_script(tmp_path, engine.TURN_LIMIT)
    assert cli.main(["ocg1999", "duel", "--seed", "1", "--script", str(script), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["winner"], out["reason"], out["turns"]) == (DRAW, "turn_limit",
                                                            engine.TURN_LIMIT)
    assert out["events"][-1] == {"kind": "ended", "winner": DRAW, "reason": "turn_limit"}


def test_the_turn_limit_is_in_the_state_image_and_ends_nothing_early() -> None:
    """A replay's state image names the reason; the turn before the limit still plays."""
    d = duel()
    d.state.turn = engine.TURN_LIMIT - 1
    d.step(EndTurn())
    assert not d.over and d.state.turn == engine.TURN_LIMIT
    events = d.step(EndTurn())
    assert d.over and d.winner == DRAW and d.end_reason == "turn_limit"
    assert events[-1] == Ended(DRAW, "turn_limit") and d.legal_actions() == []
    assert fields_of(d.snapshot())["reason"] == END_REASONS.index("turn_limit")
    restored = duel()
    restored.restore(d.snapshot())
    assert restored.end_reason == "turn_limit"


def random_deck(system: PaperSystem, rng: random.Random) -> DeckList:
    """A legal deck of random cards: deck_min to deck_min + 30 of the non-fusion cards (at
    most max_copies of each), and a random Fusion Deck."""
    cards = system.catalogue.cards.values()
    pool = [c.id for c in cards if c.kind != FUSION]
    fusions = [c.id for c in cards if c.kind == FUSION]
    size = rng.randint(system.profile.deck_min, system.profile.deck_min + 30)
    copies = [card for card in pool for _ in range(system.profile.max_copies)]
    main = rng.sample(copies, size)
    return DeckList(tuple(main), (), tuple(rng.sample(fusions, rng.randint(0, len(fusions)))))


@pytest.mark.fuzz
@pytest.mark.parametrize("system", [OCG, TCG], ids=["ocg1999", "tcglite"])
def test_computer_duels_with_random_decks_all_end(system: PaperSystem) -> None:
    """DUELS computer-vs-computer duels per system, random decks, seeds and ante: every one
    ends, and by the rules (LP, deck-out), never by the turn limit."""
    rng = random.Random(system.name)
    reasons: Counter[str] = Counter()
    longest = 0
    started = time.perf_counter()
    for _ in range(DUELS):
        decks = (random_deck(system, rng), random_deck(system, rng))
        ante = system is OCG and rng.random() < 0.5
        d = system.new_duel(rng.getrandbits(32), decks, ante=ante)
        _play_out(d)
        assert d.over, (d.state.turn, decks)
        reasons[d.end_reason] += 1
        longest = max(longest, d.state.turn)
    seconds = time.perf_counter() - started
    print(f"{system.name}: {DUELS} duels in {seconds:.1f} s, longest {longest} turns, "
          f"{dict(reasons)}")
    assert set(reasons) <= {"lp", "both_lp", "deck_out"} and longest < engine.TURN_LIMIT
