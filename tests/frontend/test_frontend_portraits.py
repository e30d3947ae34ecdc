"""Duelist portraits of our own: deterministic per opponent, all different, drawn in the
machine's colours, and the Free Duel grid built from them."""

from __future__ import annotations

import hashlib

import numpy as np
from frontend_fmdriver import new_app, press, to_main_menu
from frontend_golden import check

from emucore.dm1.duel import default_tables as dm1_tables
from emucore.frontend.machine import machine
from emucore.frontend.portraits import SIZE, portrait, seed_of
from emucore.tables.fm import DUELIST_COUNT

PSX, GB = machine("psx"), machine("gb")


def _all(system: str, count: int, m=PSX) -> list[bytes]:
    return [portrait(seed_of(system, n), m.art).tobytes() for n in range(1, count + 1)]


def test_every_opponent_has_its_own_portrait():
    """Source: the opponent lists: 39 FM duelists (the FM table), 16 DM1 opponents (the DM1
    table); no two of the 55 portraits are the same."""
    assert len(dm1_tables().opponents) == 16
    faces = _all("fm", DUELIST_COUNT) + _all("dm1", 16)
    assert len(faces) == 55 and len(set(faces)) == 55


def test_portraits_are_deterministic_and_pinned():
    """Source: the seed's definition (CRC-32 of "system:number", the zlib polynomial); the
    hash of every portrait guards against change (EMUCORE_UPDATE_GOLDEN=1 to accept)."""
    assert seed_of("fm", 1) == 0x0B71F1F3  # zlib.crc32(b"fm:1"), as any CRC-32 tool gives
    assert _all("fm", DUELIST_COUNT) == _all("fm", DUELIST_COUNT)
    digest = hashlib.sha256(b"".join(_all("fm", DUELIST_COUNT) + _all("dm1", 16)))
    check("portraits_fm_dm1", digest.hexdigest())


def test_portraits_use_the_machines_colours():
    """Source: the gb machine has 4 shades; a portrait is 32x32 and varied."""
    face = portrait(seed_of("dm1", 3), GB.art)
    assert face.shape == (SIZE, SIZE) and set(np.unique(face)) <= {0, 1, 2, 3}
    assert len(np.unique(portrait(seed_of("fm", 3), PSX.art))) >= 6


def test_free_duel_grid_shows_met_duelists_and_shadows_the_rest():
    """Source: the grid's contract: Duel Master K (open at a new game: the-game.md §1, no
    unlock bit for id 39) in colour, the locked ones as two-colour silhouettes; Right moves
    along a row, Down by a row."""
    app = new_app()
    to_main_menu(app)
    press(app, "cross")
    screen = app.screen
    first = app.fb.pixels[171:203, 239:271]  # cell 38: row 4, column 6
    locked = app.fb.pixels[19:51, 11:43]
    assert len(np.unique(first)) >= 6 and len(np.unique(locked)) <= 3  # shadow, ground, "?"
    press(app, "right")
    assert screen.cursor == 1
    press(app, "down")
    assert screen.cursor == 9
