"""Duel Monsters (Game Boy, 1998) tables from ``reference/dm1``.

Exact rows (``approximate = 0``) come straight from the reference files: cards, the fusion
table (``fusion_pairs.csv`` + ``fusion_pairs_added.csv``), the 26 equip lists
(``equips_inferred_from_fm.csv``), the 16 drop tables (``drops.csv``), the milestone rewards
(``victory_rewards.csv``) and the starter pool (``starter_pool.csv``). The cartridge's stored
field tables and most opponent deck weights are still not public (reference README, last
section). Until a user extracts them from their own ROM (``tools/extract_dm1_rom.py``) this
builder derives them from one named rule each and marks those rows ``approximate = 1``:

* :data:`FIELD_EXCEPTIONS` — monsters whose stored field values do not follow their type;
* :data:`OPPONENT_THEMES` — the types an opponent's guessed deck cards are drawn from;
* :data:`SIMON_19TH` — the one card of Simon Muran's 19 the guide does not list;
* :data:`STARTER_MAGIC` — the seven magic cards of a new game's deck (README text).

Each opponent's deck pool is ``exact`` (read from a cartridge), ``estimated`` (every card
known, weights estimated: Yami Yugi, Tristan) or ``approximate`` (cards partly guessed).
"""

from __future__ import annotations

from pathlib import Path

from emucore.hw import gameboy
from emucore.tables.builders import read_csv, write_csv, write_text

TYPE_NAMES = ("Dragon", "Spellcaster", "Zombie", "Warrior", "Beast-Warrior", "Beast",
              "Winged Beast", "Fiend", "Fairy", "Insect", "Dinosaur", "Reptile", "Fish",
              "Sea Serpent", "Machine", "Thunder", "Aqua", "Pyro", "Rock", "Plant", "Magic")
MAGIC_TYPE = TYPE_NAMES.index("Magic")
POOL_SUM = 2048

# rules summary: these monsters "do not follow their type" on a field. The stored values are
# unknown; the approximation keeps their base stats on every terrain. PaniK's monsters are named
# by the rules summary but not listed anywhere public, so none are included here.
FIELD_EXCEPTIONS = (278, 74, 27, 47)

# magic_cards.csv category -> engine effect name (emucore/dm1/magic.py dispatches on these).
EFFECTS = {"equip": "equip", "transform": "transform", "force-attack": "force_attack",
           "seal-by-type": "seal_type", "field": "field", "heal": "heal", "burn": "burn",
           "lock": "lock", "power-down": "level_down_all", "reveal": "reveal"}
DESTROY = {336: "destroy_all", 337: "destroy_opponent"}
LOCK_TURNS = 3  # Swords of Revealing Light: "no attacks for 3 turns" (card text)
TRANSFORMS = {318: (62, 63)}  # Elegant Egotist: Harpie Lady -> Harpie Lady Sisters

# Each opponent (ROM duelist index) whose deck is not fully known: the types its guessed deck
# cards are drawn from. The number of distinct cards is the real one (opponents.csv); known
# cards come first (deck_partial_lists.csv), the rest are the strongest of the theme below the
# stage's ATK ceiling.
OPPONENT_THEMES: dict[int, tuple[str, ...]] = {
    0: ("Insect", "Plant"), 1: ("Winged Beast", "Fairy", "Beast"), 2: ("Dinosaur", "Dragon"),
    3: ("Aqua", "Fish", "Sea Serpent"), 4: ("Dragon", "Machine", "Warrior", "Fiend"),
    5: ("Beast", "Fiend", "Warrior", "Spellcaster", "Zombie", "Aqua"),
    6: ("Machine", "Rock", "Pyro", "Fiend"), 7: ("Fiend", "Zombie"),
    8: ("Machine", "Warrior", "Pyro", "Rock"), 9: ("Spellcaster", "Warrior", "Fiend"),
    11: ("Warrior", "Beast-Warrior", "Dragon"),
    12: ("Zombie", "Fiend"), 13: ("Spellcaster",),
    14: ("Fiend", "Spellcaster", "Dragon", "Warrior"),
}
# opponents.csv note: Tristan's "deck = Kuriboh, Skull Servant, Dark Plant at ~33% each"
TRISTAN_DECK = (24, 58, 123)
STAGE_ATK_CEILING = {1: 1500, 2: 2400, 3: 2800, 4: 3500, 5: 3500}
OPPONENT_POOL_MONSTERS = 300  # approximate pools use the regular monsters #1..#300 only
YAMI_YUGI, TRISTAN, SIMON = 15, 10, 13
# emucore.dm1.choices D12: Simon's 19th deck card (the guide lists 18, "all Spellcasters"):
# #16 Time Wizard, the unlisted Spellcaster his drop table weights highest (10/2048; #104
# has 2/2048).
SIMON_19TH = 16
# reference README, starter_pool.csv row: "Raigeki, Sparks x2, Hinotama, Mooyan Curry, Red
# Medicine, Dark-piercing Light (one guide says Raigeki *or* Dark Hole: possibly random)".
# (card, copies, approximate): Raigeki's slot is the uncertain one.
STARTER_MAGIC = ((337, 1, 1), (343, 2, 0), (344, 1, 0), (338, 1, 0), (339, 1, 0), (350, 1, 0))


