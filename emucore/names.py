"""What a user meant by a name: the closest names of a table, for one-line errors such as
``unknown card 'Kuribo' (did you mean 'Kuriboh'?)``.

Every place that resolves a name the user typed (a card of any system, an FM duelist, a DM1
opponent) asks here when the name is unknown. Names are compared by :func:`key` (case,
punctuation and spaces dropped, so "Blue Eyes White Dragon" meets "Blue-eyes White Dragon")
and ranked by difflib's similarity ratio.
"""

from __future__ import annotations

from collections.abc import Iterable

from emucore.duel.files import decimal, quoted

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from typing import Any

CUTOFF = 0.8  # the least difflib ratio of a name offered ("kuribo" / "kuriboh" is 0.92)
OFFERED = 3  # the most names offered


def key(name: str) -> str:
    """``name`` as compared: case folded, only letters and digits kept."""
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def closest(token: str, names: Iterable[str]) -> list[str]:
    """The names (as the table spells them) closest to ``token``, best first: the one whose
    :func:`key` is the token's alone if there is one, else up to :data:`OFFERED`."""
    import difflib  # only when a name is unknown: most commands never need it

    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(key(name), name)
    want = key(token)
    if want in by_key:
        return [by_key[want]]
    return [by_key[k] for k in difflib.get_close_matches(want, by_key, OFFERED, CUTOFF)]


def did_you_mean(near: list[str]) -> str:
    """``did you mean 'A', 'B' or 'C'?`` for the names ``near`` (at least one)."""
    shown = [repr(n) for n in near]
    return "did you mean " + (f"{', '.join(shown[:-1])} or {shown[-1]}" if len(shown) > 1
                              else shown[0]) + "?"


def unknown(what: str, token: str, names: Iterable[str], otherwise: str = "") -> str:
    """The one-line message for a ``token`` that names no ``what``: the closest names, else
    ``otherwise`` (what the user may type), in parentheses."""
    near = closest(token, names)
    note = did_you_mean(near) if near else otherwise
    return f"unknown {what} {quoted(token.strip())}" + (f" ({note})" if note else "")


def find(token: str, named: Iterable[tuple[int, str]]) -> int | None:
    """The id of the (id, name) pair whose name is ``token`` up to case and outer spaces;
    None if there is none."""
    want = token.strip().casefold()
    return next((ident for ident, name in named if name.casefold() == want), None)


def card(data: Any, token: str) -> int:
    """A card of ``data`` (a system's tables, :class:`emucore.tables.catalogue.CardCatalogue`)
    from an id or a name. KeyError with a one-line message: the catalogue's for an id out of
    range, for an unknown name the closest card names."""
    try:
        return int(data.card_id(token))
    except KeyError:
        if decimal(str(token).strip().removeprefix("#")) is not None:  # an id, not a name
            raise
        names = (data.card_info(i)["name"] for i in range(1, data.card_count + 1))
        raise KeyError(unknown("card", str(token), names)) from None
