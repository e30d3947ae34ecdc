"""The FM screens as a player expects them (issue 26, items 4, 5, 6 and the FM parts of 11):
the cursor on a monster that has acted, the turn numbers, the guardian star over the card
being played, refusals that say why, the rank meter beside the big card, whole names, a
readable selection, and the two-player hand-over."""

from __future__ import annotations

import numpy as np
from frontend_fmdriver import new_app, press, wait

from emucore import tables
from emucore.frontend import assets, layout
from emucore.frontend.cards import LARGE
from emucore.frontend.layout import overlap
from emucore.frontend.systems.fm import common
from emucore.frontend.systems.fm import duel as fm_duel
from emucore.frontend.systems.fm.duel import DuelScreen
from emucore.frontend.systems.fm.duel_board import PANEL_X
from emucore.frontend.systems.fm.library import Library
from emucore.frontend.systems.fm.session import FmGame
from emucore.frontend.tour import STOPS, visit
from emucore.tables.fm import CARD_COUNT, DUELIST_COUNT

FM_STOPS = {name: presses for name, _, presses in STOPS["fm"]}

FM = tables.load("fm")
ELF, MUSHROOM, QUEEN = 2, 8, 638  # Mystical Elf + Mushroom Man = Queen of Autumn Leaves


def _duel(deck: list[int], skip: bool = True, state: int | None = None):
    app = new_app()
    game = FmGame()
    game.new_game()
    game.data["deck"] = list(deck)
    if state is not None:
        game.rng.state = state
    screen = DuelScreen(game, game.start_duel(1), None, 1)
    app.switch(screen)
    if skip:
        press(app, "cross")  # the opening messages
    return app, screen


def _settle(app, screen) -> None:
    while screen.queue or screen.timer:
        press(app, "cross")


def _texts(app) -> list[tuple[tuple[int, int, int, int], str]]:
    app.fb.text_rects = []
    app.screen.draw(app, app.fb)
    rects, app.fb.text_rects = app.fb.text_rects, None
    return rects


def _to_own_turn(app, screen) -> None:
    """End the turn and let the computer play its turn out."""
    press(app, "start")
    for _ in range(6000):
        _settle(app, screen)
        if screen.view.acting_side == 0 and not screen.queue and not screen.timer:
            return
        wait(app, 1)
    raise AssertionError("the computer's turn did not end")


MONSTERS = [card for card in range(2, 15) for _ in range(3)] + [15]


def _play_first_card(app, screen, zone: int) -> None:
    """Play the first hand card face up on column ``zone`` with its first star."""
    press(app, "cross")  # the card
    press(app, "cross")  # face up
    while screen.ui.cursor != zone:
        press(app, "right")
    press(app, "cross")  # the zone
    press(app, "cross")  # the star
    _settle(app, screen)


def _bright_top_edge(app, screen, zone: int) -> bool:
    """Whether the top edge of the player's monster in ``zone`` is drawn in the cursor's
    bright frame colour."""
    app.step()
    card = screen.view.sides[0].monsters[zone]
    x, y = screen.zone_xy(0, "monster", zone)
    w = 30
    if card.defending:
        x, y, w = x - screen.sideways_shift, y + screen.sideways_shift, 40
    return bool((app.fb.pixels[y, x:x + w] == app.colour("highlight")).all())


def test_after_an_attack_the_cursor_stays_bright_on_the_attacker():
    """Source: issue 26 item 4 (the cursor vanished on a monster that had attacked and
    jumped back to column 1, so the next bright card looked selected)."""
    app, screen = _duel(MONSTERS)
    _play_first_card(app, screen, 0)
    _to_own_turn(app, screen)
    _play_first_card(app, screen, 1)
    assert screen.ui.mode == "field" and (screen.ui.row, screen.ui.cursor) == ("monster", 1)
    press(app, "cross")  # the monster in column 2 attacks
    assert screen.ui.mode == "target"
    press(app, "cross")
    _settle(app, screen)
    assert (screen.ui.mode, screen.ui.row, screen.ui.cursor) == ("field", "monster", 1)
    assert screen.view.sides[0].monsters[1].used  # it survived this deal's battle
    assert _bright_top_edge(app, screen, 1)
    press(app, "left")
    press(app, "right")  # back onto it: still bright, though dimmed as a card that acted
    assert _bright_top_edge(app, screen, 1)


