"""1999 Official Rules tables from ``reference/ocg1999``: the 90 Vol.1 + Starter Box cards,
their rule kinds (effect, amount, type restriction), the Field-card bonuses and the 47
Series-1 fusions. Stats and names only; no card text.
"""

from __future__ import annotations

import re
from pathlib import Path

from emucore.tables.builders import read_csv, write_csv, write_text

# What each magic/trap card does, as a data-driven kind (spec/ocg1999-tcglite.md §2.2, §2.3,
# §2.6). (effect, amount, type restriction). Monsters have no effect in this card pool.
EFFECTS: dict[str, tuple[str, int, str]] = {
    "Legendary Sword": ("equip", 300, "warrior"),
    "Beast Fangs": ("equip", 300, "beast"),
    "Violet Crystal": ("equip", 300, "zombie"),
    "Book of Secret Arts": ("equip", 300, "spellcaster"),
    "Power of Kaishin": ("equip", 300, "aqua"),
    "Dark Hole": ("destroy_all_monsters", 0, ""),
    "Fissure": ("destroy_weakest_opponent", 0, ""),
    "Raigeki": ("destroy_opponent_monsters", 0, ""),
    "Red Medicine": ("heal", 500, ""),
    "Mooyan Curry": ("heal", 200, ""),
    "Sparks": ("burn", 200, ""),
    "Hinotama": ("burn", 500, ""),
    "Polymerization": ("polymerization", 0, ""),
    "Remove Trap": ("destroy_face_up_trap", 0, ""),
    "Forest": ("field", 200, ""),
    "Wasteland": ("field", 200, ""),
    "Mountain": ("field", 200, ""),
    "Sogen": ("field", 200, ""),
    "Umi": ("field", 200, ""),
    "Yami": ("field", 200, ""),
    "Trap Hole": ("trap_destroy_summoned", 1000, ""),
    "Two-Pronged Attack": ("trap_destroy_two_and_one", 0, ""),
    "Dragon Capture Jar": ("trap_lock_type", 0, "dragon"),
}

# Field cards: flat +200 / -200 by monster type (spec §2.6, first-period wording).
FIELD_BONUS: dict[str, tuple[tuple[str, int], ...]] = {
    "Forest": (("insect", 200), ("beast", 200), ("plant", 200), ("beastwarrior", 200)),
    "Wasteland": (("dinosaur", 200), ("zombie", 200), ("rock", 200)),
    "Mountain": (("dragon", 200), ("wingedbeast", 200), ("thunder", 200)),
    "Sogen": (("warrior", 200), ("beastwarrior", 200)),
    "Umi": (("fish", 200), ("seaserpent", 200), ("thunder", 200), ("aqua", 200),
            ("machine", -200), ("pyro", -200)),
    "Yami": (("fiend", 200), ("spellcaster", 200), ("fairy", -200)),
}

CARD_COLUMNS = ("id", "name", "name_ja", "set", "card_type", "property", "monster_kind",
                "attribute", "monster_type", "level", "atk", "def", "rarity", "password",
                "effect", "amount", "effect_type")
FUSION_COLUMNS = ("id", "name", "name_ja", "first_set", "attribute", "monster_type", "level",
                  "atk", "def", "password", "card_id", "material_1", "material_2", "material_3",
                  "material_1_id", "material_2_id", "material_3_id")

SOURCES = """\
# 1999 Official Rules (ocg1999) tables — sources

Built by `tools/build_tables.py --system ocg1999` from `shared/reference/ocg1999/`
(see its PROVENANCE.md). Stats and names only: **no card text, no art**.

Files
- `cards.csv`: the 90 cards of Vol.1 (1999-02-04, 40) and the Starter Box (1999-03-18, 50):
  English and Japanese name, card type, property, normal/fusion, attribute, type, level, ATK,
  DEF, rarity, password; plus the rule kind of each magic/trap card (`effect`, `amount`,
  `effect_type`). Source: iconmaster5326/YGOJSON, branch `v1/individual` (data aggregated from
  YGOPRODeck, yaml-yugi and Yugipedia); the rule kinds summarise the 1999 effects described in
  spec/ocg1999-tcglite.md sections 2.2, 2.3 and 2.6.
- `field_bonus.csv`: the six Field cards, flat +200/-200 ATK and DEF by monster type. Source:
  spec section 2.6 (yugioh-wiki.net Forest/Wasteland/Sogen pages quoting the first-period
  wording; YGOJSON).
- `fusions.csv`: the 47 Fusion Monsters first printed in Series 1 (Starter Box .. Booster 7)
  with their named materials; `card_id` and `material_N_id` point into cards.csv when that card
  is one of the 90 (0 otherwise). Source: iconmaster5326/YGOJSON as above.

Licences and attribution: YGOJSON code is MIT (Copyright (c) iconmaster5326); its data comes
from YGOPRODeck, yaml-yugi (DawnbrandBots) and Yugipedia (CC BY-SA). Card names are Konami
trademarks; the numbers are game facts.

Attribute and type spellings are YGOJSON's enum style (`beastwarrior`, `wingedbeast`, `seaserpent`).
The `effect` kinds are emucore's names for what a card does; the engine implements each kind once
(emucore/paper/effects.py).
"""


def _materials(text: str) -> list[str]:
    """The quoted names of a fusion's ``materials`` cell: ``"A" + "B"``."""
    return re.findall(r'"([^"]+)"', text)


def build(reference: Path, out: Path) -> dict[str, int]:
    """Write ``roms_tables/ocg1999``; returns row counts per file."""
    src = reference / "ocg1999"
    cards = read_csv(src / "vol1_starterbox_1999.csv")
    ids = {c["name_en"]: i for i, c in enumerate(cards, start=1)}
    missing = sorted(set(EFFECTS) - set(ids))
    if missing:
        raise ValueError(f"{src}: cards named in the effect list are missing: {missing}")
    counts: dict[str, int] = {}
    rows = []
    for i, c in enumerate(cards, start=1):
        effect, amount, effect_type = EFFECTS.get(c["name_en"], ("", 0, ""))
        card_type = "magic" if c["card_type"] == "spell" else c["card_type"]
        rows.append([i, c["name_en"], c["name_ja"], c["set"], card_type, c["property"],
                     c["monster_kind"], c["attribute"], c["monster_type"], c["level"],
                     c["atk"], c["def"], c["rarity"], c["password"], effect, amount,
                     effect_type])
    counts["cards"] = write_csv(out / "cards.csv", CARD_COLUMNS, rows)
    counts["field_bonus"] = write_csv(
        out / "field_bonus.csv", ("field_id", "monster_type", "delta"),
        ([ids[name], kind, delta] for name, pairs in FIELD_BONUS.items()
         for kind, delta in pairs))
    fusions = []
    for i, f in enumerate(read_csv(src / "fusions_series1.csv"), start=1):
        names = _materials(f["materials"]) + ["", ""]
        fusions.append([i, f["name_en"], f["name_ja"], f["first_set"], f["attribute"],
                        f["monster_type"], f["level"], f["atk"], f["def"], f["password"],
                        ids.get(f["name_en"], 0), *names[:3],
                        *(ids.get(n, 0) for n in names[:3])])
    counts["fusions"] = write_csv(out / "fusions.csv", FUSION_COLUMNS, fusions)
    write_text(out / "SOURCES.md", SOURCES)
    return counts
