"""The Forbidden Memories duel: :class:`FmDuel`, the Duel protocol over the RAM records.

Turn flow (spec/fm-engine.md §2.3, fm-ai.md §1): a side's draw phase (used flags cleared,
its Swords counter decremented, turns +1, hand compacted, ``5 - n`` draws, deck-out and
Exodia checks) opens its hand phase, in which it makes exactly one :class:`Play`; the field
phase then allows attacks, position changes and activations until :class:`EndTurn`, which
runs the other side's draw phase at once. Side 0 (the player) moves first
(choices.FIRST_SIDE); the hand phase has no pass (the original offers none).

quirk: ``func_80018608`` deals the first hand without the draw-phase entry
``func_8001898C``, so side 0's turn counter (+0x01, read by the rank) stays one behind its
turns; and ``func_800179F4`` locks monster attacks until the first end of turn.
"""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass

from emucore.duel.protocol import Duel, IllegalAction
from emucore.duel.rules import Rule, RuleTable
from emucore.fm import choices, combine, effects, legal, rank
from emucore.fm import machine as M
from emucore.fm import state as S
from emucore.fm.actions import (
    AUTO,
    DECK_PICK,
    DIRECT,
    Activate,
    Attack,
    ChangePosition,
    Done,
    Drew,
    Ended,
    EndTurn,
    Flip,
    FmAction,
    Placed,
    Play,
    PositionChange,
    TurnStart,
)
from emucore.fm.battle import attack
from emucore.fm.board import (
    ATTACKERS,
    COLUMNS,
    EXODIA,
    HELD,
    READY,
    BoardOps,
    s16,
)
from emucore.fm.cards import TYPE_EQUIP, TYPE_MAGIC, TYPE_RITUAL, TYPE_TRAP
from emucore.fm.export import Exported, export_acting
from emucore.fm.legal import ActionList
from emucore.fm.overlay import BUILT_IN, OverlayTables
from emucore.fm.prompts import FmPrompts
from emucore.fm.timeline import DEFAULT_VIEW, VIEWS
from emucore.hw.psyq_rand import Rand
from emucore.tables.fm import FmTables

ROWS = {"hand": S.HAND, "monster": S.MONSTERS, "magic": S.MAGIC}
STARTING_LP = 8000  # DUEL_STARTING_LIFE_POINTS
HAND_SIZE = 5
END_REASONS = {S.END_LP: "lp", S.END_DECKOUT: "deckout", S.END_EXODIA: "exodia"}


@functools.cache
def _opening_image() -> bytes:
    """The state bytes every duel starts from, whatever its decks, life points, opponent and
    terrain (written over them per duel): copied in with one buffer write instead of a
    dozen field writes per duel."""
    st = S.DuelState()
    deck, g = st.deck_cards, st.globals
    deck.index[:] = array("B", range(2 * S.DECK_SIZE))  # the record's own number
    deck.record[:] = array("B", [S.NO_RECORD] * 2 * S.DECK_SIZE)
    deck.flags[:] = array("H", [S.IN_DECK] * 2 * S.DECK_SIZE)
    for side in (0, 1):
        st.sides.hand[side][:] = array("b", [-1] * HAND_SIZE)
    g.winner[0], g.rank_tier[0] = -1, -1
    g.attack_lock[0] = 1  # func_800179F4: D_8009B16C |= 0x1000
    for snapshot in st.ai_snapshot:
        snapshot[:] = choices.SNAPSHOT_FILL_BYTE
    return st.image()


def turns_played(side: int, counter: int) -> int:
    """How many turns ``side`` has begun, from its turn counter (side record +0x01): the first
    side's opening turn is not counted by the original (``func_80018608``), so its counter
    lags by one. Screens show this number; rank scores use the counter as it is."""
    return counter + 1 if side == choices.FIRST_SIDE else counter
@dataclass(frozen=True)
class CardView:
    """A card record as screens and the computer opponent read it."""

    card: int
    atk: int  # Duel_CalcCardStats: base + stat_modifier + terrain_modifier, 0..9999
    defense: int
    flags: int  # state.F_* bits
    card_type: int
    star: int  # the active guardian star
    deck_index: int  # its deck-card record (0..79)

    @property
    def face_down(self) -> bool:
        return bool(self.flags & S.F_FACE_DOWN)

    @property
    def defending(self) -> bool:
        return bool(self.flags & S.F_DEFENCE)

    @property
    def used(self) -> bool:
        return bool(self.flags & S.F_USED)


