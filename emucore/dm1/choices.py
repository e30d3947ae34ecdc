"""Every point where the Game Boy cartridge's behaviour is not public (spec/dm1.md §7),
decided in one place: the register of emucore's DM1 choices. Each constant names the rule it
settles and is read where the rule runs; the choices that are a whole routine rather than a
value are listed below with the routine that holds them, which names its entry here
(``choices D4``). Changing one that alters results needs a version bump
(``emucore.dm1.replay.ENGINE_VERSION`` or ``RNG_VERSION``).

D1  FIRST_SIDE: the player (side 0) takes the first turn.
D2  LP_CAP: LP is a four-digit value, so heals stop at 9999 (as the BCD adder 0x2867).
D3  FUSION_RESULT_FACE_UP: a fusion result is placed face-up.
D4  A side that passed with six cards in hand draws nothing; the card stays on the deck
    (``Dm1Duel._begin_turn``).
D5  The random routine at $2112 maps one stream value onto ``lo..hi`` as
    ``lo + value % (hi - lo + 1)`` (``emucore.dm1.rng.ranged``).
D6  A CPU deck is 40 weighted picks from its table before the duel; a player's deck is
    shuffled by Fisher-Yates from the last card down, ``j = rand() % (i + 1)``
    (``emucore.dm1.decks``).
D7  Magic: a level change beyond -1..2, an equip on a monster not on its list or Elegant
    Egotist on another monster than Harpie Lady has no effect and the card is spent; an
    equip with no own monster may still be played, to no effect (``emucore.dm1.magic``).
D8  Stop Defense's "must attack next turn" is read as: the opponent's monsters switch to
    attack now and must attack on its next turn (``magic._force_attack``).
D9  Dragon Capture Jar's seal lasts while the monster stays on the field
    (``magic._seal_type``).
D10 The computer player: one deterministic rule reading the true state (``emucore.dm1.ai``).
D11 Only a win gives a drop; a new game's 33 monsters are ``pool[rand(0..99)]`` with repeats
    on the menu's stream (``emucore.dm1.progress``).
D12 Simon's 19th deck card is #16 Time Wizard (``emucore.tables.builders.dm1.SIMON_19TH``).
"""

from __future__ import annotations

FIRST_SIDE = 0                 # D1
LP_CAP = 9999                  # D2
FUSION_RESULT_FACE_UP = True   # D3
