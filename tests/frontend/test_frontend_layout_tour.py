"""Every stop of the tour (emucore/frontend/tour.py STOPS, every system), drawn as the player
sees it (the pause menu over its screen included): nothing drawn outside the screen, no text
over text, no word cut short. And the shared screens the tour shows: the Controls table and
the volume gauges."""

from __future__ import annotations

import ast
import functools
import importlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from emucore import tables
from emucore.dm1.duel import default_tables as dm1_tables
from emucore.frontend import layout
from emucore.frontend.framebuffer import CELL_W, Framebuffer
from emucore.frontend.tour import STOPS, visit
from emucore.frontend.widgets import GAUGE_EMPTY, GAUGE_FULL, Menu, draw_label, gauge
from emucore.tables.fm import DUELIST_COUNT

ROOT = Path(__file__).resolve().parents[2]

def _code_strings() -> Iterator[str]:
    """Every string constant of emucore's code that is not a docstring: the words its
    screens and logs are made of."""
    for path in sorted((ROOT / "emucore").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef |
                                    ast.AsyncFunctionDef)
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    id(node) not in docstrings:
                yield node.value


def _names(system: str) -> Iterator[str]:
    """The card and duelist names ``system``'s engine tables hold (DM1's as its table
    stores them, some cut at the original's length: those are the names its screens show)."""
    if system == "fm":
        fm = tables.load("fm")
        yield from fm.names
        yield from (fm.duelist_name(d) for d in range(1, DUELIST_COUNT + 1))
    elif system == "dm1":
        yield from dm1_tables().names
    else:
        engine = importlib.import_module(f"emucore.{system}.system").SYSTEM
        yield from (card.name for card in engine.catalogue.cards.values())


@functools.cache
def vocabulary(system: str) -> layout.Vocabulary:
    """The words ``system``'s screens may show: its names and the code's strings."""
    return layout.Vocabulary([*_names(system), *_code_strings()])


def frame(system: str, profile: str, presses: list[str], data_dir: Path
          ) -> tuple[list[tuple[layout.Rect, str]], list[layout.Rect], Framebuffer]:
    """The text pieces and the shapes (images such as cards and portraits, filled
    rectangles such as boxes and frames) drawn for a stop, as the player sees it: the pause
    menu when it is open, else the screen (a passing notice left out, as in the gallery)."""
    app = visit(system, profile, presses, data_dir)
    fb = app.fb
    shapes: list[layout.Rect] = []
    blit, fill = fb.blit, fb.fill

    def recording_blit(x: int, y: int, image: np.ndarray) -> None:
        shapes.append((x, y, image.shape[1], image.shape[0]))
        blit(x, y, image)

    def recording_fill(x: int, y: int, w: int, h: int, colour: int) -> None:
        shapes.append((x, y, w, h))
        fill(x, y, w, h, colour)

    fb.blit, fb.fill = recording_blit, recording_fill  # type: ignore[method-assign]
    fb.text_rects = []
    (app.paused or app.screen).draw(app, fb)
    return fb.text_rects, shapes, fb


def _stops() -> list[object]:
    """One parameter set per tour stop."""
    return [pytest.param(system, profile, presses, id=f"{system}-{name}")
            for system, stops in STOPS.items() for name, profile, presses in stops]


@pytest.mark.parametrize(("system", "profile", "presses"), _stops())
def test_every_tour_stop_is_drawn_whole(system, profile, presses, tmp_path):
    """Source: issue 26's must-hold: the layout tests cover every screen in the tour:
    nothing drawn outside the framebuffer (text, image or box), no text over text, no word cut
    mid-word (a fragment of a longer word of the tables or the code ended by a dot)."""
    texts, shapes, fb = frame(system, profile, presses, tmp_path)
    screen = (0, 0, fb.width, fb.height)
    assert texts, "the screen drew no text"
    found = layout.problems(texts, screen, vocabulary(system))
    found += [f"a shape at {rect} leaves {screen}" for rect in shapes
              if not layout.inside(rect, screen)]
    assert found == []


def test_cut_words_are_found_and_whole_words_are_not():
    """Source: issue 26's examples of words cut mid-word ("Polymerizati.", the paper log's
    "Kagem. of the Blue Flame atta. dire.") against whole names and sentences."""
    words = vocabulary("ocg1999")
    assert words.cuts("Kagem. of the Blue Flame atta. dire.") == ["Kagem.", "atta.",
                                                                      "dire."]
    assert words.cuts("Polymerizati.") == ["Polymerizati."]
    assert words.cuts("Kagemusha of the Blue Flame attacks directly.") == []
    assert words.cuts("Polymerization") == []
    assert words.cuts("Polymeriz") == ["Polymeriz"]  # cut with no mark at all
    assert vocabulary("dm1").cuts("B.eye Silv. Zombie") == []  # the table's own form
    assert vocabulary("fm").cuts("Blue-eyes White Dra.") == ["Dra."]


