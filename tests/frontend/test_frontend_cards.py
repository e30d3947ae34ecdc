"""Card faces of our own: pictures made from the card's facts, distinct per type, stable
from run to run, with our own line on what each non-monster card does."""

from __future__ import annotations

import numpy as np
import pytest

from emucore import tables
from emucore.fm.cards import BURN, HEAL, card_facts
from emucore.frontend import layout
from emucore.frontend.cardart import ArtFacts, picture, silhouettes
from emucore.frontend.cards import LARGE, SMALL
from emucore.frontend.machine import machine
from emucore.frontend.systems.fm import cardtext
from emucore.frontend.systems.fm.common import card_art
from emucore.frontend.tour import STOPS, visit
from emucore.tables.fm import CARD_COUNT, TYPE_NAMES

FM = tables.load("fm")
PSX = machine("psx")
ART = (SMALL[0] - 6, SMALL[1] - 23)  # the small monster card's picture box


class Game:
    tables = FM


def _duel(data_dir):
    stop = next(s for s in STOPS["fm"] if s[0] == "duel")
    return visit("fm", stop[1], stop[2], data_dir)


def test_an_fm_duel_screenshot_shows_at_least_32_colours(tmp_path):
    """Source: issue 14's must-hold: a screenshot of an FM duel shows at least 32 distinct
    colours (counted as RGB after the palette, as the PNG holds them)."""
    app = _duel(tmp_path)
    rgb = PSX.palettes[PSX.default_palette][app.fb.pixels]
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) >= 32


def test_hand_cards_of_different_types_never_share_art(tmp_path):
    """Source: issue 14's must-hold, over the hand of the duel and over every pair of the
    722 cards: two cards of different types have different pictures."""
    app = _duel(tmp_path)
    hand = [c for c in app.screen.view.sides[0].hand if c is not None]
    assert len(hand) == 5
    by_type: dict[int, set[bytes]] = {}
    for card in range(1, CARD_COUNT + 1):
        image = picture(card_art(Game, card), *ART, PSX.art)
        by_type.setdefault(int(FM.type_id[card]), set()).add(image.tobytes())
    seen: dict[bytes, int] = {}
    for ctype, images in by_type.items():
        for image in images:
            assert seen.setdefault(image, ctype) == ctype, (TYPE_NAMES[ctype],
                                                            TYPE_NAMES[seen[image]])
    hand_types = {int(FM.type_id[c.card]) for c in hand}
    hand_images = {picture(card_art(Game, c.card), *ART, PSX.art).tobytes() for c in hand}
    assert len(hand_images) >= len(hand_types)


def test_every_fm_type_and_kind_has_its_own_silhouette():
    """Source: the FM type list (20 monster types) and the card kinds."""
    shapes = silhouettes()
    names = [*TYPE_NAMES[:20], "Magic", "Trap", "Equip", "Ritual", "Field"]
    assert set(names) <= set(shapes)
    masks = {shapes[n].tobytes() for n in names}
    assert len(masks) == len(names)


def test_pictures_are_deterministic_and_fill_their_box():
    """Source: the picture's contract: the same facts give the same pixels, any size."""
    facts = ArtFacts("Dragon", "sun", "moon", 1)
    for size in (ART, (LARGE[0] - 12, 52), (7, 5)):
        a, b = picture(facts, *size, PSX.art), picture(facts, *size, PSX.art)
        assert a.shape == size[::-1] and np.array_equal(a, b)
    gb = machine("gb")
    assert set(np.unique(picture(facts, *ART, gb.art))) <= {0, 1, 2, 3}


def test_non_monster_cards_have_a_line_that_fits_the_large_card_whole():
    """Source: the large card's three lines of 13 characters; every magic, trap, equip,
    ritual and field card of the FM table has a line, drawn without abbreviation."""
    for card in range(1, CARD_COUNT + 1):
        line = cardtext.effect_line(FM, card)
        if FM.is_monster(card):
            assert line == "" and cardtext.emblem(FM, card) == ""
            continue
        assert line, FM.names[card]
        shown = layout.fit(line, LARGE[0] - 6, 3)
        assert " ".join(shown).replace("- ", "-") == line, (FM.names[card], shown)
        assert cardtext.emblem(FM, card) in cardtext.EMBLEMS.values()


def test_lines_say_what_the_engine_does():
    """Source: the spec's magic table (fm-engine.md §6.2, built into roms_tables/fm/magic.csv:
    heal and burn amounts) and the field cards 330-335 in terrain order."""
    facts = card_facts(FM)
    heals = [c for c in range(1, 723) if facts.magic_class[c] == HEAL]
    burns = [c for c in range(1, 723) if facts.magic_class[c] == BURN]
    assert heals and burns
    for card in heals:
        assert cardtext.effect_line(FM, card) == f"You gain {facts.magic_amount[card]} LP"
    for card in burns:
        assert cardtext.effect_line(FM, card) == f"The foe loses {facts.magic_amount[card]} LP"
    assert [cardtext.effect_line(FM, c).split()[-1] for c in range(330, 336)] == [
        "Forest", "Wasteland", "Mountain", "Sogen", "Umi", "Yami"]


@pytest.mark.parametrize("system", ["ocg1999", "tcglite"])
def test_paper_cards_have_faces_and_lines_of_our_own(system):
    """Source: the paper systems' own card tables (effect, amount, monster type): every
    magic and trap card says what the engine does in one line that fits the large card
    whole; a monster with a type takes that type's silhouette."""
    from emucore.frontend.cardart import silhouettes
    from emucore.frontend.systems.paper_faces import effect_line, paper_face
    from emucore.ocg1999.system import SYSTEM as OCG
    from emucore.tcglite.system import SYSTEM as TCG
    catalogue = {"ocg1999": OCG, "tcglite": TCG}[system].catalogue
    for card in catalogue.cards.values():
        face = paper_face(catalogue, card.id)
        assert face.art.shape in silhouettes()
        if card.is_monster:
            assert (face.atk, face.defense, face.stars) == (card.atk, card.defense, card.level)
            key = card.monster_type.replace("-", "")
            assert not key or face.art.shape.lower().replace("-", "").replace(" ", "") == key
            continue
        line = effect_line(card)
        assert line, card.name
        shown = layout.fit(line, LARGE[0] - 6, 3)
        assert " ".join(shown).replace("- ", "-") == line, (card.name, shown)
