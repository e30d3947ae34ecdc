"""Fuzzing ``plan route`` through the ``emucore`` command: its spec (JSON and TOML, from the
examples in examples/routes/), its journal (a stopped run's ``OUT.part`` mutated, then
``--resume``) and its output paths (``--out`` and ``--plot`` onto existing files, links,
folders, missing folders, the spec, each other).

Every example asserts the house rules (tests/core/fuzz_harness.py: exit 0 or 2, one line on
stderr, no changed input, no partial output). The example specs are cut to a few tries
(``count`` 2, ``chunk`` 1, frames ranges of two) and the run's work is capped at
:data:`TRY_CAP` tries (``route_spec.RUN_TRIES`` lowered for this module), so a mutation
that widens a range is refused in one line instead of making an example slow.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from fuzz_harness import REPO, fresh, mutated_json, mutated_lines, run_cli
from hypothesis import given
from hypothesis import strategies as st

from emucore import tables
from emucore.duel.files import read_structured
from emucore.planning import route, route_run, route_spec, starter

pytestmark = pytest.mark.fuzz

EXAMPLES = REPO / "examples" / "routes"
TRY_CAP = 8  # tries a fuzzed spec may make: at most 8 duels per duel link


def capped_run(kind: str, argv: list[str], folder: Path, outputs: tuple[str, ...]) -> int:
    """:func:`fuzz_harness.run_cli` with a run's work capped at :data:`TRY_CAP` tries."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(route_spec, "RUN_TRIES", TRY_CAP)
        return run_cli(kind, argv, folder, outputs=outputs)


def tiny(data: dict[str, Any]) -> dict[str, Any]:
    """An example spec cut to a few tries: two start indices in chunks of one (from the
    first whose starter deck the spec keeps, so its duels are played), and frames ranges
    of two."""
    data = json.loads(json.dumps(data))
    if "from" in data["start"]:
        fm = tables.load("fm")
        has = tuple(fm.card_id(card) for card in data["link"][0]["has"])
        kept = starter.search(data["start"]["from"], data["start"]["count"],
                              starter.Want.of(has, starter.plan(fm)), fm)
        data["start"] = {"from": int(kept[0]), "count": 2}
        data["chunk"] = 1
    for link in data["link"]:
        if "frames" in link:
            link["frames"] = [link["frames"][0], link["frames"][0] + 1]
    return data


BASES = {p.name: tiny(read_structured(p)) for p in sorted(EXAMPLES.iterdir())}


def toml_text(data: dict[str, Any]) -> str:
    """``data`` as TOML: top-level keys as lines, tables and arrays inline (``[[link]]`` is
    the same as ``link = [{...}]``); a null, which TOML cannot hold, is left out."""
    return "".join(f"{_toml(k)} = {_toml(v)}\n" for k, v in data.items() if v is not None)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value if v is not None) + "]"
    return "{" + ", ".join(f"{_toml(k)} = {_toml(v)}" for k, v in value.items()
                           if v is not None) + "}"


def plan_route(kind: str, folder: Path, spec: Path, *extra: str,
               outputs: tuple[str, ...] = ("r.jsonl",)) -> int:
    return capped_run(kind, ["plan", "route", str(spec), "--out", str(folder / "r.jsonl"),
                             "--jobs", "1", *extra], folder, outputs)


# --------------------------------------------------------------------------------- specs
@given(data=st.data(), name=st.sampled_from(sorted(BASES)))
def test_route_specs_json(work: Path, data: st.DataObject, name: str) -> None:
    folder = fresh(work)
    spec = folder / "r.json"
    spec.write_text(data.draw(mutated_json(BASES[name])))
    plan_route("route spec (json) / plan route", folder, spec)


@given(data=st.data(), name=st.sampled_from(sorted(BASES)), by_line=st.booleans())
def test_route_specs_toml(work: Path, data: st.DataObject, name: str, by_line: bool) -> None:
    """The spec's data mutated and written as TOML, or its TOML text mutated line by line."""
    folder = fresh(work)
    spec = folder / "r.toml"
    if by_line:
        text = data.draw(mutated_lines(toml_text(BASES[name])))
    else:
        text = data.draw(mutated_json(BASES[name]))
        try:
            mutated = json.loads(text)
        except ValueError:  # raw text: tried as TOML as it is
            mutated = None
        if mutated is not None:
            text = toml_text(mutated) if isinstance(mutated, dict) \
                else f"x = {_toml(mutated)}\n"
    spec.write_text(text)
    plan_route("route spec (toml) / plan route", folder, spec)