def _cards(reference: Path) -> list[dict[str, str]]:
    rows = read_csv(reference / "cards.csv")
    if [int(r["number"]) for r in rows] != list(range(1, 366)):
        raise ValueError(f"{reference / 'cards.csv'}: numbers are not exactly 1..365")
    return rows


def _card_rows(cards: list[dict[str, str]]) -> list[list[object]]:
    out = []
    for r in cards:
        magic = r["kind"] == "Magic"
        type_id = MAGIC_TYPE if magic else TYPE_NAMES.index(r["type"])
        out.append([r["number"], r["name"], "magic" if magic else "monster", type_id,
                    "" if magic else r["atk"], "" if magic else r["def"], r["rarity"],
                    r["password_ja"], r["name_full_en"]])
    return out


def _field_rows(reference: Path, cards: list[dict[str, str]]) -> tuple[list, list]:
    fields = read_csv(reference / "field_bonus.csv")
    field_rows, stat_rows = [], []
    monsters = [r for r in cards if r["kind"] == "Monster"]
    for f in fields:
        terrain = int(f["rom_terrain_slot"])
        boosted = [t for t in f["boosted_types"].split(";") if t]
        weakened = [t for t in f["weakened_types"].split(";") if t]
        field_rows.append([f["field_card_number"], terrain, f["field"],
                           ";".join(boosted), ";".join(weakened)])
        for r in monsters:
            number = int(r["number"])
            effect = 1 if r["type"] in boosted else -1 if r["type"] in weakened else 0
            if number in FIELD_EXCEPTIONS:
                effect = 0
            atk = int(gameboy.scaled_stat(int(r["atk"]), 0, effect))
            dfn = int(gameboy.scaled_stat(int(r["def"]), 0, effect))
            stat_rows.append([number, terrain, atk, dfn, 1])
    return field_rows, stat_rows


def _fusion_rows(reference: Path) -> list[list[int]]:
    """The ROM fusion table's known pairs: the original list plus the 14 added recipes."""
    pairs: dict[tuple[int, int], int] = {}
    for name in ("fusion_pairs.csv", "fusion_pairs_added.csv"):
        for r in read_csv(reference / name):
            a, b, result = int(r["material_a"]), int(r["material_b"]), int(r["result"])
            if max(a, b) > 300:  # the Elegant Egotist row is a magic effect, not a ROM fusion
                continue
            key = (min(a, b), max(a, b))
            if pairs.setdefault(key, result) != result:
                raise ValueError(f"{reference / name}: pair {key} gives {result}, "
                                 f"elsewhere {pairs[key]}")
    return sorted([a, b, r] for (a, b), r in pairs.items())


def _magic_rows(reference: Path) -> list[list[object]]:
    out = []
    for r in read_csv(reference / "magic_cards.csv"):
        number = int(r["number"])
        effect = DESTROY.get(number) or EFFECTS[r["category"]]
        terrain = int(r["effect"].split("terrain slot ")[1].rstrip(")")) if effect == "field" \
            else 0
        amount = int(r["magnitude"]) if r["magnitude"] else 0
        src, dst = TRANSFORMS.get(number, (0, 0))
        out.append([number, r["name"], effect, amount, terrain,
                    0 if effect == "seal_type" else "",  # Dragon Capture Jar: type 0 = Dragon
                    src or "", dst or "", LOCK_TURNS if effect == "lock" else ""])
    return out


def _opponent_index(reference: Path) -> dict[str, int]:
    """Full opponent name (as the drop and reward files spell it) -> ROM duelist index."""
    return {o["name"]: int(o["rom_duelist_index"]) for o in read_csv(reference / "opponents.csv")}


