"""The paper duel screens (ocg1999, tcglite): nothing hidden is named, cards show only the
types their data gives, the log wraps whole words, a duel can be given up, the computer's
turn is shown step by step, refusals say why, and the result says how the duel ended."""

from __future__ import annotations

import re

import pytest

from emucore.duel.padlog import IDLE, word_from_buttons
from emucore.frontend import layout
from emucore.frontend.systems import ocg1999 as screens
from emucore.frontend.systems import paper_board
from emucore.frontend.systems.paper_board import DuelScreen
from emucore.frontend.systems.paper_faces import paper_face
from emucore.frontend.tour import STOPS, visit
from emucore.ocg1999.system import SYSTEM as OCG
from emucore.paper import ai
from emucore.paper.actions import ATTACK, Attack, Draw, EndTurn, NextPhase, Set, Summon
from emucore.tcglite.system import SYSTEM as TCG

SYSTEMS = {"ocg1999": OCG, "tcglite": TCG}
CPU_TURNS = 200
CONFIRM = word_from_buttons("psx", ["cross"])
IDLE_PSX = IDLE["psx"]


def _to_main(duel, side: int) -> None:
    """Step ``duel`` until ``side`` stands in its (first) main phase: the other side ends its
    turns at once, ``side`` draws and moves on."""
    while duel.acting_side != side or not duel.profile.is_main(duel.phase):
        if duel.acting_side != side:
            duel.step(EndTurn())
        else:
            duel.step(Draw() if duel.is_legal(Draw()) else NextPhase())


def _visible(duel, viewer: int) -> set[int]:
    """The cards a player at the table sees now: their own hand and set cards, both
    graveyards and every face-up card on the field."""
    mine, foe = duel.state.sides[viewer], duel.state.sides[1 - viewer]
    known = {*mine.hand, *mine.grave, *foe.grave}
    for side, own in ((mine, True), (foe, False)):
        for slot in (*side.monsters, *side.spells):
            if slot is not None and (own or slot.face_up):
                known.add(slot.card)
    return known


class Leaks:
    """Checks strings against the names the player may see so far (the set only grows: a
    card seen once may be named later)."""

    def __init__(self, catalogue) -> None:
        names = {c.id: c.name for c in catalogue.cards.values()}
        self.names = names
        self.patterns = {i: re.compile(rf"(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])")
                         for i, n in names.items()}
        self.seen: set[int] = set()
        self.checked: set[str] = set()
        self.found: list[str] = []

    def look(self, duel, viewer: int) -> None:
        self.seen |= _visible(duel, viewer)

    def _cut(self, match: re.Match, text: str) -> bool:
        """Whether a match is part of a seen name wrapped over two rows (the row ends with
        its first words or starts with its last ones)."""
        seen = {self.names[i] for i in self.seen}
        return (match.end() == len(text.rstrip()) and _split(match[0], seen, True)) or \
            (match.start() == len(text) - len(text.lstrip()) and _split(match[0], seen, False))

    def check(self, text: str) -> None:
        if text in self.checked:
            return
        self.checked.add(text)
        rest = text
        for i in sorted(self.seen, key=lambda c: -len(self.names[c])):
            rest = self.patterns[i].sub("\0", rest)
        hidden = [self.names[i] for i, p in self.patterns.items()
                  if i not in self.seen and any(not self._cut(m, rest) for m in p.finditer(rest))]
        if hidden:
            self.found.append(f"{text!r} names {hidden}")


def _split(name: str, seen_names: set[str], at_end: bool) -> bool:
    """Whether ``name`` is the first (``at_end``) or last words of a seen name."""
    return any(n.startswith(f"{name} ") if at_end else n.endswith(f" {name}")
               for n in seen_names)


def _play_turns(app, system, turns: int) -> tuple[Leaks, int]:
    """Duels of the computer (side 1) against a scripted player (side 0, the computer's own
    rule pressed through the screen) until the computer has played ``turns`` turns; every
    string drawn in a frame and every log line is checked for a name the player may not
    see. Returns the checker and the number of duels."""
    game = screens.PaperGame(system)
    leaks = Leaks(system.catalogue)
    cpu_turns, duels, seed = set(), 0, 1
    app.toggles["fast_animations"] = True
    while len(cpu_turns) < turns:
        duel = system.new_duel(seed, tuple(system.decks)[:2])
        seed, duels = seed + 1, duels + 1
        screen = DuelScreen(game, duel, {0})
        app.switch(screen)
        frame = 0
        while not duel.over and len(cpu_turns) < turns:
            waiting = screen.banner is not None or screen.shown is not None
            if duel.acting_side == 0 and not waiting:
                screen._act(app, ai.choose(duel))
            if duel.state.active == 1:
                cpu_turns.add((duels, duel.state.turn))
            app.fb.text_rects = []
            frame += 1
            app.step((CONFIRM if waiting and frame % 2 else IDLE_PSX, IDLE_PSX))
            leaks.look(duel, 0)
            for _, text in app.fb.text_rects:
                leaks.check(text)
            for line in screen.log:
                leaks.check(line)
    return leaks, duels


