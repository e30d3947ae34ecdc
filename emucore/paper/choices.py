"""Every point where the paper rulebooks leave a duel open, decided in one place: the register
of emucore's choices for the paper engine (``ocg1999`` and ``tcglite``). Each value is read
where its rule runs; a choice that is a whole routine names its entry here (``choices P2``)
in its docstring. Changing one that alters results needs a version bump
(``emucore.paper.replay.ENGINE_VERSION`` or ``RNG_VERSION``).

P1  TURN_LIMIT: the rulebook sets no limit, and its optional draw lets two players who never
    draw play forever: once turn TURN_LIMIT has ended the duel is a draw, ``Ended(DRAW,
    "turn_limit")``. Far above any duel played out: a deck holds at most 200 cards
    (decks.MAX_PART), which run out after about 400 turns; the longest of 1,000 computer
    duels with random decks took 129 turns (tests/paper/test_paper_duels_end.py).
P2  The shuffle: Fisher-Yates from the top index down, one ``rand()`` per card but the last
    (``engine.shuffle``); the paper games have no machine routine to copy.
P3  An attack whose answering trap took the attacker or its target off the field, or put
    the attacker in defence, is called off; the attacker has still used its attack
    (``PaperDuel.attack_stands``).
"""

from __future__ import annotations

TURN_LIMIT = 1000   # P1
