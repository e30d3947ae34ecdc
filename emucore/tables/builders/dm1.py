"""Duel Monsters (Game Boy, 1998) tables from ``reference/dm1``.

The cartridge's stored field tables, equip lists and opponent deck weights are not public
(spec/dm1.md §7). Until a user extracts them from their own ROM (``tools/extract_dm1_rom.py``)
this builder derives **approximations**, each from one named rule below, and marks every
approximate row with ``approximate = 1``:

* :data:`FIELD_EXCEPTIONS` — monsters whose stored field values do not follow their type;
* :data:`EQUIP_RULES` — which monsters each equip fits, read from the card texts;
* :data:`OPPONENT_THEMES` — the types each opponent's approximate deck pool is drawn from.
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

FEMALE_WORDS = ("lady", "elf", "queen", "girl", "witch", "mermaid", "maiden", "princess",
                "angel", "harpie", "sister", "madame", "fairy", "mistress", "woman")
HORNED_WORDS = ("horn", "unicorn", "ox", "bull", "rhino", "minotaur", "kabuto", "beetle")
SHELLED_WORDS = ("shell", "turtle", "tortoise", "crab", "clam", "snail", "kabuto", "beetle")
DARK_WORDS = ("dark", "black", "evil", "doom", "death", "skull", "demon", "shadow", "ruin")
# Each equip: (types it fits, name words it needs, name words that exclude); empty = any.
# An approximation of the cartridge's eligibility lists (pointer table 0x26BC8).
EQUIP_RULES: dict[int, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    301: (("Warrior",), (), DARK_WORDS),
    302: (("Warrior",), DARK_WORDS, ()),
    303: (("Fiend",), (), ()),
    304: (("Fiend", "Beast-Warrior"), (), ()),
    305: (("Insect",), (), ()),
    306: (("Insect",), (), ()),
    307: ((), ("elf",), ()),
    308: (("Beast",), (), ()),
    309: ((), SHELLED_WORDS, ()),
    310: (("Plant",), (), ()),
    311: (("Spellcaster",), DARK_WORDS, ()),
    312: (("Fairy",), (), ()),
    313: ((), HORNED_WORDS, DARK_WORDS),
    314: ((), HORNED_WORDS + ("unicorn",), ()),
    315: (("Dragon",), (), ()),
    316: ((), FEMALE_WORDS, ()),
    317: ((), FEMALE_WORDS, ()),
    319: (("Beast",), (), ()),
    321: ((), FEMALE_WORDS + DARK_WORDS, ()),
    322: (("Zombie",), (), ()),
    323: (("Spellcaster",), (), DARK_WORDS),
    324: (("Thunder", "Rock", "Pyro"), (), ()),
    325: (("Machine",), (), ()),
    326: (("Dinosaur",), (), ()),
    327: (("Winged Beast",), (), ()),
    328: (("Aqua", "Fish", "Sea Serpent"), (), ()),
}
# Each opponent (ROM duelist index): the types its approximate deck is drawn from, or fixed
# cards where the reference names them (Tristan). The number of distinct cards is the real one
# (opponents.csv); the cards are the strongest of the theme below the stage's ATK ceiling.
OPPONENT_THEMES: dict[int, tuple[str, ...] | tuple[int, ...]] = {
    0: ("Insect", "Plant"), 1: ("Winged Beast", "Fairy", "Beast"), 2: ("Dinosaur", "Dragon"),
    3: ("Aqua", "Fish", "Sea Serpent"), 4: ("Dragon", "Machine", "Warrior", "Fiend"),
    5: ("Beast", "Fiend", "Warrior", "Spellcaster", "Zombie", "Aqua"),
    6: ("Machine", "Rock", "Pyro", "Fiend"), 7: ("Fiend", "Zombie"),
    8: ("Machine", "Warrior", "Pyro", "Rock"), 9: ("Spellcaster", "Warrior", "Fiend"),
    10: (58, 24, 123), 11: ("Warrior", "Beast-Warrior", "Dragon"),
    12: ("Zombie", "Fiend"), 13: ("Spellcaster",),
    14: ("Fiend", "Spellcaster", "Dragon", "Warrior"),
    15: ("Spellcaster", "Warrior", "Dragon", "Fiend"),
}
STAGE_ATK_CEILING = {1: 1500, 2: 2400, 3: 2800, 4: 3500, 5: 3500}
OPPONENT_POOL_MONSTERS = 300  # approximate pools use the regular monsters #1..#300 only


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
    rows = []
    for r in read_csv(reference / "fusion_pairs.csv"):
        a, b = int(r["material_a"]), int(r["material_b"])
        if max(a, b) > 300:  # the Elegant Egotist row is a magic effect, not a ROM fusion
            continue
        rows.append([min(a, b), max(a, b), int(r["result"])])
    return sorted(rows)


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


def _fits(rule: tuple, card: dict[str, str]) -> bool:
    """A monster fits when its type is listed (if types are given), its name has one of the
    words (if words are given) and none of the excluding words."""
    types, words, exclude = rule
    name = card["name_full_en"].casefold()
    return ((not types or card["type"] in types) and (not words or any(w in name for w in words))
            and not any(w in name for w in exclude))


def _equip_rows(cards: list[dict[str, str]]) -> list[list[int]]:
    monsters = [r for r in cards if r["kind"] == "Monster"]
    return [[equip, int(m["number"]), 1] for equip, rule in sorted(EQUIP_RULES.items())
            for m in monsters if _fits(rule, m)]


def _opponent_rows(reference: Path, cards: list[dict[str, str]]) -> tuple[list, list]:
    opponents = read_csv(reference / "opponents.csv")
    by_number = {int(r["number"]): r for r in cards}
    opp_rows, pool_rows = [], []
    for o in opponents:
        index, stage = int(o["rom_duelist_index"]), int(o["stage"])
        opp_rows.append([index, o["name"], o["rom_name"], int(o["pool_id"]), stage, 1])
        theme = OPPONENT_THEMES[index]
        if isinstance(theme[0], int):
            chosen = list(theme)
        else:
            chosen = _themed(by_number, theme, STAGE_ATK_CEILING[stage],
                             int(o["deck_distinct_cards"]))
        weights = _even_weights(len(chosen))
        pool_rows += [[index, card, w, 1] for card, w in zip(sorted(chosen), weights,
                                                            strict=True)]
    return opp_rows, pool_rows


def _themed(by_number: dict[int, dict[str, str]], theme: tuple, ceiling: int,
            count: int) -> list[int]:
    """The ``count`` strongest monsters under ``ceiling``, theme types first, then any type."""
    def strongest(pred) -> list[int]:
        pool = [n for n in range(1, OPPONENT_POOL_MONSTERS + 1)
                if by_number[n]["kind"] == "Monster" and int(by_number[n]["atk"]) <= ceiling
                and pred(by_number[n])]
        return sorted(pool, key=lambda n: (-int(by_number[n]["atk"]), n))
    picked = strongest(lambda r: r["type"] in theme)[:count]
    rest = [n for n in strongest(lambda r: True) if n not in picked]
    return picked + rest[:count - len(picked)]


def _even_weights(n: int) -> list[int]:
    """2048 split over ``n`` cards as evenly as integers allow (the first get the remainder)."""
    base, extra = divmod(POOL_SUM, n)
    return [base + (1 if i < extra else 0) for i in range(n)]


SOURCES_HEAD = """\
# Duel Monsters (Game Boy, 1998) tables — sources

