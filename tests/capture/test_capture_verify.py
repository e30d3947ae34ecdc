"""Verification of FM captures synthesised from emucore's own engine (no emulator needed)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from capture_synth import synth_fm

from emucore import cli
from emucore.capture import approved, fileformat, fm_check
from emucore.capture.verify import describe, verify_file
from emucore.fm import machine as M
from emucore.fm import state as S
from emucore.fm.actions import Play

SIDE1_LP = M.field_offset("side", "lp", 1)


def _check(text: str, use_approved: bool = True) -> fm_check.Verdict:
    capture = fileformat.parse(text)
    known = approved.load("fm") if use_approved else ()
    return fm_check.verify(capture, known, "test.cap")


@pytest.fixture(scope="module")
def clean():
    return synth_fm(steps=30)


def test_clean_capture_verifies_and_derives_equivalent_actions(clean):
    verdict = _check(clean.text)
    assert verdict.mismatch is None
    assert len(verdict.steps) == len(clean.actions) == 30
    assert verdict.setup["state"] == 0x12345678 and verdict.setup["duelist"] == 7
    assert verdict.deal.startswith("deal found")
    # each derived action explains the settled record written for that step
    assert [s.line for s in verdict.steps] == clean.lines
    # CPU decision calls are recovered exactly
    assert [s.action.rng_calls for s in verdict.steps] == [a.rng_calls for a in clean.actions]


def test_whole_duel_to_the_end_verifies():
    synth = synth_fm(steps=400, seed=3)
    verdict = _check(synth.text)
    assert synth.over and verdict.mismatch is None
    assert len(verdict.steps) == len(synth.actions)


def test_partial_chain_that_looks_like_a_shorter_play_is_backed_out_of(clean, monkeypatch):
    synth = synth_fm(steps=30, decoys=True)
    assert synth.text.count("\n") > clean.text.count("\n")  # decoy records were written
    verdict = _check(synth.text)
    assert verdict.mismatch is None
    assert [s.line for s in verdict.steps] == synth.lines
    monkeypatch.setattr(fm_check, "MAX_BACKTRACKS", 0)
    assert _check(synth.text).mismatch is not None  # without backing out, a decoy derails it


def test_cli_verify_exit_0_with_report_and_json(clean, tmp_path, capsys):
    path, page = tmp_path / "duel.cap", tmp_path / "duel.html"
    path.write_text(clean.text)
    assert cli.main(["capture", "verify", str(path), "--report", str(page)]) == 0
    assert "OK: 30 steps agree" in capsys.readouterr().out
    assert page.read_text().count("<tr>") > 30
    assert cli.main(["capture", "verify", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["steps"] == 30 and data["mismatch"] is None


def _first_side(synth_steps, side: int, at_least: int) -> int:
    return next(n for n, s in enumerate(synth_steps, start=1) if s == side and n >= at_least)


@pytest.mark.parametrize("step", [1, 7, 18])
def test_one_byte_changed_is_caught_at_its_step(step):
    def tamper(n, _duel, image):
        if n == step:
            image[SIDE1_LP] ^= 0x01

    verdict = _check(synth_fm(steps=25, tamper=tamper).text)
    m = verdict.mismatch
    assert m is not None and m.step == step
    assert [f[0] for f in m.fields] == ["side1.lp"]
    ours, captured = m.fields[0][1:]
    assert captured == ours ^ 0x01


def test_one_rand_call_added_is_caught_at_its_step():
    sides = [s.side for s in _check(synth_fm(steps=25).text).steps]
    step = _first_side(sides, 0, 6)

    def extra_call(n, duel, action):
        return dataclasses.replace(action, rng_calls=1) if n == step else None

    verdict = _check(synth_fm(steps=25, before_step=extra_call).text)
    m = verdict.mismatch
    assert m is not None and m.step == step and m.reason == "rand() calls differ"
    assert m.fields[0][0] == "rng_state"
    assert m.rng.captured_calls == m.rng.ours_calls + 1


def test_rand_call_report_lists_the_calls(tmp_path, capsys):
    def extra_call(n, duel, action):
        return dataclasses.replace(action, rng_calls=3) if n == 1 else None

    path = tmp_path / "rng.cap"
    synth = synth_fm(steps=3, before_step=extra_call)
    path.write_text(synth.text)
    rules = _check(synth_fm(steps=3).text).steps[0].rule_calls
    assert cli.main(["capture", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "step 1 (record line" in out and "rng_state: ours" in out
    assert f"captured {rules + 3} " in out and f"emucore {rules} " in out
    assert out.count("    call ") == rules + 3 and "FAIL at step 1" in out


def _second_play(step_at: int):
    """Step hook: at step ``step_at`` (a field phase of side 0) the capture also shows a
    second play from the hand, which emucore's rules forbid (one play per turn)."""
    done = []

    def step(n, duel, action):
        if (n >= step_at and not done and duel.phase == S.PHASE_FIELD
                and duel.acting_side == 0 and any(c >= 0 for c in duel.hand(0))):
            duel.st.globals.phase[0] = S.PHASE_HAND
            play = next(a for a in duel.legal_actions() if isinstance(a, Play)
                        and len(a.cards) == 1)
            duel.step(play)
            duel.st.globals.phase[0] = S.PHASE_FIELD
            done.append(n)
            return
        duel.step(action)
    return step, done


