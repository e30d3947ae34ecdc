"""Known divergences: fields emucore does not model the way the original stores them.

The list is data (``known_divergences.json`` beside this module): each entry names a system,
glob patterns over ``state_fields()`` names (``*`` matches anything) and the reason. Verification
leaves those bytes out of the comparison and reports, per entry, whether the capture showed it.
Each entry is also a strict expected failure in tests/capture: with the entry switched off a
capture showing the divergence must fail on exactly that field, so an entry that no longer
matches anything is noticed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from emucore.duel.files import read_json

LIST = Path(__file__).with_name("known_divergences.json")


@dataclass(frozen=True)
class Divergence:
    id: str
    system: str
    fields: tuple[str, ...]
    reason: str

    def matches(self, name: str) -> bool:
        return any(_pattern(p).fullmatch(name) for p in self.fields)


def _pattern(glob: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in glob.split("*")))


def load(system: str, path: Path = LIST) -> tuple[Divergence, ...]:
    """The approved divergences of ``system``."""
    data = read_json(path)
    return tuple(Divergence(e["id"], e["system"], tuple(e["fields"]), e["reason"])
                 for e in data["divergences"] if e["system"] == system)