Built by `tools/build_tables.py --system dm1` from `shared/reference/dm1/` (see its README for
provenance and cross-checks) by `emucore/tables/builders/dm1.py`. No card text, no art. Tables
extracted from a user's own cartridge (`tools/extract_dm1_rom.py ROM --out DIR`) have the same
format with `approximate = 0`. Rows marked `approximate = 1` are guesses from a named rule in
the builder, to be replaced by extracted data.

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
    ("fusions.csv", "unordered fusion pairs of the ROM fusion table (monsters #2..#300), about "
     "99% complete: 2137 of the ROM's 2159 recipes",
     "xaxion99/ygo-duel-monsters `ygo/db.sqlite3` (Yugipedia); the Harpie Lady + Elegant "
     "Egotist row is a magic effect and lives in magic.csv"),
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
    ("equips.csv", "**approximation**: equip -> eligible monster. The ROM lists (pointer table "
     "0x26BC8) are not public; `EQUIP_RULES` reads each card text's description (types and "
     "name words)", "rule in the builder"),
    ("opponents.csv", "the 16 campaign opponents: ROM duelist index, name, pool id, stage",
     "gorepaw/yugioh-dm1-romhack `docs/NOTES.md`, `docs/PROGRESSION.md`; Yugipedia"),
    ("opponent_pools.csv", "**approximation**: each opponent's deck as weights summing to "
     "2048. The real 365-entry cumulative tables (bank 8, 0x2006C) are not public. Each pool "
     "has the real number of distinct cards; Tristan's is the known Kuriboh / Skull Servant / "
     "Dark Plant; the others are the strongest monsters of the opponent's theme "
     "(`OPPONENT_THEMES`) under a stage ceiling (`STAGE_ATK_CEILING`), weights split evenly",
     "rule in the builder"),
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
                            _equip_rows(cards)),
        "opponents": write_csv(out / "opponents.csv", ("id", "name", "rom_name", "pool_id",
                                                       "stage", "approximate"), opp_rows),
        "opponent_pools": write_csv(out / "opponent_pools.csv", ("opponent_id", "card_id",
                                                                 "weight", "approximate"),
                                    pool_rows),
    }
    write_text(out / "SOURCES.md", _sources())
    return counts
