"""The campaign as a story: the original's chapters and duelists in order, the one choice it
leaves to the player (which shrine next, and when to take the labyrinth), what a duel's
outcome does to the story, the terrain each campaign duel starts on, and the Free Duel
unlocks. No pygame; the campaign and game-over screens ask this module.

Sources (krystalgamer/memories-decomp): ``notes/research/the-game.md`` §7.1 (the duelists
in campaign order, forced and optional), §7.5-7.8 (the shrines in any order, the labyrinth
after two to four shrines, the finale), §7.12 (a loss is game over, except Heishin's first
duel, which must be lost), §1 (the Free Duel unlock bits ``0x6E0 + id`` exist for ids 1..38
only, so Duel Master K is always open), and ``src/candidates/game/text_start_campaign_duel.c``
(``Text_StartCampaignDuel``: the story script's duel command ``F8 0D opponent win-scene
loss-scene terrain sound sound``; its terrain byte arms ``gDuel_bTerrain``).

**Progress** is the list of story duels passed, in order (:func:`next_duels` replays it); a
save stores it as ``story``. Optional duels (the ones the story lets the player decline) do
not advance the story.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

# duelist ids (the duelist table's order is the story's, the-game.md §7.1)
SETO, HEISHIN, MAGE_SOLDIER = 7, 8, 18
LABYRINTH_MAGE, SETO_2ND = 31, 32
DUEL_MASTER_K = 39
OPENING = (SETO, HEISHIN, 9, 10, 11, 12, 13, 14, 15, 16, 17, MAGE_SOLDIER)
FINALE = (33, 34, 35, 36, 37, 38)
LAST = 38  # Nitemare: the story ends with this duel won


@dataclass(frozen=True)
class Shrine:
    """A shrine: its gate mage and its High Mage, both on the shrine's home terrain."""

    name: str
    gate: int
    high: int
    terrain: int


# terrain numbers: 0 normal, 1 forest, 2 wasteland, 3 mountain, 4 sogen, 5 umi, 6 yami
SHRINES = (Shrine("Sea Shrine", 21, 22, 5), Shrine("Forest Shrine", 23, 24, 1),
           Shrine("Mountain Shrine", 25, 26, 3), Shrine("Desert Shrine", 27, 28, 2),
           Shrine("Meadow Shrine", 29, 30, 4))
LABYRINTH_AFTER = range(2, 5)  # the kidnapping scene comes after two to four shrines

CHAPTERS = (  # (title, the story duels that belong to it)
    ("Egypt", (1, 2, 3, 4, 5, 6, SETO, HEISHIN)),
    ("The tournament", tuple(range(9, 18))),
    ("Egypt, a thousand years on", (MAGE_SOLDIER, 19, 20)),
    ("The five shrines", (*range(21, 31), LABYRINTH_MAGE, SETO_2ND)),
    ("The Vast Shrine", (33, 34, 35)),
    ("The Forbidden Ruins", (36, 37, 38)),
)

# fm.choices G5: the terrain of each campaign duel is its story command's byte, which lives
# in the executable's text bank (SLUS_014.11) and is not in emucore's tables; without the
# user's disc (campaign_terrains) emucore starts these duels on the terrain the-game.md names
# for them (the shrines' home fields, Yami for Heishin's duel - its command's byte is 6,
# quoted there - and for the two Guardians) and every other campaign duel on the normal field.
DEFAULT_TERRAIN = 0
KNOWN_TERRAINS = {HEISHIN: 6, 33: 6, 34: 6,
                  **{d: s.terrain for s in SHRINES for d in (s.gate, s.high)}}


def chapter_of(path: Sequence[int]) -> str:
    """The title of the chapter the next story duel belongs to."""
    upcoming = next_duels(path)
    duelist = upcoming[0] if upcoming else LAST
    return next(title for title, duels in CHAPTERS if duelist in duels)


def _shrine_duel(done: set[int]) -> list[int] | None:
    """The shrine part: a shrine begun (gate beaten) goes on to its High Mage, the labyrinth
    begun to Seto 2nd; else the shrines not cleared, and the labyrinth once two to four are
    (None once all five are cleared)."""
    for shrine in SHRINES:
        if shrine.gate in done and shrine.high not in done:
            return [shrine.high]
    if LABYRINTH_MAGE in done and SETO_2ND not in done and \
            sum(s.high in done for s in SHRINES) < len(SHRINES):
        return [SETO_2ND]
    left = [s.gate for s in SHRINES if s.high not in done]
    if not left:
        return None
    if len(SHRINES) - len(left) in LABYRINTH_AFTER and LABYRINTH_MAGE not in done:
        left.append(LABYRINTH_MAGE)
    return left


