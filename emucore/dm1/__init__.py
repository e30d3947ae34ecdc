"""Duel Monsters (Game Boy, 1998): the dm1 rule system, its opponents and its computer player.

``Dm1Duel`` (``emucore.dm1.duel``) is driven through the Duel protocol; ``emucore.dm1.ai`` is the
computer player; ``emucore.dm1.replay.ADAPTER`` records and verifies replays.
"""