def test_controls_lists_each_action_with_its_button_in_reading_order(tmp_path):
    """Source: issue 26 item 11 (the Controls screen listed buttons in the pad's internal
    order with a floating legend and no actions) and the bindings (bindings.py DEFAULTS):
    each row is an action, its button and player 1's and 2's keys, confirm first, then
    cancel, Start and the d-pad; every piece of text sits in a table column."""
    (_, profile, presses), = [s for s in STOPS["fm"] if s[0] == "controls"]
    texts, _, _ = frame("fm", profile, presses, tmp_path)
    rows: dict[int, list[str]] = {}
    for (_, y, _, _), text in texts:
        rows.setdefault(y, []).append(text)
    lines = [cells for _, cells in sorted(rows.items())]
    assert lines[1] == ["ACTION", "BUTTON", "PLAYER 1", "PLAYER 2"]
    assert lines[2:6] == [["Choose", "Cross", "Z", "N"], ["Back", "Circle", "X", "M"],
                          ["End turn", "Start", "Enter", "P"],
                          ["Move", "D-pad", "Arrows", "IKJL"]]
    assert ["Pause menu", "Esc"] in lines
    assert lines[0] == ["CONTROLS", "Cross: back"]
    columns = {x for (x, y, _, _), _ in texts if y > texts[1][0][1]}
    assert len(columns) <= 4


def test_a_volume_gauge_is_drawn_as_blocks():
    """Source: issue 26 item 11 (volume bars were "##########"): a gauge in a menu label is
    a row of character-cell blocks, filled for each step reached, hollow for the rest, and
    no '#' is drawn."""
    assert gauge(0.7, 10) == GAUGE_FULL * 7 + GAUGE_EMPTY * 3
    assert gauge(1.4, 10) == GAUGE_FULL * 10 and gauge(-1, 4) == GAUGE_EMPTY * 4
    fb = Framebuffer(120, 12)
    fb.text_rects = []
    draw_label(fb, 0, 0, f"Music {gauge(0.5, 4)}", 7, 3)
    assert [text for _, text in fb.text_rects] == ["Music "]
    x = 6 * CELL_W
    steps = [fb.pixels[0:7, x + i * CELL_W:x + i * CELL_W + CELL_W - 1] for i in range(4)]
    assert all((step == 7).all() for step in steps[:2])  # filled blocks
    assert all(step[0].all() and not step[3, 1:-1].any() for step in steps[2:])  # hollow
    assert (steps[2] == 3).any()


class _Colours:
    """An app as far as a menu's drawing needs it: every colour role index 7, text_dim 3."""

    @staticmethod
    def colour(role: str) -> int:
        return 3 if role == "text_dim" else 7


def test_a_menu_draws_the_gauges_of_its_labels_as_blocks():
    """Source: the pause menu's options (pause.py) are Menu labels: a gauge in a label is
    drawn as blocks, its text part as text."""
    fb = Framebuffer(150, 30)
    fb.text_rects = []
    Menu([f"Sound  {gauge(1.0, 3)}"]).draw(_Colours(), fb, 0, 0, 150)
    assert [text for _, text in fb.text_rects][-1] == "Sound  "
    (x, y, w, _), _ = fb.text_rects[-1]
    left = x + w + 1 + CELL_W  # after "Sound" and the two spaces
    assert (fb.pixels[y:y + 7, left:left + 3 * CELL_W - 1] == 7).all()


def test_gallery_photographs_a_stop_with_a_look_copy_and_the_open_pause_menu(tmp_path,
                                                                            capsys):
    """Source: tools/gallery.py's promise: one PNG per chosen stop at --scale, a 3x copy in
    --look, what the player sees (the pause menu over its duel: the pause stop's picture is
    not the duel's), and one-line refusals of unknown stops."""
    import sys

    import pygame
    sys.path.insert(0, str(ROOT / "tools"))
    import gallery
    out, look = tmp_path / "out", tmp_path / "look"
    for stop in ("duel", "pause"):
        assert gallery.main(["--system", "fm", "--stop", stop, "--scale", "1", "--out",
                             str(out), "--look", str(look)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["fm-duel.png", "fm-pause.png"]
    assert sorted(p.name for p in look.iterdir()) == ["fm-duel.png", "fm-pause.png"]
    assert pygame.image.load(str(out / "fm-pause.png")).get_size() == (320, 240)
    assert pygame.image.load(str(look / "fm-pause.png")).get_size() == (960, 720)
    duel, paused = (pygame.surfarray.array3d(pygame.image.load(str(out / f)))
                    for f in ("fm-duel.png", "fm-pause.png"))
    assert not np.array_equal(duel, paused)
    assert gallery.main(["--system", "dm1", "--stop", "library", "--out", str(out)]) == 2
    assert "no stop 'library'" in capsys.readouterr().err