def test_one_action_emucore_forbids_is_caught_at_its_step(tmp_path, capsys):
    step, done = _second_play(4)
    synth = synth_fm(steps=20, step=step)
    verdict = _check(synth.text)
    m = verdict.mismatch
    assert m is not None and m.step == done[0]
    assert "no action of side 0 explains" in m.reason and m.fields
    path, page = tmp_path / "illegal.cap", tmp_path / "illegal.html"
    path.write_text(synth.text)
    assert cli.main(["capture", "verify", str(path), "--report", str(page)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL at step {done[0]}" in out and ": ours " in out
    html = page.read_text()
    assert "class='bad'" in html and f"FAIL at step {done[0]}" in html


def test_opening_state_differs_is_step_0():
    def tamper(n, _duel, image):
        if n == 0:
            image[SIDE1_LP] ^= 0x02

    m = _check(synth_fm(steps=4, tamper=tamper).text).mismatch
    assert m.step == 0 and m.reason == "the opening state differs"
    assert [f[0] for f in m.fields] == ["side1.lp"]


def test_describe_names_the_field(clean):
    def tamper(n, _duel, image):
        if n == 2:
            image[SIDE1_LP] ^= 0x04
    capture = fileformat.parse(synth_fm(steps=5, tamper=tamper).text)
    verdict = fm_check.verify(capture, approved.load("fm"), "x")
    text = describe(capture, verdict)
    assert "side1.lp: ours" in text and "FAIL at step 2" in text


def test_verify_file_reads_from_disk(clean, tmp_path):
    path = tmp_path / "a.cap"
    path.write_text(clean.text)
    capture, verdict = verify_file(path)
    assert capture.system == "fm" and verdict.mismatch is None


def test_import_writes_a_replay_that_verifies(clean, tmp_path, capsys):
    from emucore.duel import replay as R
    from emucore.fm.replay import ADAPTER

    path, out = tmp_path / "duel.cap", tmp_path / "duel.replay.json"
    path.write_text(clean.text)
    assert cli.main(["capture", "import", str(path), "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["steps"] == 30 and data["setup"]["state"] == 0x12345678
    replay = R.load(out)
    assert R.verify(ADAPTER, replay) is None
    assert cli.main(["fm", "replay", "verify", str(out)]) == 0
    # the replay's states are the capture's: the last step's image equals the last match
    verdict = _check(clean.text)
    assert replay.steps[-1].state == verdict.steps[-1].ours


def test_cpu_steps_checked_against_emucore_computer_opponent(tmp_path, capsys):
    synth = synth_fm(steps=24, cpu_ai=True)
    verdict = _check_ai(synth.text)
    # a step that changes neither RAM nor the RNG (a "done" on a used card) writes no record
    by_line = dict(zip(synth.lines, synth.actions, strict=True))
    assert verdict.mismatch is None and len(verdict.steps) == len(by_line)
    cpu = [(s.action, by_line[s.line]) for s in verdict.steps if s.side == 1]
    assert cpu and all(ours.rng_calls == theirs.rng_calls for ours, theirs in cpu)
    assert any(ours.rng_calls for ours, _ in cpu)
    path = tmp_path / "ai.cap"
    path.write_text(synth.text)
    assert cli.main(["capture", "verify", str(path), "--ai"]) == 0


def test_cpu_step_the_computer_would_not_take_is_caught_at_its_step():
    sides = [s.side for s in _check_ai(synth_fm(steps=20, cpu_ai=True).text).steps]
    step = _first_side(sides, 1, 4)
    from emucore.fm.actions import EndTurn

    def other(n, duel, action):
        if n != step:
            return None
        wrong = next(a for a in duel.legal_actions()
                     if a != dataclasses.replace(action, rng_calls=0)
                     and not isinstance(a, EndTurn))
        return wrong  # the duel still exports: side 1 is computer-played

    m = _check_ai(synth_fm(steps=20, cpu_ai=True, before_step=other).text).mismatch
    assert m is not None and m.step == step and m.side == 1
    assert "computer opponent chooses" in m.reason and m.fields


def _check_ai(text: str) -> fm_check.Verdict:
    return fm_check.verify(fileformat.parse(text), approved.load("fm"), "ai.cap", ai=True)


def test_calls_between_deal_and_duel_are_found_and_reported_at_step_1():
    verdict = _check(synth_fm(steps=3, calls_after_deal=3).text)
    assert verdict.deal.startswith("deal found") and "3 more call(s)" in verdict.deal
    m = verdict.mismatch
    assert m.step == 1 and m.reason == "rand() calls differ"
    assert m.rng.captured_calls == m.rng.ours_calls + 3


def test_deal_out_of_reach_still_verifies_from_the_captured_decks(tmp_path, capsys):
    synth = synth_fm(steps=8, calls_after_deal=6000)
    verdict = _check(synth.text)
    assert verdict.setup is None and verdict.deal.startswith("deal not found")
    assert verdict.mismatch is None and len(verdict.steps) == 8
    path = tmp_path / "late.cap"
    path.write_text(synth.text)
    assert cli.main(["capture", "import", str(path), "--out", str(tmp_path / "r.json")]) == 2
    assert "the deal was not found" in capsys.readouterr().err


def test_start_state_that_emucore_cannot_set_up_is_one_line(tmp_path, capsys):
    terrain = M.field_offset("globals", "terrain")

    def tamper(_n, _duel, image):
        image[terrain] = 9

    path = tmp_path / "terrain.cap"
    path.write_text(synth_fm(steps=2, tamper=tamper).text)
    assert cli.main(["capture", "verify", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the duel's start state is not usable (terrain 9" in err[0]


@pytest.mark.parametrize("shape", ["alone", "after_hand_card"])
def test_cpu_play_from_the_look_ahead_window_is_derived_without_the_ai(shape):
    from emucore.fm.actions import DECK_PICK

    used = []

    def deep(n, duel, action):
        if used or duel.acting_side != 1 or duel.phase != S.PHASE_HAND:
            return None
        _, index = duel.deck_remaining(1)[3]
        pick = DECK_PICK + index - S.DECK_SIZE
        used.append(n)
        return Play((pick,) if shape == "alone" else (4, pick), rng_calls=2)

    synth = synth_fm(steps=8, before_step=deep)
    assert used
    verdict = _check(synth.text)
    assert verdict.mismatch is None and len(verdict.steps) == 8
    derived = verdict.steps[used[0] - 1].action
    assert max(derived.cards) >= DECK_PICK and derived.rng_calls == 2
