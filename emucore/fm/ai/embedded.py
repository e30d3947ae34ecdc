"""Our reconstruction of the two AI programs (spec/fm-ai.md §6 hand, §7 field).

Written as Python over the same machine the original bytecode runs on: the same snapshot,
the same helpers (§4), the same scratch state and selection record, and ``rand()`` only where
the programs' JumpRandom/SetRandom would call it. Each function below is one step of the
decision procedure, in the programs' priority order. Where the spec says [unknown], the
decision is a named constant in :mod:`emucore.fm.ai.choices`.
"""

from __future__ import annotations

from functools import cache

from emucore.fm.ai import choices
from emucore.fm.ai import helpers as h
from emucore.fm.ai.data import MONSTER_TYPES
from emucore.fm.ai.vm import FIELD_ACTION, FIELD_DONE, HAND_DONE, Machine
from emucore.fm.cards import (
    ATTACK_TRAPS,
    DARK_HOLE,
    FAKE_TRAP,
    TYPE_EQUIP,
    TYPE_MAGIC,
    TYPE_RITUAL,
    TYPE_TRAP,
)
from emucore.fm.snapshot import AI_HAND, FACE_DOWN, USED

# Zone codes (§3.2): card ranges ...
AI_MON, AI_MON_UNUSED, AI_MT, AI_MT_UNUSED, WINDOW = 0, 1, 2, 3, 4
PL_MON, PL_MON_UNUSED, PL_MT = 5, 6, 7
# ... and winning ranges for FindStrongest/FindWeakest.
W_AI, W_AI_UNUSED, W_WINDOW, W_PL, W_PL_ATTACK, W_PL_DEFENCE = 0, 1, 2, 3, 4, 5
ATK, DEF, MAX = 0, 1, 2
EMPTY, FACE_UP, DOWN = 0, 1, 2   # FindFirstCard states

HARPIES = 672
SWORDS, STOP_DEFENCE, DARK_PIERCING = 348, 320, 350
SPELLBINDING, SHADOW_SPELL, CRUSH_CARD, RAIGEKI = 349, 669, 661, 337
REMOVAL_TRAPS = (*reversed(ATTACK_TRAPS), FAKE_TRAP)   # 686 .. 681, then 690
FIELD_CARDS = range(330, 336)                # terrain = id - 329
WALLS = frozenset((72, 362, 366, 2, 40, 83, 88, 121, 156, 170, 255, 274, 277, 369, 416, 418,
                   449, 468, 497, 518))
KEPT_IN_POSITION = frozenset((380, 374, 67, 713, 217, 364, 1, 392))


class Script:
    """The machine seen through the programs' vocabulary (one method per idiom)."""

    __slots__ = ("m", "b", "s", "duelist", "hide", "row", "cpu_lp", "player_lp", "hold")

    def __init__(self, m: Machine) -> None:
        self.m, self.b, self.s = m, m.board, m.state
        self.duelist = self.b.data.duelists[self.b.view.opponent_id]
        self.hide = 0 if self.duelist.sees_face_down else 1        # r14
        self.row = self.duelist.row                                # gDuel_aOpponentData
        self.cpu_lp, self.player_lp = self.b.view.acting.lp, self.b.view.other.lp   # r6, r7
        self.hold = self.row[7]                                    # r16

    # -- reads ---------------------------------------------------------------------------
    def strongest(self, stat: int, zone: int, sets: int = 0) -> int:
        return h.winning_pick(self.b, self.s, stat, zone, self.hide, sets, True)

    def weakest(self, stat: int, zone: int, sets: int = 0) -> int:
        return h.winning_pick(self.b, self.s, stat, zone, self.hide, sets, False)

    def find(self, card: int, zone: int = WINDOW) -> int:
        return h.find_card(self.b, card, zone, self.hide)

    def count(self, zone: int) -> int:
        return h.count_cards(self.b, zone)

    def first(self, state: int, zone: int) -> int:
        return h.find_first_card(self.b, state, zone)

    def power(self, slot: int, mode: int = MAX) -> int:
        return h.calc_card_power(self.b, self.b.ids[slot], mode)

    def card(self, slot: int) -> int:
        return self.b.ids[slot]

    def ctype(self, slot: int) -> int:
        return self.b.data.cards.type[self.b.ids[slot]]

    def deck_size(self) -> int:
        return h.load_deck_size(self.b)

    def pinned(self, me: bool) -> bool:
        return (self.b.view.acting if me else self.b.view.other).swords != 0

    # -- rand() --------------------------------------------------------------------------
    def roll(self, percent: int) -> bool:
        """JumpRandom: one rand(), taken when ``rand() % 100 < percent``."""
        return self.m.rand() % 100 < percent

    def random_slot(self, lo: int, hi: int) -> int:
        """SetRandom lo, hi: one rand()."""
        return self.m.rand() % (hi - lo + 1) + lo

    # -- hand selection ------------------------------------------------------------------
    def play(self, slots: tuple[int, ...], dest: int, face_down: bool) -> int:
        sel = self.s.selection
        sel[0:6] = [*slots, *[0] * (6 - len(slots))]
        sel[6], sel[7], sel[8] = dest, 0, int(face_down)   # star choice always 0 (§5.1.7)
        return HAND_DONE

    def play_combo(self, dest: int) -> int:
        h.push_combo(self.s, clear=True)
        self.s.selection[6], self.s.selection[8] = dest, 0
        return HAND_DONE

    # -- field actions -------------------------------------------------------------------
    def act(self, slot: int, a: int = 0, b: int = 0, cat: int = 0) -> int:
        h.play_field_card(self.s, slot, a, b, cat)
        return FIELD_ACTION


