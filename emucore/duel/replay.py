"""Replay files: setup + ordered actions + a digest and a state image after every step.

A replay is a regression test (DESIGN.md rule 7). The file is JSON::

    {"format": "emucore-replay", "format_version": 1, "system": "fm",
     "engine_version": 1, "rng_version": 1, "setup": {...},
     "steps": [{"action": {...}, "digest": "...", "state": "<zlib+base64 snapshot>"}, ...]}

Verification replays the actions on a fresh duel and reports the first step whose digest
differs, naming the fields that differ (ours vs recorded) by decoding both state images with
the system's ``state_fields``. Each system provides a :class:`SystemAdapter`.
"""

from __future__ import annotations

import base64
import binascii
import importlib
import json
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from emucore import SYSTEMS
from emucore.duel.files import (
    UserFileError,
    inflate,
    read_json,
    want_dict,
    want_int,
    want_str,
    write_atomic,
)
from emucore.duel.protocol import Action, Duel, IllegalAction

FORMAT = "emucore-replay"
FORMAT_VERSION = 1
MAX_STEPS = 200_000  # more steps than any duel takes (a duel stops at 20,000 at most)
MAX_PACKED_STATE = 64 << 10  # base64 characters of one step's compressed state image
# Where each system's replay adapter lives; ``replay verify`` dispatches on the file's system.
ADAPTERS = {system: f"emucore.{system}.replay" for system in SYSTEMS}


class JsonSetup(Protocol):
    """A system's frozen setup value (``FmSetup``, ``Dm1Setup``, ``PaperSetup``)."""

    def to_json(self) -> dict[str, Any]:
        """The setup block a replay stores."""


class SystemAdapter(Protocol):
    """What replay recording and verification need from a rule system."""

    system: str
    engine_version: int
    rng_version: int

    def new_duel(self, setup: dict[str, Any]) -> Duel:
        """A fresh duel from a replay's setup block (raise ValueError on a bad setup)."""

    def decode_action(self, data: dict[str, Any]) -> Action:
        """An action from its JSON form (raise ValueError on a bad one)."""

    def fields_of(self, snapshot: bytes) -> dict[str, int]:
        """Named fields of a state image, for diffs."""


def adapter_for(system: str) -> SystemAdapter:
    """The replay adapter of ``system`` (KeyError for an unknown system)."""
    return importlib.import_module(ADAPTERS[system]).ADAPTER


class Step:
    """One recorded step: the action's JSON, the digest after it and the state image after it.

    A loaded step keeps its state compressed and inflates it (bounded) only when asked: a
    verification that agrees never needs it."""

    def __init__(self, action: dict[str, Any], digest: str, state: bytes | None = None,
                 packed: str | None = None, where: str = "replay") -> None:
        self.action, self.digest = action, digest
        self._state, self._packed, self._where = state, packed, where

    @property
    def state(self) -> bytes:
        if self._state is None:
            try:
                blob = base64.b64decode(self._packed or "", validate=True)
            except (binascii.Error, ValueError):
                raise UserFileError(self._where, "state is not base64") from None
            self._state = inflate(blob, self._where)
        return self._state

    @state.setter
    def state(self, image: bytes) -> None:
        self._state, self._packed = image, None

    def packed(self) -> str:
        """The state image as the file stores it: zlib, then base64."""
        if self._packed is None:
            self._packed = base64.b64encode(zlib.compress(self.state, 9)).decode("ascii")
        return self._packed


@dataclass
class Replay:
    system: str
    engine_version: int
    rng_version: int
    setup: dict[str, Any]
    steps: list[Step] = field(default_factory=list)
    source: str = "replay"  # the file it was read from, for error messages

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "format_version": FORMAT_VERSION, "system": self.system,
            "engine_version": self.engine_version, "rng_version": self.rng_version,
            "setup": self.setup,
            "steps": [{"action": s.action, "digest": s.digest, "state": s.packed()}
                      for s in self.steps],
        }

    def save(self, path: Path | str, replace: bool = True) -> None:
        """Write atomically (callers check the output path first: files.check_output; with
        ``replace=False`` a file that appeared meanwhile is refused, not replaced)."""
        write_atomic(path, json.dumps(self.to_json(), indent=1) + "\n", replace=replace)


