"""Text that fits: the font's descenders, the one abbreviation rule for names, notices that
read on every palette, and no text leaving the screen or lying over other text on any screen
of the tour."""

from __future__ import annotations

import numpy as np
import pytest

from emucore import tables
from emucore.dm1.duel import default_tables as dm1_tables
from emucore.frontend import assets, layout
from emucore.frontend.cards import LARGE
from emucore.frontend.framebuffer import text_width
from emucore.frontend.machine import machine
from emucore.frontend.systems import dm1 as dm1_screens
from emucore.frontend.systems import dm1_text
from emucore.frontend.systems.fm import duel_board
from emucore.frontend.tour import STOPS, visit
from emucore.tables.fm import CARD_COUNT, DUELIST_COUNT

FM = tables.load("fm")
# (what, width in pixels, lines) of every box the FM screens fit a card name into
FM_NAME_BOXES = (("large card", LARGE[0] - 6, 2), ("library list", 122, 1),
                 ("fusion list", 148, 1), ("build deck list", 168, 1))


def _joined(lines: tuple[str, ...]) -> str:
    """Fitted lines read as one text: a line ending in a hyphen runs on into the next."""
    return "".join(line if line.endswith("-") else f"{line} " for line in lines).strip()


def _words_are_whole(source: str, line_words: list[str]) -> bool:
    """Every shown word is a word of ``source`` (a word broken over lines with a hyphen read
    whole) or one of its hyphen parts; ``layout.MORE`` may stand for words left off."""
    parts = {p for w in source.split() for p in w.replace("-", "- ").split()}
    parts |= {p.rstrip("-") for p in parts} | {w.replace("-", "") for w in source.split()}
    shown = " ".join(line_words).replace(layout.MORE, " ")
    return all(word.replace("-", "") in parts or
               all(p in parts or p.rstrip("-") in parts for p in word.replace("-", "- ").split())
               for word in shown.split())


def test_descender_letters_reach_below_the_baseline():
    """Source: Latin typography: g j p q y (and the comma) descend below the baseline; the
    other letters sit on it. The font's last row is the descender row."""
    glyphs = assets.font_glyphs()
    below = {ch for ch, g in glyphs.items() if g[-1].any()}
    assert set("gjpqy,;") <= below
    assert not below & set("abcdefhiklmnorstuvwxzABCDEFGHIJKLMNOPRSTUVWXYZ0123456789")


def test_every_printable_ascii_character_is_in_the_font():
    """Source: ASCII 0x20-0x7E, the characters of every name in the tables."""
    glyphs = assets.font_glyphs()
    assert all(chr(c) in glyphs for c in range(0x20, 0x7F))


@pytest.mark.parametrize(("box", "width", "lines"), FM_NAME_BOXES)
def test_all_722_fm_names_fit_their_boxes_without_cuts(box, width, lines):
    """Source: the 722 names of the FM card table. Each name is shown within its box's
    width and lines, whole when it fits whole, otherwise whole words with "..." for the
    rest: no word is cut (issue 26 item 11, "Polymerizati.")."""
    assert CARD_COUNT == 722
    for card in range(1, CARD_COUNT + 1):
        name = FM.names[card]
        shown = layout.fit(name, width, lines)
        assert 1 <= len(shown) <= lines, (box, name, shown)
        assert all(text_width(line) <= width for line in shown), (box, name, shown)
        assert _words_are_whole(name, _joined(shown).split()), (box, name, shown)
        if text_width(name) <= width:
            assert shown == (name,), (box, name, shown)


def test_all_39_fm_duelist_names_fit_the_duel_bar_and_the_grid():
    """Source: the 39 duelists of the FM table; the duel bar keeps the end of a name
    ("...Muran", issue 26: "Simon Mur.")."""
    for duelist in range(1, DUELIST_COUNT + 1):
        name = FM.duelist_name(duelist)
        for width, from_end in ((duel_board.LP_X - duel_board.ZONE_X - 4, True), (106, False)):
            (line,) = layout.fit(name, width, 1, from_end)
            assert text_width(line) <= width
            assert _words_are_whole(name, line.split()), (name, line)


def test_all_365_dm1_card_names_fit_the_panel_whole():
    """Source: the 365 cards of the DM1 table (their whole names, up to 42 letters; the
    cartridge cuts them to 18); the deck-edit panel gives a name two rows of 154 pixels and
    shows every one whole (issue 26: "Red-eyes B.... 2400/2000" when the stats shared the
    line), with the stats first on the line under it."""
    tables = dm1_tables()

    class Game:
        t = tables

    assert len(tables.names) - 1 == 365
    for card in range(1, 366):
        name = dm1_text.card_name(tables, card)
        shown = layout.fit(name, dm1_screens.CARD_LINE_W, dm1_screens.NAME_ROWS)
        assert " ".join(shown) == name, (name, shown)
        info = tables.card_info(card)
        stats = f"{info['atk']}/{info['defense']}" if info["kind"] == "monster" else "Magic"
        assert dm1_screens.card_about(Game, card).split()[0] == stats


def test_fitting_rule_examples():
    """Source: the rule as documented in emucore/frontend/layout.py, and the cuts issue 26
    reports ("Simon Mur.", "Polymerizati."): words are left off whole, never cut, except a
    single word wider than its line."""
    assert layout.fit("Simon Muran", 62) == ("Simon...",)
    assert layout.fit("Simon Muran", 62, from_end=True) == ("...Muran",)
    assert layout.fit("Obese Marmot of Nefariousness", 78, 2) == ("Obese Marmot", "of...")
    assert layout.fit("Kairyu-Shin", 30) == ("Kair.",)  # "Kairyu-" alone is too wide
    assert layout.fit("Kairyu-Shin", 60) == ("Kairyu...",)
    assert layout.fit("Mystical Elf", 78, 2) == ("Mystical Elf",)