def _opponent_rows(reference: Path, cards: list[dict[str, str]]) -> tuple[list, list]:
    """opponents.csv (with each pool's status) and the deck pools: Yami Yugi's estimate,
    Tristan's three cards, the guide's partial lists completed by the theme rule."""
    by_number = {int(r["number"]): r for r in cards}
    index_of = _opponent_index(reference)
    partial: dict[int, list[int]] = {}
    for r in read_csv(reference / "deck_partial_lists.csv"):
        partial.setdefault(index_of[r["opponent"]], []).append(int(r["card"]))
    partial[SIMON].append(SIMON_19TH)
    estimate = {int(r["card"]): float(r["est_stock_weight_of_2048"])
                for r in read_csv(reference / "deck_yami_yugi_estimate.csv")}
    opp_rows, pool_rows = [], []
    for o in read_csv(reference / "opponents.csv"):
        index, stage = int(o["rom_duelist_index"]), int(o["stage"])
        count = int(o["deck_distinct_cards"])
        if index == YAMI_YUGI:
            weighted, status = _round_weights(estimate), "estimated"
        elif index == TRISTAN:
            weighted = dict(zip(TRISTAN_DECK, _even_weights(len(TRISTAN_DECK)), strict=True))
            status = "estimated"
        else:
            known = partial.get(index, [])
            chosen = known + _themed(by_number, OPPONENT_THEMES[index], STAGE_ATK_CEILING[stage],
                                     count - len(known), known)
            weighted = dict(zip(sorted(chosen), _even_weights(len(chosen)), strict=True))
            status = "approximate"
        if len(weighted) != count:
            raise ValueError(f"opponent {index}: {len(weighted)} deck cards, the ROM has {count}")
        opp_rows.append([index, o["name"], o["rom_name"], int(o["pool_id"]), stage, count,
                         int(o["drop_distinct_cards"]), status])
        pool_rows += [[index, card, w, 1] for card, w in sorted(weighted.items())]
    return opp_rows, pool_rows


def _themed(by_number: dict[int, dict[str, str]], theme: tuple, ceiling: int,
            count: int, known: list[int]) -> list[int]:
    """``count`` more monsters, none of ``known``: the strongest under ``ceiling``, theme
    types first, then any type."""
    def strongest(pred) -> list[int]:
        pool = [n for n in range(1, OPPONENT_POOL_MONSTERS + 1)
                if by_number[n]["kind"] == "Monster" and int(by_number[n]["atk"]) <= ceiling
                and n not in known and pred(by_number[n])]
        return sorted(pool, key=lambda n: (-int(by_number[n]["atk"]), n))
    picked = strongest(lambda r: r["type"] in theme)[:count]
    rest = [n for n in strongest(lambda r: True) if n not in picked]
    return picked + rest[:count - len(picked)]


def _even_weights(n: int) -> list[int]:
    """2048 split over ``n`` cards as evenly as integers allow (the first get the remainder)."""
    base, extra = divmod(POOL_SUM, n)
    return [base + (1 if i < extra else 0) for i in range(n)]


def _round_weights(estimate: dict[int, float]) -> dict[int, int]:
    """Estimated weights as integers summing to 2048: floor each, then the largest
    remainders (ties: lower card number) get one more."""
    floors = {card: int(w) for card, w in estimate.items()}
    short = POOL_SUM - sum(floors.values())
    by_remainder = sorted(estimate, key=lambda c: (-(estimate[c] - floors[c]), c))
    for card in by_remainder[:short]:
        floors[card] += 1
    return floors


def _equip_rows(reference: Path) -> list[list[int]]:
    """The 26 equip lists (equip card -> monster), exact from the reference."""
    return sorted([int(r["equip_card"]), int(r["monster"]), 0]
                  for r in read_csv(reference / "equips_inferred_from_fm.csv"))


def _drop_rows(reference: Path) -> list[list[int]]:
    """Each opponent's drop table: weights out of 2048."""
    index_of = _opponent_index(reference)
    return sorted([index_of[r["opponent"]], int(r["card"]), int(r["weight_of_2048"]), 0]
                  for r in read_csv(reference / "drops.csv"))


def _reward_rows(reference: Path) -> list[list[int]]:
    """Each opponent's rewards at 10, 20 ... 100 wins."""
    index_of = _opponent_index(reference)
    return sorted([index_of[r["opponent"]], int(r["wins"]), int(r["card"]), 0]
                  for r in read_csv(reference / "victory_rewards.csv"))


