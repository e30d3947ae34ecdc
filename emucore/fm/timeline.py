"""The presentation timeline of a Forbidden Memories duel: what each duel event shows, and
the ``rand()`` calls it makes.

The original has one ``rand()`` stream (:mod:`emucore.hw.psyq_rand`) shared by the rules and
the presentation, so an animation that draws random sparks moves every later AI decision,
failed-combination fly-off and card drop. How a frame runs (``DuelScene_Update``): the live
effect requests first (``DuelEffect_UpdateRequests``, in pool-slot order), then the scene
state's handler, which may itself call ``rand()`` (the battle shake, the fly-off, the
Exodia sparkles' places). Each effect routine's calls are modelled in
:mod:`emucore.fm.effect_calls`; this module says which effects each duel event requests,
in what order, with which configuration record, and builds them once per set of overlay
tables (:class:`Timeline`). The engine plays them in order (``BoardOps.show``) and emits one
``animation`` event each, after the event it animates.

Every count here is charged: an :class:`Animation` is a fixed count (``calls``) or, for the
effects whose length depends on the values drawn, a loop run on the duel's actual state
(``run``); one that rests on an estimated table or an unread routine has ``exact=False``.
docs/fm-fidelity.md keeps the ledger: every effect, its routine, its count, its source.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from emucore.fm import choices
from emucore.fm import effect_calls as X
from emucore.fm import overlay as O

#: The result outro holds its confetti for 0x258 frames unless the player presses a button
#: (``func_80020F4C`` state 3); the sprites were rolled in state 2, so skipping changes no call.
OUTRO_HOLD_FRAMES = 0x258
#: Confetti sprites of the result outro (``D_80090928`` with a CPU opponent, ``D_80090960``
#: without): a row entry with ``kind == 0`` is skipped. Both winning sides have the same count.
CONFETTI_WITH_OPPONENT = 7
CONFETTI_WITHOUT_OPPONENT = 6
CONFETTI_CALLS = 2  # func_80020F4C state 2: (rand() & 0x3F) + 0x140, Rand_GetInterval(0x1000)
TILE_COLUMNS, TILE_ROWS = X.TILE_COLUMNS, X.TILE_ROWS
DAMAGE_ZERO_CONFIG = 6  # func_80153200: the number 0 takes D_8015AF18[6]
DIRECT_CONFIG_OFFSET = 3  # DuelScene_UpdateBattle state 9: field_1A + 3
SWORD_EQUIPS = (301, 302)  # DuelScene_UpdateCardPlacement state 5: effect 4 for these two

#: How a player commits an attack (``DuelScene_UpdateFieldActions`` state 6) and leaves the
#: 3-D battle (``func_800534B8``: Circle, from its second frame): ``2d`` is Cross (the
#: confirm button, the default); the others are Square and then ``3d`` watching the battle,
#: ``3d_circles`` pressing Circle once the summoning circles have appeared, ``3d_skip``
#: pressing it before they do. A direct attack or a sprung trap is always 2-D.
VIEWS = ("2d", "3d", "3d_circles", "3d_skip")
DEFAULT_VIEW = "2d"

# --- the 3-D battle (Main_RunAnimatedBattle, model scene states; emucore.fm.effect_calls
# for the effects the duel resumes with)
CIRCLE_CALLS = 64 * 6 + 32 + 32 * 6 + 64 * 7  # func_8006CD78 set-up: dust, sparks, embers, smoke
BURST_CALLS = 928 + 1887  # func_8006F1B4: set-up, then its 95 frames of respawns (fixed)


@dataclass(frozen=True)
class Animation:
    """One effect request (or a scene's own loop) and its ``rand()`` calls.

    ``calls`` is the whole count of a fixed animation; ``run`` (for the effects whose length
    depends on the values they draw) returns the count from the stream's state when it
    starts. ``exact`` is False when the count rests on an estimated overlay table or an
    unread routine.
    """

    name: str
    source: str  # the decompiled routine(s) the count is read from
    calls: int = 0
    run: Callable[[int], int] | None = None
    exact: bool = True

    def cost(self, state: int) -> int:
        """The calls it makes when it starts at RNG ``state``."""
        return self.calls if self.run is None else self.run(state)


def result_outro(with_opponent: bool = True) -> Animation:
    """``func_80020F4C``: the confetti of the duel-result outro, for either winner; it runs
    before ``Duel_SelectCardDrop``. 7 sprites x 2 calls = 14 against a CPU opponent."""
    sprites = CONFETTI_WITH_OPPONENT if with_opponent else CONFETTI_WITHOUT_OPPONENT
    return Animation("result_outro", "func_80020F4C", sprites * CONFETTI_CALLS)


def damage_config(value: int, direct: bool = False) -> int:
    """The ``D_8015AF18`` record effect 2 uses: ``|value| / 1000`` capped at 2
    (``DuelScene_UpdateBattle`` state 8; +3 for a direct attack, state 9); whatever the
    record, the number 0 takes record 6 (``func_80153200``).

    quirk: func_80153200 - a direct attack for 0 (a 0-ATK attacker) shows record 6, with
    64 particles, where a direct attack below 1000 otherwise shows record 3's 32."""
    if value == 0:   # quirk: func_80153200: a direct attack for 0 shows record 6
        return DAMAGE_ZERO_CONFIG
    return min(abs(value) // 1000, 2) + (DIRECT_CONFIG_OFFSET if direct else 0)


def timeline_for(tables: O.OverlayTables) -> Timeline:
    """The one :class:`Timeline` of a set of overlay tables (duels share it). The tables
    last asked for are recognised by identity: hashing them (every record's values) would
    cost each new duel more than the rest of this look-up."""
    last = _LAST_TIMELINE[0]
    if last is None or last.tables is not tables:
        last = _LAST_TIMELINE[0] = _timeline(tables)
    return last


@functools.cache
def _timeline(tables: O.OverlayTables) -> Timeline:
    """:func:`timeline_for` by the tables' values: equal tables share one timeline."""
    return Timeline(tables)


_LAST_TIMELINE: list[Timeline | None] = [None]


class Timeline:
    """Every animation of a duel, built once for one set of overlay tables."""

    def __init__(self, tables: O.OverlayTables = O.BUILT_IN) -> None:
        self.tables = t = tables
        exact = t.exact
        self._numbers: dict[tuple[int, int], tuple[Animation, Animation]] = {}
        for k, config in enumerate(t.damage):
            for sign in (-1, 0, 1):
                if (sign == 0) != (k == DAMAGE_ZERO_CONFIG):
                    continue
                self._numbers[k, sign] = (
                    Animation("damage_number", "func_80153200", X.damage_calls(config, sign),
                              exact=exact("damage", k)),
                    Animation("shake", "DuelScene_UpdateBattle state 8",
                              X.shake_calls(config, sign), exact=exact("damage", k)))
        self._destruction = tuple(
            Animation("destruction", "func_80149F90",
                      run=functools.partial(X.destruction_calls, config),
                      exact=exact("tiles", k)) for k, config in enumerate(t.tiles))
        self.star_flash = Animation("star_flash", "func_801481A8",
                                    run=functools.partial(X.star_flash_calls, t.gather),
                                    exact=exact("gather"))
        self.equip = Animation("equip", "func_80154688", X.EQUIP_CALLS)
        self.sword_equip = Animation("sword_equip", "func_80159AAC", X.SWORD_EQUIP_CALLS)
        self._fusions = tuple(Animation("fusion", "func_80157794", X.fusion_calls(c),
                                        exact=exact("fusion", k))
                              for k, c in enumerate(t.fusion))
        self._traps = tuple(Animation("trap", "func_80147B18", X.trap_calls(c),
                                      exact=exact("trap", k)) for k, c in enumerate(t.trap))
        self._fields = tuple(Animation("field", "func_8014C8FC", X.field_calls(c),
                                       exact=exact("field", k)) for k, c in enumerate(t.field))
        self._heals = tuple(Animation("heal", "func_80157E10",
                                      X.heal_calls(c, reversed_=k >= 5), exact=exact("heal", k))
                            for k, c in enumerate(t.heal))
        self._reversed = tuple(Animation("bad_reaction", "func_801593A8",
                                         X.reversed_heal_calls(c.rotations))
                               for c in t.reversed_heal)
        self.burn = Animation("burn", "func_80154B30", X.BURN_CALLS)
        self.goblin_fan = Animation("goblin_fan", "func_801587D8", X.BURN_CALLS)
        self.stat_change = Animation("stat_change", "func_801503F8", X.STAT_CHANGE_CALLS)
        self.reveal = Animation("reveal", "func_80153ADC", X.REVEAL_CALLS)
        self.stop_defense = Animation("stop_defense", "func_80150E00",
                                      X.stop_defense_calls(t.stop_defense),
                                      exact=exact("stop_defense"))
        self.removal_flash = Animation("removal", "func_8014FF40", 0)
        self.card_removed = Animation("card_removed", "func_80146760",
                                      run=self._breakup, exact=exact("breakup"))
        self.opening = Animation("opening", "func_80154084", X.opening_calls(t.opening[1]),
                                 exact=exact("opening", 1))
        self.swords = Animation("swords", "func_8014E3EC", X.SWORDS_CALLS)
        self.failure = Animation("failure", "DuelScene_UpdateCardPlacement state 7", 1)
        self.ritual = Animation("ritual", "func_8014A8E4", run=X.ritual_calls_for(
            max(t.opening[1].colour), choices.RITUAL_DURATION), exact=False)
        self.exodia = Animation("exodia", "DuelScene_UpdateExodiaResult", run=X.exodia_calls_for(
            choices.EXODIA_SPARKLES), exact=False)
        self.outro = {w: result_outro(w) for w in (False, True)}
        self.circles = Animation("circles_3d", "func_8006CD78", CIRCLE_CALLS)

    # ------------------------------------------------------------------ battle
    def damage_number(self, value: int, direct: bool = False) -> Animation:
        """Effect 2 showing ``value`` (``direct``: state 9's records 3-5)."""
        return self._numbers[damage_config(value, direct), (value > 0) - (value < 0)][0]

    def shake(self, value: int) -> Animation:
        """State 8's shake of a card that loses while its number ``value`` lives."""
        return self._numbers[damage_config(value), (value > 0) - (value < 0)][1]

    def destruction(self, trap: bool = False) -> Animation:
        """Effect 3 on a destroyed card (``D_8015A648`` record 1 when a trap broke it)."""
        return self._destruction[1 if trap else 0]

    def trap(self, record: int = 0) -> Animation:
        """Effect 8 with ``D_8015A514`` record ``record``: 0 for every sprung trap
        (``Duel_UpdateTrapPresentation`` never writes the request's ``field_1A``), 3 and 5
        for Cursebreaker's columns."""
        return self._traps[record]

    def battle_3d(self, view: str, kills: int) -> Animation:
        """The 3-D scene between ``DuelScene_UpdateBattle`` state 5 and the resume: nothing
        when left before the circles, the circles' set-up when left once they appear, and
        when watched also a destruction burst per monster killed (``func_8006F1B4``) and
        what the attack modules call (choices.WATCHED_3D_EXTRA, an estimate)."""
        if view == "3d_skip":
            return Animation("battle_3d", "func_800534B8", 0)
        if view == "3d_circles":
            return self.circles
        return Animation("battle_3d", "Main_RunAnimatedBattle",
                         CIRCLE_CALLS + BURST_CALLS * kills + choices.WATCHED_3D_EXTRA,
                         exact=False)

    # ------------------------------------------------------------------ cards
    def fusion(self, with_non_monster: bool) -> Animation:
        """Effect 1: record 1 when a non-monster takes part (placement state 6)."""
        return self._fusions[int(with_non_monster)]

    def field(self, terrain: int) -> Animation:
        """Effect 10 for the field card that sets ``terrain`` (1..6, record terrain - 1)."""
        return self._fields[terrain - 1]

    def heal(self, amount_index: int, reversed_: bool = False) -> Animation:
        """Effect 5 with record ``amount_index`` (0..4; +5 when Bad Reaction answers)."""
        return self._heals[amount_index + (5 if reversed_ else 0)]

    def bad_reaction(self, amount_index: int) -> Animation:
        """Effect 9 with record ``amount_index``: the heal turned into a loss."""
        return self._reversed[amount_index]

    def raigeki(self, columns: Sequence[bool]) -> Animation:
        """Effect 16 and the effect 11s of the cards its bolts strike (bolt ``j`` strikes
        the caster's grid entry 5 + j: ``columns[j]`` says whether a monster is there)."""
        t = self.tables
        return Animation("raigeki", "func_80151558",
                         run=functools.partial(X.raigeki_calls, t.raigeki, t.breakup,
                                               tuple(columns), choices.CARD_HEIGHT),
                         exact=t.exact("raigeki") and t.exact("breakup"))

    def board_destruction(self, jar: bool, cards: int) -> Animation:
        """Effect 17 (record 1 for Dragon Capture Jar) over the ``cards`` it takes."""
        config = self.tables.board[int(jar)]
        return Animation("board_destruction", "func_80148BA4",
                         run=functools.partial(X.board_destruction_calls, config, cards),
                         exact=self.tables.exact("board"))

    def duster(self, cards: int) -> Animation:
        """Effect 23 (Harpie's Feather Duster) over the ``cards`` it sweeps away."""
        return Animation("duster", "func_80152048", X.duster_calls(cards))

    def _breakup(self, state: int) -> int:
        stream = X.Stream(state)
        X.Breakup(self.tables.breakup, stream, choices.CARD_HEIGHT).run(stream)
        return stream.calls
