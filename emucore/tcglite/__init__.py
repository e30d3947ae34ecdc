"""The simplified TCG (2002 starter decks, five phases) as a paper-engine profile: see
:mod:`emucore.tcglite.system` and docs/paper.md."""
