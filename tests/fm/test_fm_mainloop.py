"""The main loop's modes and the campaign story, engine-side (emucore.fm.mainloop,
emucore.fm.story). Expected values come from the decompiled routines
(krystalgamer/memories-decomp) and the-game.md, named in each test, never from emucore's run.
"""

from __future__ import annotations

import math

import pytest
from fm_disc_image import write_disc

from emucore.fm import mainloop, story
from emucore.fm.disc import DiscError
from emucore.fm.mainloop import Keys, NameEntry

BOX_STEP, BOX_TRAVEL = 85, 1024  # NameEntry_UpdateDialog: caret->f96 moves 85 a frame over 1024
BOX = math.ceil(BOX_TRAVEL / BOX_STEP)  # 13 frames in, 13 out
TRANSFER, CARET, CURSOR = 8, 6, 8  # NameEntry_UpdateKeyboard: obj+0x60 = 8; AdjustLength(1, 6);
#                                    the cursor's w->timer = 8


def run(entry: NameEntry, presses: dict[int, Keys], frames: int) -> int:
    """Step ``entry`` ``frames`` frames with ``presses`` on their frames; the shard calls."""
    made = 0
    for f in range(frames):
        made += entry.step(presses.get(f, Keys()))
        if entry.done:
            break
    return made


def cross() -> Keys:
    return Keys(repeat=frozenset({"cross"}), pressed=frozenset({"cross"}))


def test_menu_and_free_duel_call_rand_once_a_frame_after_the_reset_pass():
    """Main_RunMenu (0x8002D588) calls rand() on every invocation; FreeDuel_Entry
    (0x80168FB4) once per invocation; Main_Loop runs Main_ResetFrontendRuntime, not the
    runner, in the first pass after a mode is written (main_loop.c)."""
    for mode in (mainloop.MENU, mainloop.FREE_DUEL):
        assert [mainloop.calls(mode, f) for f in range(4)] == [0, 1, 1, 1]
    menu = mainloop.MODES[mainloop.MENU]
    assert (menu.routine, menu.address, menu.number) == ("Main_RunMenu", 0x8002D588, 8)


def test_name_entry_is_a_nested_loop_with_a_call_every_frame():
    """func_8016AA6C (NameEntry_Main): do { Main_AdvanceFrame(); rand(); } while (!poll),
    entered from func_8002D458(0) inside Main_RunMenu's pass: no reset pass."""
    assert [mainloop.calls(mainloop.NAME_ENTRY, f) for f in range(3)] == [1, 1, 1]


def test_the_password_shop_trade_and_two_player_setup_make_no_call():
    """gMain_apfnModeRunner slot 10 Main_RunPasswordMenu (0x8002D684: Password_InitShopScreen
    once, Password_UpdateShopScreen a frame), slot 14 Main_RunTrade (0x8002D7CC: the opening
    box, then MainMenu_UpdateTradeScreen) and slot 16 (func_8002DC38:
    MainMenu_UpdateValueSetup) call no rand() in any frame; each is entered through
    Main_Loop, so its frame 0 is the reset pass."""
    for key, number, routine, address in (
            (mainloop.PASSWORD, 10, "Main_RunPasswordMenu", 0x8002D684),
            (mainloop.TRADE, 14, "Main_RunTrade", 0x8002D7CC),
            (mainloop.TWO_PLAYER_SETUP, 16, "func_8002DC38 (Main_RunTwoPlayerDuelSetup)",
             0x8002DC38)):
        mode = mainloop.MODES[key]
        assert (mode.number, mode.routine, mode.address) == (number, routine, address)
        assert mode.known and mode.reset_pass
        assert [mainloop.calls(key, f) for f in range(4)] == [0, 0, 0, 0]


def test_modes_not_read_are_named_choices():
    """The modes whose update lives in an unmatched overlay make 0 calls by a choice the
    table names from the register (Main_RunCampaign's Script_RunTick, the overworld, the
    game-over package: emucore.fm.choices G3)."""
    import inspect

    from emucore.fm import choices
    assert "# G3  A mode whose runner was not read for rand()" in inspect.getsource(choices)
    for key in (mainloop.CAMPAIGN, mainloop.CAMPAIGN_MAP, mainloop.GAME_OVER):
        mode = mainloop.MODES[key]
        assert not mode.known and mode.per_frame == choices.UNREAD_MODE_CALLS == 0
        assert mode.note.startswith("fm.choices G3.")


