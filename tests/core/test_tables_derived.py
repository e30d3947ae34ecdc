"""``emucore.tables.derived.per_tables``: one build per tables object and arguments, keyed by
identity with the object kept alive (no outside source: this is emucore's own memo, and
the tests check its contract)."""

from emucore.tables.derived import per_tables


class _Tables:
    """Unhashable like the real tables objects (they hold numpy arrays)."""

    __hash__ = None  # type: ignore[assignment]


def test_each_tables_object_and_argument_is_built_once():
    calls = []

    @per_tables
    def build(tables, n):
        calls.append((tables, n))
        return [n]

    one, two = _Tables(), _Tables()
    first = build(one, 1)
    assert build(one, 1) is first and calls == [(one, 1)]
    assert build(one, 2) == [2] and build(two, 1) is not first
    assert len(calls) == 3


def test_the_key_object_is_kept_alive_so_its_identity_is_never_reused():
    @per_tables
    def build(tables):
        return object()

    made = [build(_Tables()) for _ in range(50)]   # each object dropped by the caller
    assert len({id(m) for m in made}) == 50
