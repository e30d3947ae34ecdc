"""The effect models' stream (emucore.fm.effect_calls.Stream) reads what plain ``rand()``
calls give, however its reads and skips follow each other, and the timeline look-up's
identity memo gives each set of overlay tables its own timeline.

Source: the Psy-Q ``rand()`` LCG (``s = s * 0x41C64E6D + 0x3039``, value ``(s >> 16) &
0x7FFF``), stepped here call by call with :class:`emucore.hw.psyq_rand.Rand`, the plain
path the stream's jumps shortcut.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from emucore.fm import overlay as O
from emucore.fm.effect_calls import Stream
from emucore.fm.timeline import timeline_for
from emucore.hw.psyq_rand import Rand

# a read (n >= 1 values), a skip (n calls), or a jump of the read position (set calls)
_OPS = st.lists(st.tuples(st.sampled_from(("take", "skip", "seek")),
                          st.integers(0, 700)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(state=st.integers(0, 0xFFFFFFFF), ops=_OPS)
def test_stream_reads_equal_plain_rand_calls(state: int, ops: list[tuple[str, int]]) -> None:
    """Every read gives the values of the calls at its position, whether it goes on from
    the last read, skips ahead, crosses a chunk or goes back (a seek to an earlier call)."""
    stream = Stream(state)
    rng = Rand(state)
    plain = [rng.rand() for _ in range(40 * 700 + 2000)]
    for op, n in ops:
        if op == "skip":
            stream.skip(n)
        elif op == "seek":
            stream.calls = n * 17
        else:
            at = stream.calls
            assert stream.take(n + 1) == plain[at:at + n + 1]
            assert stream.calls == at + n + 1
    at = stream.calls
    assert stream.one() == plain[at]


def test_each_set_of_overlay_tables_gets_its_timeline() -> None:
    """The timeline of the tables last asked for is found by identity; other tables, and
    equal tables that are another object, still get the timeline of their own values."""
    other = dataclasses.replace(O.BUILT_IN, source="another disc",
                                estimated=frozenset({"board"}))
    equal = dataclasses.replace(O.BUILT_IN)
    built_in = timeline_for(O.BUILT_IN)
    assert built_in.tables is O.BUILT_IN
    theirs = timeline_for(other)
    assert theirs.tables is other and theirs is not built_in
    assert timeline_for(O.BUILT_IN) is built_in
    assert timeline_for(equal) is built_in     # equal values: one timeline
    assert timeline_for(other) is theirs
