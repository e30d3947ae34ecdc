"""Duel state of the paper engine and its byte image (snapshot) with named fields.

The image is a flat little-endian int64 sequence: a header, then per side its counters, the
five monster zones and five magic/trap zones (fixed records), then the variable card lists
(deck bottom..top, hand, graveyard, fusion deck, ante) each preceded by its length.
"""

from __future__ import annotations

import struct

from emucore.hw.psyq_rand import Rand

ZONES = 5
NO_WINNER = -2  # State.winner while the duel runs; then protocol.DRAW or the winning side
IMAGE_VERSION = 2
END_REASONS = ("", "lp", "both_lp", "deck_out", "exodia", "turn_limit")
# Response windows (State.window): none, the opponent's attack declared, its monster placed.
NO_WINDOW, ATTACK_WINDOW, SUMMON_WINDOW = 0, 1, 2


class Monster:
    """A monster zone's occupant."""

    __slots__ = ("card", "face_up", "attack", "summoned_turn", "changed_turn", "attacked_turn",
                 "bonus")

    def __init__(self, card: int, face_up: bool, attack: bool, turn: int) -> None:
        self.card = card
        self.face_up = face_up
        self.attack = attack
        self.summoned_turn = turn
        self.changed_turn = 0
        self.attacked_turn = 0
        self.bonus = 0  # equip bonus to ATK and DEF

    def record(self) -> list[int]:
        return [self.card, int(self.face_up), int(self.attack), self.summoned_turn,
                self.changed_turn, self.attacked_turn, self.bonus]


MONSTER_FIELDS = ("card", "face_up", "attack", "summoned_turn", "changed_turn", "attacked_turn",
                  "bonus")


class Spell:
    """A magic/trap zone's occupant; ``target`` is (side, zone) for an equip, else (-1, -1)."""

    __slots__ = ("card", "face_up", "set_turn", "target_side", "target_zone", "spent")

    def __init__(self, card: int, face_up: bool, turn: int) -> None:
        self.card = card
        self.face_up = face_up
        self.set_turn = turn
        self.target_side = -1
        self.target_zone = -1
        self.spent = False  # a used trap that stays on the field

    def record(self) -> list[int]:
        return [self.card, int(self.face_up), self.set_turn, self.target_side, self.target_zone,
                int(self.spent)]


SPELL_FIELDS = ("card", "face_up", "set_turn", "target_side", "target_zone", "spent")
LISTS = ("deck", "hand", "grave", "fusion_deck", "ante")


class Side:
    """One player's half of the table. ``deck[-1]`` is the top card."""

    __slots__ = ("lp", "deck", "hand", "grave", "fusion_deck", "ante", "monsters", "spells",
                 "summons", "magic", "traps")

    def __init__(self, lp: int, deck: list[int], fusion_deck: list[int]) -> None:
        self.lp = lp
        self.deck = deck
        self.hand: list[int] = []
        self.grave: list[int] = []
        self.fusion_deck = fusion_deck
        self.ante: list[int] = []
        self.monsters: list[Monster | None] = [None] * ZONES
        self.spells: list[Spell | None] = [None] * ZONES
        self.summons = 0  # used this turn
        self.magic = 0
        self.traps = 0


class State:
    """The whole duel: two sides, turn, phase, result and the RNG stream."""

    __slots__ = ("sides", "turn", "active", "phase", "first", "winner", "reason", "rng",
                 "window", "zone", "target")

    def __init__(self, sides: list[Side], rng: Rand) -> None:
        self.sides = sides
        self.turn = 0
        self.active = 0
        self.phase = 0  # index into the profile's phases
        self.first = 0
        self.winner = NO_WINNER
        self.reason = ""
        self.rng = rng
        # An open response window: the non-active side answers the attack by the active
        # side's monster in ``zone`` on ``target`` (ATTACK_WINDOW), or its monster just
        # placed face-up in ``zone`` (SUMMON_WINDOW).
        self.window = NO_WINDOW
        self.zone = 0
        self.target = 0

    @property
    def responder(self) -> int:
        """The side answering an open response window."""
        return 1 - self.active


HEADER = ("version", "turn", "active", "phase", "first", "winner", "reason", "rng_state",
          "rng_calls", "window", "zone", "target")
