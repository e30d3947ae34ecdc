"""emucore: faithful recreations of the early Yu-Gi-Oh! "Duel Monsters" card-game engines.

Four rule systems share one core: ``fm`` (Forbidden Memories, PlayStation 1999), ``dm1``
(Duel Monsters, Game Boy 1998), ``ocg1999`` (the 1999 Official Rules of the paper game) and
``tcglite`` (a simplified TCG with the 2002 starter decks).
"""

from emucore import compiled as _compiled

__version__ = "0.1.0"

SYSTEMS = ("fm", "dm1", "ocg1999", "tcglite")   # the one list of systems: every other reads it

_compiled.install()   # the FM duel's hot modules run compiled when built (emucore.compiled)
