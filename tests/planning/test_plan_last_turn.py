"""``plan manip --last-turn``: every winning sequence of the player's last turn, played on the
engine, with the card each drops (emucore.planning.last_turn).

Two duels built through the public engine API: a hand-made one (unshuffled decks, as
tests/oracle/oracle_duel.py builds them) saved as a state image, where the player can win in
many ways (attacks, a field card, a set magic card, fusions); and a dealt Free Duel against
the embedded AI saved as a replay, whose sequences are checked through ``fm duel --script``.
The expected drops come from the engine's own end event and from ``fm drop``, which reads
``Duel_SelectCardDrop`` with no duel at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emucore import tables
from emucore.cli import main
from emucore.duel import replay as R
from emucore.fm import machine
from emucore.fm import state as S
from emucore.fm.actions import AUTO, Attack, Ended, EndTurn, Play
from emucore.fm.ai import choose_action
from emucore.fm.engine import FmDuel
from emucore.fm.replay import ADAPTER
from emucore.fm.setup import FmSetup
from emucore.fm.timeline import VIEWS
from emucore.hw.psyq_rand import BOOT_STATE, Rand, jump
from emucore.planning import cli as plan_cli
from emucore.planning import last_turn

T = tables.load("fm")
FILLER = tuple(c for c in range(100, 200) if T.is_monster(c))
CURSE, SPARKS, BABY, TYHONE, SWORD, MOUNTAIN, FLAME = 39, 343, 4, 13, 301, 332, 15
MUSHROOM, SPECTER = 8, 9  # ATK 800 and 500
CPU_LP = 1900


def _deck(*front: int) -> S.Shuffle:
    """A 40-card deck drawn in the order given, padded with plain monsters."""
    return S.Shuffle((front + FILLER)[:40], tuple(range(40)))


def _turn(d: FmDuel, face_down: bool = False) -> None:
    d.step(Play((0,), AUTO, face_down))
    d.step(EndTurn())


def _hand_made() -> FmDuel:
    """The player's third turn: Curse of Dragon (2000) on the field and Sparks set; in hand
    Baby Dragon, Tyhone, Legendary Sword, Mountain and Flame Swordsman; the CPU, at 1900 LP,
    has Mushroom Man (800) and Shadow Specter (500) in attack position."""
    d = FmDuel(T, _deck(CURSE, SPARKS, BABY, TYHONE, SWORD, MOUNTAIN, FLAME),
               _deck(MUSHROOM, SPECTER), Rand(0x1234), opponent=1, lp=(8000, CPU_LP))
    _turn(d)
    _turn(d)
    _turn(d, face_down=True)  # Sparks set in the magic row
    _turn(d)
    assert d.acting_side == 0 and d.phase == S.PHASE_HAND
    assert d.hand(0) == [BABY, TYHONE, SWORD, MOUNTAIN, FLAME]
    return d


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """A one-line error, exit 2, no traceback."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("last") / "last.state"
    path.write_bytes(_hand_made().snapshot())
    return path