def _luminance(rgb: np.ndarray) -> float:
    """WCAG 2.x relative luminance of an 8-bit sRGB colour."""
    c = rgb.astype(float) / 255
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])


@pytest.mark.parametrize("profile", ["psx", "gb"])
def test_notices_and_text_read_on_every_palette(profile):
    """Source: WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05), 4.5:1 for normal text.
    Notices (the bar at the bottom) and plain text on the background meet it on every
    palette of the machine."""
    m = machine(profile)
    for name in m.palettes:
        rgb = assets.palette_rgb(profile, name)
        for fg, bg in (("notice_text", "notice"), ("text", "bg"), ("text", "panel")):
            a, b = sorted((_luminance(rgb[m.colour(fg)]), _luminance(rgb[m.colour(bg)])))
            assert (b + 0.05) / (a + 0.05) >= 4.5, (profile, name, fg, bg)


STOP_IDS = [(system, name, profile, presses) for system, stops in STOPS.items()
            for name, profile, presses in stops]


@pytest.mark.parametrize(("system", "name", "profile", "presses"), STOP_IDS,
                         ids=[f"{s}-{n}" for s, n, _, _ in STOP_IDS])
def test_screen_text_stays_on_screen_and_apart(system, name, profile, presses, tmp_path):
    """Source: the screens themselves, drawn headless: every piece of text lies inside the
    screen and no two pieces share a pixel."""
    app = visit(system, profile, presses, tmp_path)
    fb = app.fb
    fb.text_rects = []
    app.screen.draw(app, fb)
    assert fb.text_rects, "the screen drew no text"
    assert layout.problems(fb.text_rects, (0, 0, fb.width, fb.height)) == []


def test_a_long_notice_wraps_inside_the_screen(tmp_path):
    """Source: the notice bar's own promise: at most two lines, inside the screen."""
    app = visit("dm1", "gb", ["wait:1"], tmp_path)
    app.notify("A deck needs exactly forty cards before a duel can begin, and this one has "
               "thirty-nine")
    app.fb.text_rects = []
    app._draw_notice()
    rects = app.fb.text_rects
    assert len(rects) == 2
    assert layout.problems(rects, (0, 0, app.fb.width, app.fb.height)) == []


def test_gallery_writes_every_stop_of_a_system_at_3x(tmp_path, capsys):
    """Source: tools/gallery.py's promise: one 3x PNG per stop of the tour."""
    import sys
    from pathlib import Path

    import pygame
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import gallery
    assert gallery.main(["--system", "tcglite", "--out", str(tmp_path)]) == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == sorted(f"tcglite-{name}.png" for name, _, _ in STOPS["tcglite"])
    assert pygame.image.load(str(tmp_path / files[0])).get_size() == (960, 720)
    assert gallery.main(["--system", "nope", "--out", str(tmp_path)]) == 2
    assert "unknown system" in capsys.readouterr().err


def test_every_campaign_opponent_has_a_line_that_fits_its_box(tmp_path):
    """Source: the campaign order (session.CAMPAIGN_ORDER, the FM table's duelists 2-38) and
    the Campaign screen drawn headless at every stage: each opponent has a line of its own,
    shown whole (wrapped at spaces, no word shortened) in its box under the portrait, and the
    screen passes the layout check (text on screen, no two pieces overlapping)."""
    from emucore.fm import story
    from emucore.frontend.systems.fm import campaign
    from emucore.frontend.systems.fm.banter import LINES
    from emucore.frontend.systems.fm.session import default_path

    path = default_path(story.LAST)  # the whole story, the first choice taken each time
    assert sorted(LINES) == list(range(2, story.LAST + 1))
    assert len(set(LINES.values())) == len(LINES)
    for duelist, line in LINES.items():
        shown = layout.fit(line, campaign.BOX_W, campaign.LINE_ROWS)
        assert " ".join(shown) == line, (duelist, shown)
    (_, _, presses), = [s for s in STOPS["fm"] if s[0] == "campaign"]
    app = visit("fm", "psx", presses, tmp_path)
    screen, fb = app.screen, app.fb
    assert isinstance(screen, campaign.CampaignScreen)
    for stage, duelist in enumerate(path):
        screen.game.data.update(story=path[:stage], campaign=stage)
        screen.enter(app)
        fb.text_rects = []
        screen.draw(app, fb)
        drawn = [text for _, text in fb.text_rects]
        assert LINES[duelist].split()[0] in " ".join(drawn), (duelist, drawn)
        assert layout.problems(fb.text_rects, (0, 0, fb.width, fb.height)) == [], duelist


RESULT_STOPS = [(system, profile, presses) for system, stops in STOPS.items()
                for name, profile, presses in stops if name == "result" and system != "fm"]


@pytest.mark.parametrize(("system", "profile", "presses"), RESULT_STOPS,
                         ids=[s for s, _, _ in RESULT_STOPS])
def test_result_stops_reach_the_result_of_a_lost_duel(system, profile, presses, tmp_path):
    """Source: the rules of each system (a player who only ends turns loses on LP to the
    computer's attacks): the tour's result stop stands on the result screen of a duel side 0
    lost on LP, so the layout check and the gallery see that screen."""
    app = visit(system, profile, presses, tmp_path)
    assert type(app.screen).__name__ == "ResultScreen"
    assert app.screen.duel.winner == 1 and app.screen.duel.end_reason == "lp"