def test_the_quickest_name_takes_the_frames_the_dialogue_and_keyboard_routines_take():
    """NameEntry_UpdateDialog: the opening box (D_8016D4D2 = 244 at NameEntry_Init) is made
    on frame 0 and slides 13 frames, waits for a press, slides out 13; a glyph's transfer
    (8) and caret (6); Start's cursor tween (8); End's box made the frame after, 13 in; its
    dismissal sets 0x10 the frame after (D_8016D4D2 = 0 when flag 0x20 is set)."""
    open_press = 1 + BOX
    keyboard = open_press + BOX + 1
    start = keyboard + TRANSFER + CARET
    end = start + CURSOR
    close = end + 1 + BOX + 1
    entry = NameEntry()
    presses = {open_press: cross(), keyboard: cross(),
               start: Keys(pressed=frozenset({"start"})), end: cross(), close: cross()}
    assert run(entry, presses, 200) == 0  # nothing overwritten: no shards
    assert entry.done and entry.name == "A" and entry.frame == close + 2
    assert mainloop.QUICK_NAME_FRAMES == close + 2 == 67


def test_a_blank_name_is_refused():
    """NameEntry_UpdateDialog: End with no glyph in the name plays SE 9 and goes on."""
    entry = NameEntry()
    keyboard = 2 * BOX + 2
    run(entry, {1 + BOX: cross()}, keyboard)
    entry.row, entry.col = mainloop.KEY_ROW, mainloop.COLUMNS - 1  # on End
    entry.step(cross())
    assert entry.error and entry.phase == "keyboard"


def test_overwriting_a_glyph_shatters_it_into_sixteen_shards_of_two_calls():
    """NameEntry_UpdateGlyphTransfer shatters the glyph already at the caret;
    NameEntry_UpdateGlyphShatter makes 16 shards; each NameEntry_UpdateGlyphFragment draws
    Rand_GetInterval(0x200) and Rand_GetInterval(0x180) once. The caret stops at slot 5
    (NameEntry_AdjustLength refuses a sixth step), so the seventh glyph overwrites."""
    entry = NameEntry()
    keyboard = 2 * BOX + 2
    presses = {1 + BOX: cross()}
    presses.update({keyboard + k * (TRANSFER + CARET): cross() for k in range(7)})
    made = run(entry, presses, keyboard + 7 * (TRANSFER + CARET) + 20)
    assert made == 16 * 2 and entry.name == "AAAAAA" and entry.caret == 5


def test_starter_script_deals_the_wanted_index_from_power_on():
    """The pad log from power-on for a wanted starter index: the title (Main_RunMenu, one
    call a frame, Start then Cross on New Game), then the quickest name entry (one call a
    frame, 67 frames as above), its presses on the name frames the routines allow."""
    index = 500
    wait, presses = mainloop.starter_script(index)
    assert wait == index - 2 - 67 and presses[:2] == [(wait, "start"), (wait + 1, "cross")]
    first = wait + 2  # the name's frame 0
    assert [f - first for f, _ in presses[2:]] == [14, 28, 42, 50, 65]
    with pytest.raises(ValueError, match="before the earliest deal"):
        mainloop.starter_script(68)


# ------------------------------------------------------------------------- the story
def test_the_story_opens_linear():
    """the-game.md §7.1-7.4: Seto, Heishin, the tournament 9..17, the Mage Soldier."""
    path: list[int] = []
    for expected in (7, 8, *range(9, 19)):
        assert story.next_duels(path) == [expected]
        path.append(expected)
    assert sorted(story.next_duels(path)) == [21, 23, 25, 27, 29]  # any shrine (§7.5)


def test_a_shrine_is_gate_then_high_mage_and_the_labyrinth_opens_after_two():
    """§7.5: a gate mage then the High Mage; §7.6: the labyrinth after two to four shrines,
    Labyrinth Mage then Seto 2nd."""
    path = [7, 8, *range(9, 19), 25]
    assert story.next_duels(path) == [26]
    path += [26, 21, 22]
    assert story.LABYRINTH_MAGE in story.next_duels(path)
    path.append(story.LABYRINTH_MAGE)
    assert story.next_duels(path) == [story.SETO_2ND]


def test_all_five_shrines_first_skip_seto_2nd():
    """§7.6: with the five shrines cleared first, Seto 2nd is never met; the Labyrinth Mage
    comes before the Guardians; the story ends with Nitemare (38)."""
    path = [7, 8, *range(9, 19), *range(21, 31)]
    rest = []
    while duels := story.next_duels(path + rest):
        rest.append(duels[0])
    assert rest == [31, 33, 34, 35, 36, 37, 38] and story.is_over(path + rest)