@pytest.fixture(scope="module")
def listed(snapshot: Path) -> dict:
    """Every winning sequence with one-card hand plays (the many-card chains are tested on
    the dealt duel), as ``plan manip --last-turn --json`` lists them."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plan", "manip", "--last-turn", "--snapshot", str(snapshot),
                     "--max-cards", "1", "--limit", "100000", "--json"]) == 0
    return json.loads(out.getvalue())


def _fm_drop(capsys: pytest.CaptureFixture[str], duelist: int, pool: str, state: str) -> int:
    return _run(capsys, "fm", "drop", "--duelist", str(duelist), "--pool", pool,
                "--state", state)["card"]


def _replayed(image: bytes, script: list[dict]) -> tuple[FmDuel, Ended]:
    """The sequence played on a fresh duel restored from ``image``."""
    d = FmDuel(T, _deck(), _deck(), Rand(0), opponent=1)
    d.restore(image)
    events: list = []
    for action in script:
        assert not d.over
        events = d.step(ADAPTER.decode_action(action))
    assert d.over and isinstance(events[-1], Ended)
    return d, events[-1]


def test_every_sequence_wins_and_drops_what_fm_drop_names(listed, snapshot, capsys):
    """Replayed on the engine, each listed sequence wins with the listed drop at the listed
    drop_state (its calls lead there from the start state), and ``fm drop`` at that state
    names the same card."""
    image = snapshot.read_bytes()
    start = _hand_made().rng.state
    rows = listed["sequences"]
    assert listed["wins"] == listed["matching"] == len(rows) > 50
    assert not listed["bound_reached"] and listed["views_changed_outcome"] == 0
    for row in rows:
        d, end = _replayed(image, row["script"])
        assert d.winner == 0 and end.winner == 0
        assert (end.drop, end.drop_state, end.rank, end.pool, end.exact) == (
            row["drop"], row["drop_state"], row["rank"], row["pool"], row["exact"])
        assert f"0x{int(jump(start, row['rand_calls'])):08X}" == row["drop_state"]
        assert sum(a["rand_calls"] for a in row["actions"]) == row["rand_calls"]
        assert row["action_count"] == len(row["script"]) == len(row["actions"])
    for row in rows:
        assert _fm_drop(capsys, 1, row["pool"], row["drop_state"]) == row["drop"]


def test_sequences_are_cheapest_first_and_each_state_once(listed):
    rows = listed["sequences"]
    costs = [(r["action_count"], r["rand_calls"]) for r in rows]
    assert costs == sorted(costs)
    assert len({json.dumps(r["script"]) for r in rows}) == len(rows)
    # the cheapest: the Mountain (Curse of Dragon 2500) and one attack on the 500 monster
    first = rows[0]
    assert first["action_count"] == 2 and first["script"][0]["cards"] == [3]
    assert "Mountain" in first["actions"][0]["words"]


def test_known_lines_are_found_and_losing_ones_are_not(listed):
    """Hand-checked lines: the Mountain then Curse of Dragon on Shadow Specter (2500 - 500 =
    2000 >= 1900) wins in every view; Curse of Dragon on Mushroom Man alone (1200) does not,
    and no sequence ends the turn (the CPU can still draw)."""
    scripts = [r["script"] for r in listed["sequences"]]
    mountain = {"kind": "play", "rng_calls": 0, "cards": [3], "zone": AUTO,
                "face_down": False, "star": 0}
    views = {s[1]["view"] for s in scripts
             if len(s) == 2 and s[0] == mountain and s[1]["kind"] == "attack"
             and (s[1]["attacker"], s[1]["target"]) == (0, 1)}
    assert views == set(VIEWS)
    assert not any(len(s) == 2 and s[1].get("target") == 0 and s[1]["attacker"] == 0
                   and s[0]["kind"] == "play" and s[0]["cards"] == [0] for s in scripts)
    assert not any(a["kind"] == "end_turn" for s in scripts for a in s)
    # a set magic card's activation and a hand fusion are searched too
    assert any(a["kind"] == "activate" for s in scripts for a in s)


def test_views_change_only_the_stream(listed):
    """The same actions in another view win the same way (same rank), with other calls."""
    by_skeleton: dict[str, set] = {}
    for row in listed["sequences"]:
        skeleton = json.dumps([{k: v for k, v in a.items() if k != "view"}
                               for a in row["script"]])
        by_skeleton.setdefault(skeleton, set()).add((row["rank"], row["rand_calls"]))
    varied = [v for v in by_skeleton.values() if len(v) > 1]
    assert varied and all(len({rank for rank, _ in v}) == 1 for v in varied)


def test_want_filters(listed, snapshot, capsys):
    summary = max(listed["drops"], key=lambda d: d["sequences"])
    out = _run(capsys, "plan", "manip", "--last-turn", "--snapshot", str(snapshot),
               "--max-cards", "1", "--want", str(summary["card"]), "--limit", "1000")
    assert out["want"] == summary["card"] and out["matching"] == summary["sequences"]
    assert [r["drop"] for r in out["sequences"]] == [summary["card"]] * summary["sequences"]
    everyone = [r for r in listed["sequences"] if r["drop"] == summary["card"]]
    assert [r["script"] for r in out["sequences"]] == [r["script"] for r in everyone]
    # the summary's cheapest is the first listed sequence with that drop
    assert listed["sequences"][summary["cheapest"] - 1] == everyone[0]


def test_a_disc_removes_the_estimates(listed, snapshot, capsys, tmp_path):
    """With ``--disc`` (here a folder whose duel_effects.bin holds the built-in values, so
    the calls are the same), no count rests on an estimated table: the only sequences left
    not exact watch a 3-D battle, whose attack modules were not read
    (choices.WATCHED_3D_EXTRA)."""
    from emucore.fm import overlay

    (tmp_path / "duel_effects.bin").write_bytes(overlay.layout(overlay.BUILT_IN))
    out = _run(capsys, "plan", "manip", "--last-turn", "--snapshot", str(snapshot),
               "--max-cards", "1", "--limit", "100000", "--disc", str(tmp_path))
    assert [(r["script"], r["drop_state"]) for r in out["sequences"]] == [
        (r["script"], r["drop_state"]) for r in listed["sequences"]]
    watched = [any(a.get("view") == "3d" for a in r["script"]) for r in out["sequences"]]
    assert [not r["exact"] for r in out["sequences"]] == watched
    assert not all(r["exact"] for r in listed["sequences"])  # built-in: estimates too
    assert any(r["exact"] for r in listed["sequences"])


def test_the_bound_is_said(snapshot, listed, capsys):
    """The bound stops the search and says how many hand plays were searched to the end;
    those plays' lines are all found (each hand play's field phase is searched whole before
    the next play's)."""
    out = _run(capsys, "plan", "manip", "--last-turn", "--snapshot", str(snapshot),
               "--budget", "40")
    assert out["bound_reached"] and out["played"] == 40
    assert out["hand_plays"] > 40 and out["hand_plays_searched"] == 0
    assert main(["plan", "manip", "--last-turn", "--snapshot", str(snapshot), "--budget",
                 "40"]) == 0
    assert "stopped at the bound of 40" in capsys.readouterr().out
    assert not listed["bound_reached"]
    assert listed["hand_plays_searched"] == listed["hand_plays"] > 0
    part = _run(capsys, "plan", "manip", "--last-turn", "--snapshot", str(snapshot),
                "--max-cards", "1", "--limit", "100000", "--budget", str(listed["played"] // 2))
    assert part["bound_reached"] and 0 < part["hand_plays_searched"] < part["hand_plays"]
    whole = {(r["drop_state"], r["rank"]) for r in listed["sequences"]}
    found = {(r["drop_state"], r["rank"]) for r in part["sequences"]}
    assert found and found <= whole


def test_text_lists_words_and_scripts(snapshot, capsys):
    assert main(["plan", "manip", "--last-turn", "--snapshot", str(snapshot), "--max-cards",
                 "1", "--limit", "2"]) == 0
    text = capsys.readouterr().out
    assert "Simon Muran" in text and "#1  2 actions" in text and "script: [" in text
    assert "attacks Shadow Specter (column 1)" in text and "more (--limit)" in text


def test_the_cli_defaults_are_the_modules():
    assert plan_cli.LAST_TURN_CARDS == last_turn.MAX_CARDS
    assert plan_cli.LAST_TURN_BUDGET == last_turn.DEFAULT_BUDGET


# ----------------------------------------------------------------------------- a dealt duel
SETUP = FmSetup(deck=list(range(1, 41)), duelist=1, state=BOOT_STATE, lp=[8000, 1000],
                computer=[1])


def _chooser(duel: FmDuel):
    """The player plays its strongest monster and ends the turn; the embedded AI plays the
    CPU; the recording stops at the player's second turn."""
    if duel.acting_side == 1:
        return choose_action(duel)
    if duel.phase == S.PHASE_HAND:
        if duel.counters(0)["turns"] >= 1:
            return None
        hand = duel.hand(0)
        return Play((max((j for j in range(5) if T.is_monster(hand[j])),
                         key=lambda j: T.atk[hand[j]]),))
    return EndTurn()


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, R.Replay]:
    rec = R.record(ADAPTER, SETUP.to_json(), _chooser)
    path = tmp_path_factory.mktemp("dealt") / "dealt.json"
    rec.save(path)
    return path, rec


def _player_actions(rec: R.Replay) -> list[dict]:
    """The player's actions of a replay (the CPU's are the AI's again under fm duel)."""
    d = ADAPTER.new_duel(rec.setup)
    mine = []
    for step in rec.steps:
        if d.acting_side == 0:
            mine.append(step.action)
        d.step(ADAPTER.decode_action(step.action))
    return mine


def _fm_duel(capsys, folder: Path, setup: dict, actions: list[dict]) -> dict:
    script = folder / "script.json"
    script.write_text(json.dumps({"setup": setup, "actions": actions}))
    return _run(capsys, "fm", "duel", "--script", str(script))


def test_dealt_duel_sequences_replay_through_fm_duel(dealt, capsys, tmp_path):
    """From a replay against the embedded AI: each listed sequence (chains of two cards
    included), appended to the player's recorded actions in an ``fm duel --script`` file,
    ends the duel with the listed drop at the listed drop_state."""
    path, rec = dealt
    out = _run(capsys, "plan", "manip", "--last-turn", "--replay", str(path), "--max-cards",
               "2", "--limit", "40")
    assert out["phase"] == "hand" and out["duelist"] == 1 and out["wins"] > 40
    assert any(len(r["script"][0]["cards"]) == 2 for r in out["sequences"])
    mine = _player_actions(rec)
    for row in out["sequences"]:
        played = _fm_duel(capsys, tmp_path, rec.setup, mine + row["script"])
        end = played["events"][-1]
        assert played["over"] and played["winner"] == 0 and end["kind"] == "ended"
        assert (end["drop"], end["drop_state"], end["rank"]) == (
            row["drop"], row["drop_state"], row["rank"])
        assert _fm_drop(capsys, 1, row["pool"], row["drop_state"]) == row["drop"]


def test_from_the_field_phase_the_rest_of_a_line_is_found(dealt, capsys, tmp_path):
    """A replay stopped after the hand play: the field-phase search finds the rest of a
    sequence found from the hand phase, with the same drop state."""
    path, rec = dealt
    whole = _run(capsys, "plan", "manip", "--last-turn", "--replay", str(path),
                 "--max-cards", "1", "--limit", "5")["sequences"][0]
    rep = R.record_actions(ADAPTER, rec.setup, [
        *(ADAPTER.decode_action(s.action) for s in rec.steps),
        ADAPTER.decode_action(whole["script"][0])])
    later = tmp_path / "later.json"
    rep.save(later)
    out = _run(capsys, "plan", "manip", "--last-turn", "--replay", str(later), "--step", "-1",
               "--limit", "100000")
    assert out["phase"] == "field"
    rest = [r for r in out["sequences"] if r["script"] == whole["script"][1:]]
    assert rest and rest[0]["drop_state"] == whole["drop_state"]
    assert rest[0]["drop"] == whole["drop"]


def test_errors_are_one_line(dealt, capsys, tmp_path):
    path, rec = dealt
    # the CPU's turn: the state after the player's first end of turn
    assert "the CPU's turn" in _error(capsys, "plan", "manip", "--last-turn", "--replay",
                                      str(path), "--step", "1")
    # a finished duel: the cheapest sequence played to the end and recorded
    best = _run(capsys, "plan", "manip", "--last-turn", "--replay", str(path), "--max-cards",
                "1", "--limit", "1")["sequences"][0]
    won = R.record_actions(ADAPTER, rec.setup, [
        *(ADAPTER.decode_action(s.action) for s in rec.steps),
        *(ADAPTER.decode_action(a) for a in best["script"])])
    finished = tmp_path / "won.json"
    won.save(finished)
    assert "the duel is over" in _error(capsys, "plan", "manip", "--last-turn", "--replay",
                                        str(finished), "--step", "-1")
    # without --step: the step that starts the player's last turn, before the winning line
    again = _run(capsys, "plan", "manip", "--last-turn", "--replay", str(finished),
                 "--max-cards", "1", "--limit", "1")
    assert again["step"] == len(rec.steps) - 1 and again["phase"] == "hand"
    assert again["sequences"][0]["drop_state"] == best["drop_state"]
    # the replay's end still plans extra calls from the drop roll, as before
    out = _run(capsys, "plan", "manip", "--duelist", "1", "--want", str(best["drop"]),
               "--rank", best["rank"], "--replay", str(finished), "--bound", "0")
    assert out["state"] == best["drop_state"] and [r["k"] for r in out["offsets"]] == [0]
    # bad files
    text = tmp_path / "notes.txt"
    text.write_text("not a replay\n")
    short = tmp_path / "short.state"
    short.write_bytes(b"\x00" * 10)
    assert "not valid JSON" in _error(capsys, "plan", "manip", "--last-turn", "--replay",
                                      str(text))
    assert "not an fm duel state" in _error(capsys, "plan", "manip", "--last-turn",
                                            "--snapshot", str(short))
    assert "is a folder" in _error(capsys, "plan", "manip", "--last-turn", "--snapshot",
                                   str(tmp_path))
    assert "no such file" in _error(capsys, "plan", "manip", "--last-turn", "--snapshot",
                                    str(tmp_path / "nothing"))
    bad = bytearray(ADAPTER.new_duel(rec.setup).snapshot())
    phase = next(s for s in machine.SPANS if s.name == "phase")
    bad[phase.offset] = 7
    odd = tmp_path / "odd.state"
    odd.write_bytes(bytes(bad))
    assert "phase 7 outside 0..2" in _error(capsys, "plan", "manip", "--last-turn",
                                            "--snapshot", str(odd))
    # options that belong to the other mode
    for extra, message in ((["--state", "5"], "not --state/--index"),
                           (["--duelist", "1"], "drop --duelist"),
                           (["--rank", "S-POW"], "drop --rank"),
                           (["--bound", "5"], "--bound and --spend-with"),
                           (["--want", "Blue-eyes White Dragon"], "never drops")):
        source = [] if extra[0] == "--state" else ["--replay", str(path)]
        assert message in _error(capsys, "plan", "manip", "--last-turn", *source, *extra)
    assert "needs --duelist" in _error(capsys, "plan", "manip", "--replay", str(path))
    assert "goes with --last-turn" in _error(capsys, "plan", "manip", "--duelist", "1",
                                             "--want", "1", "--rank", "S-POW", "--index",
                                             "0", "--budget", "5")


def test_search_leaves_the_duel_as_it_was():
    d = _hand_made()
    before = d.snapshot()
    result = last_turn.search(d, max_cards=1, budget=300)
    assert d.snapshot() == before and result.bound_reached and result.played == 300
    with pytest.raises(last_turn.NotALastTurn, match="CPU's turn"):
        d.step(Play((0,)))
        d.step(EndTurn())
        last_turn.check_start(d)


def test_the_first_turn_has_no_attack_so_no_win():
    """On the player's first turn no monster may attack (the first-turn lock): only a card
    that deals damage could win, and none here does."""
    d = FmDuel(T, _deck(CURSE), _deck(MUSHROOM), Rand(7), opponent=1, lp=(8000, 100))
    result = last_turn.search(d, max_cards=2)
    assert result.lines == [] and not result.bound_reached and result.played > 0
    d.step(Play((0,)))
    assert not any(isinstance(a, Attack) for a in d.legal_actions())
