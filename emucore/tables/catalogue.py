"""What every system's table object shares: row counts and finding a card by id or name;
and :class:`CardLookup`, a system's cards as the one-card look-ups read them.

``emucore card`` and ``emucore fusion`` answer from a system's card file (and its fusion
file) alone. Each system's ``<system>_lookup`` module (numpy-free: :mod:`fm_lookup
<emucore.tables.fm_lookup>`, ``dm1_lookup``, ``ocg1999_lookup``, ``tcglite_lookup``)
declares its schemas, says what a card shows (``card_info``, from a row) and which card two
make (``fusion_pairs``), and its ``lookup(folder)`` reads those files with
:func:`emucore.tables.csvfile.read_columns`, the numpy reader's rows, cells and messages.
The system's numpy tables call the same ``card_info`` and ``fusion_pairs``: one rule, two
readers.
"""

from __future__ import annotations

import functools

from emucore.duel.files import decimal

TYPE_CHECKING = False  # typing's constant, without importing typing at a look-up's start
if TYPE_CHECKING:
    from collections.abc import Callable

    from emucore.tables.schema import Table


class CardCatalogue:
    """Mixin for a system's tables. Subclasses provide ``raw`` (file name -> Table),
    ``card_count`` (ids are 1..card_count) and ``_by_name`` (casefolded name -> id)."""

    raw: dict[str, Table]
    card_count: int
    _by_name: dict[str, int]

    def counts(self) -> dict[str, int]:
        """Rows per table file."""
        return {name.removesuffix(".csv"): len(t) for name, t in self.raw.items()}

    def card_id(self, token: str) -> int:
        """A card id from an id (``12`` or ``#12``) or a case-insensitive name; KeyError with
        a one-line message if there is no such card."""
        token = str(token).strip()
        ident = decimal(token.removeprefix("#"))
        if ident is not None:
            if 1 <= ident <= self.card_count:
                return ident
            raise KeyError(f"card id {ident} outside 1..{self.card_count}")
        ident = self._by_name.get(token.casefold())
        if ident is None:
            raise KeyError(f"unknown card {token!r}")
        return ident


class CardLookup(CardCatalogue):
    """A system's cards for ``card`` and ``fusion``: ``card_info(ident)`` and
    ``fusion_result(a, b)`` as the system's tables answer them, from the files a look-up
    reads (the fusion file only when a fusion is asked)."""

    def __init__(self, card_count: int, by_name: dict[str, int],
                 info: Callable[[int], dict[str, object]],
                 fusions: Callable[[], dict[tuple[int, int], int]]) -> None:
        self.card_count, self._by_name = card_count, by_name
        self.card_info, self._read_fusions = info, fusions

    @functools.cached_property
    def _fusions(self) -> dict[tuple[int, int], int]:
        return self._read_fusions()

    def fusion_result(self, a: int, b: int) -> int | None:
        """The card ``a`` and ``b`` make (order-free), or None."""
        return self._fusions.get((a, b))