def test_heishin_must_be_lost_and_other_losses_are_game_over():
    """§7.1 and §7.12: Heishin's first duel passes on a loss and repeats on a win (both open
    him); every other campaign loss is game over."""
    assert story.outcome(8, won=True, story_duel=True) == story.Outcome(False, False, True, 8)
    assert story.outcome(8, won=False, story_duel=True) == story.Outcome(True, False, False, 8)
    assert story.outcome(7, won=False, story_duel=True).game_over
    assert story.outcome(2, won=True, story_duel=False) == story.Outcome(False, False, False, 2)


def test_a_path_out_of_order_is_refused():
    with pytest.raises(ValueError, match="story step 1: duelist 9"):
        story.check_path([9])


def test_the_known_terrains_are_the_shrines_home_fields():
    """§7.5 the shrines' home fields (Umi, Forest, Mountain, Wasteland, Sogen), §7.7 Yami
    for the Guardians, and the Heishin command's terrain byte 6 quoted in the-game.md."""
    assert [story.terrain(d) for d in (21, 22, 23, 25, 27, 29, 33, 34, 8, 9)] == \
        [5, 5, 1, 3, 2, 4, 6, 6, 6, 0]


HEISHIN_COMMAND = bytes.fromhex("F8 0D 08 74 75 06 30 72 FF")  # the-game.md


def test_duel_commands_are_read_from_the_executable_text():
    """the-game.md: the Heishin record F8 0D 08 74 75 06 30 72 FF (Text_StartCampaignDuel:
    opponent, win scene, loss scene, terrain, sound)."""
    text = b"\x00" * 10 + HEISHIN_COMMAND + b"\xf8\x0d\x63" + HEISHIN_COMMAND
    assert story.scan_duel_commands(text) == {8: 6}


def test_the_users_disc_supplies_the_terrains(tmp_path):
    """The path by which a user's own disc supplies the story terrains: its SLUS_014.11."""
    slus = b"\x11" * 3000 + HEISHIN_COMMAND + b"\x22" * 100
    assert story.campaign_terrains(write_disc(tmp_path / "fm.iso", slus)) == {8: 6}
    assert story.terrain(8, {8: 2}) == 2  # the disc's byte wins over the known one


def test_a_disc_without_duel_commands_is_refused_in_one_line(tmp_path):
    with pytest.raises(DiscError, match="holds no campaign duel command"):
        story.campaign_terrains(write_disc(tmp_path / "fm.iso", b"\x00" * 4096))
    (tmp_path / "junk.iso").write_bytes(b"\x00" * 40000)
    with pytest.raises(DiscError, match="not a CD image"):
        story.campaign_terrains(tmp_path / "junk.iso")


SETO_COMMAND = bytes.fromhex("F8 0D 07 74 75 03 30 72 FF")  # Seto (7) on terrain 3


def test_play_disc_gives_the_campaign_its_terrains(tmp_path, capsys):
    """`emucore play --disc IMAGE`: the image's SLUS_014.11 duel commands
    (Text_StartCampaignDuel's terrain byte) become the game's campaign terrains, and a
    campaign duel against Seto starts on the disc's terrain, not the known one (0)."""
    from emucore.cli import build_parser
    from emucore.frontend import cli as play_cli

    disc = write_disc(tmp_path / "fm.iso", b"\x11" * 100 + SETO_COMMAND)
    script = tmp_path / "in.pad"
    script.write_text("0 -\n5 end\n")
    args = build_parser([["play"]]).parse_args(
        ["play", "--headless", "--script", str(script), "--disc", str(disc)])
    _, first, _ = play_cli._start(args, headless=True, sound=False)
    game = first.game
    assert game.terrains == {7: 3} and story.terrain(7) == 0
    game.new_game()
    assert int(game.start_duel(7, campaign=True).st.globals.terrain[0]) == 3


def test_play_refuses_a_bad_disc_in_one_line(tmp_path, capsys):
    """A bad --disc stops `emucore play` before any window: one line naming the file, exit 2;
    the image is left as it was."""
    from emucore.cli import main

    script = tmp_path / "in.pad"
    script.write_text("0 -\n5 end\n")
    junk = tmp_path / "junk.iso"
    junk.write_bytes(b"\x00" * 40000)
    empty = write_disc(tmp_path / "empty.iso", b"\x00" * 4096)
    for image, why in ((junk, "not a CD image"), (empty, "holds no campaign duel command"),
                       (tmp_path / "missing.iso", "")):
        before = image.read_bytes() if image.exists() else None
        assert main(["play", "--headless", "--script", str(script), "--disc", str(image)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(image) in err[0] and why in err[0]
        assert (image.read_bytes() if image.exists() else None) == before
    assert main(["play", "--system", "dm1", "--headless", "--script", str(script),
                 "--disc", str(junk)]) == 2
    assert "--disc is a Forbidden Memories disc" in capsys.readouterr().err
