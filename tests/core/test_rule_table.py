"""The one dispatch table of the engines (emucore/duel/rules.py; docs/ARCHITECTURE.md, "One
dispatch pattern"): an action's class finds its kind's rule, a class derived from a kind
finds that kind's rule, anything else none (the engine then refuses it)."""

from __future__ import annotations

from emucore.duel.rules import Rule, RuleTable


class Kind:
    pass


class Derived(Kind):
    pass


class Other:
    pass


def test_exact_derived_and_unknown_classes():
    rule = Rule("phase", print, print)
    table = RuleTable({Kind: rule})
    assert table[Kind] is rule and table[Derived] is rule and table[Other] is None
    assert Derived in table and Other not in table  # a derived class is found once, then kept
