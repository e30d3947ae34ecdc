"""The presses that make the original play an emucore FM replay: from the title (Continue
the memory card's save, fm.choices P1) through the main menu and Free Duel to the duel, then
every choice of the duel as the original's duel scene reads the pad (docs/fm-duel-input.md,
from the decompiled handlers).

A plan is a list of :class:`Press`, :class:`Move` and :class:`Land` items, each waiting for
a :class:`Gate`: the moment the original's routine reads that input, told by RAM the
recorder reads after every frame (``emucore.capture.rammap.FM_INPUT``: the main mode, the
duel scene state and its handler's step, the presentation jobs, the cursors, the RNG
state). A fixed-frame pad log cannot play a duel: the computer's turns and the animations
run for frame counts emucore does not model frame by frame, and a press made while a
handler is busy is dropped, not queued. So the recorder presses when the gate holds and
writes the pad log it played, which plays the same duel again on the same core.

One wait rests on the RNG state itself, because the deal depends on the frame the Free
Duel confirm lands on (its grid and the pre-duel deck screen call rand() once a frame):
:class:`Land`. Every other wait is taken to make no ``rand()`` call (docs/fm-duel-input.md:
no waiting frame of the hand, field and star handlers calls it), so the duel's own stream
does not depend on it; where that is wrong, ``capture verify`` shows the first frame.

No emulator here: :mod:`emucore.capture.from_replay` plays a plan on one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from emucore.fm import cards, prompts
from emucore.fm import choices as C
from emucore.fm import deck as fm_deck
from emucore.fm import state as S
from emucore.fm.actions import DIRECT, Activate, Attack, ChangePosition, EndTurn, FmAction, Play
from emucore.fm.engine import FmDuel
from emucore.fm.setup import ARMED_TERRAIN, FmSetup, new_duel
from emucore.hw import psyq_rand
from emucore.hw.psyq_lcg import index_of
from emucore.tables.fm import FmTables

# ----------------------------------------------------------------- the original's numbers
# Main modes (gMain_apfnModeRunner's slots; D_8009B26C & 0x1F).
MODE_3D_BATTLE, MODE_DUEL, MODE_FREE_DUEL, MODE_MENU = 1, 3, 6, 8
# Duel scene states (gDuel_apfnSceneStateHandler) and the steps (D_8009B174) whose handler
# reads the pad, as the byte reads when it does: 0x80 marks a step's set-up done.
HAND, FIELD, STAR, RESULT, REWARDS = 4, 5, 8, 12, 13
ENTERED = 0x8000  # gDuel_wSceneStateFlags: the state's first call (its set-up) is done
# Field grid rows of the zone and target cursors: 1 the opponent's monsters, 2 the
# player's monsters, 3 the player's magic and trap row.
THEIR_MONSTERS, OWN_MONSTERS, OWN_MAGIC = 1, 2, 3
# Free Duel's grid: 5 columns, cell = row * 5 + column = the opponent's id; cell 0 is
# Build Deck, Duel Master K (39) the bottom right.
GRID_COLUMNS = 5
# gMain_bMenuID: the title's items 0..4 and the main menu's 5..10, each group wrapping
# (MainMenu_UpdateFrontendMenu); the title opens on 0 (New Game), the main menu on 5
# (Campaign); 1 is the title's Load, 6 the main menu's Free Duel.
TITLE_ITEMS, MAIN_ITEMS = range(0, 5), range(5, 11)
MENU_CONTINUE, MENU_FREE_DUEL = 1, 6
# Frames a step's own animation keeps the pad unread, with no RAM word to wait on
# (docs/fm-duel-input.md; each is the code's count).
FACE_TWEEN = 13       # hand step 3: the card tweens to the centre, 0xAA a frame to 0x800
FLIP = 8              # a card turns over, 0x10 a frame
STAR_TWEEN = 16       # func_8001B170 step 1: 0x80 a frame to 0x800
#: A press is held this many frames, then released as many: a fresh Pressed edge, below
#: the 0x18-unit auto-repeat delay of Input_UpdatePads.
HOLD_FRAMES = 2


class PlanError(ValueError):
    """The replay cannot be played on the original from power-on (the message says why)."""


Condition = tuple[str, int, int]  # (word, mask, value): the word & mask is value


@dataclass(frozen=True)
class Gate:
    """The moment an input is read: on the RAM after a frame every ``equal`` condition
    holds and no ``differ`` one does (the words of ``emucore.capture.rammap.FM_INPUT``, and
    ``rng``)."""

    name: str
    equal: tuple[Condition, ...] = ()
    differ: tuple[Condition, ...] = ()

    def holds(self, look: Mapping[str, int]) -> bool:
        return all(look[w] & m == v for w, m, v in self.equal) and \
            not any(look[w] & m == v for w, m, v in self.differ)

    def but(self, **changes: object) -> Gate:
        return Gate(**{**self.__dict__, **changes})  # type: ignore[arg-type]

    def describe(self) -> str:
        """The name; ``terms`` spells out the conditions (a report of where a run stopped)."""
        return self.name

    def terms(self) -> str:
        return " ".join([*(f"{w}&{m:X}={v:X}" for w, m, v in self.equal),
                         *(f"{w}&{m:X}!={v:X}" for w, m, v in self.differ)]) or "none"


@dataclass(frozen=True)
class Press:
    """Hold ``buttons`` for ``hold`` frames (then release as long), ``after`` frames once
    ``gate`` first holds. ``optional``: the original may not ask for it (a guardian-star
    dialog); it is skipped when a later item's gate holds first. ``leaves``: the press
    leaves the step (a commit), so the gate must stop holding before the plan goes on: a
    later gate is not taken for the step the press has not yet left, and a press the
    original did not take is found at once."""

    buttons: tuple[str, ...]
    gate: Gate
    why: str
    after: int = 0
    optional: bool = False
    hold: int = HOLD_FRAMES
    leaves: bool = False


@dataclass(frozen=True)
class Move:
    """Bring a cursor to ``goal`` a step at a time, each step pressed while ``gate`` holds,
    reading where the cursor stands after every frame: ``hand`` (slot; Repeat Left/Right),
    ``field``/``target`` (the duel's grid cursors: column, row; Held directions, one step
    per press), ``menu`` (the main menu's item; Repeat Up/Down, wrapping), ``grid`` (Free
    Duel: column, row; Held, diagonals move both). ``opener``: what a prompt that takes the
    pad first wants (the title's "press START", Free Duel's SELECT OPPONENT! box, closed by
    Cross once typed): pressed only when a step has moved nothing, never otherwise (on the
    title Start would confirm, on the grid Cross would choose the cell, Build Deck)."""

    cursor: str
    goal: tuple[int, int]
    gate: Gate
    why: str
    opener: tuple[str, ...] = ()


@dataclass(frozen=True)
class Land:
    """Once ``start`` holds, play ``lead`` after waiting on the frames before it so that,
    when ``arrive`` first holds, the RNG state's index is ``index`` (and the deck in RAM is
    ``deck``): the recorder tries the modelled wait ``guess``, measures the index it
    reached, rewinds the emulator to the start and waits the difference more or less,
    until the index is the one wanted.
    The screens before a deal call rand() once a frame (Main_RunMenu, FreeDuel_Entry, the
    pre-duel deck screen's func_80033BE8), so each frame waited moves the deal by one."""

    start: Gate
    lead: tuple[Press | Move, ...]
    arrive: Gate
    index: int
    deck: tuple[int, ...]
    guess: int
    why: str


Item = Press | Move | Land


def describe(item: Item) -> str:
    """One line of a plan, as ``capture plan`` prints it."""
    if isinstance(item, Land):
        lead = "; ".join(describe(i) for i in item.lead)
        return (f"wait about {item.guess} frames, then [{lead}], so that the RNG index is "
                f"{item.index:,} when {item.arrive.describe()}: {item.why}")
    if isinstance(item, Move):
        return f"{item.cursor} cursor to {item.goal} in {item.gate.describe()}: {item.why}"
    wait = f" + {item.after} frames" if item.after else ""
    opt = " (if asked)" if item.optional else ""
    keys = "+".join(item.buttons) or "nothing"
    where = "" if item.gate is _NOW else f" in {item.gate.describe()}"
    return f"{keys}{where}{wait}{opt}: {item.why}"


# ------------------------------------------------------------------------- gates
_NOW = Gate("at once")
_MODE = 0x1F


def in_mode(mode: int, name: str) -> Gate:
    return Gate(name, equal=(("main_mode", _MODE, mode),))


# DuelScene_Update runs the state handler only when no blocking effect request, card
# effect, effect state (the card viewer) or quit dialog holds it (docs/fm-duel-input.md).
_DUEL_FREE = (("card_effect", 0xFFFF, 0), ("effect_state", 0xFF, 0), ("quit_dialog", 0xFF, 0))
_DUEL_HELD = (("effect_request", 0x81, 0x81),)


def _scene(name: str, state: int, step: int, step_mask: int = 0xFF, *extra: Condition
           ) -> Gate:
    scene = ("scene", 0xC00F, ENTERED | state)
    return Gate(name, equal=(("main_mode", _MODE, MODE_DUEL), scene, ("step", step_mask, step),
                             *_DUEL_FREE, *extra), differ=_DUEL_HELD)


_IDLE_JOBS = ("jobs", 0xFFFF, 0)
# DuelScene_UpdateHandActions steps 1, 3 and 4; DuelScene_UpdateFieldActions 3, 6 and 7
HAND_BROWSE = _scene("the hand phase", HAND, 0x01, 0x0F)
HAND_FACE = _scene("the face choice", HAND, 0x83)
HAND_ZONE = _scene("the zone cursor", HAND, 0x84, 0xFF, _IDLE_JOBS, ("field_status", 0x80, 0))
FIELD_BROWSE = _scene("the field phase", FIELD, 0x83, 0x8F, _IDLE_JOBS,
                      ("field_status", 0x80, 0))
# quirk: DuelScene_UpdateFieldActions step 6 tests its entry bit the wrong way round, so
# 0x80 is never set there: the target step reads 0x06 while it takes the pad.
FIELD_TARGET = _scene("the target cursor", FIELD, 0x06, 0xFF, _IDLE_JOBS,
                      ("target_status", 0x80, 0))
FIELD_ACTIVATE = _scene("the set card shown", FIELD, 0x87, 0xFF,
                        ("activate_arrows", 0xFF, 0x80))
STAR_DIALOG = _scene("the star dialog", STAR, 0x83)              # func_8001B170 step 3
RESULT_BANNER = _scene("the result banner", RESULT, 0x03, 0x0F)    # func_80020F4C step 3
REWARDS_PAGE = Gate("the rewards", equal=(("main_mode", _MODE, MODE_DUEL),  # func_800218F0
                                          ("scene", 0xC00F, ENTERED | REWARDS)))
# MainMenu_UpdateFrontendMenu reads the pad when its shade step, slide, load, save and
# memory-card checks (D_80184598..D_8018459D) are all idle; ids 0..4 are the title's group.
MENU_READY = Gate("the main menu", equal=(("main_mode", _MODE, MODE_MENU),
                                          ("menu_busy", 0xFFFFFFFFFFFF, 0)))
TITLE_READY = MENU_READY.but(name="the title")
GRID_READY = Gate("Free Duel", equal=(("main_mode", _MODE, MODE_FREE_DUEL),))
DECK_SCREEN = Gate("the pre-duel deck screen", equal=(("main_mode", _MODE, MODE_DUEL),
                                                     ("duel_runner", 0x8F, 0x80)))
# Duel_InitScene writes scene state 1 and shuffles both decks last, in one pass.
DUEL_DEALT = Gate("the duel dealt", equal=(("main_mode", _MODE, MODE_DUEL),
                                           ("duel_runner", 0x0F, 1), ("scene", 0x000F, 1)))


# ------------------------------------------------------------------ reachable replays
def check_reachable(setup: FmSetup) -> None:
    """PlanError unless the original can start this duel from its title with a save on the
    memory card: a Free Duel (the normal field, the starting life points) against a CPU
    opponent, the pad on side 0 and the computer on side 1, with the built-in duel_effects
    tables. The save must hold the deck and have the opponent unlocked; the recorder checks
    the deck in RAM when the duel is dealt."""
    if setup.duelist == 0:
        raise PlanError("a two-player duel: its set-up screen is not in the plan")
    if setup.computer != [1]:
        raise PlanError(f"computer sides {setup.computer}: the original's computer plays "
                        "side 1 and the pad side 0")
    if setup.terrain != ARMED_TERRAIN or setup.lp != FmSetup(deck=setup.deck).lp:
        raise PlanError("a Free Duel starts on the normal field at 8000 life points each")
    if setup.effects is not None:
        raise PlanError("recorded with a disc's duel_effects tables: record it with the "
                        "built-in ones")


# ------------------------------------------------------------------ title to the deal
def to_the_deal(setup: FmSetup, tables: FmTables) -> list[Item]:
    """From power-on to the duel's deal (fm.choices P3): the title's Continue loads the
    memory card's save, the main menu (its cursor on Campaign) to Free Duel, the grid to
    the opponent's cell, and the confirm and the pre-duel deck screen's Circle landing the
    duel's deal on the replay's RNG index (both screens call rand() once a frame)."""
    saved = fm_deck.sort_deck(setup.deck, setup.sort, tables)  # as the save holds it
    dealt = fm_deck.deal(psyq_rand.Rand(setup.state), saved, setup.duelist, tables)
    duel = index_of(setup.state)
    return [
        Move("menu", (MENU_CONTINUE, 0), TITLE_READY, "Continue", opener=("start",)),
        Press(("cross",), TITLE_READY, "load the memory card's save", hold=1, leaves=True),
        Move("menu", (MENU_FREE_DUEL, 0), MENU_READY, "Free Duel"),
        Press(("cross",), MENU_READY, "open Free Duel", hold=1, leaves=True),
        Move("grid", divmod_cell(setup.duelist), GRID_READY, f"duelist {setup.duelist}",
             opener=("cross",)),
        Land(GRID_READY, (Press(("cross",), GRID_READY, "duel them", hold=1, leaves=True),
                          Press(("circle",), DECK_SCREEN, "leave the pre-duel deck screen",
                                after=C.SETTLE_FRAMES, hold=1, leaves=True)),
             DUEL_DEALT, duel + dealt.calls, tuple(saved), 0,
             f"the duel's deal at RNG index {duel:,}"),
    ]


def divmod_cell(cell: int) -> tuple[int, int]:
    """A Free Duel cell's (column, row)."""
    row, column = divmod(cell, GRID_COLUMNS)
    return column, row


# ------------------------------------------------------------------------- the duel
def _star(star: int) -> list[Item]:
    """The guardian-star dialog (func_8001B170 step 3, Dialog_ReadChoiceInput): the choice
    starts on the first star (gDialog_bChoice 0), Down moves to the second, Cross confirms;
    there is no cancel. Optional: it opens only for a monster the play leaves."""
    confirm = Press(("cross",), STAR_DIALOG, "confirm the star", optional=True, leaves=True)
    if not star:
        return [confirm]
    return [Press(("down",), STAR_DIALOG, "the second star", optional=True), confirm]


def _play(duel: FmDuel, play: Play) -> list[Item]:
    """The hand phase (DuelScene_UpdateHandActions): the cursor starts on slot 0; Up raises
    the card under it; Cross with no card raised takes the card under the cursor to the
    face choice, with two or more raised straight to the zone cursor (with exactly one
    raised it is ignored, so a single card is never raised)."""
    items: list[Item] = []
    for j in play.cards if len(play.cards) > 1 else play.cards[:1]:
        items.append(Move("hand", (j, 0), HAND_BROWSE, "hand card"))
        if len(play.cards) > 1:
            items.append(Press(("up",), HAND_BROWSE, f"raise hand card {j}"))
    items.append(Press(("cross",), HAND_BROWSE, "take the card" + "s" * (len(play.cards) > 1),
                       leaves=True))
    kind = int(duel.facts.type[duel.hand(duel.acting_side)[play.cards[0]]])
    if len(play.cards) == 1:
        # quirk: DuelScene_UpdateHandActions step 3: a monster or a trap turns itself face
        # down once it reaches the centre; magic, equip and ritual cards stay face up
        arrives_down = kind < cards.TYPE_MAGIC or kind == cards.TYPE_TRAP
        settle = FACE_TWEEN + (FLIP if arrives_down else 0) + C.SETTLE_FRAMES
        face = HAND_FACE
        if play.face_down != arrives_down:
            items.append(Press(("right",), face, "turn the card over", after=settle))
            face, settle = HAND_FACE, FLIP + C.SETTLE_FRAMES
        items.append(Press(("cross",), face, "face down" if play.face_down else "face up",
                           after=settle, leaves=True))
        if not play.face_down and kind in (cards.TYPE_MAGIC, cards.TYPE_RITUAL):
            return items + (_star(play.star) if kind == cards.TYPE_RITUAL else [])
    landing = prompts.resolved(duel, play)
    row = OWN_MONSTERS if duel._landing(duel.acting_side, landing)[0] == S.MONSTERS \
        else OWN_MAGIC
    items.append(Move("field", (landing.zone, row), HAND_ZONE, "landing zone"))
    items.append(Press(("cross",), HAND_ZONE, "place", leaves=True))
    return items + _star(play.star)


def _attack(duel: FmDuel, attack: Attack) -> list[Item]:
    """Field step 3 on the attacker, Cross; step 6 on the target (any column when the
    opponent has no monster: a direct attack), Cross for 2-D, Square for 3-D; the 3-D scene
    (func_800534B8) is left with Circle from its second frame (``3d_skip``) or once the
    summoning circles' set-up has drawn (``3d_circles``, fm.choices P5)."""
    items: list[Item] = [
        Move("field", (attack.attacker, OWN_MONSTERS), FIELD_BROWSE,
             "the attacker"),
        Press(("cross",), FIELD_BROWSE, "attack", leaves=True)]
    target = FIELD_TARGET
    if attack.target != DIRECT:
        items.append(Move("target", (attack.target, THEIR_MONSTERS), target, "the target"))
        target = FIELD_TARGET
    items.append(Press(("cross" if attack.view == "2d" else "square",), target,
                       f"{attack.view} battle", leaves=True))
    if attack.view in ("3d_skip", "3d_circles"):
        after = 1 if attack.view == "3d_skip" else C.CIRCLES_FRAMES
        items.append(Press(("circle",), in_mode(MODE_3D_BATTLE, "the 3-D battle"),
                           "leave the 3-D battle", after=after, optional=True))
    return items


def _activate(duel: FmDuel, act: Activate) -> list[Item]:
    """Field step 3 on the set card, Cross; step 7 shows it (func_80020988): it activates
    only showing its face, so a set card is turned once first; an equip then takes the
    target cursor to its monster."""
    view = duel.card(duel.acting_side, "magic", act.zone)
    items: list[Item] = [
        Move("field", (act.zone, OWN_MAGIC), FIELD_BROWSE, "the set card"),
        Press(("cross",), FIELD_BROWSE, "show it", leaves=True)]
    shown = FIELD_ACTIVATE
    if view is not None and view.face_down:
        items.append(Press(("right",), shown, "turn it face up"))
        shown = FIELD_ACTIVATE
    items.append(Press(("cross",), shown, "activate", after=FLIP + C.SETTLE_FRAMES,
                       leaves=True))
    if view is not None and view.card_type == cards.TYPE_EQUIP:
        record = duel._activation_target(duel.acting_side, act)
        column = record % S.RECORDS_PER_SIDE - S.MONSTERS
        items.append(Move("target", (column, OWN_MONSTERS), FIELD_TARGET,
                          "the monster to equip"))
        items.append(Press(("cross",), FIELD_TARGET, "equip", leaves=True))
    return items + _star(act.star)


def action_items(duel: FmDuel, action: FmAction) -> list[Item]:
    """The presses of one action of the pad side, on the duel as it stands before it."""
    if isinstance(action, Play):
        return _play(duel, action)
    if isinstance(action, Attack):
        return _attack(duel, action)
    if isinstance(action, ChangePosition):
        return [Move("field", (action.zone, OWN_MONSTERS), FIELD_BROWSE,
                     "the monster"),
                Press(("l1",), FIELD_BROWSE, "change its position"),
                Press((), FIELD_BROWSE, "the spin (func_8001D240)", after=C.SPIN_FRAMES,
                      hold=0)]
    if isinstance(action, Activate):
        return _activate(duel, action)
    if isinstance(action, EndTurn):
        return [Press(("start",), FIELD_BROWSE, "end the turn", leaves=True)]
    raise PlanError(f"a {action.kind} action is the computer's alone: the pad has no press "
                    "for it")


def duel_items(setup: FmSetup, actions: Sequence[FmAction], tables: FmTables
               ) -> Iterator[tuple[int, FmAction, list[Item]]]:
    """(step number, action, its presses) for every pad-side action, the duel played along
    (the computer's actions press nothing)."""
    duel = new_duel(setup, tables)
    for number, action in enumerate(actions, 1):
        if duel.acting_side not in duel.computer_sides:
            yield number, action, action_items(duel, action)
        duel.step(action)
    if duel.over:
        yield len(actions), action, _results()


def _results() -> list[Item]:
    """The result banner (func_80020F4C step 3: Cross ends its hold) and the rewards
    (func_800218F0: Cross only), after which the duel returns to the Free Duel menu."""
    return [Press(("cross",), RESULT_BANNER, "the result", optional=True, leaves=True),
            Press(("cross",), REWARDS_PAGE, "the rewards", after=C.SETTLE_FRAMES,
                  leaves=True),
            Press((), GRID_READY, "back to Free Duel", hold=0)]


def plan(setup: FmSetup, actions: Sequence[FmAction], tables: FmTables) -> list[Item]:
    """Every press from power-on that plays the replay's duel on the original."""
    check_reachable(setup)
    items = to_the_deal(setup, tables)
    for _, _, presses in duel_items(setup, actions, tables):
        items += presses
    return items