def _starter_pool_rows(reference: Path) -> list[list[int]]:
    return [[int(r["card"]), 0] for r in read_csv(reference / "starter_pool.csv")]


SOURCES_HEAD = """\
# Duel Monsters (Game Boy, 1998) tables — sources

Built by `tools/build_tables.py --system dm1` from `shared/reference/dm1/` (see its README for
provenance and cross-checks, its last section for the files added in 2026-12) by
`emucore/tables/builders/dm1.py`. No card text, no art. Tables extracted from a user's own
cartridge (`tools/extract_dm1_rom.py ROM --out DIR`) have the same format with
`approximate = 0`. Every row says whether it is exact (`approximate = 0`: taken from these
sources) or approximate (`approximate = 1`: a guess from a named rule in the builder, or an
estimated weight), to be replaced by extracted data.

| file | content | source |
|---|---|---|
"""
SOURCES_ROWS = (
    ("cards.csv", "365 cards (315 monsters, 50 magic): number, short name, kind, type enum, "
     "ATK, DEF, rarity, password, full English name",
     "xaxion99/ygo-duel-monsters `csv/card_list.csv`, `csv/card_details.csv` (scraped from "
     "Yugipedia, community wiki content: check its licence before redistributing); Japanese "
     "names checked against Darrman/DM1Translation `Insertion/script/cardname.txt`; type enum "
     "from gorepaw/yugioh-dm1-romhack `docs/NOTES.md`"),
    ("fusions.csv", "unordered fusion pairs of the ROM fusion table (monsters #2..#300): 2,151 "
     "of the ROM's 2,159 recipes, all 52 results and 263 materials (8 recipes unknown, most "
     "likely Flame Swordsman pairs)",
     "xaxion99/ygo-duel-monsters `ygo/db.sqlite3` (Yugipedia) plus the 14 recipes of "
     "`fusion_pairs_added.csv` (a newer Yugipedia list, kept in "
     "Djjimenez895/duel-monsters-fusions-calculator `backend/src/scripts/dm1_fusions.txt`); "
     "the Harpie Lady + Elegant Egotist row is a magic effect and lives in magic.csv"),
    ("magic.csv", "the 50 magic cards: engine effect, LP amount, terrain, sealed type, "
     "transform, lock turns",
     "the game's own card texts and duel messages (Darrman/DM1Translation `carddesc.txt`, "
     "`dueltext.txt`); verbs from gorepaw/yugioh-dm1-romhack"),
    ("fields.csv", "the six field cards: terrain slot, boosted and weakened types",
     "Darrman/DM1Translation `dueltext.txt`; gorepaw/yugioh-dm1-romhack; the 0.7 factor only "
     "from the Yugipedia rules page"),
    ("field_stats.csv", "**approximation**: ATK/DEF per monster per terrain. The cartridge "
     "stores six full tables (bank 9, 0x24939..), not public. Built as base x1.3 (boosted "
     "type) or x0.7 (weakened type), exact for stats that are multiples of 10; the named "
     "exceptions #278, #74, #27, #47 keep their base stats (`FIELD_EXCEPTIONS`); PaniK's "
     "exception monsters are not known and not included", "rule in the builder"),
    ("equips.csv", "the 26 equip lists (pointer table 0x26BC8): equip -> monster, 1,295 "
     "entries", "`equips_inferred_from_fm.csv`: Forbidden Memories' lists cut to cards "
     "#1..#365; 1,295 entries + 26 terminators x 2 bytes = 2,642 bytes, the ROM's equip pool "
     "size; Legendary Sword's first entries agree with the romhack notes"),
    ("opponents.csv", "the 16 campaign opponents: ROM duelist index, name, pool id, stage, "
     "distinct deck and drop cards, and whether the deck pool is exact, estimated or "
     "approximate", "gorepaw/yugioh-dm1-romhack `docs/NOTES.md`, `docs/PROGRESSION.md`; "
     "Yugipedia"),
    ("opponent_pools.csv", "each opponent's deck as weights summing to 2048, every row "
     "`approximate = 1`. The real 365-entry cumulative tables (bank 8, 0x2006C) are not "
     "public. Yami Yugi: all 27 cards with estimated weights (gorepaw/yugioh-dm1-romhack "
     "`docs/YAMI_YUGI.md`, rescaled; rounded to integers by largest remainder); Tristan: "
     "Kuriboh / Skull Servant / Dark Plant evenly; Simon Muran: the guide's 18 Spellcasters "
     "plus `SIMON_19TH`; Pegasus: the guide's first 12 plus themed guesses (rojiuragame.com, "
     "DM1 part 3); the others: the real number of distinct cards, the strongest monsters of "
     "the opponent's theme (`OPPONENT_THEMES`) under a stage ceiling (`STAGE_ATK_CEILING`). "
     "Weights that are unknown are split evenly", "rule in the builder"),
    ("drops.csv", "each opponent's drop table: weight out of 2048 per card; each sums to 2048 "
     "with the ROM's number of distinct cards", "`drops.csv` of the reference: "
     "Djjimenez895/duel-monsters-fusions-calculator `backend/db_seed_data/"
     "seed_card_drop_data.sql`, `seed_spell_card_drop_data.sql` (percent x 20.48, four id "
     "errors corrected)"),
    ("rewards.csv", "each opponent's rewards at 10, 20 ... 100 wins", "`victory_rewards.csv` "
     "of the reference: the same repository's `seed_victory_bonuses_data.sql`, "
     "`seed_spell_victory_bonuses_data.sql` (Simon's 90-win reward is #22; Exodia's head is "
     "Yami Yugi's 100-win reward)"),
    ("starter_pool.csv", "the 100 monsters a new game's deck is dealt from", "`starter_pool.csv` "
     "of the reference (gorepaw/yugioh-dm1-romhack's record of the stock bytes; equals the "
     "100 cards tagged Starter Deck)"),
    ("starter_magic.csv", "the seven magic cards of a new game's deck; Raigeki's slot is "
     "`approximate = 1` (one guide says Raigeki or Dark Hole)", "the reference README "
     "(`STARTER_MAGIC` in the builder)"),
)


