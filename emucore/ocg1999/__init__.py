"""The 1999 Official Rules of the paper game (the Starter Box rulebook) as a paper-engine
profile: see :mod:`emucore.ocg1999.system` and docs/paper.md."""
