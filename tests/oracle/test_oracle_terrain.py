"""The terrain a duel starts on (gDuel_bTerrain), read from where the decompiled code arms
a duel (krystalgamer/memories-decomp): ``func_80024DC8`` writes 0 for every opponent and
is what Free Duel's confirm (``func_80024DC8(-1, row * 5 + column, 0x6000, 0x6000)``) and
``Main_RunTwoPlayerDuelSetup`` (``func_80024DC8(-1, -1, 0, 0)``) call; a campaign duel is
armed by ``Text_StartCampaignDuel``, whose fourth byte from the story script is the
terrain."""

from __future__ import annotations

import json

import pytest

from emucore.cli import main
from emucore.fm.setup import (
    CAMPAIGN,
    FREE_DUEL,
    TWO_PLAYER_DUEL,
    FmSetup,
    new_duel,
    start_terrain,
)

OCEAN_MAGE, MOUNTAIN_MAGE, UMI = 21, 25, 5


def test_free_and_two_player_duels_start_on_the_normal_terrain():
    """func_80024DC8: gDuel_bTerrain = 0, whoever the opponent is (Free Duel) and for a
    two-player duel; no duelist brings its own field."""
    assert start_terrain(FREE_DUEL) == 0 and start_terrain(TWO_PLAYER_DUEL) == 0
    for duelist in range(1, 40):
        d = new_duel(FmSetup(deck=list(range(1, 41)), duelist=duelist,
                             terrain=start_terrain(FREE_DUEL)))
        assert d.terrain == 0, duelist
    with pytest.raises(ValueError, match="func_80024DC8"):
        start_terrain(FREE_DUEL, UMI)


def test_fm_sim_plays_free_duels_on_the_normal_terrain(tmp_path, capsys):
    """fm sim plays Free Duels: the mages' duels start on terrain 0 too (func_80024DC8),
    not on the field their AI plays."""
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(map(str, range(1, 41))) + "\n")
    for duelist in (OCEAN_MAGE, MOUNTAIN_MAGE):
        assert main(["fm", "sim", "--duelist", str(duelist), "--deck", str(deck),
                     "--games", "1", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["terrain"] == 0, duelist


def test_a_campaign_duel_starts_on_its_scripts_terrain():
    """Text_StartCampaignDuel: gDuel_bTerrain = the script's fourth byte, so the caller
    names it (no table holds it); without it the setup is refused."""
    assert start_terrain(CAMPAIGN, UMI) == UMI
    d = new_duel(FmSetup(deck=list(range(1, 41)), duelist=OCEAN_MAGE,
                         terrain=start_terrain(CAMPAIGN, UMI)))
    assert d.terrain == UMI
    with pytest.raises(ValueError, match="Text_StartCampaignDuel"):
        start_terrain(CAMPAIGN)
    with pytest.raises(ValueError, match="outside"):
        start_terrain(CAMPAIGN, 7)
    with pytest.raises(ValueError, match="unknown duel mode"):
        start_terrain("story")