@pytest.mark.parametrize("system", ["ocg1999", "tcglite"])
def test_200_computer_turns_name_no_card_the_player_cannot_see(headless_app, system):
    """Source: issue 26 item 1 and the rulebooks: a card set face-down is seen by the
    opponent only as a card in a zone ("the card is placed face down"), so no string drawn
    on the duel screen nor any log line names a card before it is in the player's hand, face
    up on the field or in a graveyard."""
    app = headless_app("psx", system)
    leaks, duels = _play_turns(app, SYSTEMS[system], CPU_TURNS)
    assert leaks.found == []
    assert duels >= 1
    assert len(leaks.checked) > 50  # the screen drew and logged plenty


def test_a_computer_set_is_announced_as_a_set_card(headless_app, monkeypatch):
    """Source: issue 26 item 1: the computer's face-down set reads "CPU sets a card" (a
    monster zone: "CPU sets a monster"), never the card's name; the line stays lit for the
    machine's action_frames."""
    app = headless_app("psx", "ocg1999")
    game = screens.PaperGame(OCG)
    duel = OCG.new_duel(3, tuple(OCG.decks)[:2])
    screen = DuelScreen(game, duel, {0})
    app.switch(screen)
    _to_main(duel, 1)
    screen.banner, screen.seen = None, (duel.state.turn, 1, duel.phase)
    hand = duel.state.sides[1].hand
    spell = next(i for i, c in enumerate(hand) if OCG.catalogue[c].kind in ("magic", "trap"))
    name = OCG.catalogue.name(hand[spell])
    monkeypatch.setattr(ai, "choose", lambda d: Set(spell))
    screen.update(app)
    assert screen.log[-1] == "CPU sets a card"
    assert screen.shown is not None and screen.shown.left == app.machine.action_frames
    assert screen.shown.card is None
    app.fb.text_rects = []
    screen.draw(app, app.fb)
    assert not any(name in text for _, text in app.fb.text_rects)
    monster = next(i for i, c in enumerate(duel.state.sides[1].hand)
                   if OCG.catalogue[c].kind == "monster")
    screen.shown = None
    screen._act(app, Summon(monster, 0), banner=False)
    assert screen.log[-1] == "CPU sets a monster"


def test_the_computer_action_waits_action_frames_and_confirm_skips(headless_app):
    """Source: issue 26 (every computer turn step by step): one action at a time, shown for
    the machine's action_frames (a third with fast animations), Cross ends the wait."""
    app = headless_app("psx", "tcglite")
    duel = TCG.new_duel(5, tuple(TCG.decks)[:2])
    screen = DuelScreen(screens.PaperGame(TCG), duel, {0})
    app.switch(screen)
    _to_main(duel, 1)
    screen.banner, screen.seen = None, (duel.state.turn, 1, duel.phase)
    app.step((IDLE_PSX, IDLE_PSX))
    assert screen.shown is not None
    full = app.machine.action_frames
    for _ in range(full - 2):
        app.step((IDLE_PSX, IDLE_PSX))
    assert screen.shown is not None
    app.step((CONFIRM, IDLE_PSX))
    assert screen.shown is None
    app.toggles["fast_animations"] = True
    assert app.machine.paced(full, True) == full // 3


@pytest.mark.parametrize("system", ["ocg1999", "tcglite"])
def test_monster_types_come_from_the_card_data_or_are_absent(system):
    """Source: the card tables (roms_tables/ocg1999 lists a type per monster, tcglite none):
    the face shows the data's type, or no type; never one picked by the card number."""
    catalogue = SYSTEMS[system].catalogue
    for card in catalogue.cards.values():
        if not card.is_monster:
            continue
        face = paper_face(catalogue, card.id)
        key = face.type_name.lower().replace("-", "").replace(" ", "").replace("fusion", "")
        assert key == card.monster_type.lower().replace("-", "").replace(" ", ""), card.name
    if system == "tcglite":
        great_white = next(c for c in catalogue.cards.values() if c.name == "Great White")
        assert paper_face(catalogue, great_white.id).type_name == ""


def test_the_log_wraps_whole_words():
    """Source: issue 26 item 9 ("Kagem. of the Blue Flame atta. dire."): a long log entry
    wraps at spaces over the rows it needs, no word shortened."""
    screen = DuelScreen.__new__(DuelScreen)
    screen.log = ["Duel start", "Kagemusha of the Blue Flame attacks directly",
                  "P1 LP -800 -> 7200"]
    rows = screen._log_rows(320 - paper_board.PANEL_X - 2, 0)
    words = " ".join(line for line, _ in rows).split()
    assert words == " ".join(screen.log).split()
    assert not any(w.endswith(".") for w in words)


