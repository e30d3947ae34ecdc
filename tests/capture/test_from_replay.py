"""``emucore capture record fm --from-replay`` end to end, on a stand-in for the original
(fm_original.py: the title, Free Duel, the pre-duel deck screen and the duel scene reading
the pad only where and when the decompiled routines do, written from docs/fm-duel-input.md
and not from the planner): the original takes exactly the replay's choices, the computer's
included, and ends on the replay's RNG state; the pad log it played plays the same run
again; and what the original cannot follow is kept as a partial capture that says where.

Sources: the routines the stand-in cites (krystalgamer/memories-decomp); the duel's rules
are emucore's engine on both sides, so what is checked is the pad path, not the rules."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from fm_original import FmOriginal

from emucore import cli
from emucore import tables as T
from emucore.capture import fileformat, record
from emucore.duel import replay as replays
from emucore.fm import cards
from emucore.fm.actions import Activate, Attack, ChangePosition, EndTurn, Play
from emucore.fm.ai import choose_action
from emucore.fm.deck import sort_deck
from emucore.fm.prompts import resolved
from emucore.fm.replay import ADAPTER
from emucore.fm.setup import FmSetup, new_duel
from emucore.hw import psyq_rand
from emucore.hw.psyq_lcg import index_of

TABLES = T.load("fm")
CARD = b"MC" + bytes(128 * 1024 - 2)
VIEWS = ("2d", "3d_skip", "2d", "3d")
# The duel's deal 2,000 calls after power-on: later than the stand-in's title, load and
# menus reach, so the recorder waits on the Free Duel grid to land it.
STATE = int(psyq_rand.jump(psyq_rand.BOOT_STATE, 2000))


def _deck() -> list[int]:
    """Weak monsters, magic, traps and equips: plays of every kind, duels of some length."""
    want = {"monster": 24, "magic": 6, "trap": 4, "equip": 6}
    picked: dict[str, list[int]] = {k: [] for k in want}
    for card in range(1, 723):
        kind = int(TABLES.type_id[card])
        name = ("monster" if kind < cards.TYPE_MAGIC else "magic" if kind == cards.TYPE_MAGIC
                else "trap" if kind == cards.TYPE_TRAP else "equip"
                if kind == cards.TYPE_EQUIP else None)
        weak = name != "monster" or 300 <= TABLES.atk[card] < 1400
        if name and weak and len(picked[name]) < want[name]:
            picked[name].append(card)
    return [c for group in picked.values() for c in group]


class Player:
    """Side 0's choices, varied so that every kind of press is made: one, two and three
    card plays, face down and up, both stars, activations, attacks in 2-D and 3-D, position
    changes and ends of turn; side 1 is the computer's AI."""

    def __init__(self) -> None:
        self.plays = self.attacks = 0
        self.turned: set[int] = set()

    def __call__(self, duel):
        if duel.over:
            return None
        if duel.acting_side == 1:
            return choose_action(duel)
        legal = [a for a in duel.legal_actions() if all(c < 100 for c in
                                                        getattr(a, "cards", ()))]
        if isinstance(legal[0], Play) or any(isinstance(a, Play) for a in legal):
            return self._play([a for a in legal if isinstance(a, Play)], duel)
        for kind in (Activate, Attack, ChangePosition):
            found = [a for a in legal if isinstance(a, kind)]
            if kind is Attack and found and self.attacks < 40:
                self.attacks += 1
                a = found[0]  # a direct attack is 2-D whatever is pressed
                view = VIEWS[self.attacks % len(VIEWS)] if a.target >= 0 else "2d"
                return Attack(a.attacker, a.target, view)
            if kind is ChangePosition:
                found = [a for a in found if a.zone not in self.turned]
                if found:
                    self.turned.add(found[0].zone)
            if found and kind is not Attack:
                return found[0]
        self.turned.clear()
        return EndTurn()

    def _play(self, plays: list[Play], duel) -> Play:
        self.plays += 1
        types = [int(duel.facts.type[c]) if c >= 0 else -1 for c in duel.hand(0)]
        size, face_down = ((1, False), (2, False), (1, True), (3, False))[self.plays % 4]
        fits = [p for p in plays if len(p.cards) == size and p.face_down == face_down and
                (size > 1 or types[p.cards[0]] != cards.TYPE_EQUIP or face_down)]
        # a set card of magic first (to be activated later), else any
        fits.sort(key=lambda p: not (face_down and types[p.cards[0]] >= cards.TYPE_MAGIC))
        p = (fits or plays)[0]
        return Play(p.cards, p.zone, p.face_down, self.plays % 2)


@pytest.fixture(scope="module")
def duel_replay(tmp_path_factory) -> Path:
    setup = FmSetup(deck=_deck(), duelist=39, sort="atk", state=STATE, computer=[1])
    replay = replays.record(ADAPTER, setup, Player(), max_steps=300)
    path = tmp_path_factory.mktemp("replay") / "duel.json"
    replay.save(path)
    return path


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def _record(tmp_path: Path, monkeypatch, replay: Path, original: FmOriginal,
            extra: tuple[str, ...] = ()) -> tuple[int, dict, str]:
    monkeypatch.setattr(record, "open_machine", lambda *a: (original, "sha1:stand-in"))
    card = tmp_path / "card.mcr"
    card.write_bytes(CARD)
    code, out, err = _cli(["capture", "record", "fm", "--core", "beetle-psx", "--content",
                           str(tmp_path / "fm.cue"), "--from-replay", str(replay),
                           "--memory-card", str(card), "--out", str(tmp_path / "c.cap"),
                           "--json", *extra])
    return code, json.loads(out) if out else {}, err