def next_duels(path: Sequence[int]) -> list[int]:
    """The story duels offered next after ``path`` (more than one: the player chooses the
    shrine, or the labyrinth); [] when the story is over."""
    done = set(path)
    for duelist in OPENING:
        if duelist not in done:
            return [duelist]
    shrine = _shrine_duel(done)
    if shrine is not None:
        return shrine
    # quirk: with all five shrines cleared first the labyrinth comes in the finale and
    # Seto 2nd is never met (the-game.md §7.6)
    finale = ((LABYRINTH_MAGE,) if LABYRINTH_MAGE not in done else ()) + FINALE
    return [d for d in finale if d not in done][:1]


def optional_duels(path: Sequence[int]) -> list[int]:
    """The duels the story lets the player take or decline now: Simon, Teana, Jono and the
    villagers in Egypt before Heishin (Villager 3 only before Seto), Jono 2nd and Teana 2nd
    from the tournament's end until the five High Mages are beaten."""
    done = set(path)
    if HEISHIN not in done:
        return [1, 2, 3, 4, 5] + ([6] if SETO not in done else [])
    if 17 in done and not all(s.high in done for s in SHRINES):
        return [19, 20]
    return []


def is_over(path: Sequence[int]) -> bool:
    return LAST in path


def check_path(path: Iterable[int]) -> list[int]:
    """``path`` as a list if every step was a story duel offered at its turn; ValueError
    names the first that was not."""
    out: list[int] = []
    for duelist in path:
        if duelist not in next_duels(out):
            raise ValueError(f"story step {len(out) + 1}: duelist {duelist!r} is not offered "
                             f"there (next: {next_duels(out)})")
        out.append(duelist)
    return out


@dataclass(frozen=True)
class Outcome:
    """What a campaign duel's end does: ``passed`` (the story goes on), ``game_over``,
    ``repeat`` (Heishin won: the duel is played again), and the duelist opened for Free
    Duel (or None)."""

    passed: bool
    game_over: bool
    repeat: bool
    unlock: int | None


def outcome(duelist: int, won: bool, story_duel: bool) -> Outcome:
    """A campaign duel against ``duelist`` ended (``story_duel``: one of :func:`next_duels`,
    else an optional one). Every win opens the duelist for Free Duel (their "you won"
    dialogue holds the unlock command, F8 19); a loss is game over (``Main_RunGameOver``),
    except Heishin's first duel, which the story needs lost: quirk, a win there repeats it
    and a loss passes (and opens him too)."""
    if duelist == HEISHIN and story_duel:
        return Outcome(passed=not won, game_over=False, repeat=won, unlock=HEISHIN)
    if not won:
        return Outcome(passed=False, game_over=True, repeat=False, unlock=None)
    return Outcome(passed=story_duel, game_over=False, repeat=False, unlock=duelist)


def terrain(duelist: int, terrains: dict[int, int] | None = None) -> int:
    """The terrain a campaign duel with ``duelist`` starts on: the disc's story command
    when read (:func:`campaign_terrains`), else :data:`KNOWN_TERRAINS` / the normal field."""
    if terrains and duelist in terrains:
        return terrains[duelist]
    return KNOWN_TERRAINS.get(duelist, DEFAULT_TERRAIN)


# ------------------------------------------------------------- the user's disc supplies it
DUEL_COMMAND = b"\xf8\x0d"  # Text_StartCampaignDuel's escape in the dialogue text
COMMAND_BYTES = 9           # F8 0D opponent win loss terrain sound(2) FF


def scan_duel_commands(text: bytes) -> dict[int, int]:
    """Every campaign duel command ``F8 0D id win loss terrain s s FF`` in ``text`` (the
    executable's bytes): opponent id 1..38 -> terrain 0..6. A duelist met twice with
    different terrains keeps the first (the story's first meeting)."""
    found: dict[int, int] = {}
    at = text.find(DUEL_COMMAND)
    while at >= 0:
        record = text[at: at + COMMAND_BYTES]
        if len(record) == COMMAND_BYTES and record[-1] == 0xFF and 1 <= record[2] <= LAST \
                and record[5] <= 6:
            found.setdefault(record[2], record[5])
        at = text.find(DUEL_COMMAND, at + 1)
    return found


def campaign_terrains(path: Path | str) -> dict[int, int]:
    """The campaign duels' terrains from the user's own disc image: its ``SLUS_014.11``
    (checked to be NTSC-U Forbidden Memories, emucore.fm.disc) scanned for the story's duel
    commands. A bad image is refused in one line (DiscError)."""
    from emucore.fm import disc

    with disc.open_game(path) as img:
        pvd = img.read(16)
        root = disc.directory(img, int.from_bytes(pvd[158:162], "little"),
                              int.from_bytes(pvd[166:170], "little"))
        if disc.BOOT_NAME not in root:
            raise disc.DiscError(img.path, f"no {disc.BOOT_NAME} in the disc's root")
        lba, size = root[disc.BOOT_NAME]
        text = img.read(lba, -(-size // disc.SECTOR))[:size]
    found = scan_duel_commands(text)
    if not found:
        raise disc.DiscError(Path(path), f"{disc.BOOT_NAME} holds no campaign duel command")
    return found