# ------------------------------------------------------------------------------ journals
@pytest.fixture(scope="module")
def stopped(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A spec and the journal of its run stopped after two of its four chunks."""
    folder = tmp_path_factory.mktemp("stopped")
    data = json.loads(json.dumps(BASES["two-duels.toml"]))
    data["start"]["count"] = 4
    data["link"] = data["link"][:2]
    data["link"][1]["frames"] = [0, 0]
    spec_file = folder / "r.json"
    spec_file.write_text(json.dumps(data))
    spec = route_spec.load(spec_file, tables.load("fm"))

    def two_then_stop(todo: Any) -> Any:
        for start, count in [next(todo), next(todo)]:
            yield route.search_chunk(spec, start, count)
        raise KeyboardInterrupt

    assert not route_run.run(spec, folder / "r.jsonl", two_then_stop).finished
    return spec_file.read_text(), (folder / "r.jsonl.part").read_text()


@given(data=st.data())
def test_route_journals(work: Path, stopped: tuple[str, str], data: st.DataObject) -> None:
    """``--resume`` from a mutated journal: a line rewritten, dropped or doubled, a record's
    values replaced, or the file cut anywhere. A refused journal is left as it was; an
    accepted one is finished and removed."""
    spec_text, journal_text = stopped
    folder = fresh(work)
    spec = folder / "r.json"
    spec.write_text(spec_text)
    how = data.draw(st.sampled_from(["lines", "record", "cut"]))
    lines = journal_text.splitlines()
    if how == "lines":
        text = data.draw(mutated_lines(journal_text))
    elif how == "record":
        at = data.draw(st.integers(0, len(lines) - 1))
        lines[at] = data.draw(mutated_json(json.loads(lines[at])))
        text = "\n".join(lines) + "\n"
    else:
        text = journal_text[:data.draw(st.integers(0, len(journal_text)))]
    journal = folder / "r.jsonl.part"
    written = text.encode("utf-8", "surrogateescape")
    journal.write_bytes(written)  # bytes both ways: read_text would fold a "\r\n" to "\n"
    code = plan_route("route journal / plan route --resume", folder, spec, "--resume",
                      outputs=("r.jsonl", "r.jsonl.part"))
    if code == 0:
        assert not journal.exists() and (folder / "r.jsonl").exists()
    else:
        assert journal.read_bytes() == written


# --------------------------------------------------------------------------- output paths
PLACES = ["new.jsonl", "precious.txt", "old.png", "link", "dangling", "dir", "nodir/x",
          "precious.txt/x", "r.json", "r.jsonl.part", "."]


@given(out=st.sampled_from(PLACES), plot=st.one_of(st.none(), st.sampled_from(
           [*PLACES, "new.png"])), force=st.booleans(), resume=st.booleans(),
       journal=st.booleans())
def test_route_output_paths(work: Path, out: str, plot: str | None, force: bool,
                            resume: bool, journal: bool) -> None:
    """``--out`` and ``--plot`` onto new names, existing files, links (to a file, dangling),
    folders, missing folders, a path through a file, the spec, the journal, each other; with
    and without ``--force`` and ``--resume``, with and without a stopped run's journal. Only
    the new names are written, an existing file only with ``--force``."""
    folder = fresh(work)
    spec = folder / "r.json"
    spec.write_text(json.dumps(BASES["simon-script.toml"]))
    (folder / "precious.txt").write_text("precious\n")
    (folder / "old.png").write_text("old chart\n")
    (folder / "link").symlink_to(folder / "precious.txt")
    (folder / "dangling").symlink_to(folder / "nowhere")
    (folder / "dir").mkdir()
    stopped_journal = f"{out}.part"
    if journal and (folder / stopped_journal).parent.is_dir():
        (folder / stopped_journal).write_text("")  # a run stopped before its header
    argv = ["plan", "route", str(spec), "--out", str(folder / out), "--jobs", "1",
            *(["--plot", str(folder / plot)] if plot else []), *(["--force"] if force else []),
            *(["--resume"] if resume else [])]
    named = {name for name in (out, plot) if name}
    may_change = {name for name in named if not os.path.lexists(folder / name)}
    if force:
        may_change |= {"precious.txt", "old.png"} & named
    if resume:  # a finished run removes its journal
        may_change.add(stopped_journal)
    code = capped_run("output path / plan route --out --plot", argv, folder,
                      tuple(may_change))
    assert (folder / "link").is_symlink() and (folder / "dir").is_dir()
    assert not (folder / "nowhere").exists() and spec.read_text().startswith("{")
    if code == 0:
        assert (folder / out).read_text().startswith('{"index"')
        assert not (folder / stopped_journal).exists()
