"""Forbidden Memories (PlayStation, 1999): the duel engine, deck preparation, rank and drops.

Public entry points: :class:`emucore.fm.engine.FmDuel` (the Duel protocol),
:mod:`emucore.fm.actions` (actions and events), :mod:`emucore.fm.setup` (building a duel from
decks, a duelist and an RNG state), :mod:`emucore.fm.deck`, :mod:`emucore.fm.rank`.
See docs/fm-engine.md.
"""
