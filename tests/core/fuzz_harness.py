"""What every fuzz test shares: the example profiles, the strategies that mutate a valid file
where its structure lives, and :func:`run_cli`, which runs one ``emucore`` command line and
checks the house rules on it.

The rules (the same for every kind of input): exit 0, 1 (only for verify commands) or 2; for
2 exactly one line on stderr and never a traceback; no input file changed; no partial output
(a failed command leaves no new file). :data:`RUNS` counts the examples per kind and
:data:`FINDINGS` what broke a rule; tests/core/conftest.py writes both to
``EMUCORE_FUZZ_REPORT`` at the end of the run when it is set.

The normal run uses few examples per test (the ``default`` profile). ``pytest -m fuzz`` (or
``EMUCORE_FUZZ=1``) switches to the ``fuzz`` profile: ``EMUCORE_FUZZ_EXAMPLES`` examples per
test (default 400)."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import stat
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from emucore import cli

REPO = Path(__file__).resolve().parents[2]
FM_GOLDEN = REPO / "tests" / "fm" / "golden" / "simon_seed1.json"
RUNS: Counter[str] = Counter()
FINDINGS: Counter[str] = Counter()
_EXAMPLE = itertools.count()

settings.register_profile("default", max_examples=12, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.function_scoped_fixture])
settings.register_profile("fuzz", max_examples=int(os.environ.get("EMUCORE_FUZZ_EXAMPLES",
                                                                  "400")),
                          deadline=None, suppress_health_check=list(HealthCheck))
FUZZ = bool(os.environ.get("EMUCORE_FUZZ"))
settings.load_profile("fuzz" if FUZZ else "default")


# --------------------------------------------------------------------------- strategies
json_scalar = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                        st.floats(allow_nan=False), st.text(max_size=12),
                        st.sampled_from(["²", "٣", "５", "1_000", "/etc/passwd", "/dev/zero",
                                         "-1", "0x10", "", "magician", "yugi"]))
json_value = st.recursive(json_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def _paths(data: object, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON tree (as a key path), the root included."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:6]):  # the first steps are enough
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated_json(draw: st.DrawFn, base: object) -> str:
    """``base`` with one to three places replaced by any JSON value or removed; or raw text."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(st.text(max_size=60), st.just("[" * 5000),
                              st.just('{"format": "emucore-replay", "format_version": 1'),
                              st.just("9" * 5000)))
    data = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        places = _paths(data)
        path = draw(st.sampled_from(places))
        if not path:
            data = draw(json_value)
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and draw(st.booleans()) and draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(json_value)
    return json.dumps(data)


@st.composite
def deck_text(draw: st.DrawFn) -> str:
    token = st.one_of(st.integers(-5, 800).map(str), st.sampled_from(
        ["Dark Magician", "Mystical Elf", "B-Eye White Dragon", "²", "٣", "５", "1_000",
         "#1", "[side]", "[fusion]", "[main]", "# note", "", "Mystical Sheep #2"]),
        st.text(max_size=15))
    count = st.one_of(st.just(""), st.integers(0, 300).map(lambda n: f"{n}x "),
                      st.integers(0, 300).map(lambda n: f"{n} x "),
                      st.just("200000000 x "), st.just("99999999999x "))
    lines = draw(st.lists(st.tuples(count, token).map("".join), max_size=45))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


@st.composite
def mutated_lines(draw: st.DrawFn, base: str) -> str:
    """A line-based file with one or two lines rewritten, dropped or duplicated."""
    lines = base.split("\n")
    for _ in range(draw(st.integers(1, 2))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.integers(0, 3))
        if how == 0:
            lines[i] = draw(st.text(max_size=40))
        elif how == 1:
            del lines[i]
            if not lines:
                lines = [""]
        elif how == 2:
            lines.insert(i, lines[i])
        else:
            line = lines[i]
            j = draw(st.integers(0, max(len(line) - 1, 0)))
            lines[i] = line[:j] + draw(st.text(max_size=3)) + line[j + 1:]
    return "\n".join(lines)


# ------------------------------------------------------------------------------ harness
def tree(folder: Path) -> dict[str, bytes | None]:
    """What ``folder`` holds: a regular file's bytes; None for a link or a folder; for a FIFO
    or a device a mark of its kind (reading one would block), so a file put in its place
    counts as a changed input."""
    out: dict[str, bytes | None] = {}
    for p in sorted(folder.rglob("*")):
        mode = p.lstat().st_mode
        if stat.S_ISLNK(mode) or stat.S_ISDIR(mode):
            out[str(p.relative_to(folder))] = None
        elif stat.S_ISREG(mode):
            out[str(p.relative_to(folder))] = p.read_bytes()
        else:
            out[str(p.relative_to(folder))] = f"<not a file: {stat.S_IFMT(mode):o}>".encode()
    return out


def run_cli(kind: str, argv: list[str], folder: Path, outputs: tuple[str, ...] = (),
            verdict: bool = False) -> int:
    """Run ``emucore argv`` and check the house rules (see the module docstring)."""
    before = tree(folder)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse usage errors: exit 2 with one line
            code = exc.code
    text = err.getvalue()
    RUNS[kind] += 1
    allowed = (0, 1, 2) if verdict else (0, 2)
    if code not in allowed or "Traceback" in text or "internal error" in text:
        FINDINGS[f"{kind}: traceback or bad exit"] += 1
        _dump(kind, argv, folder, before, text)
    assert code in allowed, (argv, code, text)
    assert "Traceback" not in text and "internal error" not in text, (argv, text)
    if code == 2 and len(text.strip().splitlines()) != 1:
        FINDINGS[f"{kind}: not one line on stderr"] += 1
    assert code != 2 or len(text.strip().splitlines()) == 1, (argv, text)
    after = tree(folder)
    for name, data in before.items():
        if name in outputs:  # an existing file the command may replace (with --force)
            continue
        if after.get(name, b"gone") != data:
            FINDINGS[f"{kind}: changed input"] += 1
        assert after.get(name, b"gone") == data, f"{name} changed or vanished"
    new = set(after) - set(before)
    if code != 0 and new:
        FINDINGS[f"{kind}: partial output"] += 1
    assert code == 0 or not new, f"a failed command left {new}"
    assert new <= set(outputs), f"unexpected new files {new}"
    return code


def _dump(kind: str, argv: list[str], folder: Path, files: dict, stderr: str) -> None:
    """With EMUCORE_FUZZ_DUMP=DIR, keep a failing example (argv, stderr, inputs) there."""
    target = os.environ.get("EMUCORE_FUZZ_DUMP")
    if not target:
        return
    case = Path(target) / f"{sum(FINDINGS.values()):04d}"
    case.mkdir(parents=True, exist_ok=True)
    (case / "case.txt").write_text(f"{kind}\n{argv}\n\n{stderr}")
    for name, data in files.items():
        if data is not None:
            (case / name.replace("/", "_")).write_bytes(data)


def fresh(work: Path) -> Path:
    """An empty folder per example (examples share the test's tmp folder)."""
    folder = work / f"ex{next(_EXAMPLE)}"
    folder.mkdir()
    return folder


def report() -> dict[str, dict[str, int]]:
    """The examples run per kind and the rule breaks found, for ``EMUCORE_FUZZ_REPORT``."""
    return {"runs": dict(sorted(RUNS.items())), "findings": dict(FINDINGS)}