# =========================================================================== hand (§6)

def hand_program(m: Machine) -> int:
    """The hand script: one play per turn, the first rule that decides wins."""
    s = Script(m)
    for rule in (_lethal_burn, _home_terrain):
        done = rule(s)
        if done:
            return done
    ai_best, pl_best = s.strongest(MAX, W_AI), s.strongest(MAX, W_PL)
    if _is_behind(s, ai_best, pl_best):
        return _behind(s, pl_best)
    return _harpies(s) or _strategy(s, _roll_strategy(s, pl_best))


def _lethal_burn(s: Script) -> int:
    """§6.1.2: a burn card that finishes the player, if their magic/trap row is empty."""
    if s.count(PL_MT):
        return 0
    amount = s.b.data.cards.magic_amount
    for card in s.b.data.burns:   # (only a lethal card is looked for: the search is pure)
        damage = amount[card]
        lethal = damage >= s.player_lp if choices.LETHAL_BURN_INCLUSIVE else damage > s.player_lp
        slot = s.find(card) if lethal else 0
        if slot:
            return s.play((slot,), 0, face_down=False)
    return 0


def _home_terrain(s: Script) -> int:
    """§6.1.3: the mages and Neku restore their home field."""
    home = s.duelist.home_field_card
    if not home or s.b.terrain == home - 329:
        return 0
    slot = s.find(home)
    return s.play((slot,), 0, face_down=False) if slot else 0


def _is_behind(s: Script, ai_best: int, pl_best: int) -> bool:
    """§6.1.4: compare the strongest monsters by CalcCardPower mode 2."""
    if ai_best == 0:
        return pl_best != 0
    if pl_best == 0:
        return not choices.AHEAD_WHEN_PLAYER_EMPTY
    return s.power(ai_best) <= s.power(pl_best)


def _harpies(s: Script) -> int:
    """§6.1.5: Harpie's Feather Duster against the player's magic/trap row."""
    if choices.HARPIE_ROLL_AFTER_TESTS:
        slot = s.find(HARPIES) if s.count(PL_MT) else 0
        if slot and s.roll(s.hold):
            return s.play((slot,), 0, face_down=False)
        return 0
    hit = s.roll(s.hold)
    slot = s.find(HARPIES) if s.count(PL_MT) else 0
    return s.play((slot,), 0, face_down=False) if slot and hit else 0


def _roll_strategy(s: Script, pl_best: int) -> str:
    """§6.1.6: B below the LP threshold, else the duelist's JumpRandom chain."""
    if s.cpu_lp < s.row[1] * 100:
        return "B"
    weakest = s.weakest(MAX, W_AI)
    if weakest == 0 or pl_best == 0:
        ahead = True
    elif choices.TABLE_AHEAD_INCLUSIVE:
        ahead = s.power(weakest) >= s.power(pl_best)
    else:
        ahead = s.power(weakest) > s.power(pl_best)
    chain = _strategy_chain(s.duelist.ahead if ahead else s.duelist.behind)
    for name, percent in chain[:-1]:
        if s.roll(percent):
            return name
    return chain[-1][0]


_strategy_chain = cache(choices.strategy_chain)   # a pure function of the split, made once


def _strategy(s: Script, name: str) -> int:
    return {"A": _best_fusion, "B": _power_up_weakest, "C": _non_monster_first}[name](s)


def _depth(s: Script, normal: int, low: int) -> int:
    return low if s.deck_size() <= s.row[2] else normal


