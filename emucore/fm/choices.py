"""Every point where spec/fm-engine.md leaves the original's behaviour open (§12 and silent
cases), decided in one place. Each constant names the rule it settles; docs/fm-engine.md
lists them with the reasoning. Changing one that alters results needs an engine version bump
(emucore.fm.replay.ENGINE_VERSION).
"""

from __future__ import annotations

#: The side that moves first: func_800179F4 sets D_8009B1D5 = 0 (the player).
FIRST_SIDE = 0

#: The first-turn attack lock (func_800179F4: D_8009B16C |= 0x1000, cleared at the first end
#: of turn) binds side 0 whoever plays it. DuelScene_UpdateFieldActions tests the lock, and
#: Swords of Revealing Light, only on the player's pad path (state 3); the computer's
#: scripted path (state 2) jumps past both to `attack:`. The engine follows the code for
#: Swords (a computer side attacks under it: FmDuel._check_attack). The lock is kept for a
#: computer-played side 0 on purpose: the original's computer is always side 1 and never
#: moves first (the player's end of turn clears the lock before its first field phase), so
#: no duel the original can play reaches this case; only AI-against-AI duels do, and there
#: locking side 0 keeps "nobody attacks on the first turn" true as in every original duel.
FIRST_TURN_LOCK_BINDS_COMPUTER = True

# ----------------------------------------------------------------------------- presentation
# What the animations' rand() counts rest on where the decompiled code leaves a value open
# (emucore.fm.timeline, emucore.fm.effect_calls; docs/fm-fidelity.md, the timeline ledger).
# The overlay's configuration values are data: emucore.fm.overlay.BUILT_IN, each with its
# source, replaced by a user's disc. Every count that rests on an estimate below, or on an
# estimated overlay table, is marked not exact (and so is every later one).

#: ``func_80149F90`` (the destruction tiles) advances its frame counter by
#: ``Model_GetFrameStep()``; the 2-D duel scene is taken to run one step per update.
TILE_FRAME_STEP = 1

#: The height above the board of a card's display object, where effect 11 (a card removed)
#: starts its pieces (the request's y, from the object's +0x32): the board plane, 0. The
#: object's y was not read; it decides on which frames the pieces may roll.
CARD_HEIGHT = 0

#: What the per-monster attack modules (code loaded from the disc, not in the decompiled C)
#: and the reaction stutter of ``func_800559D4`` call while a 3-D battle is watched to its
#: end: unknown, taken as 0 (the watched 3-D battle's count is marked not exact).
WATCHED_3D_EXTRA = 0

#: The ritual summon's record (``D_8015A658``) hold, which no note quotes, and what its
#: particles 32-63 start from (whatever the shared work buffer held: taken as the centre).
RITUAL_DURATION = 32

#: ``DuelScene_UpdateExodiaResult`` places a sparkle every 58 frames until the pieces stop
#: moving (187 frames): 4 (a prediction from the frame counts, not a reading); the 3-D Exodia
#: scene that follows was not read and is charged nothing. The Exodia count is not exact.
EXODIA_SPARKLES = 4

# Every animation an action shows is charged before the next decision, fly-off or drop (the
# blocking effects end before the scene goes on; the non-blocking ones - the fusion's and
# equip's last frames, Cursebreaker's glows - end while the scene still moves its cards):
# the engine charges an action's animations within its step.

#: Fake Trap (690) stops the attack; True would also destroy the attacker like 681-686.
FAKE_TRAP_DESTROYS_ATTACKER = False

#: Reverse Trap (689): stat_modifier -= FACTOR x the play's equip bonus. 2 = "the gain turns
#: into as large a loss" (gameplay-tables note); 1 would merely cancel it.
REVERSE_TRAP_FACTOR = 2

#: An attacked face-down monster stays face-up after the battle.
ATTACKED_CARD_REVEALED = True

#: Field fusions count in fusions_initiated (+0x08) like hand fusions (spec §3.1 note).
FIELD_FUSIONS_COUNT = True


#: fm-ai.md §10.3: the byte ``gDuel_aActiveCards`` holds everywhere before the first export
#: of a duel (the engine writes the array; docs/fm-ai.md lists it with the AI's choices).
SNAPSHOT_FILL_BYTE = 0


# ----------------------------------------------------------------------------- the deal
#: The original rolls a CPU deck until it is full; a pool so thin that this many rolls do
#: not deal 40 cards is a broken table (a retail pool needs about 50 rolls).
MAX_DEAL_ROLLS = 1_000_000

# The Build Deck sorts keep ties (only the ``ai`` ordinals have any) in their given order (a
# stable sort): the original sort routine's tie behaviour is not documented
# (emucore.fm.deck.sort_deck).


# ------------------------------------------------------------------------ the prompts
# Q1  A prompt offers real columns, never AUTO: the legal list's one AUTO play onto a free
#     column is offered as every free column of its row (and the occupied ones it may combine
#     with), so a cursor can stand on each; AUTO is the lowest free column, as step()
#     resolves it (emucore.fm.prompts: Preview.auto, resolved).