def test_the_turn_banner_reads_the_turn_being_played():
    """Source: issue 26 item 5: the first banner read "TURN 0" while the panel and the log
    said Turn 1."""
    app, screen = _duel(MONSTERS, skip=False)
    banners = set()
    for _ in range(120):
        banners |= {text for _, text in _texts(app) if text.startswith("TURN ")}
        if banners:
            break
        wait(app, 1)
    assert banners == {"TURN 1   YOU"}
    assert "Turn 1: You" in screen.log


def test_the_star_is_asked_over_the_fusion_result():
    """Source: issue 26 item 6; the fusion from the FM table (Mystical Elf + Mushroom Man =
    Queen of Autumn Leaves, roms_tables/fm)."""
    assert FM.fusion_result(ELF, MUSHROOM) == QUEEN
    for state in range(1, 500):  # a deal whose first hand holds both
        game = FmGame()
        game.new_game()
        game.data["deck"], game.rng.state = list(MONSTERS), state
        hand = game.start_duel(1).hand(0)
        if ELF in hand and MUSHROOM in hand:
            break
    app, screen = _duel(MONSTERS, state=state)
    hand = [c.card for c in screen.view.sides[0].hand]
    first, second = hand.index(ELF), hand.index(MUSHROOM)
    for position in (first, second):
        while screen.ui.cursor != position:
            press(app, "right")
        press(app, "up")
    for _ in range(3):  # play, face up, zone
        press(app, "cross")
    assert screen.ui.mode == "star"
    assert screen._focus() == QUEEN
    assert common.star_name(screen.game, QUEEN, 0) in " ".join(t for _, t in _texts(app))


def test_a_refusal_says_why_beside_the_hand_not_over_it():
    """Source: the engine's refusal name ("first-turn", emucore/fm/engine.py) and issue 26
    item 11 (the notice band covered the hand's DEF numbers)."""
    app, screen = _duel(MONSTERS)
    for _ in range(4):
        press(app, "cross")
    _settle(app, screen)
    press(app, "cross")  # attack on the first turn
    assert screen.ui.mode == "field" and app.notices[-1] == fm_duel.REFUSALS["first-turn"]
    assert app._notice is None  # no band over the hand
    rects = _texts(app)
    said = [r for r, text in rects if text.startswith("No monster")]
    assert said and all(r[0] >= PANEL_X for r in said)
    press(app, "up")
    press(app, "up")
    press(app, "cross")  # the opponent's zone: looked at only
    assert "looked at" in app.notices[-1]


def test_an_empty_zone_says_so_from_the_engine():
    """Source: the engine's refusal name "empty-zone" (emucore/fm/engine.py)."""
    app, screen = _duel(MONSTERS)
    for _ in range(4):
        press(app, "cross")
    _settle(app, screen)
    press(app, "right")
    press(app, "cross")
    assert app.notices[-1] == fm_duel.REFUSALS["empty-zone"] and screen.ui.mode == "field"


def test_the_rank_meter_leaves_the_big_cards_name_readable(tmp_path):
    """Source: issue 26 item 11 (the Tab rank meter covered the big card's name)."""
    app = visit("fm", "psx", FM_STOPS["duel"], tmp_path)
    app.toggles["rank_meter"] = True
    rects = _texts(app)
    card = (PANEL_X + 4, 4, *LARGE)
    meter = [r for r, text in rects if text == "SCORE"]
    assert meter and not any(overlap(r, card) for r in meter)


