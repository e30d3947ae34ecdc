"""The AI's search helpers, exactly as the original handlers compute them (spec/fm-ai.md §4).

Every helper reads the snapshot through a :class:`Board` (column lists of the persistent
snapshot, taken at ``AiScript_Init``) and the per-run scratch :class:`State` (card set, type
set, fusion path, combo cards, selection record). None of them calls ``rand()``.
Original quirks are kept and marked ``quirk:``.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from emucore.fm import machine as M
from emucore.fm.ai import choices
from emucore.fm.ai.data import MONSTER_TYPES, STAT_MAX, AiData
from emucore.fm.cards import BURN
from emucore.fm.snapshot import (
    AI_HAND,
    DEFENCE,
    FACE_DOWN,
    PL_HAND,
    PL_MAGIC,
    PL_MONSTERS,
    SIDE_STRIDE,
    USED,
    ExportView,
    Snapshot,
)
from emucore.hw.fm_stats import guardian_star_matchup

_STARS = range(16)   # the stars are 4-bit fields of the stat word
_MATCHUP = [[int(v) for v in row] for row in guardian_star_matchup(
    [[a] for a in _STARS], [list(_STARS)])]


class Board:
    """What one VM run sees: the snapshot's columns plus the duel globals (§2, §3.3). A
    plain class with slots: one is set up for every decision."""

    __slots__ = ("snapshot", "view", "data", "window", "terrain", "ids", "atk", "dfn", "flags",
                 "ctype", "star", "star2", "deck_index")

    def __init__(self, snapshot: Snapshot, view: ExportView, data: AiData, window: int) -> None:
        self.snapshot, self.view, self.data = snapshot, view, data
        self.window = window             # Ai_GetHandSize: byte 0 of the duelist's row
        self.terrain = view.terrain
        # The snapshot's own lists: MoveCard marks persist in the snapshot, as in RAM.
        (self.ids, self.atk, self.dfn, self.flags, self.ctype, self.star, self.star2,
         self.deck_index) = snapshot.columns

    def base(self, card: int, stat: int) -> int:
        """``Duel_GetBaseCardStat(card, stat)``: table stat + terrain boost, clamped."""
        table = self.data.base_def if stat else self.data.base_atk
        return table[self.terrain][card]

    def mark(self, slot: int) -> None:
        """``MoveCard``: ``flags |= USED`` in the snapshot itself (§3.3 opcode 3D)."""
        self.flags[slot] |= USED


_NO_COMBO, _NO_CARDS, _NO_TYPES = (0,) * 7, (0,) * 32, (0,) * 25


class State:
    """``gAiScript_State`` scratch, zeroed by ``AiScript_Init`` (§3.1). A plain class with
    slots: a machine is set up for every decision, and this is its largest part. The fusion
    search's own scratch (used flags, window, steps, reach) is made by each search's start
    (:func:`_search`), not here: most runs never search."""

    __slots__ = ("combo", "card_set", "type_set", "fusion_set", "best", "depth", "best_depth",
                 "path", "used", "selection", "window", "window_ids", "steps", "reach")

    combo: Sequence[int]                # 6 + room for the 0 mark
    card_set: Sequence[int]
    type_set: Sequence[int]             # stores type + 1
    used: list[int]
    window: list[tuple[int, int, int]]  # fusion search input
    window_ids: frozenset[int]
    # per accumulated card, its steps over the window (see _steps), built as the search asks
    steps: dict[int, list[tuple[int, int, int, int, bool]]]
    # per accumulated card * 8 + number of levels: the best value its chains can reach (see
    # _reach), built as the search asks
    reach: dict[int, int]

    def __init__(self) -> None:
        # zeroed and shared until written: AddCard/AddType make a new set, a search a new
        # combo (most runs write none of them)
        self.combo, self.card_set, self.type_set = _NO_COMBO, _NO_CARDS, _NO_TYPES
        self.path = [0] * 6
        self.fusion_set = 0
        self.best = 0                   # u16 best stat of the fusion search
        self.depth = 0
        self.best_depth = 0
        self.selection = [0] * 12       # D_800EAE88


# -- zones (Ai_GetCardRange / Ai_GetWinningCardRange, §3.2) ---------------------------------

_UNUSED_ZONES = frozenset((1, 3, 6, 8))


_CARD_RANGES = {0: (1, 5), 1: (1, 5), 2: (6, 10), 3: (6, 10), 5: (PL_MONSTERS, 60),
                6: (PL_MONSTERS, 60), 7: (PL_MAGIC, 65), 8: (PL_MAGIC, 65), 9: (PL_HAND, 70)}
_WINNING_RANGES = {0: (1, 5), 1: (1, 5), 3: (PL_MONSTERS, 60), 4: (PL_MONSTERS, 60),
                   5: (PL_MONSTERS, 60), 6: (PL_HAND, 70)}
WINDOW_CARD_ZONE, WINDOW_WINNING_ZONE = 4, 2   # the AI hand window's code in each table


_CARD_SLOTS = {zone: range(lo, hi + 1) for zone, (lo, hi) in _CARD_RANGES.items()}
_NO_SLOTS = range(0)


def card_range(zone: int, window: int) -> range:
    """``Ai_GetCardRange``: slots of a zone code (codes outside 0..9 -> nothing, a choice)."""
    if zone == WINDOW_CARD_ZONE:
        return range(AI_HAND, AI_HAND + window)
    return _CARD_SLOTS.get(zone, _NO_SLOTS)


def winning_range(zone: int, window: int) -> range:
    """``Ai_GetWinningCardRange`` for FindStrongest/FindWeakest."""
    if zone == WINDOW_WINNING_ZONE:
        return range(AI_HAND, AI_HAND + window)
    lo, hi = _WINNING_RANGES.get(zone, (1, 0))
    return range(lo, hi + 1)


def excluded(b: Board, s: State, sets: int, slot: int) -> bool:
    """``Ai_IsCardInSets``: 1 = card set, 2 = type set, else nothing excluded.

    quirk: membership compares against every entry, empty ones included, so card id 0 "is in"
    any card set that is not full.
    """
    if sets == 1:
        return b.ids[slot] in s.card_set   # quirk: Ai_IsCardInSets: empty entries match id 0
    if sets == 2:
        return b.ctype[slot] + 1 in s.type_set
    return False


def _flag_test(zone: int, hide: int) -> tuple[int, int]:
    """The flag bits that drop a card from a winning zone's candidates, and those it must
    have: used cards in zones 1, 4, 5; defenders in 4; attackers in 5 (defence required);
    face-down cards in 3, 4, 5 when the duelist does not see them (``hide`` 1)."""
    drop = (USED if zone in (1, 4, 5) else 0) | (DEFENCE if zone == 4 else 0)
    if zone in (3, 4, 5) and hide == 1:
        drop |= FACE_DOWN
    return drop, DEFENCE if zone == 5 else 0


def _winning_test(zone: int, hide: int) -> tuple[tuple[int, ...] | None, int, int]:
    """A winning zone's slots (None: the window, whose size is the board's), the flag bits
    tested (:func:`_flag_test`'s two together) and the value they must have."""
    drop, need = _flag_test(zone, hide)
    slots = None if zone == WINDOW_WINNING_ZONE else tuple(winning_range(zone, 0))
    return slots, drop | need, need


# per zone * 2 + (hide == 1): the zone's test, looked up once per FindStrongest/FindWeakest
_WINNING_TESTS = {zone * 2 + hide: _winning_test(zone, hide)
                  for zone in range(8) for hide in (0, 1)}


def winning_pick(b: Board, s: State, stat: int, zone: int, hide: int, sets: int,
                 strongest: bool) -> int:
    """FindStrongest / FindWeakest over the occupied slots of a winning zone that pass its
    flag test and the sets: the first slot of greatest (least) value, where the value is
    ATK (``stat`` 0), DEF (1) or the greater of the two (else). None: 0."""
    slots, mask, need = _WINNING_TESTS.get(zone * 2 + (hide == 1)) or _winning_test(zone, hide)
    if slots is None:
        slots = winning_range(zone, b.window)
    ids, flags, atk, dfn = b.ids, b.flags, b.atk, b.dfn
    values = atk if stat == 0 else dfn if stat == 1 else None
    best_slot, best = 0, -1 if strongest else STAT_MAX
    for i in slots:
        if not ids[i] or flags[i] & mask != need or (sets and excluded(b, s, sets, i)):
            continue
        value = values[i] if values is not None else atk[i] if atk[i] > dfn[i] else dfn[i]
        # quirk: FindWeakest: strict < from 9999, so a 9999 card is never the weakest
        if value > best if strongest else value < best:
            best, best_slot = value, i
    return best_slot


def find_strongest(b: Board, s: State, stat: int, zone: int, hide: int, sets: int) -> int:
    """FindStrongest (``ai_script_find_strongest.c``): ties keep the lowest slot; no type
    filter, so a 0/0 magic card beats the initial -1. ``stat`` 2 compares ATK then DEF
    against the best, the same as comparing the greater of the two."""
    return winning_pick(b, s, stat, zone, hide, sets, True)


def find_weakest(b: Board, s: State, stat: int, zone: int, hide: int, sets: int) -> int:
    """FindWeakest: strict ``<`` from 9999 (quirk: a 9999 card is never returned)."""
    return winning_pick(b, s, stat, zone, hide, sets, False)


def find_killer(b: Board, target: int, mode: int) -> int:
    """FindKiller: the weakest unused AI monster (raw snapshot ATK) that strictly wins.

    The star bonus decides winning but not the ranking; position is not tested.
    """
    wanted = b.atk[target] if mode == 0 else b.dfn[target]
    target_star = b.star[target]
    best, k = STAT_MAX, 0
    for i in range(1, 6):
        if b.ids[i] == 0 or b.flags[i] & USED:
            continue
        a = b.atk[i]
        if a - wanted + _MATCHUP[b.star[i] & 0xF][target_star & 0xF] > 0 and a < best:
            best, k = a, i
    return k


def find_defense_stopper(b: Board, hide: int) -> int:
    """FindDefenseStopper: pair strongest against strongest by snapshot ATK; the player's
    face-down cards are skipped when ``hide`` is not 0.

    quirk: no ``card_id`` test, so an empty slot's stale ATK still takes part (G8).
    """
    floor = b.atk[0]
    taken_ai: set[int] = set()
    taken_pl: set[int] = set()
    rounds = 0
    for _ in range(M.ROW_WIDTH):   # one round per zone
        a = _largest(b, range(1, 6), taken_ai, floor, hide=0)
        if a:
            taken_ai.add(a)
        p = _largest(b, range(PL_MONSTERS, PL_MONSTERS + 5), taken_pl, floor, hide)
        if p == 0:
            break
        taken_pl.add(p)
        if b.atk[a] <= b.atk[p]:
            return 0
        rounds += 1
    return 1 if rounds else 0


def _largest(b: Board, slots: range, taken: set[int], floor: int, hide: int) -> int:
    best_slot, best = 0, floor
    for i in slots:
        if i in taken or (hide and b.flags[i] & FACE_DOWN):   # any non-zero operand hides
            continue
        if b.atk[i] > best:   # quirk: FindDefenseStopper: no card_id test, stale ATK counts
            best, best_slot = b.atk[i], i
    return best_slot


def load_deck_size(b: Board) -> int:
    """LoadDeckSize: occupied slots 11..55 minus the 5 hand cards (stale slots count, §2.5)."""
    return SIDE_STRIDE + 1 - AI_HAND - b.ids[AI_HAND:SIDE_STRIDE + 1].count(0) - 5


def count_cards(b: Board, zone: int) -> int:
    """CountCards: occupied slots of the zone; zones 1/3/6/8 count unused ones only."""
    ids, flags = b.ids, b.flags
    skip = USED if zone in _UNUSED_ZONES else 0
    count = 0
    for i in card_range(zone, b.window):
        if ids[i] and not flags[i] & skip:
            count += 1
    return count


def find_first_card(b: Board, state: int, zone: int) -> int:
    """FindFirstCard: 0 empty, 1 occupied face-up, 2 occupied face-down.

    quirk: in zones 1/3/6/8 a slot whose (possibly stale) flags hold USED is skipped before the
    emptiness test.
    """
    ids, flags = b.ids, b.flags
    skip = USED if zone in _UNUSED_ZONES else 0
    for i in card_range(zone, b.window):
        if flags[i] & skip:   # quirk: FindFirstCard: stale USED skips before the empty test
            continue
        if ids[i] == 0:
            if state == 0:
                return i
            continue
        down = flags[i] & FACE_DOWN
        if (state == 1 and not down) or (state == 2 and down):
            return i
    return 0


def find_card(b: Board, card: int, zone: int, hide: int) -> int:
    """FindCard: first slot holding ``card`` (id 0 finds an empty slot)."""
    slots = card_range(zone, b.window)
    if card not in b.ids[slots.start:slots.stop]:
        return 0
    unused = zone in _UNUSED_ZONES
    for i in slots:
        if b.ids[i] != card or (unused and b.flags[i] & USED):
            continue
        if hide != 1 or zone < 5 or not b.flags[i] & FACE_DOWN:
            return i
    return 0


def match_type(b: Board, s: State, card_type: int, zone: int, hide: int, sets: int) -> int:
    """MatchType: first occupied slot whose snapshot type equals ``card_type``."""
    unused = zone in _UNUSED_ZONES
    for i in card_range(zone, b.window):
        if b.ids[i] == 0 or b.ctype[i] != card_type or (unused and b.flags[i] & USED):
            continue
        if hide == 1 and zone >= 5 and b.flags[i] & FACE_DOWN:
            continue
        if sets and excluded(b, s, sets, i):
            continue
        return i
    return 0


def find_equip_target(b: Board, s: State, equip: int, mode: int, sets: int) -> int:
    """FindEquipTarget (``ai_fusion.c``): first AI monster the equip fits."""
    for i in range(1, 6):
        cid = b.ids[i]
        if cid == 0 or (mode == 1 and b.flags[i] & USED) or (sets and excluded(b, s, sets, i)):
            continue
        if b.data.check_equip(equip, cid):
            return i
    return 0


def calc_card_power(b: Board, card: int, mode: int) -> int:
    """CalcCardPower: base stat + terrain of a card id (no equips, no penalties)."""
    data = b.data
    if data.cards.type[card] < MONSTER_TYPES:
        atk, dfn = data.base_atk[b.terrain][card], data.base_def[b.terrain][card]   # Board.base
        if mode == 0:
            return atk
        if mode == 1:
            return dfn
        if mode == 2:
            return atk if atk > dfn else dfn
        return choices.CALC_POWER_BAD_MODE
    facts = b.data.cards
    return facts.magic_amount[card] if mode == 0 and facts.magic_class[card] == BURN else 0


def check_ritual(b: Board, ritual: int) -> int:
    """``Duel_CheckRitual``: result id if three distinct monsters of the acting side match."""
    monsters = [c.card_id for c in b.view.acting.monsters if c is not None]
    for rid, tributes, result in b.data.rituals:
        if rid != ritual:
            continue
        pool = list(monsters)
        for t in tributes:
            if t not in pool:
                break
            pool.remove(t)
        else:
            return result
    return 0


# -- the fusion search (§4.11-§4.12) ------------------------------------------------------

def complete_fusion(b: Board, s: State, acc: int, limit: int) -> None:
    """``Ai_CompleteFusion``: depth-first over the window in order (``limit`` = L).

    Each result is scored by ``Duel_GetBaseCardStat`` ATK then DEF; a value replaces the best
    when greater, or equal and reached with fewer cards. Scoring the greater of the two once
    does the same (the second can replace only a best the first set, at the same depth). The
    window entries ``acc`` combines with come from :func:`_steps` (the same for every path of
    one search). A deeper call is made only when a chain below it can replace the best
    (:func:`_reach`): any other changes nothing.
    """
    steps = s.steps.get(acc)
    if steps is None:
        steps = s.steps[acc] = _steps(b, s, acc)
    used, path = s.used, s.path
    depth = s.depth
    levels = min(limit - 1, choices.MAX_FUSION_DEPTH) - depth   # below this call
    reach = s.reach
    for i, slot, r, value, more in steps:
        if used[i]:
            continue
        path[depth] = slot
        if value >= s.best and (value > s.best or depth < s.best_depth):
            s.best, s.best_depth = value, depth
            s.combo[: depth + 1] = path[: depth + 1]
            s.combo[depth + 1] = 0
        if levels <= 0 or not more:
            continue
        bound = reach.get(r * 8 + levels)
        if bound is None:
            bound = _reach(b, s, r, levels)
        if bound > s.best or (bound == s.best and depth + 1 < s.best_depth):
            used[i] = 1
            s.depth = depth + 1
            complete_fusion(b, s, r, limit)
            used[i] = 0
            s.depth = depth


def _steps(b: Board, s: State, acc: int) -> list[tuple[int, int, int, int, bool]]:
    """The window entries (position, slot, card) ``acc`` fuses with or equips onto, in
    window order, as (position, slot, result, the greater of its base ATK and DEF, whether
    the result combines with any window card: one with no partner there would find nothing
    deeper)."""
    data = b.data
    partners = s.window_ids & data.combines[acc]   # the window's cards acc combines with
    if not partners:
        return []
    fusion, combines, best = data.fusion[acc], data.combines, data.base_max[b.terrain]
    lone = s.window_ids.isdisjoint
    out = []
    for i, slot, c in s.window:
        if c in partners:
            r = fusion.get(c) or c   # no fusion: acc is an equip that fits c (combines[acc])
            out.append((i, slot, r, best[r], not lone(combines[r])))
    return out


def _reach(b: Board, s: State, acc: int, levels: int) -> int:
    """The greatest value a chain from ``acc`` of at most ``levels`` more window cards can
    reach, the window positions used on the way disregarded (so never less than what the
    search finds): a deeper call below it changes nothing."""
    steps = s.steps.get(acc)
    if steps is None:
        steps = s.steps[acc] = _steps(b, s, acc)
    best = 0
    reach = s.reach
    for _, _, r, value, more in steps:
        if value > best:
            best = value
        if more and levels > 1:
            bound = reach.get(r * 8 + levels - 1)
            if bound is None:
                bound = _reach(b, s, r, levels - 1)
            if bound > best:
                best = bound
    reach[acc * 8 + levels] = best
    return best


_CARD = itemgetter(2)   # a window entry's card


def _search(b: Board, s: State, sets: int) -> None:
    """A fusion search's start: the fusion set, no window position used, the window entries
    it may use (empty slots and excluded ones skipped) and no steps built yet."""
    s.fusion_set = sets
    s.used, s.combo = [0] * 32, list(s.combo)
    window = []
    for i in range(b.window):
        slot = AI_HAND + i
        c = b.ids[slot]
        if c and not (sets and excluded(b, s, sets, slot)):
            window.append((i, slot, c))
    s.window, s.window_ids, s.steps = window, frozenset(map(_CARD, window)), {}
    s.reach = {}


def find_best_combo(b: Board, s: State, depth: int, sets: int) -> int:
    """FindBestCombo: 0 chain starts in the hand, 1 field card + hand cards, 2 the field card
    alone, 3 nothing (``combo`` and ``best_depth`` carry over from earlier calls).

    Each field card (slots 1-5), then each window card, starts a chain: its snapshot ATK or
    DEF (the greater) replaces a lower best, then the search goes on from it (for a field
    card when ``depth`` is at least 1, for a window card at least 2).
    """
    limit = depth + 1
    s.best, s.depth = 0, 0
    _search(b, s, sets)
    ids, atk, dfn, used = b.ids, b.atk, b.dfn, s.used
    field = [(i, 1 + i, c) for i, c in enumerate(ids[1:6])
             if c and not (sets and excluded(b, s, sets, 1 + i))]
    # a card combining with no window card finds nothing deeper: its search is skipped
    lone, combines = s.window_ids.isdisjoint, b.data.combines
    for starts, deeper in ((field, limit >= 2), (s.window, limit >= 3)):
        for i, slot, c in starts:
            s.path[0] = slot
            value = atk[slot] if atk[slot] > dfn[slot] else dfn[slot]
            if value > s.best:   # quirk: EvaluateFusion: a lone window card records depth 0
                s.best, s.best_depth = value, 0
                s.combo[0], s.combo[1] = slot, 0
            if deeper and not lone(combines[c]):
                # quirk: a field card marks WINDOW position i (slot 11 + i), not itself
                used[i] = 1
                s.depth = 1
                complete_fusion(b, s, c, limit)
                used[i] = 0
                s.depth = 0
    if s.combo[0] == 0:
        return 3
    if s.combo[0] >= 6:
        return 0
    return 1 if s.combo[1] != 0 else 2


def evaluate_fusion(b: Board, s: State, card: int, depth: int, sets: int) -> int:
    """EvaluateFusion: 0 if a chain from the window beats ``card``, else 1.

    quirk: an improvement with a single window card is recorded at depth 0, the same as
    "nothing found", so only chains of two or more window cards report 0.
    """
    s.depth, s.best_depth = 0, 0
    _search(b, s, sets)
    atk, dfn = b.base(card, 0), b.base(card, 1)
    s.best = atk if dfn < atk else dfn
    complete_fusion(b, s, card, depth + 1)
    return 0 if s.best_depth != 0 else 1


# -- selection-record writers --------------------------------------------------------------

def push_combo(s: State, clear: bool) -> None:
    """PushComboCard (``clear``) / PushComboEmpty: copy combo cards >= 11 into bytes 0.."""
    if clear:
        s.selection[0:6] = [0] * 6
    out = 0
    for v in s.combo[: s.best_depth + 1]:
        if v >= AI_HAND:
            s.selection[out] = v & 0xFF
            out += 1


def start_combo(s: State) -> int:
    """StartCombo: the first combo card that is a field slot (1..10), else 0."""
    return next((v for v in s.combo[:5] if 1 <= v <= 10), 0)


def add_card(s: State, card: int) -> None:
    """AddCard: into the first empty entry unless present; a full set ignores it."""
    if card in s.card_set:
        return
    if 0 in s.card_set:
        cards = list(s.card_set)
        cards[cards.index(0)] = card
        s.card_set = cards


def add_type(s: State, card_type: int) -> None:
    """AddType: the type set stores type + 1."""
    value = (card_type + 1) & 0xFF
    if value not in s.type_set and 0 in s.type_set:
        types = list(s.type_set)
        types[types.index(0)] = value
        s.type_set = types


def play_field_card(s: State, slot: int, a: int, b: int, cat: int) -> None:
    """PlayFieldCard's encoding of bytes 9-11 (``ai_script_end.c``, §5.2)."""
    s.selection[9] = slot & 0xFF
    s.selection[11] = b & 0xFF
    if cat == 0:
        s.selection[10] = slot & 0xFF if slot >= 6 and a == 1 else 0
    elif cat >= 255:
        s.selection[10] = 0x3A
    else:
        s.selection[10] = cat & 0xFF   # choices: a negative category keeps its low byte