def load(path: Path | str) -> Replay:
    """Read a replay file, field by field; a malformed one raises :class:`UserFileError`
    naming the file and the first wrong field. States stay compressed until needed."""
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserFileError(path, "not an emucore replay (missing format marker)")
    version = data.get("format_version")
    if not (isinstance(version, int) and not isinstance(version, bool)) or \
            version != FORMAT_VERSION:
        raise UserFileError(path, f"replay format version {version!r} is not supported "
                                  f"(this emucore reads {FORMAT_VERSION})")
    try:
        system = want_str(data.get("system"), "system", 20)
        if system not in ADAPTERS:
            raise ValueError(f"unknown system {system!r} (one of {', '.join(ADAPTERS)})")
        engine = want_int(data.get("engine_version"), "engine_version", 0, 0xFFFF)
        rng = want_int(data.get("rng_version"), "rng_version", 0, 0xFFFF)
        setup = want_dict(data.get("setup"), "setup")
        raw_steps = data.get("steps")
        if not isinstance(raw_steps, list):
            raise ValueError("steps must be a list")
        if len(raw_steps) > MAX_STEPS:
            raise ValueError(f"{len(raw_steps)} steps, at most {MAX_STEPS}")
        steps = [_step(raw, number, path) for number, raw in enumerate(raw_steps, start=1)]
    except ValueError as exc:
        raise UserFileError(path, f"malformed replay: {exc}") from None
    return Replay(system, engine, rng, setup, steps, str(path))


def _step(raw: Any, number: int, path: Path | str) -> Step:
    what = f"step {number}"
    step = want_dict(raw, what)
    action = want_dict(step.get("action"), f"{what} action")
    digest = want_str(step.get("digest"), f"{what} digest", 128)
    packed = want_str(step.get("state"), f"{what} state", MAX_PACKED_STATE)
    return Step(action, digest, packed=packed, where=f"{path} {what}")


def record(adapter: SystemAdapter, setup: dict[str, Any] | JsonSetup,
           choose: Callable[[Duel], Action | None], max_steps: int = 100_000) -> Replay:
    """Play a duel from ``setup`` (a setup block, or a system's setup value), asking
    ``choose`` for each action until it returns None or the duel ends, and record every
    step."""
    if not isinstance(setup, dict):
        setup = setup.to_json()
    duel = adapter.new_duel(setup)
    replay = Replay(adapter.system, adapter.engine_version, adapter.rng_version, setup)
    for _ in range(max_steps):
        if duel.over:
            break
        action = choose(duel)
        if action is None:
            break
        duel.step(action)
        replay.steps.append(Step(action.to_json(), duel.digest(), duel.snapshot()))
    return replay


def record_actions(adapter: SystemAdapter, setup: dict[str, Any],
                   actions: Iterable[Action]) -> Replay:
    """Record a fixed list of actions."""
    it = iter(actions)
    return record(adapter, setup, lambda _duel: next(it, None))


@dataclass
class Mismatch:
    """Where a replay first disagrees with the engine."""

    step: int  # 1-based step number; 0 = the setup itself failed
    reason: str
    fields: list[tuple[str, int, int]] = field(default_factory=list)  # name, ours, recorded

    def describe(self) -> str:
        lines = [f"step {self.step}: {self.reason}"]
        lines += [f"  {name}: ours {ours} vs recorded {rec}" for name, ours, rec in self.fields]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "reason": self.reason,
                "fields": [{"field": n, "ours": o, "recorded": r} for n, o, r in self.fields]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Mismatch:
        return cls(data["step"], data["reason"],
                   [(f["field"], f["ours"], f["recorded"]) for f in data["fields"]])


def verify(adapter: SystemAdapter, replay: Replay) -> Mismatch | None:
    """Replay every action; None when every digest agrees, else the first :class:`Mismatch`.
    A setup or an action that is malformed (not merely refused) is a :class:`UserFileError`."""
    if replay.system != adapter.system:
        return Mismatch(0, f"replay is for system {replay.system!r}, not {adapter.system!r}")
    for what, ours, theirs in (("engine", adapter.engine_version, replay.engine_version),
                               ("rng", adapter.rng_version, replay.rng_version)):
        if ours != theirs:
            return Mismatch(0, f"recorded with {what} version {theirs}, this emucore is {ours}")
    try:
        duel = adapter.new_duel(replay.setup)
    except ValueError as exc:  # a malformed file, not a verdict
        raise UserFileError(replay.source, f"bad setup: {exc}") from None
    for number, step in enumerate(replay.steps, start=1):
        try:
            action = adapter.decode_action(step.action)
        except ValueError as exc:
            raise UserFileError(replay.source, f"step {number}: {exc}") from None
        try:
            duel.step(action)
        except IllegalAction as exc:  # the engine disagrees with the recording
            return Mismatch(number, f"action rejected: {exc}")
        if duel.digest() != step.digest:
            ours, recorded = adapter.fields_of(duel.snapshot()), step.state
            try:
                rec = adapter.fields_of(recorded)
            except (ValueError, IndexError) as exc:
                return Mismatch(number, f"state differs (recorded state unreadable: {exc})")
            diffs = [(k, ours.get(k, 0), rec.get(k, 0)) for k in sorted(set(ours) | set(rec))
                     if ours.get(k) != rec.get(k)]
            return Mismatch(number, "state differs", diffs)
    return None