def _loaded(path: Path):
    replay = replays.load(path)
    setup = FmSetup.from_json(replay.setup)
    return setup, [ADAPTER.decode_action(s.action) for s in replay.steps]


def _saved_deck(setup: FmSetup) -> list[int]:
    """The deck as the save holds it: sorted by the last Build Deck sort."""
    return sort_deck(setup.deck, setup.sort, TABLES)


def test_the_original_takes_every_choice_of_the_replay(tmp_path, monkeypatch, duel_replay):
    """The deal lands on the replay's RNG index and every action, the computer's too, is
    the replay's, in order; the capture and the pad log are written; and the pad log played
    again with ``--pad`` on a new machine makes the same duel."""
    setup, actions = _loaded(duel_replay)
    kinds = {type(a).__name__ for a in actions}
    assert kinds >= {"Play", "EndTurn", "Attack"}, kinds
    original = FmOriginal(_saved_deck(setup))
    code, data, err = _record(tmp_path, monkeypatch, duel_replay, original,
                              ("--pad-out", str(tmp_path / "played.pad")))
    assert code == 0, err
    duel = new_duel(setup, TABLES)
    taken = []  # the replay's actions with AUTO columns as step() resolves them
    for action in actions:
        taken.append(resolved(duel, action))
        duel.step(action)
    assert original.actions == taken  # the same actions from the same deal: the same duel
    assert f"deal at index {index_of(setup.state)}" in original.log
    capture = fileformat.read(tmp_path / "c.cap")
    assert capture.partial is None and capture.records
    played = (tmp_path / "played.pad").read_text().splitlines()
    assert played[-1].split()[:2] == [str(data["frames"]), "end"]

    again = FmOriginal(_saved_deck(setup))
    monkeypatch.setattr(record, "open_machine", lambda *a: (again, "sha1:stand-in"))
    code, _, err = _cli(["capture", "record", "fm", "--core", "beetle-psx", "--content",
                         str(tmp_path / "fm.cue"), "--pad", str(tmp_path / "played.pad"),
                         "--memory-card", str(tmp_path / "card.mcr"),
                         "--out", str(tmp_path / "again.cap")])
    assert code == 0, err
    assert again.actions == taken
    assert (tmp_path / "again.cap").read_text().split("\n")[8:] == \
        (tmp_path / "c.cap").read_text().split("\n")[8:]


def test_a_save_with_another_deck_is_found_at_the_deal(tmp_path, monkeypatch, duel_replay):
    """The deal lands on the replay's RNG index but the deck in RAM (0x801D0200) is not the
    replay's: the capture so far is kept, partial, saying so; exit 1."""
    setup, _ = _loaded(duel_replay)
    other = _saved_deck(setup)
    other[0], other[-1] = other[-1], other[0]
    code, data, err = _record(tmp_path, monkeypatch, duel_replay, FmOriginal(other))
    assert code == 1, err
    assert data["partial"] and "deck in RAM is not the replay's" in data["reason"]
    assert "deck in RAM" in fileformat.read(tmp_path / "c.cap").partial


def test_a_deal_earlier_than_the_original_reaches_is_refused_where_it_is(tmp_path, monkeypatch,
                                                                          duel_replay):
    """The title, the load and Free Duel call rand() every frame (Main_RunMenu,
    FreeDuel_Entry): a duel dealt at RNG index 50 cannot be reached; the capture says the
    earliest index the original reaches."""
    setup, actions = _loaded(duel_replay)
    early = replays.record(ADAPTER, FmSetup(deck=setup.deck, duelist=39, sort=setup.sort,
                                            state=0x55555555, computer=[1]),
                           lambda d: None)
    path = tmp_path / "early.json"
    early.save(path)
    code, data, err = _record(tmp_path, monkeypatch, path, FmOriginal(_saved_deck(setup)))
    assert code == 1, err
    assert "at the earliest" in data["reason"]


def test_ctrl_c_keeps_what_the_original_played(tmp_path, monkeypatch, duel_replay):
    """A real SIGINT at frame 500 (the title and the menus): the frame finishes, the capture
    so far is written marked partial, the pad log played so far too; exit 2."""
    import os
    import signal

    setup, _ = _loaded(duel_replay)
    real_step = FmOriginal.step

    def step(self, word):
        if self.frame == 499:
            os.kill(os.getpid(), signal.SIGINT)
        real_step(self, word)

    monkeypatch.setattr(FmOriginal, "step", step)
    original = FmOriginal(_saved_deck(setup))
    code, data, err = _record(tmp_path, monkeypatch, duel_replay, original,
                              ("--pad-out", str(tmp_path / "so_far.pad")))
    assert code == 2, err
    assert data["partial"] and data["frames"] == 500
    assert fileformat.read(tmp_path / "c.cap").partial == "interrupted after frame 500"
    assert (tmp_path / "so_far.pad").read_text().splitlines()[-1] == "500 end"