def _best_fusion(s: Script) -> int:
    """Strategy A (§6.1.7): FindBestCombo over field + window."""
    result = h.find_best_combo(s.b, s.s, _depth(s, s.row[3], 1), 0)
    if result == 0:
        return _place_chain(s)
    if result == 1:
        return s.play_combo(h.start_combo(s.s))
    if result == 2:
        return _field_or_strongest(s)
    return _non_monster_first(s)


def _place_chain(s: Script) -> int:
    """§6.1.8: a chain from the hand goes to the first free monster slot, else over the
    weakest monster; a single card there is played face-down (flag set for a free slot)."""
    free = s.first(EMPTY, AI_MON)
    h.push_combo(s.s, clear=True)
    dest = free or s.weakest(MAX, W_AI)
    single = s.s.selection[1] == 0
    s.s.selection[6] = dest
    s.s.selection[8] = int(single and (bool(free) or choices.FACE_DOWN_OVER_OCCUPIED))
    return HAND_DONE


def _place_single(s: Script, slot: int) -> int:
    """§6.1.8: one window card to where its class goes."""
    ctype = s.ctype(slot)
    if ctype < MONSTER_TYPES:
        free = s.first(EMPTY, AI_MON)
        dest = free or s.weakest(MAX, W_AI)
        return s.play((slot,), dest, face_down=bool(free) or choices.FACE_DOWN_OVER_OCCUPIED)
    free = s.first(EMPTY, AI_MT)
    if free:
        return s.play((slot,), free, face_down=True)
    if ctype == TYPE_EQUIP:
        target = (h.find_equip_target(s.b, s.s, s.card(slot), choices.EQUIP_TARGET_MODE, 0)
                  or s.weakest(MAX, W_AI))
        return s.play((slot,), target, face_down=False) if target else _overwrite(s, slot)
    if ctype == TYPE_TRAP or choices.MAGIC_NO_SLOT_RANDOM:
        return _overwrite(s, slot)
    return _play_strongest_monster(s)


def _overwrite(s: Script, slot: int) -> int:
    """A card set face-down over a random magic/trap slot (``SetRandom 6, 10``)."""
    return s.play((slot,), s.random_slot(6, 10), face_down=True)


def _field_or_strongest(s: Script) -> int:
    """A result 2: boost the best field monster's type, else the strongest window monster,
    else a random real-hand card (SetRandom 11, 15)."""
    best_type = s.ctype(s.s.combo[0])
    for card in choices.RESULT2_FIELD_CARDS:
        terrain = card - 329
        if s.b.data.terrain_boost[terrain][best_type] > 0 and s.b.terrain != terrain:
            slot = s.find(card)
            if slot:
                return s.play((slot,), 0, face_down=False)
    slot = s.strongest(MAX, W_WINDOW)
    if slot and s.ctype(slot) < MONSTER_TYPES:
        return _place_single(s, slot)
    return _place_single(s, s.random_slot(11, 15))


def _power_up_weakest(s: Script) -> int:
    """Strategy B (§6.1.7): a chain that beats the weakest field monster, then the next."""
    depth = _depth(s, s.row[4] - 1, 0)
    for _ in range(6):   # at most five distinct monsters can be excluded one by one
        weakest = s.weakest(choices.B_WEAKEST_STAT, W_AI, sets=1)
        if weakest == 0:
            return _strategy(s, choices.B_EXHAUSTED_STRATEGY)
        if h.evaluate_fusion(s.b, s.s, s.card(weakest), depth, 0) == 0:
            return s.play_combo(weakest)
        h.add_card(s.s, s.card(weakest))
    return _strategy(s, choices.B_EXHAUSTED_STRATEGY)


def _non_monster_first(s: Script) -> int:
    """Strategy C (§6.1.7): trap, equip, magic, ritual (window order), else a monster."""
    for ctype in (TYPE_TRAP, TYPE_EQUIP, TYPE_MAGIC, TYPE_RITUAL):
        slot = h.match_type(s.b, s.s, ctype, WINDOW, s.hide, 0)
        if slot:
            return _place_single(s, slot)
    return _play_strongest_monster(s)


def _play_strongest_monster(s: Script) -> int:
    """The strongest window card if it is a monster; a window without monsters (its first
    card wins FindStrongest) sets that card over a random magic/trap slot."""
    slot = s.strongest(MAX, W_WINDOW) or AI_HAND
    if s.ctype(slot) < MONSTER_TYPES:
        return _place_single(s, slot)
    return _overwrite(s, slot)