# ------------------------------------------------------------- the game outside the duel
# Where the main loop's decompiled routines were not read for rand(), or a timing of theirs
# is left open (emucore.fm.mainloop, story, password, trade; docs/fm-fidelity.md, "Main
# loop"). Each site names its entry (``fm.choices G3``).
#
# G1  A blocking fade (Fade_WaitOut / Fade_WaitIn loop on the vertical blank inside a runner)
#     is no frame of a pad log: it makes no rand() call, so the stream does not depend on
#     it; emucore has no fades, and a pad log's frames count the passes that run a mode.
# G2  Power-on is the title's first Main_RunMenu pass at the boot state (srand(0x55555555),
#     Main_Init): the logo and intro movie before it are not modelled (their rand() use is
#     unverified), so a frame index is a starter index as ``plan starter`` counts them.
# G3  A mode whose runner was not read for rand() (the campaign and its map, Build Deck, the
#     Library, game over, the credits, Options: each row of mainloop.MODES says what was not
#     read) makes UNREAD_MODE_CALLS a frame; so does a duel's frame, whose calls are its
#     actions' (the deal, the computer's scripts, the animations; spec/fm-engine.md §1.3).
# G4  A shattered glyph's 32 calls come two frames after the glyph lands (the shatter sprite
#     spawns its shards on its first update, each shard draws on its own first update), and
#     the keyboard ignores presses until the glyph has landed and the caret has moved (the
#     pulse and trail objects NameEntry_UpdateDialog also waits for are not modelled).
# G5  Without the user's disc a campaign duel's terrain is the one the-game.md names for it
#     (the shrines' home fields, Yami for Heishin and the two Guardians), else the normal
#     field; with the disc it is the story command's byte (story.campaign_terrains).
# G6  The Password shop's message boxes show their text at once, so the updater's text gate
#     holds only while the dialog waits for its answer; the card's picture, a disc read in the
#     original, is ready the frame after it is asked for (password.LOAD_FRAMES).
# G7  Trade lists the chest in card-id order (sort 0, no rand()) and offers none of the
#     other sorts, whose qsort comparators call rand() on equal ids; the second memory card is
#     another ``*.json`` save in the FM save folder.
# G8  The two-player set-up's right position ("Hands shown") plays the duel with both hands
#     open and no hand-over screen, the left hides them between turns: the byte's meaning in
#     the original's duel is unproved (trade.TwoPlayerSetup.hands_shown).
# G9  Two Players may also be played with one save's deck on both sides ("One save for
#     both"), for a machine with one save only; the original needs two saves with different
#     duelist codes.
UNREAD_MODE_CALLS = 0

# ------------------------------------------------------- playing a replay on the original
# What emucore.fm.padplan (capture record --from-replay) chooses where the decompiled code
# leaves the pad's timing open (docs/fm-duel-input.md; docs/capture.md, "From a replay").
# P1  The plan starts at the title and Continues the save on the memory card (the tester's
#     own, holding the replay's deck, sorted as the replay says, and the opponent
#     unlocked): a new game goes through the story's opening (campaign scene 0x30, script
#     data on the disc: a dialogue, a choice, the city map, a card shop's "Title") before
#     the main menu opens, and the plan does not model that.
# P2  A step whose own animation has no RAM word to wait on is waited out by its frame
#     count from the code plus SETTLE_FRAMES (a press inside it would be dropped; waiting
#     longer costs nothing: no waiting frame of the hand, field or star handlers calls
#     rand()); a press that should leave its step and has not after RETRY_FRAMES is made
#     again (it came while the routine was busy and was dropped).
# P3  The duel's deal is landed on the Free Duel grid (FreeDuel_Entry: one rand() a
#     frame): the confirm, then Circle SETTLE_FRAMES after the pre-duel deck screen opens
#     (with 40 cards its exit step leaves at once), then the deal's RNG index measured and
#     the wait before the confirm corrected (padplan.Land).
# P4  The plan presses nothing for the computer's turns and their animations: it waits
#     for the next gate of the pad side.
# P5  ``3d_circles`` presses Circle CIRCLES_FRAMES frames into the 3-D battle (when the
#     summoning circles' set-up has run is not read frame by frame).
# P6  After a position change the field cursor waits SPIN_FRAMES for the spin object
#     (tag 0xF, a pool scan rather than one RAM word) before the next press.
# P7  The recorder waits at most WAIT_LIMIT frames for any one gate (a computer turn with
#     its animations takes far fewer), and lands a deal in at most LAND_TRIES tries and at
#     most LAND_LIMIT frames (an hour) after the earliest the original reaches.
SETTLE_FRAMES = 4
RETRY_FRAMES = 30
CIRCLES_FRAMES = 60
SPIN_FRAMES = 24
WAIT_LIMIT = 60 * 60 * 5
LAND_TRIES = 6
LAND_LIMIT = 60 * 60 * 60
