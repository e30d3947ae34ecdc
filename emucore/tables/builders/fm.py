"""Forbidden Memories tables from ``reference/fm`` (+ the AI table of ``spec/fm-ai.md`` §6.4
and the magic-card classes of ``spec/fm-engine.md`` §6.2)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from emucore.tables.builders import SOURCES_DIR, read_csv, write_csv, write_text

SORTS = ("abc_sort", "max_sort", "atk_sort", "def_sort", "type_sort", "ai_sort")
TERRAINS = ("forest", "wasteland", "mountain", "sogen", "umi", "yami")
# fm-ai.md §6.1 step 3: the duelists that play their home field card.
HOME_FIELD = {21: 334, 23: 330, 25: 332, 27: 331, 29: 333, 34: 335}
AI_COLUMNS = ("hand_size", "lp_threshold", "deck_threshold", "combo_depth", "evaluate_limit",
              "unused_5", "unused_6", "hold_chance", "blind_attack_chance")


def _ai_table(spec_dir: Path) -> dict[int, dict[str, object]]:
    """The 39 rows of ``gDuel_aOpponentData`` and the strategy splits (fm-ai.md §6.4)."""
    text = (spec_dir / "fm-ai.md").read_text(encoding="utf-8")
    section = text.split("### 6.4", 1)[1].split("### 6.5", 1)[0]
    rows: dict[int, dict[str, object]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 15 or not cells[0].isdigit():
            continue
        ident = int(cells[0])
        row: dict[str, object] = dict(zip(AI_COLUMNS, (int(c) for c in cells[2:11]), strict=True))
        row["sees_face_down"] = 1 if "yes" in cells[11] else 0
        for label, cell in (("ahead", cells[12]), ("behind", cells[13])):
            a, b, c = (int(x) for x in re.findall(r"\d+", cell))
            row[f"{label}_a"], row[f"{label}_b"], row[f"{label}_c"] = a, b, c
        rows[ident] = row
    if sorted(rows) != list(range(1, 40)):
        raise ValueError(f"{spec_dir / 'fm-ai.md'}: §6.4 table lists ids {sorted(rows)}")
    return rows




MAGIC_CLASSES = 14
EQUIP_OR_TRAP, BURN_OR_HEAL, REMOVAL, RITUAL = 0, (2, 3), 5, 12
# fm-engine.md §6.2 names class 5's targets in prose: "ATK≥N" is the ATK floor (arg = N / 10,
# the pair table stores tens); a plural type name is a card type (arg = its type id).
_ATK_FLOOR = re.compile(r"ATK\s*≥\s*(\d+)")


def _magic_table(spec_dir: Path, cards: list[dict[str, str]],
                 type_names: dict[str, str]) -> list[list[int]]:
    """Rows ``id, class, amount, removal_arg`` for every non-monster card, from the class
    table of fm-engine.md §6.2 (the class bytes at 0x80090AD4, the amounts of
    0x8009AF30/0x8009AF38 and the handlers, the removal pairs of 0x80090A4C)."""
    text = (spec_dir / "fm-engine.md").read_text(encoding="utf-8")
    section = text.split("### 6.2", 1)[1].split("### 6.3", 1)[0]
    kinds = {int(c["id"]): c["kind"] for c in cards}
    by_kind = {kind: [i for i, k in kinds.items() if k == kind] for kind in set(kinds.values())}
    rows: dict[int, list[int]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].isdigit():
            continue
        cls, members = int(cells[0]), cells[1]
        if cls == EQUIP_OR_TRAP:
            ids = by_kind["equip"] + by_kind["trap"]
        elif cls == RITUAL:
            ids = by_kind["ritual"]
        else:
            ids = [int(x) for x in re.findall(r"(?<!\()\b(\d{3})\b(?!\))", members)]
        amounts = {int(i): int(a.replace("−", "-"))
                   for i, a in re.findall(r"\b(\d{3}) \(([−-]?\d+)\)", members)}
        args = [0] * len(ids)
        if cls == REMOVAL:
            targets = cells[3].split("targets:", 1)[1].split("respectively", 1)[0]
            args = [_removal_arg(t, type_names) for t in re.split(r",\s*(?![^()]*\))", targets)]
        if cls in BURN_OR_HEAL + (9,) and sorted(amounts) != sorted(ids):
            raise ValueError(f"fm-engine.md §6.2 class {cls}: an amount per card expected")
        if len(args) != len(ids):
            raise ValueError(f"fm-engine.md §6.2 class {cls}: {len(ids)} cards, "
                             f"{len(args)} removal rules")
        for ident, arg in zip(ids, args, strict=True):
            if ident in rows:
                raise ValueError(f"fm-engine.md §6.2: card {ident} in two classes")
            rows[ident] = [ident, cls, amounts.get(ident, 0), arg]
    non_monsters = sorted(i for i, k in kinds.items() if k != "monster")
    if sorted(rows) != non_monsters:
        raise ValueError("fm-engine.md §6.2 does not list every non-monster card exactly once")
    return [rows[i] for i in non_monsters]


def _removal_arg(target: str, type_names: dict[str, str]) -> int:
    """A class-5 target as the pair table's argument (a type id, or an ATK floor / 10)."""
    floor = _ATK_FLOOR.search(target)
    if floor:
        return int(floor.group(1)) // 10
    word = target.strip(" .()").casefold()
    for type_id, name in type_names.items():
        if word in (name.casefold(), name.casefold() + "s"):
            return int(type_id)
    raise ValueError(f"fm-engine.md §6.2: unknown removal target {target!r}")


