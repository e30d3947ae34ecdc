"""DM1 screens (issue 14, item 8): the menu RNG steps every menu frame and goes on after a
lost duel, so a rematch deals differently; the duel screen's text fits 160x144; the opponent
list and the result show the opponent's portrait. Issue 26: a full hand on screen, the
computer's turn step by step with a log, card text in sentences, Forfeit, a result that waits,
refusals in words, and no hidden card named."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from emucore.dm1 import ai
from emucore.dm1.actions import DIRECT, Order, Summon
from emucore.dm1.duel import Dm1Duel
from emucore.dm1.state import END_REASONS, FACE_UP, HAND_SLOTS
from emucore.duel.padlog import word_from_buttons
from emucore.frontend import layout, tour
from emucore.frontend.portraits import SIZE, portrait
from emucore.frontend.systems import dm1, dm1_duel, dm1_text
from emucore.tables.dm1 import EFFECTS


def test_menus_step_the_rng_every_frame(tmp_path):
    app = tour.visit("dm1", "gb", ["start", "a"], tmp_path)  # the main menu
    game = app.screen.game
    before = game.rng
    tour.press(app, "wait:10")
    assert game.rng != before
    tour.press(app, "a")  # the opponent list ticks too
    before = game.rng
    tour.press(app, "wait:3")
    assert game.rng != before


def test_a_rematch_after_a_loss_is_dealt_differently(tmp_path):
    app = tour.visit("dm1", "gb", ["start", "a"], tmp_path)
    game = app.screen.game
    seed = game.rng
    first = Dm1Duel(game.deck, opponent=1, seed=seed)
    first._end(1, END_REASONS.index("lp"))  # the player lost
    assert first.winner == 1 and game.finish(1, first) is None
    second = Dm1Duel(game.deck, opponent=1, seed=game.rng)
    assert game.rng != seed and second.hand_cards(0) != Dm1Duel(
        game.deck, opponent=1, seed=seed).hand_cards(0)


def test_the_duel_text_stays_on_the_screen_unclipped(tmp_path):
    app = tour.visit("dm1", "gb", [*tour.STOPS["dm1"][4][2], "wait:200"], tmp_path)
    app.fb.text_rects = []
    app.screen.draw(app, app.fb)
    rects = app.fb.text_rects
    assert not layout.problems(rects, (0, 0, 160, 144))


def _stop(name):
    (presses,) = [p for n, _, p in tour.STOPS["dm1"] if n == name]
    return presses


def _shows(app, x, y, opponent):
    """Whether the framebuffer holds ``opponent``'s 32x32 portrait at (x, y)."""
    face = portrait(dm1.face_seed(opponent), app.machine.art)
    return np.array_equal(app.fb.pixels[y:y + SIZE, x:x + SIZE], face)


def test_the_opponent_list_shows_the_selected_opponents_portrait(tmp_path):
    """Source: the DM1 table's 16 opponents in stage order and portraits.py: the portrait
    beside the list is the selected opponent's, and it follows the cursor."""
    app = tour.visit("dm1", "gb", _stop("opponents"), tmp_path)
    x = 160 - SIZE - 4
    for row in range(3):
        opponent = app.screen.order[row]["id"]
        assert app.screen.menu.cursor == row
        app.screen.draw(app, app.fb)
        assert _shows(app, x, 14, opponent)
        assert not _shows(app, x, 14, app.screen.order[row + 1]["id"])
        tour.press(app, "down")


