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

#: The animations charged to the duel's rand() stream: those whose whole count
#: emucore.fm.timeline knows (the result outro, the failed-combination fly-off, the equip
#: effect). The counts that hang on the duel_effects overlay's configuration data (the
#: frames of the damage number, battle shake, destruction, fusion, star flash, magic and trap
#: effects; the 3-D battle; the Exodia sparkles) are not in the decompiled C: those
#: animations make no call here rather than a guessed number (docs/fm-fidelity.md, D1).
CHARGED_ANIMATIONS = ("result_outro", "failure", "equip")

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
