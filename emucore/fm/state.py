"""The FM duel state: the buffer laid out by :mod:`emucore.fm.machine`, and its named views.

One ``uint8`` buffer holds the regions :data:`emucore.fm.machine.MACHINE` declares (side,
card and deck-card records, shuffled decks and permutations, duel globals, the computer's
board snapshot arrays). :class:`DuelState` binds the named strided views generated from that
declaration; rule code reads and writes only through them (``st.cards.flags[r]``,
``st.sides.lp[s]``, ``st.globals.phase[0]``), so the bytes are always current and
``snapshot()`` compares region by region with an emulator capture. This module also names
the values the records hold (flag bits, phases, end reasons, record rows).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emucore.fm import machine as M
from emucore.hw.psyq_rand import INCREMENT, MASK32, MULTIPLIER, Rand, cached_coefficients

# Card record flags (duel_card.h).
F_STAR2 = 0x0200
F_DEFENCE = 0x0800
F_FACE_DOWN = 0x1000
F_USED = 0x4000
F_OCCUPIED = 0x8000

# Deck-card record flags: where the card is (emucore's encoding; the original's bits are not
# documented). Byte 3 ("record") names the card record holding it, 0xFF when none.
IN_DECK, IN_HAND, ON_FIELD, GONE = 0, 1, 2, 3
NO_RECORD = 0xFF

PHASE_HAND, PHASE_FIELD, PHASE_OVER = 0, 1, 2
END_NONE, END_LP, END_DECKOUT, END_EXODIA = 0, 1, 2, 3

DECK_SIZE = M.DECK_SIZE
ROW_WIDTH = M.ROW_WIDTH
RECORDS_PER_SIDE = 3 * ROW_WIDTH  # 0-4 hand, 5-9 monsters, 10-14 magic/trap
HAND, MONSTERS, MAGIC = 0, ROW_WIDTH, 2 * ROW_WIDTH
AI_SNAPSHOT = ("ai_snapshot_player", "ai_snapshot_cpu")  # region of each side's array


@dataclass(frozen=True)
class Shuffle:
    """One side's shuffled deck in draw order and its permutation bytes."""

    cards: tuple[int, ...]
    perm: tuple[int, ...]


class DuelState:
    """The state buffer and its named views (see :func:`emucore.fm.machine.views`).

    ``sides``, ``cards``, ``deck_cards``: :class:`~emucore.fm.machine.Records` (``field[i]``);
    ``globals``: the one globals record (``globals.phase[0]``); ``shuffled``/``perm``: the two
    sides' decks as typed views; ``ai_snapshot``: the two snapshot arrays' bytes (numpy).
    A value written outside its field's width raises, so every wrap or clamp is explicit in
    the rules.
    """

    def __init__(self) -> None:
        self.ram = np.zeros(M.SIZE, dtype=np.uint8)
        self.raw = memoryview(self.ram)
        v = M.views(self.raw, ("side", "card", "deck_card", "globals", "shuffled_player",
                               "shuffled_cpu", "perm_player", "perm_cpu"))
        self.sides, self.cards, self.deck_cards = v["side"], v["card"], v["deck_card"]
        self.globals = v["globals"]
        self.shuffled = (v["shuffled_player"], v["shuffled_cpu"])
        self.perm = (v["perm_player"], v["perm_cpu"])
        self.ai_snapshot = tuple(self.ram[M.OFFSET[name]:M.OFFSET[name] + M.LENGTH[name]]
                                 for name in AI_SNAPSHOT)

    def stream(self, rng: Rand) -> StateRand:
        """The duel's one ``rand()`` stream, starting where ``rng`` stands, held in the
        globals record (``rng_state``, ``rng_calls``) from now on."""
        return StateRand(self.globals, rng.state, rng.calls)

    def bump(self, side: int, counter: str) -> None:
        """Increment a u8 side-record counter, wrapping at 256 like the original's ``++``."""
        view = getattr(self.sides, counter)
        view[side] = (view[side] + 1) & 0xFF

    def image(self) -> bytes:
        """The buffer's bytes, the RNG state included."""
        return self.ram.tobytes()

    def load(self, data: bytes) -> None:
        """Overwrite the buffer with an image of the same size."""
        if len(data) != M.SIZE:
            raise ValueError(f"an FM state image is {M.SIZE} bytes, not {len(data)}")
        self.raw[:] = memoryview(data).cast("B")


class StateRand(Rand):
    """A :class:`~emucore.hw.psyq_rand.Rand` whose state and call count live in the state
    buffer (the globals record's ``rng_state``, as ``gRand_dwSeed`` lives in the original's
    RAM, and ``rng_calls``), so the buffer holds the stream at every moment: ``snapshot()``
    is the buffer's bytes as they stand, and ``restore()`` brings the stream back with them.
    The count wraps at 2^32, the width of its field."""

    def __init__(self, records: M.Records, state: int, calls: int = 0) -> None:
        self._state, self._calls = records.rng_state, records.rng_calls
        self._state[0], self._calls[0] = state & MASK32, calls & MASK32

    @property
    def state(self) -> int:
        """The generator's 32-bit state (the globals' rng_state)."""
        return self._state[0]

    @state.setter
    def state(self, value: int) -> None:
        self._state[0] = value & MASK32

    @property
    def calls(self) -> int:
        """The calls made since the duel's setup began (rng_calls, mod 2^32)."""
        return self._calls[0]

    @calls.setter
    def calls(self, value: int) -> None:
        self._calls[0] = value & MASK32

    def __repr__(self) -> str:
        return f"StateRand(state={self.state!r}, calls={self.calls!r})"

    def rand(self) -> int:
        """``rand``: advance the state and return 15 bits."""
        s, c = self._state, self._calls
        s[0] = v = (s[0] * MULTIPLIER + INCREMENT) & MASK32
        c[0] = (c[0] + 1) & MASK32
        return (v >> 16) & 0x7FFF

    def advance(self, n: int) -> None:
        """Make ``n >= 0`` calls whose values nobody reads (one affine step)."""
        a, c = cached_coefficients(n)
        s, k = self._state, self._calls
        s[0] = (a * s[0] + c) & MASK32
        k[0] = (k[0] + n) & MASK32