COUNTERS = ("lp", "summons", "magic", "traps")


def encode(state: State) -> bytes:
    """The state image (see the module docstring)."""
    out = [IMAGE_VERSION, state.turn, state.active, state.phase, state.first, state.winner,
           END_REASONS.index(state.reason), state.rng.state, state.rng.calls, state.window,
           state.zone, state.target]
    for side in state.sides:
        out += [side.lp, side.summons, side.magic, side.traps]
        for m in side.monsters:
            out += m.record() if m else [0] * len(MONSTER_FIELDS)
        for s in side.spells:
            out += s.record() if s else [0] * len(SPELL_FIELDS)
        for name in LISTS:
            cards = getattr(side, name)
            out.append(len(cards))
            out += cards
    return struct.pack(f"<{len(out)}q", *out)


def _ints(data: bytes) -> list[int]:
    if len(data) % 8:
        raise ValueError("state image length is not a multiple of 8")
    return list(struct.unpack(f"<{len(data) // 8}q", data))


class _Reader:
    """Reads an image's ints in order; running past the end is a ValueError."""

    def __init__(self, values: list[int]) -> None:
        self.values, self.pos = values, 0

    def take(self, n: int) -> list[int]:
        if n < 0 or self.pos + n > len(self.values):
            raise ValueError("state image is truncated or malformed")
        self.pos += n
        return self.values[self.pos - n:self.pos]


def _read_side(r: _Reader) -> Side:
    lp, summons, magic, traps = r.take(len(COUNTERS))
    side = Side(lp, [], [])
    side.summons, side.magic, side.traps = summons, magic, traps
    for z in range(ZONES):
        rec = r.take(len(MONSTER_FIELDS))
        if rec[0]:
            m = Monster(rec[0], bool(rec[1]), bool(rec[2]), rec[3])
            m.changed_turn, m.attacked_turn, m.bonus = rec[4:7]
            side.monsters[z] = m
    for z in range(ZONES):
        rec = r.take(len(SPELL_FIELDS))
        if rec[0]:
            s = Spell(rec[0], bool(rec[1]), rec[2])
            s.target_side, s.target_zone, s.spent = rec[3], rec[4], bool(rec[5])
            side.spells[z] = s
    for name in LISTS:
        setattr(side, name, r.take(r.take(1)[0]))
    return side


def decode(data: bytes) -> State:
    """Rebuild a :class:`State` from :func:`encode` output (ValueError if malformed)."""
    r = _Reader(_ints(data))
    head = dict(zip(HEADER, r.take(len(HEADER)), strict=True))
    if head["version"] != IMAGE_VERSION or not 0 <= head["reason"] < len(END_REASONS):
        raise ValueError("not a paper-duel state image of this version")
    sides = [_read_side(r), _read_side(r)]
    if r.pos != len(r.values):
        raise ValueError("state image has trailing data")
    state = State(sides, Rand(head["rng_state"], head["rng_calls"]))
    state.turn, state.active, state.phase = head["turn"], head["active"], head["phase"]
    state.first, state.winner = head["first"], head["winner"]
    state.reason = END_REASONS[head["reason"]]
    state.window, state.zone, state.target = head["window"], head["zone"], head["target"]
    return state


def fields_of(data: bytes) -> dict[str, int]:
    """Named fields of a state image for replay diffs (``side0.lp``, ``side1.m2.card`` ...)."""
    state = decode(data)
    out = {name: v for name, v in zip(HEADER, _ints(data), strict=False)}
    for i, side in enumerate(state.sides):
        p = f"side{i}"
        for name in COUNTERS:
            out[f"{p}.{name}"] = getattr(side, name)
        for z, m in enumerate(side.monsters):
            for name, v in zip(MONSTER_FIELDS, m.record() if m else [0] * 7, strict=True):
                out[f"{p}.m{z}.{name}"] = v
        for z, s in enumerate(side.spells):
            for name, v in zip(SPELL_FIELDS, s.record() if s else [0] * 6, strict=True):
                out[f"{p}.s{z}.{name}"] = v
        for name in LISTS:
            cards = getattr(side, name)
            out[f"{p}.{name}.count"] = len(cards)
            out.update({f"{p}.{name}.{k}": c for k, c in enumerate(cards)})
    return out