def build(reference: Path, out: Path) -> dict[str, int]:
    """Write ``roms_tables/fm``; returns row counts per file."""
    src = reference / "fm"
    counts: dict[str, int] = {}
    cards = read_csv(src / "cards.csv")
    counts["cards"] = write_csv(out / "cards.csv", (
        "id", "name", "kind", "type_id", "attribute_id", "level", "atk", "def",
        "star_1", "star_2", "password", "starchip_cost", *SORTS),
        ([c["id"], c["name"], c["kind"], c["type_id"], c["attribute_id"], c["level"], c["atk"],
          c["def"], c["guardian_star_1_id"], c["guardian_star_2_id"], c["password"],
          c["starchip_cost"], *(c[s] for s in SORTS)] for c in cards))
    fusions = read_csv(src / "fusions.csv")
    counts["fusions"] = write_csv(out / "fusions.csv",
                                  ("material_low", "material_high", "result", "glitch"),
                                  ([f["material_low"], f["material_high"], f["result"],
                                    f["odd_count_tail"]] for f in fusions))
    counts["equips"] = write_csv(out / "equips.csv", ("equip_id", "monster_id"),
                                 ([e["equip_id"], e["monster_id"]]
                                  for e in read_csv(src / "equips.csv")))
    counts["rituals"] = write_csv(
        out / "rituals.csv", ("ritual_id", "tribute_1", "tribute_2", "tribute_3", "result_id"),
        ([r["ritual_card_id"], r["tribute_1"], r["tribute_2"], r["tribute_3"], r["result_id"]]
         for r in read_csv(src / "rituals.csv")))
    ai = _ai_table(reference.parent / "spec")
    extra = (*AI_COLUMNS, "sees_face_down", "ahead_a", "ahead_b", "ahead_c",
             "behind_a", "behind_b", "behind_c")
    duelists = read_csv(src / "duelists.csv")
    for d in duelists:
        if int(d["hand_size"]) != ai[int(d["duelist_id"])]["hand_size"]:
            raise ValueError(f"duelist {d['duelist_id']}: hand size disagrees with fm-ai.md")
    counts["duelists"] = write_csv(
        out / "duelists.csv",
        ("id", "name", *extra, "field_ai", "home_field_card", "wa_mrg_block_offset"),
        ([d["duelist_id"], d["name"], *(ai[int(d["duelist_id"])][k] for k in extra),
          d["field_ai"], HOME_FIELD.get(int(d["duelist_id"]), 0), d["wa_mrg_block_offset"]]
         for d in duelists))
    counts["pools"] = write_csv(out / "pools.csv", ("duelist_id", "pool", "card_id", "weight"),
                                ([p["duelist_id"], p["pool"], p["card_id"], p["weight"]]
                                 for p in read_csv(src / "duelist_pools.csv")))
    counts["starter_pools"] = write_csv(
        out / "starter_pools.csv", ("group_id", "cards_drawn", "card_id", "weight"),
        ([p["group_id"], p["cards_drawn"], p["card_id"], p["weight"]]
         for p in read_csv(src / "starter_pools.csv")))
    counts["terrain"] = write_csv(out / "terrain.csv", ("type_id", *TERRAINS),
                                  ([t["type_id"], *(t[k] for k in TERRAINS)]
                                   for t in read_csv(src / "field_bonus.csv")))
    counts["guardian_stars"] = write_csv(
        out / "guardian_stars.csv", ("star_id", "name", "strong_against", "weak_against"),
        ([g["star_id"], g["name"], g["strong_against_id"], g["weak_against_id"]]
         for g in read_csv(src / "guardian_stars.csv")))
    counts["rank_table"] = write_csv(
        out / "rank_table.csv", ("row", "counter_offset", "category", "min_count", "max_count",
                                 "score_delta"),
        ([r["row"], r["counter_offset"].replace("+", ""), r["category"], r["min_count"],
          r["max_count"], r["score_delta"]] for r in read_csv(src / "rank_score_table.csv")))
    enums = json.loads((src / "enums.json").read_text(encoding="utf-8"))
    counts["magic"] = write_csv(out / "magic.csv", ("id", "class", "amount", "removal_arg"),
                                _magic_table(reference.parent / "spec", cards,
                                             enums["card_types"]))
    counts["ranks"] = write_csv(out / "ranks.csv", ("score_min", "rank", "starchips", "pool"),
                                ([r["score_min"] if r["score_min"] is not None else "",
                                  r["rank"], r["starchips"], r["pool"]] for r in enums["ranks"]))
    write_text(out / "SOURCES.md", (SOURCES_DIR / "fm.md").read_text(encoding="utf-8"))
    return counts
