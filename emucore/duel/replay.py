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
import json
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from emucore.duel.files import UserFileError, read_json, write_atomic
from emucore.duel.protocol import Action, Duel

FORMAT = "emucore-replay"
FORMAT_VERSION = 1


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


@dataclass
class Step:
    action: dict[str, Any]
    digest: str
    state: bytes


@dataclass
class Replay:
    system: str
    engine_version: int
    rng_version: int
    setup: dict[str, Any]
    steps: list[Step] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "format_version": FORMAT_VERSION, "system": self.system,
            "engine_version": self.engine_version, "rng_version": self.rng_version,
            "setup": self.setup,
            "steps": [{"action": s.action, "digest": s.digest,
                       "state": base64.b64encode(zlib.compress(s.state, 9)).decode("ascii")}
                      for s in self.steps],
        }

    def save(self, path: Path | str) -> None:
        """Write atomically."""
        write_atomic(path, json.dumps(self.to_json(), indent=1) + "\n")


def load(path: Path | str) -> Replay:
    """Read a replay file; a malformed one raises :class:`UserFileError` (one line)."""
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserFileError(path, "not an emucore replay (missing format marker)")
    if data.get("format_version") != FORMAT_VERSION:
        raise UserFileError(path, f"replay format version {data.get('format_version')!r} "
                                  f"is not supported (this emucore reads {FORMAT_VERSION})")
    try:
        steps = [Step(s["action"], s["digest"],
                      zlib.decompress(base64.b64decode(s["state"], validate=True)))
                 for s in data["steps"]]
        return Replay(str(data["system"]), int(data["engine_version"]),
                      int(data["rng_version"]), dict(data["setup"]), steps)
    except (KeyError, TypeError, ValueError, zlib.error) as exc:
        raise UserFileError(path, f"malformed replay ({exc.__class__.__name__}: {exc})") from None


def record(adapter: SystemAdapter, setup: dict[str, Any],
           choose: Callable[[Duel], Action | None], max_steps: int = 100_000) -> Replay:
    """Play a duel from ``setup``, asking ``choose`` for each action until it returns None or
    the duel ends, and record every step."""
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


def verify(adapter: SystemAdapter, replay: Replay) -> Mismatch | None:
    """Replay every action; None when every digest agrees, else the first :class:`Mismatch`."""
    if replay.system != adapter.system:
        return Mismatch(0, f"replay is for system {replay.system!r}, not {adapter.system!r}")
    for what, ours, theirs in (("engine", adapter.engine_version, replay.engine_version),
                               ("rng", adapter.rng_version, replay.rng_version)):
        if ours != theirs:
            return Mismatch(0, f"recorded with {what} version {theirs}, this emucore is {ours}")
    try:
        duel = adapter.new_duel(replay.setup)
    except ValueError as exc:
        return Mismatch(0, f"bad setup: {exc}")
    for number, step in enumerate(replay.steps, start=1):
        try:
            duel.step(adapter.decode_action(step.action))
        except ValueError as exc:
            return Mismatch(number, f"action rejected: {exc}")
        if duel.digest() != step.digest:
            ours, rec = adapter.fields_of(duel.snapshot()), adapter.fields_of(step.state)
            diffs = [(k, ours.get(k, 0), rec.get(k, 0)) for k in sorted(set(ours) | set(rec))
                     if ours.get(k) != rec.get(k)]
            return Mismatch(number, "state differs", diffs)
    return None
