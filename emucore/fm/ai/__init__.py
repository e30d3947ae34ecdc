"""The Forbidden Memories computer opponent (spec/fm-ai.md).

Public entry point, the one the engine's CLI and the frontend call::

    from emucore.fm.ai import choose_action
    duel.step(choose_action(duel))        # duel: an FmDuel whose computer side is to act

The duel knows which sides the computer plays and performs the board snapshot export
itself when it steps their actions (:mod:`emucore.fm.export`); the chooser reads that
export, runs the hand or field program of the acting side's duelist (the embedded
reconstruction, or the original programs loaded from the user's own disc, see
:mod:`emucore.fm.ai.disc`) on the AI virtual machine, consumes ``rand()`` on a fork of the
duel's stream in the original order, and returns one engine action whose ``rng_calls``
advance the duel's own stream by as many calls.

Layers (each importable on its own):

* :mod:`.data`      - card, combination and duelist data as lists for scalar lookups
* :mod:`.helpers`   - the search helpers FindStrongest ... EvaluateFusion with their quirks (§4)
* :mod:`.opcodes`, :mod:`.vm`, :mod:`.asm` - the instruction set, the machine (§3), an assembler
* :mod:`.executors` - what the engine does with a selection record (§5, deep-card swap §2.4)
* :mod:`.embedded`  - our reconstruction of the hand and field programs (§6-§7)
* :mod:`.choices`   - every point the spec leaves unknown, named in one place
* :mod:`.adapter`   - the chooser on the duel: actions with ``rng_calls``
* :mod:`.disc`      - the original programs from a disc image, with integrity checks
* :mod:`.sim`, :mod:`.cli` - AI-vs-AI duels; ``emucore fm sim`` and ``emucore fm ai``
"""

from __future__ import annotations

from typing import Any


def choose_action(duel: Any, programs: Any = None, persona: int | None = None) -> Any:
    """The acting side's next action, chosen by the computer opponent.

    ``programs`` is ``None`` for the embedded AI, or a :class:`emucore.fm.ai.disc.Programs`
    loaded from the user's disc image. ``persona`` (1..39) names the duelist whose row and
    branches drive the acting side; by default the CPU is the duel's opponent and an
    AI-driven player side plays as that same duelist. The acting side must be one of the
    duel's ``computer_sides`` (:class:`~emucore.duel.protocol.IllegalAction` otherwise).
    """
    from emucore.fm.ai.adapter import decide

    return decide(duel, programs, persona).action


__all__ = ["choose_action"]