def test_the_result_stop_shows_the_opponents_portrait_above_the_outcome(tmp_path):
    """Source: the DM1 rules (passing every turn lets the opponent's attacks bring the LP to
    0) and portraits.py: the tour's result stop is the result screen of a lost duel, with
    the opponent's portrait above the text."""
    app = tour.visit("dm1", "gb", _stop("result"), tmp_path)
    screen = app.screen
    assert isinstance(screen, dm1.ResultScreen) and screen.duel.winner == 1
    app.fb.text_rects = []
    screen.draw(app, app.fb)
    assert _shows(app, (160 - SIZE) // 2, 4, screen.opponent)
    assert min(rect[1] for rect, _ in app.fb.text_rects) > 4 + SIZE


# --- issue 26: screens a player trusts ---------------------------------------------------------

DM1_STOPS = [(name, presses) for name, _, presses in tour.STOPS["dm1"]]


@pytest.mark.parametrize(("name", "presses"), DM1_STOPS, ids=[n for n, _ in DM1_STOPS])
def test_every_dm1_stop_passes_the_layout_check(name, presses, tmp_path):
    """Source: layout.problems (issue 26, "Must hold"): on every DM1 stop of the tour, the
    pause menu included, every piece of text lies on the 160x144 screen and none overlaps
    another."""
    app = tour.visit("dm1", "gb", presses, tmp_path)
    app.fb.text_rects = []
    (app.paused or app.screen).draw(app, app.fb)
    assert app.fb.text_rects
    assert layout.problems(app.fb.text_rects, (0, 0, 160, 144)) == []


def test_a_six_card_hand_is_all_on_screen_with_the_cursor_on_the_sixth(tmp_path):
    """Source: issue 26 item 2 (the hand holds up to six cards; the sixth was drawn at x=157
    on a 160-pixel screen) and dm1 state.HAND_SLOTS = 6: every card of a full hand lies
    inside the screen, apart from its neighbours, and the tour's stop has the cursor on the
    sixth."""
    rects = dm1_duel.hand_rects(HAND_SLOTS)
    assert all(layout.inside(r, (0, 0, 160, 144)) for r in rects)
    assert not any(layout.overlap(a, b) for a, b in zip(rects, rects[1:], strict=False))
    app = tour.visit("dm1", "gb", _stop("duel_six_cards"), tmp_path)
    screen = app.screen
    assert len(screen.duel.hand_cards(0)) == 6 and screen.cursor == 5
    x, y, w, h = rects[5]
    assert (app.fb.pixels[y - dm1_duel.LIFT, x:x + w] == app.colour("cursor")).all()


def test_magic_text_is_a_sentence_with_the_tables_amounts():
    """Source: issue 26 item 7 (no "Raigeki destroy_opponent", "Hinotama burn") and
    roms_tables/dm1/magic.csv (Hinotama burns 500, Red Medicine heals 500, Swords locks
    3 turns): every magic card's text is a sentence without the effect column's names, and
    the amounts are the table's."""
    t = dm1.default_tables()
    assert dm1_text.effect_text(t, 337) == "Destroys all of the opponent's monsters."
    assert dm1_text.effect_text(t, 344) == "Deals 500 damage to the opponent."
    assert dm1_text.effect_text(t, 339) == "You gain 500 LP."
    assert "3 turns" in dm1_text.effect_text(t, 348)
    names = set(EFFECTS) - {"field"}  # "field" is also the word
    for card in range(301, 351):
        text = dm1_text.effect_text(t, card)
        assert text.endswith(".") and not set(text.replace(".", " ").split()) & names, text
        rows = layout.fit(dm1_text.card_name(t, card), dm1_duel.PANEL_W, 2)
        shown = layout.fit(text, dm1_duel.PANEL_W, dm1_duel.PANEL_ROWS - len(rows))
        assert "".join(shown).replace(" ", "") == text.replace(" ", ""), (card, shown)  # whole


def test_the_pause_menu_forfeits_a_dm1_duel_as_a_loss(tmp_path):
    """Source: issue 26 item 10 (Forfeit in every system's pause menu; it counts as a
    loss) and pause.py (Forfeit, then Cross/A to confirm): the result follows, says the
    player forfeited, and the wins stay."""
    app = tour.visit("dm1", "gb", _stop("forfeit_result"), tmp_path)
    screen = app.screen
    assert isinstance(screen, dm1.ResultScreen) and screen.forfeited
    assert screen.lines()[:2] == ["YOU LOSE", "You forfeited the duel."]
    assert sum(screen.game.wins) == 0 and not screen.duel.over


def test_start_does_not_dismiss_the_result_at_once(tmp_path):
    """Source: issue 26 item 11 ("Start dismisses DM1's result screen at once"): presses in
    the result's first RESULT_HOLD frames do nothing; after them Start leaves, and the
    prompt says what to press."""
    app = tour.visit("dm1", "gb", _stop("forfeit_result")[:-1], tmp_path)
    assert isinstance(app.screen, dm1.ResultScreen)
    for _ in range(dm1.RESULT_HOLD // 2 - 1):
        tour.press(app, "start")
        assert isinstance(app.screen, dm1.ResultScreen)
    tour.press(app, "wait:4")
    app.fb.text_rects = []
    app.screen.draw(app, app.fb)
    assert "A: continue" in [text for _, text in app.fb.text_rects]
    tour.press(app, "start")
    assert isinstance(app.screen, dm1.MainMenu)


def test_a_refusal_says_why_in_a_sentence(tmp_path):
    """Source: the engine's refusal names (emucore/dm1/duel.py IllegalAction rules): an
    action the rules refuse leaves a notice with that rule's sentence, not the engine's
    message."""
    app = tour.visit("dm1", "gb", _stop("duel"), tmp_path)
    screen = app.screen
    screen.play(app, Summon(0, 0))  # hand card 0 of the tour's deal is Hinotama, a magic card
    assert app.notices[-1] == dm1_text.REFUSALS["card-kind"]
    screen.play(app, Order(0, True))
    assert app.notices[-1] == dm1_text.REFUSALS["phase"]


def test_the_order_panel_says_why_a_monster_does_not_attack(tmp_path):
    """Source: the DM1 rules (no attacks on the duel's first turn; Dm1Duel.attack_block):
    the order panel offers Hold instead of Attack and says why in a sentence."""
    app = tour.visit("dm1", "gb", _stop("duel_order"), tmp_path)
    assert app.screen.mode == "order"
    app.fb.text_rects = []
    app.screen.draw(app, app.fb)
    drawn = " ".join(text for _, text in app.fb.text_rects)
    assert "Hold" in drawn and "No monster attacks on the first turn." in drawn


def test_the_computers_turn_plays_step_by_step_and_a_skips_a_wait(tmp_path):
    """Source: issue 26 item 3 (12 frames between the computer's actions, only the last line
    kept) and machine.ACTION_FRAMES: each of the computer's actions stays action_frames
    frames with its line, the log keeps the earlier lines, A ends the current wait only,
    and the fast-animations switch divides the wait."""
    app = tour.visit("dm1", "gb", [*_stop("duel"), "start", "wait:1"], tmp_path)
    screen = app.screen
    first = screen.beat
    assert first is not None and first.line == "CPU draws a card."
    frames = app.machine.action_frames
    tour.press(app, f"wait:{frames // 2 - 4}")  # a press is two frames
    assert screen.beat is first
    tour.press(app, "a")
    tour.press(app, "wait:1")  # the computer's next action, its first beat
    second = screen.beat
    assert second is not None and second is not first
    assert list(screen.log)[-2:] == [first.line, second.line]
    app.toggles["fast_animations"] = True
    tour.press(app, "a")
    tour.press(app, "wait:1")
    assert screen.frames == app.machine.paced(frames, True) < frames


def _name_pattern(name: str) -> re.Pattern[str]:
    """A card name as the layout rule may draw it: whole; its first or last whole words with
    "..." for the rest; or (a word wider than its line) a word's stem ended by one dot."""
    words = [re.escape(w) for w in name.split()]
    more = re.escape(layout.MORE)
    forms = [r"\s+".join(words)]
    forms += [r"\s+".join(words[:k]) + more for k in range(1, len(words))]
    forms += [more + r"\s*" + r"\s+".join(words[k:]) for k in range(1, len(words))]
    forms += [re.escape(w[:k]) + r"\.(?!\.)" for w in name.split() for k in range(2, len(w))]
    return re.compile(r"(?<!\w)(?:" + "|".join(forms) + r")(?!\w)")


@functools.cache
def _patterns() -> dict[int, list[re.Pattern[str]]]:
    t = dm1.default_tables()
    return {card: [_name_pattern(n) for n in {t.names[card], dm1_text.card_name(t, card)}]
            for card in range(1, 366)}


class _Watch:
    """The cards the player may see (own hand and field, every face-up card, what a battle
    shows, played magic), kept from the engine's own state around each step."""

    def __init__(self, duel: Dm1Duel) -> None:
        self.duel, self.seen = duel, set(duel.hand_cards(0))
        self.clean: set[str] = set()  # texts already checked (more seen cards keep them clean)
        step = duel.step

        def watched(action):
            before = [duel.zone_card(s, z) for s in (0, 1) for z in range(5)]
            events = step(action)
            for e in events:
                if e.kind == "battle":
                    self.seen.add(before[e.side * 5 + e.zone])
                    if e.target != DIRECT:
                        self.seen.add(before[(1 - e.side) * 5 + e.target])
                elif e.kind in ("magic", "equip") or (e.kind == "draw" and e.side == 0):
                    self.seen.add(e.card)
                elif e.kind == "fusion":
                    self.seen.add(e.result)
            self.look()
            return events

        duel.step = watched
        self.look()

    def look(self) -> None:
        duel = self.duel
        self.seen |= set(duel.hand_cards(0)) | {duel.zone_card(0, z) for z in range(5)}
        self.seen |= {duel.zone_card(1, z) for z in range(5)
                      if duel.v.zone_flags[5 + z] & FACE_UP}

    def leaks(self, text: str) -> list[int]:
        """Cards the player may not see whose names ``text`` shows."""
        if text in self.clean:
            return []
        patterns = _patterns()
        cleaned = text
        for card in self.seen - {0}:
            for p in patterns[card]:
                cleaned = p.sub("#", cleaned)
        found = [card for card in set(range(1, 366)) - self.seen
                 if any(p.search(cleaned) for p in patterns[card])]
        if not found:
            self.clean.add(text)
        return found


def test_nothing_shown_or_logged_names_a_card_the_player_cannot_see(tmp_path):
    """Source: issue 26 ("nothing on screen or in the log names a card the player could not
    see in the original"): the DM1 cartridge shows the computer's summons face-down. Over
    200 of the computer's turns (each side played by the engine's AI, through the duel
    screen; A pressed on alternate frames skips the waits), every string drawn, every log
    line and every notice names only cards in the player's hand or field, face-up cards,
    cards a battle showed and magic cards played."""
    app = tour.visit("dm1", "gb", _stop("duel"), tmp_path)
    game = app.screen.game
    turns, seed, frame = 0, 1, 0
    idle, press_a = 0, word_from_buttons("gb", ["a"])
    while turns < 200:
        screen = app.screen
        if not isinstance(screen, dm1_duel.DuelScreen) or screen.duel.over:
            seed += 1
            screen = dm1_duel.DuelScreen(game, seed % 16, Dm1Duel(game.deck, opponent=seed % 16,
                                                                   seed=seed))
            app.switch(screen)
            watch = _Watch(screen.duel)
            before = screen.duel.v.turn[0]
        elif frame == 0:
            watch = _Watch(screen.duel)
            before = screen.duel.v.turn[0]
        if screen._waiting_for_pad():
            screen.play(app, ai.choose_action(screen.duel))
        app.fb.text_rects = []
        app.step((press_a if frame % 2 else idle, idle))
        frame += 1
        turn = screen.duel.v.turn[0]
        turns += sum(1 for t in range(before + 1, turn + 1) if t % 2 == 0)  # CPU: even turns
        before = turn
        # a log line is checked whole: its rows on screen may split a name ("...over Dark" /
        # "King of....") into pieces that alone look like another card's name
        log_rows = {row for line in screen.log
                    for row in layout.fit(line, dm1_duel.PANEL_W, dm1_duel.LOG_ENTRY_ROWS)}
        drawn = [t for _, t in app.fb.text_rects if t not in log_rows]
        for text in drawn + list(screen.log) + app.notices:
            assert not watch.leaks(text), (text, watch.leaks(text))


@pytest.mark.parametrize("name", ["duel_six_cards", "duel_computer"])
def test_golden_dm1_duel_frames(name, tmp_path):
    """Source: the frames of the tour's six-card hand and of the computer's attack mid-way,
    looked at in docs/gallery/ (dm1-duel_six_cards.png, dm1-duel_computer.png)."""
    from frontend_golden import check

    app = tour.visit("dm1", "gb", _stop(name), tmp_path)
    app.screen.draw(app, app.fb)
    check(f"dm1_{name}", app.fb.digest())
