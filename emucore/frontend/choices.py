"""Every point where the frontend decides what the original leaves open or emucore has no
original to follow, in one place: the register of the screens' choices. None of them changes
a duel's state or its stream; the rule choices are the systems' own registers
(``emucore.fm.choices``, ``emucore.dm1.choices``, ``emucore.paper.choices``). Each site names
its entry (``frontend.choices F1``).

F1  Should a computer opponent ever choose an action the rules refuse, the duel screen takes
    the first legal action instead (an end of turn in FM's field phase), so the duel never
    stalls; the notice names the refused action's rule (the FM and DM1 duel screens).
F2  How long each piece of an FM animation lasts on screen where the timeline does not fix
    it, at 59.83 frames a second (``systems.fm.animation.FRAMES``): the stream's calls are the
    timeline's, whatever the screen's pace.
F3  FM's game-over screen is emucore's own (the original's is an unmatched package), with
    the two choices the-game.md §7.12 names: the same duel again, or the title.
F4  The confirm and cancel buttons: Cross and Circle on the PlayStation (as NTSC-U releases),
    A and B on the Game Boy (``emucore.duel.padlog.ROLES``, read by the screens and by
    ``capture record``'s pad logs alike).
"""