def _sources() -> str:
    return SOURCES_HEAD + "".join(f"| {f} | {c} | {s} |\n" for f, c, s in SOURCES_ROWS)


def build(reference: Path, out: Path) -> dict[str, int]:
    """Write ``roms_tables/dm1`` from ``reference`` (the shared reference root or its dm1/)."""
    ref = reference / "dm1" if (reference / "dm1").is_dir() else reference
    cards = _cards(ref)
    field_rows, stat_rows = _field_rows(ref, cards)
    opp_rows, pool_rows = _opponent_rows(ref, cards)
    counts = {
        "cards": write_csv(out / "cards.csv", ("id", "name", "kind", "type_id", "atk", "def",
                                               "rarity", "password", "name_full"),
                           _card_rows(cards)),
        "fusions": write_csv(out / "fusions.csv", ("material_low", "material_high", "result"),
                             _fusion_rows(ref)),
        "magic": write_csv(out / "magic.csv", ("id", "name", "effect", "amount", "terrain",
                                               "sealed_type", "transform_from", "transform_to",
                                               "lock_turns"), _magic_rows(ref)),
        "fields": write_csv(out / "fields.csv", ("field_card", "terrain", "name", "boosted",
                                                 "weakened"), field_rows),
        "field_stats": write_csv(out / "field_stats.csv", ("card_id", "terrain", "atk", "def",
                                                           "approximate"), stat_rows),
        "equips": write_csv(out / "equips.csv", ("equip_id", "monster_id", "approximate"),
                            _equip_rows(ref)),
        "opponents": write_csv(out / "opponents.csv", ("id", "name", "rom_name", "pool_id",
                                                       "stage", "deck_cards", "drop_cards",
                                                       "pool"), opp_rows),
        "opponent_pools": write_csv(out / "opponent_pools.csv", ("opponent_id", "card_id",
                                                                 "weight", "approximate"),
                                    pool_rows),
        "drops": write_csv(out / "drops.csv", ("opponent_id", "card_id", "weight",
                                               "approximate"), _drop_rows(ref)),
        "rewards": write_csv(out / "rewards.csv", ("opponent_id", "wins", "card_id",
                                                   "approximate"), _reward_rows(ref)),
        "starter_pool": write_csv(out / "starter_pool.csv", ("card_id", "approximate"),
                                  _starter_pool_rows(ref)),
        "starter_magic": write_csv(out / "starter_magic.csv", ("card_id", "copies",
                                                               "approximate"), STARTER_MAGIC),
    }
    write_text(out / "SOURCES.md", _sources())
    return counts