def test_refusals_name_the_rule(headless_app):
    """Source: the rulebook (no attack on the first turn; one monster a turn) and issue 26:
    a card with no play says why, from the engine's refusal name."""
    app = headless_app("psx", "tcglite")
    duel = next(d for d in (TCG.new_duel(seed, tuple(TCG.decks)[:2]) for seed in range(50))
                if d.state.active == 0)  # the player goes first
    screen = DuelScreen(screens.PaperGame(TCG), duel, {0})
    app.switch(screen)
    _to_main(duel, 0)
    screen.banner = None
    duel.step(Summon(0, ATTACK))
    screen.row, screen.col = "hand", 0
    assert screen._why_not() == "You have already placed a monster this turn."
    screen.row, screen.col = "monsters", 0
    assert screen._why_not() == "Monsters attack in the battle phase (Start: next phase)."
    duel.step(NextPhase())
    assert (duel.phase, duel.state.turn) == ("battle", 1)
    assert screen._why_not() == "No monster attacks on the first turn."
    assert duel.refusal(Attack(0, -1)).rule == "first-turn-attack"
    screen.row = "foe_monsters"
    assert "opponent" in screen._why_not()
    for sentence in paper_board.REFUSALS.values():
        assert sentence[0].isupper() and not sentence.endswith(".")


@pytest.mark.parametrize("system", ["ocg1999", "tcglite"])
def test_forfeit_from_the_pause_menu_is_a_recorded_loss(headless_app, system):
    """Source: issue 26 item 10 and the pause menu's promise (pause.py): Forfeit on a duel
    screen counts as a loss and leads to the result, which says so and what to press."""
    app = headless_app("psx", system)
    game = screens.PaperGame(SYSTEMS[system])
    duel = SYSTEMS[system].new_duel(2, tuple(SYSTEMS[system].decks)[:2])
    app.switch(DuelScreen(game, duel, {0}))
    app.pause()
    assert "Forfeit" in app.paused.items
    app.fb.text_rects = []
    app.paused.draw(app, app.fb)
    assert "Forfeit" in [t.strip() for _, t in app.fb.text_rects]
    assert layout.problems(app.fb.text_rects, (0, 0, 320, 240)) == []
    result = app.paused.under.forfeit(app)
    assert isinstance(result, screens.ResultScreen)
    assert game.record["losses"] == 1
    assert result.outcome() == "YOU LOSE"
    assert "forfeit" in result.how()
    app.switch(result)
    app.fb.text_rects = []
    result.draw(app, app.fb)
    drawn = " ".join(t for _, t in app.fb.text_rects)
    assert "Cross:" in drawn and "forfeit" in drawn
    assert layout.problems(app.fb.text_rects, (0, 0, 320, 240)) == []


@pytest.mark.parametrize("system", ["ocg1999", "tcglite"])
def test_result_names_the_reason_and_the_title_is_not_bare(system, tmp_path):
    """Source: issue 26 item 11: the result shows the outcome, the reason and what to
    press; the title a title, what the system is and what to press."""
    stops = {name: presses for name, _, presses in STOPS[system]}
    app = visit(system, "psx", stops["result"], tmp_path / "r")
    assert isinstance(app.screen, screens.ResultScreen)
    app.fb.text_rects = []
    app.screen.draw(app, app.fb)
    drawn = [t for _, t in app.fb.text_rects]
    assert any("LP reached 0" in t for t in drawn), drawn
    assert any(t.startswith("Cross:") for t in drawn)
    app = visit(system, "psx", stops["title"], tmp_path / "t")
    app.fb.text_rects = []
    app.screen.draw(app, app.fb)
    drawn = [t for _, t in app.fb.text_rects]
    assert any("Cross: start" in t for t in drawn)
    assert len(drawn) >= 6


def test_the_hand_over_names_player_twos_own_key(headless_app):
    """Source: the keyboard bindings (bindings.keyboard_table): the two-player hand-over
    names the key of the pad it reads, and that pad's Cross takes the turn."""
    from emucore.frontend.bindings import keyboard_table
    app = headless_app("psx", "ocg1999")
    duel = OCG.new_duel(4, tuple(OCG.decks)[:2])
    screen = DuelScreen(screens.PaperGame(OCG), duel, {0, 1})
    app.switch(screen)
    screen.banner = None
    side = duel.acting_side
    key = dict(keyboard_table("psx", str(side + 1), app.bindings.raw))["cross"][0]
    assert screen._hand_over_prompt(app) == f"PLAYER {side + 1}: PRESS CROSS ({key.upper()})"
    words = [IDLE_PSX, IDLE_PSX]
    words[side] = CONFIRM
    app.step(tuple(words))
    assert not screen.handing_over
