"""FM prompts: what may come next in a partial action (issue 25; ygopro-core's prompts).

:class:`FmPrompts` is a base of :class:`emucore.fm.engine.FmDuel` and gives it the protocol's
``options(prefix)`` and ``action_for(prefix)`` (emucore/duel/protocol.py) and ``preview``.
The field phase's list is small, so the protocol's filter of ``legal_actions()`` answers it.
The hand phase's list is a lazy product of thousands of plays (emucore.fm.legal); its
prompts are read from the same list's segments (:func:`emucore.fm.legal.plays`) without
building the product, and its landing rows from the engine's own ``_landing``.

A play's parts (:meth:`emucore.fm.actions.Play.parts`) are ``("card", j)`` once per raised
hand card in raise order, then ``("face_down", b)``, then ``("zone", c)`` unless the card is
activated at once, then ``("star", s)``.

A prompt offers real columns, never AUTO (``fm.choices Q1``). The legal list lists a play
onto any free column as one AUTO play; the prompts offer every free column of the row it
lands in (and the occupied ones it may combine with), so a cursor can stand on each. AUTO
stands for the lowest free column (``first_free``, as ``step()`` resolves it):
:attr:`Preview.auto` names it, and :func:`resolved` turns an AUTO play into the play on that
column, which ``step()`` treats identically.

A prefix that starts no legal action is refused with the engine's own reason where the
prefix names a whole action (``used``, ``first-turn``, ``empty-zone`` ...: its kind's
defaults fill the rest, :meth:`FmPrompts.plainest`, and ``step()``'s checks on a copy say
what is wrong: the protocol's ``refused``), else ``no-such-choice``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from emucore.duel.protocol import IllegalAction, Part, plainest_action
from emucore.fm import legal
from emucore.fm import state as S
from emucore.fm.actions import ACTION_KINDS, AUTO, FmAction, Play

ROW_NAMES = {S.MONSTERS: "monster", S.MAGIC: "magic"}
PLAY = ("kind", Play.kind)


@dataclass(frozen=True)
class Preview:
    """What a play will do, from ``step()`` itself run on a copy of the state: the row it
    lands in (``None``: the card is activated at once), the column it lands on (the chosen
    one, else the first offered), the column AUTO stands for (-1 when the row is full) and
    the card the play leaves there once its chain has resolved (0 when none: a magic card
    used up, a failed chain's discard): the monster the guardian-star choice is for."""

    row: str | None
    column: int
    auto: int
    card: int


class FmPrompts:
    """The prompts of an FM duel (a base of ``FmDuel``: ``self`` is the duel)."""

    def options(self, prefix: Sequence[Part] = ()) -> list[Part]:
        """The parts that may follow ``prefix`` (see the module's docstring)."""
        prefix = tuple(prefix)
        if self.phase != S.PHASE_HAND:
            return super().options(prefix)  # type: ignore[misc]
        try:
            return _hand_options(self, prefix)
        except IllegalAction as refused:
            raise self.refused(prefix, refused) from None  # type: ignore[attr-defined]

    def plainest(self, prefix: Sequence[Part]) -> FmAction | None:
        """The action ``prefix`` names, its kind's defaults filling the rest (a play once it
        names a card); ``step()``'s checks then say what is wrong with it."""
        prefix = tuple(prefix)
        if prefix[:1] == (PLAY,):
            return _play_of(prefix) if any(n == "card" for n, _ in prefix[1:]) else None
        return plainest_action(prefix, ACTION_KINDS)

    def action_for(self, prefix: Sequence[Part]) -> FmAction | None:
        """The action ``prefix`` makes once complete, ``None`` while parts are to come."""
        prefix = tuple(prefix)
        if self.phase != S.PHASE_HAND:
            return super().action_for(prefix)  # type: ignore[misc]
        return None if self.options(prefix) else _play_of(prefix)

    def preview(self, prefix: Sequence[Part]) -> Preview:
        """What the play ``prefix`` (its cards and face at least) will do; a zone or star
        not chosen yet is taken as the first offered."""
        prefix = tuple(prefix)
        if not any(name == "face_down" for name, _ in prefix):
            raise IllegalAction("no-such-choice", "a preview needs the play's cards and face")
        offered = self.options(prefix)
        if offered and offered[0][0] == "zone":
            prefix = (*prefix, offered[0])
        play = _play_of(prefix)
        side = self.acting_side
        row, column = self._landing(side, play)
        auto = self.first_free(side, row) if row >= 0 else -1
        before = self.snapshot()
        try:
            events = self.step(play)
            card = _left(self, side, events, row, column)
        finally:
            self.restore(before)
        return Preview(ROW_NAMES.get(row), column, auto, card)


def resolved(duel: Any, action: FmAction) -> FmAction:
    """``action`` with an AUTO landing column replaced by the column ``step()`` resolves it
    to (the lowest free one); any other action as it is."""
    if not isinstance(action, Play) or action.zone != AUTO:
        return action
    row, column = duel._landing(duel.acting_side, action)
    return action if row < 0 else Play(action.cards, column, action.face_down, action.star)


def _left(duel: Any, side: int, events: list, row: int, column: int) -> int:
    """The card a play left: a ritual's result, else the card now on its landing zone."""
    for event in reversed(events):
        if event.kind == "ritual":
            return event.result
    if row < 0:
        return 0
    card = duel.card(side, ROW_NAMES[row], column)
    return 0 if card is None else card.card


def _hand_options(duel: Any, prefix: tuple[Part, ...]) -> list[Part]:
    """The hand phase's next parts, from the legal list's plays."""
    if not prefix:
        return [PLAY] if len(duel.legal_actions()) else []
    if prefix[0] != PLAY:
        raise IllegalAction("no-such-choice", f"the hand phase allows one play, not {prefix[0]!r}")
    rest = prefix[1:]
    raised = tuple(v for _, v in _leading(rest, "card"))
    k, tail = len(raised), rest[len(raised):]
    out: dict[Part, None] = {}
    started = False
    for cards, zones, faces, stars in legal.plays(duel.legal_actions()):
        if cards[:k] != raised:
            continue
        if len(cards) > k:
            if not tail:  # a longer chain: its next card may be raised
                started = True
                out[("card", cards[k])] = None
            continue
        for whole in _tails(duel, cards, zones, faces, stars):
            if whole[:len(tail)] == tail:
                started = True
                if len(whole) > len(tail):
                    out[whole[len(tail)]] = None
    if not started:
        raise IllegalAction("no-such-choice", f"no legal play starts with {prefix!r}")
    return list(out)


def _leading(parts: tuple[Part, ...], name: str) -> Iterator[Part]:
    for part in parts:
        if part[0] != name:
            return
        yield part


def _tails(duel: Any, cards: tuple[int, ...], zones: Sequence[int], faces: Sequence[bool],
           stars: Sequence[int]) -> Iterator[tuple[Part, ...]]:
    """The parts after a play's cards: face, the real columns (none for an activation), star."""
    side = duel.acting_side
    for face in faces:
        columns = {z for z in zones if z != AUTO}
        activated = False
        if AUTO in zones:
            row, _ = duel._landing(side, Play(cards, AUTO, face, 0))
            activated = row < 0
            if not activated:
                taken = duel.columns(side * S.RECORDS_PER_SIDE + row)
                columns |= {c for c in range(S.ROW_WIDTH) if c not in taken}
        landings = [()] if activated else [(("zone", c),) for c in sorted(columns)]
        for landing in landings:
            for star in stars:
                yield (("face_down", face), *landing, ("star", star))


def _play_of(prefix: tuple[Part, ...]) -> Play:
    """The play a whole (or star-completed) hand-phase prefix names."""
    parts = dict(prefix[1:])
    cards = tuple(v for n, v in prefix[1:] if n == "card")
    return Play(cards, parts.get("zone", AUTO), parts.get("face_down", False),
                parts.get("star", 0))