def test_fm_names_are_cut_only_at_whole_words():
    """Source: the 722 card names and 39 duelist names of the FM tables; issue 26 item 11
    ("Polymerizati."): every shown word is a whole word of the name, or "..."."""
    boxes = ((122, 1, False), (168, 1, False), (148, 1, False), (110, 3, False),
             (104, 3, False))
    for card in range(1, CARD_COUNT + 1):
        name = FM.names[card]
        for width, lines, from_end in boxes:
            shown = layout.fit(name, width, lines, from_end)
            words = " ".join(shown).replace(layout.MORE, " ").split()
            assert set(words) <= _parts(name), (name, shown)
            if (width, lines) == (110, 3):  # the build deck's whole name under the card
                whole = "".join(row if row.endswith("-") else f"{row} " for row in shown)
                assert whole.strip() == name, (name, shown)  # a hyphen's break runs on
    for duelist in range(1, DUELIST_COUNT + 1):
        name = FM.duelist_name(duelist)
        shown = layout.fit(name, 86, 1, True)
        assert set(" ".join(shown).replace(layout.MORE, " ").split()) <= _parts(name)


def _parts(name: str) -> set[str]:
    """The words of ``name`` and, for a hyphenated word, its parts as the fitting rule
    breaks it over lines ("Mech-", "soldier")."""
    parts = {p for w in name.split() for p in w.replace("-", "- ").split()}
    return set(name.split()) | parts | {p.rstrip("-") for p in parts}


def _contrast(profile_rgb, a: int, b: int) -> float:
    def lum(rgb):
        c = np.asarray(rgb, float) / 255
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    lo, hi = sorted((lum(profile_rgb[a]), lum(profile_rgb[b])))
    return (hi + 0.05) / (lo + 0.05)


def test_the_librarys_selected_unowned_row_reads():
    """Source: WCAG 2.x contrast, 4.5:1 for normal text; issue 26 item 11 (grey on light
    blue)."""
    app = new_app()
    game = FmGame()
    game.new_game()
    unowned = next(c for c in range(1, CARD_COUNT + 1) if game.trunk_count(c) == 0)
    screen = Library(game, None)
    screen.cursor = screen.top = unowned - 1
    app.switch(screen)
    app.step()
    rgb = assets.palette_rgb("psx", app.machine.default_palette)
    y = 14  # the first row, the selected one
    row = app.fb.pixels[y:y + 8, 28:150]
    colours = set(np.unique(row).tolist())
    background = app.colour("panel")
    assert background in colours
    for colour in colours - {background}:
        assert _contrast(rgb, colour, background) >= 4.5


def test_either_pad_takes_a_two_player_turn_and_the_prompt_names_the_key(tmp_path):
    """Source: issue 26 item 11 ("Player 2: press Cross" while player 1's key did nothing
    and the prompt named no key); the default keys of emucore/frontend/bindings.py (Cross:
    Z on pad 1, N on pad 2)."""
    app = visit("fm", "psx", [*FM_STOPS["main_menu"], *["down"] * 4, "cross", "cross", "start",
                              "wait:240"], tmp_path)
    screen = app.screen
    assert screen.handing_over
    texts = [text for _, text in _texts(app)]
    assert "Player 1: press Cross (key Z or N)" in texts
    press(app, "cross")  # pad 1 takes player 1's turn
    assert not screen.handing_over
    for _ in range(4):
        press(app, "cross")
    _settle(app, screen)
    press(app, "start")
    _settle(app, screen)
    assert screen.handing_over and screen.view.acting_side == 1
    assert "Player 2: press Cross (key Z or N)" in [t for _, t in _texts(app)]
    press(app, "cross")  # the pad was passed: pad 1's Cross takes player 2's turn
    assert not screen.handing_over and screen.hand_visible(1)
    press(app, "cross", player=1)  # the other pad does not play this turn
    assert screen.ui.mode == "hand"
    press(app, "cross")  # the pad that took the turn plays it
    assert screen.ui.mode == "face"