class FmDuel(BoardOps, FmPrompts, Duel):
    """One FM duel. Build it with :func:`emucore.fm.setup.new_duel` (decks dealt from an RNG
    state) or directly from two shuffled decks and the RNG as it stands after the deal.

    ``computer`` names the sides the computer plays. Before every action of such a side,
    :meth:`step` exports the board into that side's snapshot array, as the original does
    before each ``AiScript_Init`` (fm-ai.md §2); the action itself comes from the one chooser,
    :func:`emucore.fm.ai.choose_action`, which decides on a fork of the duel's stream.
    Its prompts (``options``, ``action_for``, ``preview``) come from
    :class:`emucore.fm.prompts.FmPrompts`.
    """

    system = "fm"

    def __init__(self, tables: FmTables, player: S.Shuffle, cpu: S.Shuffle, rng: Rand, *,
                 opponent: int, terrain: int = 0,
                 lp: tuple[int, int] = (STARTING_LP, STARTING_LP),
                 computer: tuple[int, ...] = (), effects: OverlayTables = BUILT_IN) -> None:
        BoardOps.__init__(self, tables, rng, effects)
        if not set(computer) <= {0, 1}:
            raise ValueError(f"computer sides {computer!r}: each is 0 or 1")
        self.computer_sides = frozenset(computer)
        # per side, the export of the last state exported for it (emucore.fm.export's memo)
        self.export_memo: list[Exported | None] = [None, None]
        st = self.st
        st.load(_opening_image())
        self.rng = st.stream(rng)   # from here on the stream lives in the state buffer
        for side, shuffle in enumerate((player, cpu)):
            if len(shuffle.cards) != S.DECK_SIZE or len(shuffle.perm) != S.DECK_SIZE:
                raise ValueError(f"side {side}: a deck has {S.DECK_SIZE} cards")
            st.shuffled[side][:] = array("H", shuffle.cards)
            st.perm[side][:] = array("B", shuffle.perm)
        sides, g = st.sides, st.globals
        st.deck_cards.card_id[:] = array("h", (*player.cards, *cpu.cards))
        atk, dfn = self.facts.atk, self.facts.dfn
        for side, shuffle in enumerate((player, cpu)):
            sides.lp[side] = sides.max_lp[side] = sides.lp_display[side] = lp[side]
            # func_80018608 state 4: the deck's average base ATK and DEF (display only)
            sides.avg_atk[side] = sum(map(atk.__getitem__, shuffle.cards)) // S.DECK_SIZE
            sides.avg_def[side] = sum(map(dfn.__getitem__, shuffle.cards)) // S.DECK_SIZE
        g.opponent[0], g.terrain[0] = opponent, terrain
        self._draw_phase(choices.FIRST_SIDE, opening=True)
        self.opening_events = self._take_events()

    # ------------------------------------------------------------------ protocol
    @property
    def over(self) -> bool:
        return self.st.globals.phase[0] == S.PHASE_OVER

    # The globals a decision reads many times each (plain properties: no look-up by name).
    @property
    def acting_side(self) -> int:
        """The side whose action legal_actions() lists."""
        return self.st.globals.acting_side[0]

    @property
    def phase(self) -> int:
        """0 hand phase, 1 field phase, 2 over (state.PHASE_*)."""
        return self.st.globals.phase[0]

    @property
    def terrain(self) -> int:
        """The terrain 0..6 (a field card changes it)."""
        return self.st.globals.terrain[0]

    @property
    def opponent(self) -> int:
        """The CPU duelist id (1..39), negative in a two-player duel."""
        return self.st.globals.opponent[0]

    def snapshot(self) -> bytes:
        """The state bytes in :data:`emucore.fm.machine.MACHINE` order: the RAM records and
        the globals, the RNG state among them (it lives there), byte for byte comparable
        with an emulator capture."""
        return self.st.image()

    def restore(self, data: bytes) -> None:
        self.st.load(data)   # the stream with it (StateRand reads the buffer)
        self.events = []

    def state_fields(self) -> dict[str, int]:
        return M.fields_of(self.snapshot())

    def legal_actions(self) -> ActionList:
        """Every action the acting side may take (a lazy sequence, see :mod:`legal`).

        Not listed but accepted by :meth:`step`: explicit free columns (listed as AUTO),
        any ``rng_calls``, and deck picks (``DECK_PICK + p``) of the CPU's hand executor.
        """
        g = self.st.globals
        phase, side = g.phase[0], g.acting_side[0]
        if phase == S.PHASE_HAND:
            return self._hand_actions(side)
        if phase == S.PHASE_FIELD:
            return self._field_actions(side)
        return legal.NONE

    def step(self, action: FmAction) -> list:
        """Apply one action; :class:`IllegalAction` leaves the state untouched.

        An action of a listed kind in its own phase with a plain count of ``rng_calls``
        passes the common checks at once; anything else goes through :meth:`_validate`,
        which names what is wrong (or accepts a subclass of a kind, or a bool count)."""
        rule = _RULES[type(action)]
        st = self.st
        g = st.globals
        side, phase, calls = g.acting_side[0], g.phase[0], action.rng_calls
        if rule is None or rule.phase != phase or calls.__class__ is not int or calls < 0:
            self._validate(action, rule, phase)
        checked = rule.check(self, side, action)
        events = self.events = []
        if side in self.computer_sides:
            export_acting(self)  # the board snapshot export before the computer decided
        if calls:
            self.rng.advance(calls)
        rule.apply(self, side, action, checked)
        lp = st.sides.lp
        if not (lp[0] and lp[1]):
            self._check_life_points(side)
        self.events = []
        return events

    # ------------------------------------------------------------------ board view
    @property
    def tables(self) -> FmTables:
        return self.t

    @property
    def winner(self) -> int | None:
        """``None`` while the duel runs, then the winning side (the RAM byte holds -1 until
        then; FM duels have no draw)."""
        return self.st.globals.winner[0] if self.over else None

    @property
    def end_reason(self) -> str | None:
        return END_REASONS[self.st.globals.end_reason[0]] if self.over else None

    def swords(self, side: int) -> int:
        return self.st.sides.swords[side]

    def counters(self, side: int) -> dict[str, int]:
        """The side record's fields by name (turns, effective_attacks, ...)."""
        sides = self.st.sides
        return {n: getattr(sides, n)[side] for n in M.SIDE_DTYPE.names if n != "hand"}

    def card(self, side: int, row: str, col: int) -> CardView | None:
        """The card in a hand position or zone (row "hand", "monster" or "magic")."""
        r = self.rec(side, ROWS[row], col)
        if not self.occupied(r):
            return None
        card = self.card_at(r)
        atk, dfn = self.stats(r)
        return CardView(card, atk, dfn, self.flags(r), self.card_type(card),
                        self.active_star(r), self.deck_index_of(r))

    def hand(self, side: int) -> list[int]:
        """The card ids of the five hand positions, -1 where empty."""
        return [self.card_at(self.rec(side, S.HAND, j)) if self.hand_entry(side, j) >= 0
                else -1 for j in range(HAND_SIZE)]

    def deck_remaining(self, side: int) -> list[tuple[int, int]]:
        """(card id, deck-card record index) still in the deck, in draw order."""
        base = side * S.DECK_SIZE
        deck = self.st.deck_cards
        return [(deck.card_id[base + p], base + p)
                for p in range(self.st.sides.draw_cursor[side], S.DECK_SIZE)
                if deck.flags[base + p] == S.IN_DECK]

    def rng_fork(self) -> Rand:
        """A copy of the duel's stream for a decision maker, its ``calls`` counting from 0:
        after deciding, ``calls`` is the action's ``rng_calls``."""
        return Rand(self.rng.state)

    def _take_events(self) -> list:
        events, self.events = self.events, []
        return events

    # ------------------------------------------------------------------ turn flow
    def _draw_phase(self, side: int, opening: bool = False) -> None:
        """``func_8001898C`` + ``func_80018DB4``. The ``opening`` draw of the first side is
        ``func_80018608`` state 5, which goes to the draw without ``func_8001898C``: no used
        flags, Swords counter or turn counter change (quirk: side 0 counts one turn less)."""
        st = self.st
        sides, deck = st.sides, st.deck_cards
        st.globals.acting_side[0], st.globals.phase[0] = side, S.PHASE_HAND
        if not opening:   # quirk: func_80018608: the opening draw skips func_8001898C
            self.clear_used()
            if sides.swords[side] > 0:
                sides.swords[side] -= 1
            sides.turns[side] = (sides.turns[side] + 1) & 0xFF
        turn = sides.turns[side]
        events = self.events
        events.append(TurnStart(side, turn))
        held = self._compact_hand(side)
        cursor = sides.draw_cursor[side]
        hand = side * S.RECORDS_PER_SIDE + S.HAND
        entries, ids, where = sides.hand[side], deck.card_id, deck.flags
        for j in range(held, HAND_SIZE):
            if cursor >= S.DECK_SIZE:
                self._end(1 - side, S.END_DECKOUT)  # the side that cannot draw loses
                return
            k = side * S.DECK_SIZE + cursor
            card = ids[k]
            self.setup_record(hand + j, card, k, S.F_OCCUPIED)  # also points record k here
            entries[j] = k
            where[k] = S.IN_HAND
            cursor += 1
            sides.draw_cursor[side] = cursor
            events.append(Drew(side, card, j))
        held_ids = st.cards.card_id[hand:hand + HAND_SIZE].tolist()
        if EXODIA.issubset(held_ids):  # Duel_HasAllExodiaPieces after the draw
            self.show(self.timeline.exodia)  # DuelScene_UpdateExodiaResult (scene 14)
            self._end(side, S.END_EXODIA)

    def _compact_hand(self, side: int) -> int:
        """Move the hand's cards to the front in their order (records and side entries);
        returns how many cards the hand holds."""
        entries = self.st.sides.hand[side].tolist()
        hand = side * S.RECORDS_PER_SIDE + S.HAND
        free = 0
        for j, entry in enumerate(entries):
            if entry >= 0:
                if j != free:
                    self.move_record(hand + j, hand + free)
                free += 1
        return free

    def _check_life_points(self, acting: int) -> None:
        """The entry of ``DuelScene_UpdateFieldActions``: once either side is at 0 LP the
        acting side wins unless it is at 0 itself (both at 0: the other side wins)."""
        lp = self.st.sides.lp
        if (lp[0] and lp[1]) or self.over:
            return
        self._end(acting if lp[acting] else 1 - acting, S.END_LP)

    def _end(self, winner: int, reason: int) -> None:
        """End of duel: the end adjustment, both scores, the winner's rank; the result
        outro (``func_80020F4C``: its confetti calls, for either winner), then the prize and
        the one drop roll only when the player beats the CPU (§9)."""
        g, sides = self.st.globals, self.st.sides
        g.phase[0], g.winner[0], g.end_reason[0] = S.PHASE_OVER, winner, reason
        reason_name = END_REASONS[reason]
        sides.end_adjust[winner] = rank.END_ADJUSTMENT[reason_name]
        if reason == S.END_EXODIA:
            self._set_lp(1 - winner, 0)
        scores = tuple(rank.rank_score(self.t, self._counters(s), sides.end_adjust[s])
                       for s in (0, 1))
        result = rank.rank_result(scores[winner])
        g.score[0][0], g.score[0][1] = scores
        g.rank_tier[0], g.rank_tec[0] = result.tier, int(result.tec)
        opponent = g.opponent[0]
        self.show(self.timeline.outro[opponent > 0])
        drop_state, before = self.rng.state, self.rng.calls
        prize = drop = 0
        if winner == 0 and opponent > 0:
            prize = result.starchips
            drop = rank.drop(self.rng, self.t, opponent, result.pool)
        g.starchips[0], g.drop[0] = prize, drop
        self.events.append(Ended(winner, reason_name, scores, result.rank, prize,
                                   result.pool, drop, f"0x{drop_state:08X}",
                                   (sides.turns[0], sides.turns[1]),
                                   rand_calls=self.rng.calls - before,
                                   exact=not g.estimated[0]))

    def _counters(self, side: int) -> dict[str, int]:
        sides = self.st.sides
        counters = {name: getattr(sides, name)[side] for name in rank.COUNTERS
                    if name not in ("cards_used", "lp")}
        counters["cards_used"] = sides.draw_cursor[side]
        counters["lp"] = s16(self.lp(side))
        return counters

    # ------------------------------------------------------------------ validation
    def _validate(self, action: FmAction, rule: Rule | None, phase: int) -> None:
        """The checks every action passes before its own (its ``Rule.check``)."""
        if rule is None and not isinstance(action, FmAction):
            raise IllegalAction("unknown-action", f"not an FM action: {action!r}")
        if phase == S.PHASE_OVER:
            raise IllegalAction("duel-over", "the duel is over")
        if not isinstance(action.rng_calls, int) or action.rng_calls < 0:
            raise IllegalAction("rng-calls", "rng_calls must be a count >= 0")
        if (rule is not None and rule.phase == S.PHASE_HAND) != (phase == S.PHASE_HAND):
            raise IllegalAction("phase", "the hand phase allows exactly one play; the field "
                                "phase allows attacks, position changes, activations, end turn")
        if rule is None:
            raise IllegalAction("unknown-action", f"unknown action {action!r}")

    def _check_position(self, side: int, action: ChangePosition) -> None:
        r = self._own_monster(side, action.zone)
        if self.flags(r) & S.F_USED:
            raise IllegalAction("used", "this monster has already acted this turn")

    def _check_done(self, side: int, action: Done) -> None:
        if not isinstance(action.magic, bool):  # checked and applied the same way
            raise IllegalAction("bad-action", f"done: magic must be a bool, not "
                                              f"{action.magic!r}")
        row = S.MAGIC if action.magic else S.MONSTERS
        if not isinstance(action.zone, int) or not 0 <= action.zone < 5 or \
                not self.occupied(self.rec(side, row, action.zone)):
            raise IllegalAction("empty-zone", f"no card in column {action.zone!r}")

    def _check_end_turn(self, side: int, action: EndTurn) -> None:
        """Ending the field phase is always allowed."""

    def _own_monster(self, side: int, col: object) -> int:
        if not isinstance(col, int) or not 0 <= col < 5:
            raise IllegalAction("zone", f"monster column {col!r} outside 0..4")
        r = self.rec(side, S.MONSTERS, col)
        if not self.occupied(r):
            raise IllegalAction("empty-zone", f"no monster in column {col}")
        return r

    def attack_locked(self, side: int) -> bool:
        """Whether ``side`` may not attack now: the first-turn lock (``D_8009B16C &
        0x1000``; choices.FIRST_TURN_LOCK_BINDS_COMPUTER for a computer-played side)."""
        return bool(self.st.globals.attack_lock[0]) and (
            side not in self.computer_sides or choices.FIRST_TURN_LOCK_BINDS_COMPUTER)

    def _check_attack(self, side: int, action: Attack) -> None:
        flags = self.flags(self._own_monster(side, action.attacker))
        if flags & S.F_USED:
            raise IllegalAction("used", "this monster has already acted this turn")
        if self.attack_locked(side):
            raise IllegalAction("first-turn", "no monster attacks before the first end of turn")
        if flags & S.F_DEFENCE and side not in self.computer_sides:
            raise IllegalAction("defence", "a monster in defence position does not attack")
        # quirk: DuelScene_UpdateFieldActions tests Swords only on the player's pad path
        # (state 3); the computer's scripted path (state 2) jumps past it to `attack:`
        if self.st.sides.swords[side] > 0 and side not in self.computer_sides:
            raise IllegalAction("swords", "Swords of Revealing Light stops this side's attacks")
        defenders = self.columns(self.rec(1 - side, S.MONSTERS, 0))
        if action.target == DIRECT:
            if defenders:
                raise IllegalAction("direct-attack", "a direct attack needs an empty opposing "
                                    "monster row")
        elif not isinstance(action.target, int) or action.target not in defenders:
            raise IllegalAction("target", f"no opposing monster in column {action.target!r}")
        if action.view != DEFAULT_VIEW:
            if action.view not in VIEWS:
                raise IllegalAction("view", f"view {str(action.view)[:20]!r} is not one of "
                                    f"{', '.join(VIEWS)}")
            if side in self.computer_sides:  # field actions state 5 clears D_8009B229
                raise IllegalAction("view", "the computer's attacks are 2-D")

    def _hand_cards(self, side: int, cards: object) -> tuple[int, ...]:
        """Check the hand positions and deck picks a play raises (not applied yet); returns
        the positions that hold a card."""
        if not isinstance(cards, tuple) or not 1 <= len(cards) <= HAND_SIZE or \
                len(set(cards)) != len(cards):
            raise IllegalAction("cards", "a play raises 1 to 5 distinct hand cards")
        held = COLUMNS[self.st.sides.hand[side].tobytes().translate(HELD)]
        picks = 0
        for c in cards:
            if not isinstance(c, int):
                raise IllegalAction("cards", f"card position {c!r} is not a number")
            if c >= DECK_PICK:
                p = c - DECK_PICK
                k = side * S.DECK_SIZE + p
                if not 0 <= p < S.DECK_SIZE or self.st.deck_cards.flags[k] != S.IN_DECK:
                    raise IllegalAction("deck-pick", f"draw position {p} is not in the deck")
                picks += 1
            elif c not in held:
                raise IllegalAction("cards", f"no card at hand position {c!r}")
        if picks and picks > len([j for j in held if j not in cards]):
            raise IllegalAction("deck-pick", "more deck picks than unselected hand cards")
        return held

    def _first_card(self, side: int, cards: tuple[int, ...]) -> int:
        c = cards[0]
        if c >= DECK_PICK:
            return self.st.deck_cards.card_id[side * S.DECK_SIZE + c - DECK_PICK]
        return self.card_at(self.rec(side, S.HAND, c))

    def _landing(self, side: int, play: Play) -> tuple[int, int]:
        """Validate a play; return (row, column) it lands on, row -1 for an activation.

        Single card: a monster lands in the monster row; a face-up magic, field or ritual
        card is activated at once; a face-up equip needs an occupied monster column (it
        combines with that monster); a trap or a face-down non-monster is set in the
        magic/trap row. Two or more cards: the monster row.
        """
        self._hand_cards(side, play.cards)
        if play.star not in legal.STARS or not isinstance(play.face_down, bool):
            raise IllegalAction("choice", "star is 0 or 1; face_down is true or false")
        ftype = self.facts.type[self._first_card(side, play.cards)]
        row = S.MONSTERS
        if len(play.cards) == 1 and ftype >= TYPE_MAGIC:
            if not play.face_down and ftype in (TYPE_MAGIC, TYPE_RITUAL):
                if play.zone != AUTO:
                    raise IllegalAction("zone", "a face-up magic card is activated, not placed")
                return -1, -1
            if ftype == TYPE_TRAP or play.face_down:
                row = S.MAGIC
        if play.zone == AUTO:
            col = self.first_free(side, row)
            if col < 0:
                raise IllegalAction("zone-full", "the row is full: pick an occupied column "
                                    "to combine with")
        elif isinstance(play.zone, int) and 0 <= play.zone < 5:
            col = play.zone
        else:
            raise IllegalAction("zone", f"column {play.zone!r} outside 0..4")
        if len(play.cards) == 1 and ftype == TYPE_EQUIP and row == S.MONSTERS and \
                not self.occupied(self.rec(side, row, col)):
            raise IllegalAction("equip-needs-monster", "a face-up equip goes onto a monster")
        return row, col

    def _activation_target(self, side: int, action: Activate) -> int:
        """Validate an activation; return the equip's target record (-1 for other cards)."""
        if not isinstance(action.zone, int) or not 0 <= action.zone < 5:
            raise IllegalAction("zone", f"magic/trap column {action.zone!r} outside 0..4")
        r = self.rec(side, S.MAGIC, action.zone)
        if not self.occupied(r):
            raise IllegalAction("empty-zone", f"no card in magic/trap column {action.zone}")
        card = self.card_at(r)
        ctype = self.card_type(card)
        if ctype == TYPE_TRAP:
            raise IllegalAction("trap", "traps spring by themselves")
        if action.star not in legal.STARS:
            raise IllegalAction("choice", "star is 0 or 1")
        if ctype != TYPE_EQUIP:
            if action.target != AUTO:
                raise IllegalAction("target", "only an equip card takes a target")
            return -1
        # quirk: DuelScene_UpdateFieldActions state 3 offers every own monster, fitting or
        # not; a monster the equip does not fit makes the chain fail
        monsters = self.row_records(side, S.MONSTERS)
        if action.target == AUTO and monsters:
            fits = [m for m in monsters if self.equip_fits(card, self.card_at(m))]
            return (fits or monsters)[0]
        if isinstance(action.target, int) and 0 <= action.target < 5:
            m = self.rec(side, S.MONSTERS, action.target)
            if m in monsters:
                return m
        raise IllegalAction("equip-target", "an equip goes onto one of the side's monsters")

    # ------------------------------------------------------------------ actions
    def _apply_deck_picks(self, side: int, cards: tuple[int, ...]) -> list[int]:
        """``func_8001BAF0``: each picked deck card trades places with the lowest unselected
        hand card (fm-ai.md §2.4); returns the raised hand positions in raise order."""
        if max(cards) < DECK_PICK:
            return list(cards)
        ids = self.st.deck_cards.card_id
        free = self.st.sides.hand[side].tolist()  # hand_entry of each position
        for c in cards:
            if c < DECK_PICK:
                free[c] = -1
        unselected = iter([j for j, held in enumerate(free) if held >= 0])  # lowest first
        out = []
        for c in cards:
            if c < DECK_PICK:
                out.append(c)
                continue
            j = next(unselected)
            held, picked = free[j], side * S.DECK_SIZE + c - DECK_PICK
            ids[held], ids[picked] = ids[picked], ids[held]
            self.setup_record(self.rec(side, S.HAND, j), ids[held], held, S.F_OCCUPIED)
            out.append(j)
        return out

    def _do_play(self, side: int, play: Play, landing: tuple[int, int]) -> None:
        row, col = landing
        st = self.st
        st.globals.equip_bonus[0] = 0
        positions = self._apply_deck_picks(side, play.cards)
        hand = [side * S.RECORDS_PER_SIDE + S.HAND + j for j in positions]
        if len(hand) == 1 and play.face_down:
            st.bump(side, "face_down_plays")
        if row < 0:
            effects.use_card(self, side, hand[0], play.star)
        else:
            target = self.rec(side, row, col)
            if len(hand) == 1 and not self.occupied(target):
                self._place(side, hand[0], target, play.face_down, play.star)
            else:
                # a single card onto an occupied zone enters the chain with the field card
                # as its first card
                working = ([target] if self.occupied(target) else []) + hand
                self._chain(side, working, play.star, row, col)
        st.globals.phase[0] = S.PHASE_FIELD

    def _chain(self, side: int, working: list[int], star: int, row: int = S.MONSTERS,
               col: int = AUTO) -> None:
        """``DuelScene_UpdateCardPlacement`` with a second slot: +0x07 rises at its entry,
        the chain runs, and state 8 settles the card left."""
        self.st.bump(side, "multi_plays")
        final, ask_star = combine.run_chain(self, side, working)
        self._finish_chain(side, final, ask_star, star, row, col)

    def _place(self, side: int, src: int, dst: int, face_down: bool, star: int) -> None:
        cards = self.st.cards
        card = cards.card_id[src]
        monster = self.facts.monster[card]
        self.move_record(src, dst)
        flags = S.F_OCCUPIED | (S.F_FACE_DOWN if face_down else 0)
        if monster and star:
            flags |= S.F_STAR2
        cards.flags[dst] = flags
        row = S.MONSTERS if dst % S.RECORDS_PER_SIDE < S.MAGIC else S.MAGIC
        self.events.append(Placed(side, card, "monster" if row == S.MONSTERS else "magic",
                                  dst % S.RECORDS_PER_SIDE - row, face_down,
                                  star if monster else 0))

    def _finish_chain(self, side: int, final: int, ask_star: bool, star: int, row: int,
                      col: int) -> None:
        """State 8: the card left by the chain. A monster is face-up (combination results
        always are); a monster still in the hand is placed on the landing column; a field
        monster takes ``star`` when the star is asked (``D_8009B218 != 0``). Any non-monster
        left goes to scene 6 and is used (``func_80019608``): a magic card takes effect, an
        equip or trap is used up."""
        card = self.card_at(final)
        if not self.is_monster(card):
            effects.use_card(self, side, final, star)
            return
        if final % S.RECORDS_PER_SIDE < S.MONSTERS:
            dst_col = col if row == S.MONSTERS and col != AUTO and not self.occupied(
                self.rec(side, row, col)) else self.first_free(side, S.MONSTERS)
            if dst_col < 0:
                self.discard(final)
                return
            final_rec = self.rec(side, S.MONSTERS, dst_col)
            self._place(side, final, final_rec, False, star)
        else:
            flags = self.flags(final) & ~S.F_FACE_DOWN
            if ask_star:
                flags = (flags & ~S.F_STAR2) | (S.F_STAR2 if star else 0)
            self.set_flags(final, flags)
            final_rec = final
        effects.reverse_trap(self, side, final_rec)

    def _do_attack(self, side: int, action: Attack, checked: None) -> None:
        attack(self, side, action.attacker, action.target, action.view)

    def _do_done(self, side: int, action: Done, checked: None) -> None:
        r = self.rec(side, S.MAGIC if action.magic else S.MONSTERS, action.zone)
        self.set_flags(r, self.flags(r) | S.F_USED)

    def _do_end_turn(self, side: int, action: EndTurn, checked: None) -> None:
        self.st.globals.attack_lock[0] = 0  # the first end of turn lifts the lock
        self._draw_phase(1 - side)

    def _do_position(self, side: int, action: ChangePosition, checked: None) -> None:
        """The player's position change is ``func_8001D240``: the position toggles and the
        monster stays ready (it may turn again, or attack from attack position). The
        computer's is its "defend" (AI state 2): into defence if not there, then used."""
        col = action.zone
        r = self.rec(side, S.MONSTERS, col)
        old = self.flags(r)
        computer = side in self.computer_sides
        flags = old | S.F_DEFENCE | S.F_USED if computer else old ^ S.F_DEFENCE
        self.set_flags(r, flags)
        if (flags ^ old) & S.F_DEFENCE:
            self.events.append(PositionChange(side, col, self.card_at(r),
                                              bool(flags & S.F_DEFENCE)))

    def _do_activate(self, side: int, action: Activate, target: int) -> None:
        r = self.rec(side, S.MAGIC, action.zone)
        if self.flags(r) & S.F_FACE_DOWN:
            self.events.append(Flip(side, "magic", action.zone, self.card_at(r)))
        if target < 0:
            effects.use_card(self, side, r, action.star)
            return
        # field-actions state 3: the equip (slot 0) and the monster (slot 1) run the
        # placement chain; an equip that does not fit fails there
        self.st.globals.equip_bonus[0] = 0
        self._chain(side, [r, target], action.star)

    # ------------------------------------------------------------------ legal lists
    def _hand_actions(self, side: int) -> ActionList:
        base = side * S.RECORDS_PER_SIDE
        ids, kinds = self.all_ids(), self.facts.kind
        held = tuple([(j, kinds[ids[base + j]]) for j in self.columns(base + S.HAND)])
        return legal.hand_phase(held, self.columns(base + S.MONSTERS),
                                self.columns(base + S.MAGIC))

    def _field_actions(self, side: int) -> ActionList:
        base = side * S.RECORDS_PER_SIDE
        monsters = base + S.MONSTERS
        ready = self.columns(monsters, READY)
        attackers = ready if not ready or side in self.computer_sides else self.columns(
            monsters, ATTACKERS)
        targets: tuple[int, ...] = ()
        if attackers and (self.st.sides.swords[side] == 0 or side in self.computer_sides) \
                and not (self.st.globals.attack_lock[0] and self.attack_locked(side)):
            targets = self.columns((1 - side) * S.RECORDS_PER_SIDE + S.MONSTERS) or (DIRECT,)
        activations = []
        magic = self.columns(base + S.MAGIC)
        if magic:
            ids = self.all_ids()
            occupied = self.columns(monsters)
            for c in magic:
                ctype = self.facts.type[ids[base + S.MAGIC + c]]
                if ctype == TYPE_EQUIP:
                    activations.append((c, occupied))
                elif ctype != TYPE_TRAP:
                    activations.append((c, None))
        return legal.field_phase(ready, attackers, targets, tuple(activations))


# Each action kind: its phase (state.PHASE_*), check(duel, side, action) and
# apply(duel, side, action, checked).
_RULES = RuleTable({
    Play: Rule(S.PHASE_HAND, FmDuel._landing, FmDuel._do_play),
    Attack: Rule(S.PHASE_FIELD, FmDuel._check_attack, FmDuel._do_attack),
    ChangePosition: Rule(S.PHASE_FIELD, FmDuel._check_position, FmDuel._do_position),
    Activate: Rule(S.PHASE_FIELD, FmDuel._activation_target, FmDuel._do_activate),
    Done: Rule(S.PHASE_FIELD, FmDuel._check_done, FmDuel._do_done),
    EndTurn: Rule(S.PHASE_FIELD, FmDuel._check_end_turn, FmDuel._do_end_turn),
})
