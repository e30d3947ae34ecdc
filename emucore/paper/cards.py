"""The card catalogue a paper duel plays with: card definitions, fusion recipes, Field bonuses.

Each rule system builds its catalogue from its own tables; tests may build small ones by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

MONSTER = "monster"
FUSION = "fusion"
MAGIC = "magic"
TRAP = "trap"


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card as the rules see it. ``effect`` names a kind of :mod:`emucore.paper.effects`."""

    id: int
    name: str
    kind: str  # MONSTER, FUSION, MAGIC or TRAP
    monster_type: str = ""
    level: int = 0
    atk: int = 0
    defense: int = 0
    effect: str = ""
    amount: int = 0
    effect_type: str = ""  # the monster type an equip or lock is restricted to

    @property
    def is_monster(self) -> bool:
        return self.kind in (MONSTER, FUSION)


@dataclass
class Catalogue:
    """Every card of a rule system by id, plus its fusion recipes and Field-card bonuses."""

    cards: dict[int, CardDef]
    fusions: dict[tuple[int, int], int] = field(default_factory=dict)  # (low, high) -> result
    field_bonus: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    _field_atk: dict[int, dict[int, int]] = field(default_factory=dict, init=False, repr=False,
                                                  compare=False)

    def __getitem__(self, ident: int) -> CardDef:
        return self.cards[ident]

    def fusion_of(self, a: int, b: int) -> int:
        """The Fusion Monster two named materials make, or 0."""
        return self.fusions.get((a, b) if a <= b else (b, a), 0)

    def name(self, ident: int) -> str:
        return self.cards[ident].name if ident in self.cards else f"#{ident}"

    def atk_with_field(self, field_card: int) -> dict[int, int]:
        """Every card's printed ATK plus the Field card's bonus for its monster type, by id
        (``field_card`` 0: no Field card); built once per Field card."""
        table = self._field_atk.get(field_card)
        if table is None:
            bonus = self.field_bonus.get(field_card, {})
            table = {c.id: c.atk + bonus.get(c.monster_type, 0) for c in self.cards.values()}
            self._field_atk[field_card] = table
        return table

    @cached_property
    def fusion_materials(self) -> frozenset[int]:
        """Every card named as a material of some fusion recipe."""
        return frozenset(card for pair in self.fusions for card in pair)

    @cached_property
    def exodia_pieces(self) -> frozenset[int]:
        """The ids of the Exodia pieces (effect ``exodia_piece``), sorted out once."""
        return frozenset(c.id for c in self.cards.values() if c.effect == "exodia_piece")


def catalogue_of(cards: Iterable[CardDef], fusions: Mapping[tuple[int, int], int] | None = None,
                 field_bonus: Mapping[int, Mapping[str, int]] | None = None) -> Catalogue:
    """A catalogue from card definitions (fusion keys are normalised to (low, high))."""
    pairs = {(min(a, b), max(a, b)): r for (a, b), r in (fusions or {}).items()}
    return Catalogue({c.id: c for c in cards}, pairs, dict(field_bonus or {}))
