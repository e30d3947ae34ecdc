"""Every point where spec/fm-engine.md leaves the original's behaviour open (§12 and silent
cases), decided in one place. Each constant names the rule it settles; docs/fm-engine.md
lists them with the reasoning. Changing one that alters results needs an engine version bump
(emucore.fm.replay.ENGINE_VERSION).
"""

from __future__ import annotations

#: The side that moves first (the-game.md §5.1 says the player; not verified in code).
FIRST_SIDE = 0

#: Fake Trap (690) stops the attack; True would also destroy the attacker like 681-686.
FAKE_TRAP_DESTROYS_ATTACKER = False

#: Reverse Trap (689): stat_modifier -= FACTOR x the play's equip bonus. 2 = "the gain turns
#: into as large a loss" (gameplay-tables note); 1 would merely cancel it.
REVERSE_TRAP_FACTOR = 2

#: Dark-piercing Light (350) reveals the opposing monster row and, if True, the magic/trap
#: row too (grid entries 5..14 in one copy of the handler, 5..9 in another).
DARK_PIERCING_LIGHT_REVEALS_MAGIC_ROW = True

#: Cursebreaker (655): own monsters with a negative stat_modifier get it back to 0.
CURSEBREAKER_RESETS_PENALTIES = True

#: An attacked face-down monster stays face-up after the battle.
ATTACKED_CARD_REVEALED = True

#: Field fusions count in fusions_initiated (+0x08) like hand fusions (spec §3.1 note).
FIELD_FUSIONS_COUNT = True

#: An equip set in the magic/trap row and activated onto a monster counts in equips (+0x09)
#: and arms Reverse Trap like an equip in a combination.
ROW_EQUIPS_COUNT = True

#: fm-ai.md §10.3: the byte ``gDuel_aActiveCards`` holds everywhere before the first export
#: of a duel (the engine writes the array; docs/fm-ai.md lists it with the AI's choices).
SNAPSHOT_FILL_BYTE = 0