def _behind(s: Script, pl_best: int) -> int:
    """§6.1.9: outgun the player's best monster, else fuse, else remove it."""
    slot = s.strongest(MAX, W_WINDOW)
    if slot and s.ctype(slot) < MONSTER_TYPES:
        mine, theirs = s.power(slot), s.power(pl_best)
        if mine > theirs or (choices.BEHIND_PLAY_INCLUSIVE and mine == theirs):
            return _place_single(s, slot)
    if s.deck_size() >= 33:
        return _best_fusion(s)
    removal = _removal_card(s, pl_best)
    return _place_single(s, removal) if removal else _best_fusion(s)


def _removal_card(s: Script, target: int) -> int:
    """§6.1.9.3: the first removal card held, in the fixed priority."""
    target_type = s.b.ctype[target]
    for card, ctype in s.b.data.type_removal.items():
        if ctype == target_type and s.find(card):
            return s.find(card)
    candidates = [
        (SPELLBINDING, True), (SHADOW_SPELL, True),
        (CRUSH_CARD, s.b.atk[target] >= choices.CRUSH_CARD_MIN_ATK), (RAIGEKI, True),
        *((trap, True) for trap in REMOVAL_TRAPS),
        (SWORDS, not s.pinned(me=False)),
        (DARK_HOLE, s.count(AI_MON) < s.count(PL_MON)),
    ]
    for card, condition in candidates:
        slot = s.find(card) if condition else 0
        if slot:
            return slot
    return 0


# =========================================================================== field (§7)

def field_program(m: Machine) -> int:
    """The field script: one action per run, restarted from the top after each action."""
    s = Script(m)
    for rule in (_magic_row, _walls):
        done = rule(s)
        if done:
            return done
    if not s.pinned(me=True):
        done = _attacks(s)
        if done:
            return done
    return _leftovers(s)


def _magic_row(s: Script) -> int:
    """§7.2: decide each unused card of the AI's magic/trap row, in slot order."""
    ids, flags = s.b.ids, s.b.flags
    for slot in choices.ROW_ORDER:
        card = ids[slot]
        if card == 0 or flags[slot] & USED:
            continue
        verdict = _verdict(s, slot, card)
        if verdict == "activate":
            return s.act(slot, 1)
        if verdict.startswith("equip"):
            return s.act(slot, 0, 0, int(verdict[5:]))
        if verdict == "keep" and choices.KEEP_RETIRES_WITH_DONE:
            return s.act(slot)
        if verdict == "keep":
            s.b.mark(slot)
    return 0


def _verdict(s: Script, slot: int, card: int) -> str:
    """"activate", "equipN" (onto AI monster slot N), "keep" or "skip" (traps: the engine
    springs them)."""
    ctype = s.b.data.cards.type[card]
    if ctype == TYPE_TRAP:
        return "skip"
    if card == HARPIES:
        return "activate" if s.count(PL_MT) and s.roll(s.hold) else "keep"
    if card in s.b.data.burns or card in s.b.data.heals:
        return _burn_or_heal(s)
    if ctype == TYPE_EQUIP:
        target = h.find_equip_target(s.b, s.s, card, choices.EQUIP_TARGET_MODE, 0)
        return f"equip{target}" if target else "keep"
    if ctype == TYPE_RITUAL:
        return "activate" if h.check_ritual(s.b, card) else "keep"
    return "activate" if _magic_condition(s, card) else "keep"


def _burn_or_heal(s: Script) -> str:
    if s.cpu_lp >= s.player_lp:
        return "keep"
    if s.cpu_lp > s.row[1] * 100 or not s.count(PL_MT):
        return "activate"
    return "keep" if s.roll(s.hold) else "activate"


def _magic_condition(s: Script, card: int) -> bool:
    """§7.2 conditions of the other magic cards the script knows."""
    ai_best, pl_best = s.strongest(MAX, W_AI), s.strongest(MAX, W_PL)
    ai_count, pl_count = s.count(AI_MON), s.count(PL_MON)
    player_leads = pl_best != 0 and (ai_best == 0 or s.power(pl_best) >= s.power(ai_best))
    player_stronger = pl_best != 0 and (ai_best == 0 or s.power(pl_best) > s.power(ai_best))
    if card == DARK_PIERCING:
        face_down = sum(1 for i in range(56, 61) if s.b.ids[i] and s.b.flags[i] & FACE_DOWN)
        return pl_count > ai_count and face_down == pl_count
    if card == SWORDS:
        return not s.pinned(me=False) and (ai_best == 0 or player_stronger)
    if card == STOP_DEFENCE:
        return not s.pinned(me=True) and _stop_defense(s, pl_count, ai_count)
    if card in s.b.data.type_removal:
        return player_leads and s.b.ctype[pl_best] == s.b.data.type_removal[card]
    if card in (SPELLBINDING, SHADOW_SPELL):
        return player_leads
    if card == CRUSH_CARD:
        return player_leads and s.b.atk[pl_best] >= choices.CRUSH_CARD_MIN_ATK
    if card == RAIGEKI:
        return player_leads and pl_count >= ai_count
    if card == DARK_HOLE:
        return player_leads and pl_count > ai_count
    if card in FIELD_CARDS:
        return _field_card_helps(s, card, ai_best, pl_best, player_leads)
    return False


