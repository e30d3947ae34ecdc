"""The presentation timeline of a Forbidden Memories duel, as data.

The original has one ``rand()`` stream (:mod:`emucore.hw.psyq_rand`) shared by the rules and
the presentation, so an animation that draws random sparks moves every later AI decision,
failed-combination fly-off and card drop. This module states, for each animation a duel
triggers, how many ``rand()`` calls it makes as a function of what it shows, each cited by the
decompiled routine (krystalgamer/memories-decomp) that makes them. It is counting, not drawing:
pure functions over small records, no import from the engine.

An animation costs calls in three ways:

* **start** — once, when it starts: the ``duel_effects`` overlay effects fill their particle,
  rotation and spark tables with ``rand()`` (helpers ``func_8014EF2C``, ``func_8014F030``,
  ``func_8014F89C``, ...), the result outro rolls each confetti sprite;
* **per drawn frame** — the overlay's particle sprite ``func_80156064`` picks its texture cell
  with two calls per particle per frame, and the 2-D battle shakes the hit card with two calls
  per frame (``DuelScene_UpdateBattle`` state 8);
* **stream-driven** — the destruction tiles (``func_80149F90``) roll once per unfinished column
  per frame, so how long they run depends on the values drawn: :func:`destruction_tile_calls`
  runs that loop on a :class:`~emucore.hw.psyq_rand.Rand`.

The frame counts of most overlay effects follow from configuration tables that sit in the
overlay's data (``D_8015AF18``, ``D_8015A648``, ``D_8015B420``, ...), not in its C. Where a
count needs such data, or a routine whose body was not read, the field is ``None`` and
:attr:`Animation.needs` names what is missing; :attr:`Animation.rand_calls` is then ``None``.
docs/fm-fidelity.md keeps the ledger of what is known and what stays open. The engine charges
the animations whose whole count is known (``choices.CHARGED_ANIMATIONS``) through
``board.charged`` and ``BoardOps.animate``; the rest make no call there rather than a guessed
one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from emucore.hw.psyq_rand import Rand

# ----------------------------------------------------------------------------- player input
#: The player's attack is committed with Cross (2-D battle) or Square (3-D battle,
#: ``D_8009B229 = 1``) in ``DuelScene_UpdateFieldActions`` state 6; the computer's attacks
#: always clear ``D_8009B229`` (state 5), and a direct attack or a sprung trap forces 2-D
#: (``DuelScene_UpdateBattle`` entry). Default: Cross, the confirm button.
BATTLE_3D_DEFAULT = False

#: The result outro holds its confetti for 0x258 frames unless the player presses a button
#: (``func_80020F4C`` state 3); the sprites were already rolled in state 2, so skipping does
#: not change the calls.
OUTRO_HOLD_FRAMES = 0x258

# ----------------------------------------------------------------------------- unit costs
ROTATION_CALLS = 6  # func_8014EF2C: (rand() - rand()) % 4096 for each of three axes
PARTICLE_CALLS = 6  # func_8014F030: the same for a velocity
FLAT_VECTOR_CALLS = 4  # func_8014F89C: two axes
SPRITE_DRAW_CALLS = 2  # func_80156064: rand() % 2 for the cell's u and for its v
SHAKE_CALLS = 2  # DuelScene_UpdateBattle state 8: (rand() & 3) - 2 for x and for y
CONFETTI_CALLS = 2  # func_80020F4C state 2: (rand() & 0x3F) + 0x140, Rand_GetInterval(0x1000)
EXODIA_SPARKLE_CALLS = 2  # func_80018FEC: (rand() & 0xFF) + 0x20, Rand_GetInterval(0xB0)
TILE_COLUMNS, TILE_ROWS = 5, 7  # func_80149F90: the card image cut into 5 x 7 tiles
TILE_START_CALLS = 4  # per tile: rand() % 4 spark, one for the radius, two for the jitter

#: Confetti sprites of the result outro (``D_80090928`` with a CPU opponent, ``D_80090960``
#: without): a row entry with ``kind == 0`` is skipped. Both winning sides have the same count.
CONFETTI_WITH_OPPONENT = 7
CONFETTI_WITHOUT_OPPONENT = 6

#: Particle counts of the seven damage-number configurations ``D_8015AF18`` (effect 2):
#: 0-2 battle damage by thousands, 3-5 direct damage by thousands, 6 the number 0.
DAMAGE_PARTICLES = (32, 64, 64, 32, 64, 64, 64)
DAMAGE_ZERO_CONFIG = 6
DIRECT_CONFIG_OFFSET = 3  # DuelScene_UpdateBattle state 9: field_1A + 3
DAMAGE_ROTATIONS = 64  # func_80153200: func_8014EF2C(64, ...)
DAMAGE_FADE_STEP = 8  # func_80153200: func_80153F28(color, 8) per drawn frame

SWORD_EQUIPS = (301, 302)  # DuelScene_UpdateCardPlacement state 5: effect 4 for these two
ATTACK_TRAPS = range(681, 687)
GOBLIN_FAN, BAD_REACTION, REVERSE_TRAP, FAKE_TRAP = 687, 688, 689, 690
STOP_DEFENSE_COLUMNS = 5  # DuelEffect_ApplyStopDefense requests effect 12 for all five


class Effect(IntEnum):
    """Effect ids of the ``duel_effects`` overlay dispatcher ``func_80146258``."""

    EQUIP = 0  # func_80154688
    FUSION = 1  # func_80157794
    DAMAGE = 2  # func_80153200
    DESTRUCTION = 3  # func_80149F90
    SWORD_EQUIP = 4  # func_80159AAC
    HEAL = 5  # func_80157E10
    BURN = 6  # func_80154B30
    BURN_RETURNED = 7  # func_801587D8 (Goblin Fan)
    TRAP = 8  # func_80147B18 (every sprung trap, requested by func_8001F364)
    HEAL_REVERSED = 9  # func_801593A8 (Bad Reaction to Simochi)
    FIELD = 10  # func_8014C8FC (field card, requested by func_80024E58)
    CARD_REMOVED = 11  # func_80146760 (removal, Raigeki)
    STOP_DEFENSE = 12  # func_80150E00
    STAT_CHANGE = 13  # func_801503F8 (stat penalty, Reverse Trap)
    STAR_FLASH = 14  # func_801481A8 (guardian-star bonus)
    REMOVAL = 15  # func_8014FF40
    RAIGEKI = 16  # func_80151558
    BOARD_DESTRUCTION = 17  # func_80148BA4 (Dark Hole, Dragon Capture Jar)
    REVEAL = 19  # func_80153ADC (Dark-piercing Light, Exodia sparkles)
    RITUAL = 22  # func_8014A8E4


@dataclass(frozen=True)
class Animation:
    """One animation and its ``rand()`` cost.

    ``start_calls`` are made when it starts, ``frame_calls`` on each of ``frames`` drawn
    frames. ``None`` marks a count the decompiled code does not fix; ``needs`` says why.
    """

    name: str
    source: str  # the decompiled routine(s) the counts are read from
    start_calls: int | None
    frame_calls: int = 0
    frames: int | None = 0
    needs: str = ""

    @property
    def rand_calls(self) -> int | None:
        """All calls it makes, or ``None`` while a count is open."""
        if self.start_calls is None or (self.frame_calls and self.frames is None):
            return None
        return self.start_calls + self.frame_calls * (self.frames or 0)


def total_rand_calls(animations: Iterable[Animation]) -> int | None:
    """The calls of several animations, ``None`` if any of them is open."""
    total = 0
    for animation in animations:
        calls = animation.rand_calls
        if calls is None:
            return None
        total += calls
    return total


def fade_frames(level: int, step: int) -> int:
    """Frames ``func_80153F28`` takes to bring a colour channel from ``level`` to 0: each
    frame it subtracts ``step`` while the channel exceeds ``step + 1``, else sets it to 0."""
    frames = 0
    while level > 0:
        level = level - step if level > step + 1 else 0
        frames += 1
    return frames


# ----------------------------------------------------------------------------- animations
def result_outro(with_opponent: bool = True) -> Animation:
    """``func_80020F4C``: the confetti of the duel-result outro, for either winner; it runs
    before ``Duel_SelectCardDrop``. 7 sprites x 2 calls = 14 against a CPU opponent."""
    sprites = CONFETTI_WITH_OPPONENT if with_opponent else CONFETTI_WITHOUT_OPPONENT
    return Animation("result_outro", "func_80020F4C", sprites * CONFETTI_CALLS,
                     frames=OUTRO_HOLD_FRAMES)


def failure_fly_off() -> Animation:
    """``DuelScene_UpdateCardPlacement`` state 7: the discarded card's speed
    ``-((rand() & 255) + 768)``."""
    return Animation("failure", "DuelScene_UpdateCardPlacement state 7", 1)


def ritual_star_roll() -> Animation:
    """``DuelEffect_ApplyRitual`` state 3: a CPU side picks the summoned monster's star with
    ``rand() & 1``; the player picks in a dialog (no call)."""
    return Animation("ritual_star", "DuelEffect_ApplyRitual state 3", 1)


def exodia_sparkle() -> Animation:
    """``func_80018FEC``: one sparkle of the Exodia win, placed at ``(rand() & 0xFF) + 0x20``,
    ``Rand_GetInterval(0xB0) + 0x20``. Sparkles follow each other until ``func_80042B40(1)``
    reports the scene idle, and each requests a reveal effect (19) with calls of its own."""
    return Animation("exodia_sparkle", "func_80018FEC", EXODIA_SPARKLE_CALLS)


def damage_config(value: int, direct: bool = False) -> int:
    """The ``D_8015AF18`` record effect 2 uses: ``|value| / 1000`` capped at 2 (state 8 of
    ``DuelScene_UpdateBattle``; +3 for a direct attack, state 9); the number 0 uses record 6."""
    if value == 0:
        return DAMAGE_ZERO_CONFIG
    return min(abs(value) // 1000, 2) + (DIRECT_CONFIG_OFFSET if direct else 0)


def damage_number(value: int, direct: bool = False, colour_level: int | None = None
                  ) -> Animation:
    """Effect 2 (``func_80153200``): the damage number with its particle burst.

    Start: ``func_8014F030`` over the configuration's particles (6 each) and
    ``func_8014EF2C(64)`` (384). Then, from its second frame while the effect colour is not
    black, every particle is drawn with ``func_80156064`` (2 calls each) and the colour fades
    by 8. ``colour_level`` is the brightest channel of the configuration's colour (overlay
    data, not in the decompiled C); without it the frame count stays open.
    """
    particles = DAMAGE_PARTICLES[damage_config(value, direct)]
    frames = None if colour_level is None else fade_frames(colour_level, DAMAGE_FADE_STEP)
    return Animation("damage_number", "func_80153200",
                     PARTICLE_CALLS * particles + ROTATION_CALLS * DAMAGE_ROTATIONS,
                     SPRITE_DRAW_CALLS * particles, frames,
                     "" if frames is not None else "D_8015AF18 colour of the configuration")


def battle_shake(frames: int | None = None) -> Animation:
    """``DuelScene_UpdateBattle`` state 8: while the hit card's damage number runs (its
    request alive and ``field_1D`` set), the card shakes by ``(rand() & 3) - 2`` on x and y
    every frame. Only a card that loses (``D_8009B1B0 < 0``) shakes."""
    return Animation("battle_shake", "DuelScene_UpdateBattle state 8", 0, SHAKE_CALLS, frames,
                     "" if frames is not None else "frames of effect 2 after its first")


def destruction(trap: bool = False) -> Animation:
    """Effect 3 (``func_80149F90``): the destroyed card breaks into 5 x 7 tiles. Start: 4
    calls per tile (140). Then one ``rand() % countdown`` per unfinished column per frame —
    use :func:`destruction_tile_calls` with the ``D_8015A648`` descriptor (``trap`` picks
    record 1, as ``DuelScene_UpdateBattle`` state 10 does for a trap)."""
    return Animation("destruction_trap" if trap else "destruction", "func_80149F90",
                     TILE_COLUMNS * TILE_ROWS * TILE_START_CALLS, 1, None,
                     "D_8015A648 delay and frames; the per-frame rolls depend on the stream")


def destruction_tile_calls(rng: Rand, delay: int, frames: int, frame_step: int = 1) -> int:
    """Run ``func_80149F90``'s per-frame loop on ``rng`` and return the calls it made.

    Each of the five columns lights its seven tiles bottom-up: every frame a column not yet
    done rolls ``rand() % countdown``; 0 lights the next tile and resets the countdown to
    ``delay``, otherwise the countdown drops by one. The effect ends once its frame counter
    (advanced by ``frame_step``, ``Model_GetFrameStep``) exceeds ``frames``.
    """
    cursor = [TILE_ROWS - 1] * TILE_COLUMNS
    countdown = [delay] * TILE_COLUMNS
    start, frame = rng.calls, 0
    while frame <= frames:
        for k in range(TILE_COLUMNS):
            if cursor[k] < TILE_ROWS:
                if rng.rand() % countdown[k] == 0:
                    countdown[k] = delay
                    cursor[k] = TILE_ROWS if cursor[k] == 0 else cursor[k] - 1
                else:
                    countdown[k] -= 1
        frame += frame_step
    return rng.calls - start


def effect(kind: Effect) -> Animation:
    """An overlay effect request by id, with the start calls read from its routine."""
    known = _EFFECT_COSTS.get(kind)
    if known is None:
        return Animation(kind.name.lower(), _EFFECT_SOURCES[kind], None,
                         needs=f"{_EFFECT_SOURCES[kind]} not read for rand()")
    start, per_frame, needs = known
    return Animation(kind.name.lower(), _EFFECT_SOURCES[kind], start, per_frame,
                     0 if not per_frame else None, needs)


_EFFECT_SOURCES = {
    Effect.EQUIP: "func_80154688", Effect.FUSION: "func_80157794",
    Effect.DAMAGE: "func_80153200", Effect.DESTRUCTION: "func_80149F90",
    Effect.SWORD_EQUIP: "func_80159AAC", Effect.HEAL: "func_80157E10",
    Effect.BURN: "func_80154B30", Effect.BURN_RETURNED: "func_801587D8",
    Effect.TRAP: "func_80147B18",
    Effect.HEAL_REVERSED: "func_801593A8", Effect.FIELD: "func_8014C8FC",
    Effect.CARD_REMOVED: "func_80146760",
    Effect.STOP_DEFENSE: "func_80150E00", Effect.STAT_CHANGE: "func_801503F8",
    Effect.STAR_FLASH: "func_801481A8", Effect.REMOVAL: "func_8014FF40",
    Effect.RAIGEKI: "func_80151558", Effect.BOARD_DESTRUCTION: "func_80148BA4",
    Effect.REVEAL: "func_80153ADC", Effect.RITUAL: "func_8014A8E4",
}

# (start calls, calls per drawn frame, what the frame count needs) for the routines read.
_EFFECT_COSTS: dict[Effect, tuple[int, int, str]] = {
    # func_8014EF2C(16); drawing (func_801558F4, func_80155BC0, func_80155D90) draws nothing
    # random.
    Effect.EQUIP: (ROTATION_CALLS * 16, 0, ""),
    # func_8014EF2C(12) + func_8014F030(64); in its last stage 64 particles per frame.
    Effect.FUSION: (ROTATION_CALLS * 12 + PARTICLE_CALLS * 64, SPRITE_DRAW_CALLS * 64,
                    "D_8015B420 stage lengths and beam colour"),
    # func_8014F89C(32) + func_8014F89C(48) + func_8014EF2C(16); up to 48 sparks per frame,
    # three more each frame, each drawn while its colour is lit.
    Effect.STAR_FLASH: (FLAT_VECTOR_CALLS * (32 + 48) + ROTATION_CALLS * 16,
                        SPRITE_DRAW_CALLS, "D_8015A5F8 spread and frames (sparks drawn)"),
}


# ----------------------------------------------------------------------------- events
def animations_for(event: Any, *, battle_3d: bool = BATTLE_3D_DEFAULT, cpu: bool = False,
                   star_bonus: bool = False, removed: int = 0,
                   with_opponent: bool = True) -> tuple[Animation, ...]:
    """The animations an FM engine event triggers, in the order the original plays them.

    ``event`` is read by its ``kind`` and fields (emucore.fm.actions events). ``battle_3d``:
    the player's Square commit (ignored when ``cpu``, the acting side is the computer);
    ``star_bonus``: the battle's guardian-star bonus is not 0 (the flash of state 4);
    ``removed``: cards a removal magic or Raigeki took (one effect 11 each);
    ``with_opponent``: the duel is against a CPU opponent (result outro sprites).
    """
    kind = event.kind
    if kind == "fusion":
        return (effect(Effect.FUSION),)
    if kind == "equip":
        sword = event.equip in SWORD_EQUIPS
        return (effect(Effect.SWORD_EQUIP if sword else Effect.EQUIP),)
    if kind == "failure":
        return (failure_fly_off(),)
    if kind == "battle":
        return _battle(event, battle_3d and not cpu, star_bonus)
    if kind == "trap":
        return _trap(event.card)
    if kind == "magic":
        return _magic(event.effect, removed)
    if kind == "stat":
        return (effect(Effect.STAT_CHANGE),)
    if kind == "ritual":
        summon = (effect(Effect.RITUAL),) if event.result else ()
        return summon + ((ritual_star_roll(),) if cpu and event.result else ())
    if kind == "ended":
        return (result_outro(with_opponent),)
    return ()  # placed, flip, position, life, destroyed, draw, turn: no call of their own


def _battle(event: Any, three_d: bool, star_bonus: bool) -> tuple[Animation, ...]:
    """``DuelScene_UpdateBattle``: the star flash (state 4), then per side with a non-zero
    ``D_8009B1B0`` — the defender first — the damage number, the shake of a losing card and
    its destruction (states 6-10). A direct attack shows one direct-damage number (state 9)."""
    outcome, result = event.outcome, event.result
    if outcome == "direct":
        return (damage_number(result, direct=True),)
    flash = (effect(Effect.STAR_FLASH),) if star_bonus else ()
    if three_d:
        return flash + (Animation("battle_3d", "Main_RunAnimatedBattle", None,
                                  needs="Main_RunAnimatedBattle not read for rand()"),)
    # (value shown, destroyed) for the defender, then the attacker; None: not shown.
    sides = {
        "win": ((result, True), None),
        "win_defense": ((0, True), None),
        "standoff": ((0, False), None),
        "double_ko": ((0, True), (0, True)),
        "lose": ((0, False), (result, True)),
        "lose_defense": ((0, False), (result, False)),
    }[outcome]
    shown: list[Animation] = list(flash)
    for side in sides:
        if side is None:
            continue
        value, destroyed = side
        shown.append(damage_number(value))
        if destroyed:
            shown += [battle_shake(), destruction()]
    return tuple(shown)


def _trap(card: int) -> tuple[Animation, ...]:
    """A sprung trap: ``func_8001F364`` shows it (effect 8 at the trap card); then an attack
    trap breaks the attacker, Fake Trap breaks itself (both with descriptor 1,
    ``DuelScene_UpdateBattle`` state 10); the effect-response traps turn the magic's effect
    around (effects 7 and 9); Reverse Trap's stat change is the ``stat`` event after it."""
    shown = (effect(Effect.TRAP),)
    if card in ATTACK_TRAPS or card == FAKE_TRAP:
        return shown + (destruction(trap=True),)
    if card == GOBLIN_FAN:
        return shown + (effect(Effect.BURN_RETURNED),)
    if card == BAD_REACTION:
        return shown + (effect(Effect.HEAL_REVERSED),)
    return shown


def _magic(name: str, removed: int) -> tuple[Animation, ...]:
    """The effect requests of a magic class's handler (``duel_card_effects.c``)."""
    if name == "stop_defense":
        return (effect(Effect.STOP_DEFENSE),) * STOP_DEFENSE_COLUMNS
    if name in ("removal", "raigeki"):
        first = Effect.REMOVAL if name == "removal" else Effect.RAIGEKI
        return (effect(first),) + (effect(Effect.CARD_REMOVED),) * removed
    single = {"heal": Effect.HEAL, "burn": Effect.BURN, "destruction": Effect.BOARD_DESTRUCTION,
              "reveal": Effect.REVEAL, "terrain": Effect.FIELD}
    if name in single:
        return (effect(single[name]),)
    if name == "penalty":
        return ()  # one effect 13 per monster hit: the ``stat`` events that follow
    return (Animation(f"magic_{name}", "func_80026BA4 class handler", None,
                      needs=f"the {name} handler's effect requests not read"),)
