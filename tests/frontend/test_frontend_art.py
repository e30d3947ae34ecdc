"""Card pictures that tell cards apart: within one monster type, two cards' figures differ in
shape (which pixels the figure covers), not only in colour, and a picture is the same on
every run."""

from __future__ import annotations

import itertools
import subprocess
import sys
from dataclasses import replace

import numpy as np

from emucore import tables
from emucore.frontend.cardart import ArtFacts, Traits, digits, picture
from emucore.frontend.cards import SMALL, CardFace, face_picture
from emucore.frontend.systems.fm.common import card_face
from emucore.frontend.systems.paper_faces import paper_face
from emucore.tables.fm import CARD_COUNT, TYPE_NAMES

FM = tables.load("fm")
ART = (SMALL[0] - 6, SMALL[1] - 23)  # the small monster card's picture box, as drawn
FIGURE, GROUND = (1, 2, 3, 4), (5, 6, 7, 8)  # ramps apart, to tell figure from ground
MIN_DIFFERENCE = 0.05  # share of the two figures' pixels that only one of them covers


class Game:
    tables = FM
    faces: dict = {}


def figure_pixels(face: CardFace, size: tuple[int, int] = ART) -> np.ndarray:
    """Where the figure of ``face``'s picture lies (outline included), drawn with a figure
    ramp and a ground ramp that share no palette index."""
    art = replace(face.art, tint="figure", ground="ground")
    image = face_picture(replace(face, art=art), *size, {"figure": FIGURE, "ground": GROUND})
    return np.isin(image, FIGURE)


def difference(a: np.ndarray, b: np.ndarray) -> float:
    """Pixels covered by one figure only, as a share of those covered by either."""
    return float((a ^ b).sum() / (a | b).sum())


def fm_monsters_by_type() -> dict[str, list[CardFace]]:
    faces: dict[str, list[CardFace]] = {}
    for card in range(1, CARD_COUNT + 1):
        if FM.is_monster(card):
            face = card_face(Game, card)
            faces.setdefault(face.type_name, []).append(face)
    return faces


def test_every_two_fm_monsters_of_one_type_differ_in_shape():
    """Source: issue 26 ("all cards of one type share one silhouette (Pot the Trick and
    Minomushi Warrior differ only in colour)") over the FM card table: for every pair of
    monsters of one type, the figures of their small-card pictures differ in at least
    MIN_DIFFERENCE of their pixels."""
    by_type = fm_monsters_by_type()
    assert set(by_type) <= set(TYPE_NAMES) and len(by_type) == 20
    pairs = 0
    for faces in by_type.values():
        masks = [(face.name, figure_pixels(face)) for face in faces]
        for (name_a, a), (name_b, b) in itertools.combinations(masks, 2):
            assert difference(a, b) >= MIN_DIFFERENCE, (name_a, name_b, difference(a, b))
            pairs += 1
    assert pairs > 10_000


def test_pot_the_trick_and_minomushi_warrior_differ_in_shape():
    """Source: issue 26's example pair, two Rock monsters; on the large card too."""
    pot, mino = (card_face(Game, FM.names.index(n)) for n in ("Pot the Trick",
                                                                 "Minomushi Warrior"))
    assert pot.type_name == mino.type_name == "Rock"
    for size in (ART, (72, 49)):
        assert difference(figure_pixels(pot, size), figure_pixels(mino, size)) >= 0.2


def test_paper_monsters_of_one_type_differ_in_shape():
    """Source: the ocg1999 and tcglite card tables: monsters of one shown silhouette (the
    type, or tcglite's stand-in) differ in shape pairwise, as in FM."""
    from emucore.ocg1999.system import SYSTEM as OCG
    from emucore.tcglite.system import SYSTEM as TCG
    for system in (OCG, TCG):
        by_shape: dict[str, list[CardFace]] = {}
        for card in system.catalogue.cards.values():
            if card.is_monster:
                face = paper_face(system.catalogue, card.id)
                by_shape.setdefault(face.art.shape, []).append(face)
        for faces in by_shape.values():
            for a, b in itertools.combinations(faces, 2):
                assert difference(figure_pixels(a), figure_pixels(b)) >= MIN_DIFFERENCE, \
                    (a.name, b.name)


def test_two_card_numbers_differ_in_at_least_two_parts():
    """Source: the composition's promise (emucore/frontend/cardart.py): the parts of two
    card numbers of FM's 722 differ in at least two places, so no two pictures are one part
    apart."""
    parts = {card: digits(card) for card in range(1, CARD_COUNT + 1)}
    assert len(set(parts.values())) == CARD_COUNT
    for a, b in itertools.combinations(parts.values(), 2):
        assert sum(x != y for x, y in zip(a, b, strict=True)) >= 2


def test_level_and_atk_def_pose_the_figure():
    """Source: the composition's promise: the same card number stands taller from level 7
    and turns round when its DEF is above its ATK."""
    facts = ArtFacts("Warrior", "sun", "moon", 5)
    ramps = {"sun": FIGURE, "moon": GROUND}

    def rows_and_mask(traits: Traits) -> tuple[int, np.ndarray]:
        mask = np.isin(picture(facts, *ART, ramps, traits), FIGURE)
        return int(mask.any(axis=1).sum()), mask

    low, attacker = rows_and_mask(Traits(3, 1000, 500))
    high, _ = rows_and_mask(Traits(8, 1000, 500))
    _, defender = rows_and_mask(Traits(3, 500, 1000))
    assert high > low
    assert difference(attacker, defender) >= 0.2


DIGEST = """
import hashlib
from emucore.frontend.cardart import ArtFacts, Traits, picture
from emucore.frontend.machine import machine
art = machine("psx").art
h = hashlib.sha256()
for seed in range(1, 60):
    for size in ((24, 17), (72, 49)):
        facts = ArtFacts(("Dragon", "Rock", "Magic")[seed % 3], "sun", "moon", seed)
        h.update(picture(facts, *size, art, Traits(seed % 12, seed * 7, seed * 5)).tobytes())
print(h.hexdigest())
"""


def test_pictures_are_the_same_on_every_run():
    """Source: the picture's contract (the same facts give the same pixels on every run):
    two fresh interpreters with different string-hash seeds draw the same pictures, and
    drawing twice in one gives the same array."""
    runs = {subprocess.run([sys.executable, "-c", DIGEST], capture_output=True, text=True,
                           check=True, env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout
            for seed in ("1", "2")}
    assert len(runs) == 1 and len(runs.pop().strip()) == 64
    face = card_face(Game, 1)
    assert np.array_equal(figure_pixels(face), figure_pixels(face))