def _stop_defense(s: Script, pl_count: int, ai_count: int) -> bool:
    mine, theirs = s.strongest(ATK, W_AI), s.weakest(ATK, W_PL)
    if mine and theirs and s.b.atk[mine] - s.b.atk[theirs] >= s.player_lp:
        return True
    return ai_count >= pl_count and h.find_defense_stopper(s.b, s.hide) == 1


def _field_card_helps(s: Script, card: int, ai_best: int, pl_best: int, leads: bool) -> bool:
    terrain = card - 329
    if not (leads and ai_best) or s.b.terrain == terrain:
        return False
    mine, theirs = s.b.ctype[ai_best], s.b.ctype[pl_best]
    boost = s.b.data.terrain_boost[terrain]
    return mine != theirs and boost[mine] > 0 and boost[theirs] <= 0


def _walls(s: Script) -> int:
    """§7.3: the twenty wall monsters go to defence and never attack."""
    ids, flags = s.b.ids, s.b.flags
    if WALLS.isdisjoint(ids[1:6]):
        return 0
    for slot in range(1, 6):
        if ids[slot] in WALLS and not flags[slot] & USED:
            return s.act(slot, 0, 1)
    return 0


def _attacks(s: Script) -> int:
    """§7.4: lethal, attack-position targets, defence targets, blind, direct."""
    for rule in _ATTACK_RULES:
        done = rule(s)
        if done:
            return done
    return 0


def _lethal(s: Script) -> int:
    attacker, target = s.strongest(ATK, W_AI_UNUSED), s.weakest(ATK, W_PL_ATTACK)
    if not (attacker and target):
        return 0
    margin = s.power(attacker, ATK) - s.power(target, ATK)
    if margin > s.player_lp or (choices.LETHAL_INCLUSIVE and margin == s.player_lp):
        return s.act(attacker, 0, 0, target)
    return 0


def _killers(s: Script, zone: int, stat: int, mode: int) -> int:
    while True:
        target = s.strongest(stat, zone)
        if target == 0:
            return 0
        killer = h.find_killer(s.b, target, mode)
        if killer:
            return s.act(killer, 0, 0, target)
        s.b.mark(target)


def _attack_targets(s: Script) -> int:
    return _killers(s, W_PL_ATTACK, choices.ATTACK_TARGET_STAT, 0)


def _defence_targets(s: Script) -> int:
    return _killers(s, W_PL_DEFENCE, choices.DEFENCE_TARGET_STAT, 1)


def _blind(s: Script) -> int:
    """§7.4.4: each face-down player monster still unmarked: JumpRandom values[8]."""
    while True:
        target = s.first(DOWN, PL_MON_UNUSED)
        if target == 0:
            return 0
        attacker = s.strongest(ATK, W_AI_UNUSED)
        if choices.BLIND_ROLL_NEEDS_ATTACKER and not attacker:
            return 0
        if s.roll(s.row[8]) and attacker:
            return s.act(attacker, 0, 0, target)
        s.b.mark(target)


def _direct(s: Script) -> int:
    if s.count(PL_MON):
        return 0
    attacker = s.strongest(ATK, W_AI_UNUSED)
    return s.act(attacker, 0, 0, 255) if attacker else 0


_ATTACK_RULES = (_lethal, _attack_targets, _defence_targets, _blind, _direct)


def _leftovers(s: Script) -> int:
    """§7.5-7.6: the rest go to defence (the big eight stay as they are); then EndField."""
    ids, flags = s.b.ids, s.b.flags
    for slot in range(1, 6):
        if ids[slot] == 0 or flags[slot] & USED:
            continue
        if ids[slot] in KEPT_IN_POSITION:
            if choices.KEPT_MONSTERS_RETIRE_WITH_DONE:
                return s.act(slot)
            s.b.mark(slot)
            continue
        return s.act(slot, 0, 1)
    return FIELD_DONE
