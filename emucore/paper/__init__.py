"""The paper-game engine core: one phase-based duel engine for the paper rule systems.

Each rule system (``ocg1999``, ``tcglite``) is a named :class:`~emucore.paper.profile.Profile`
of switches over the same core: the phases, the first-turn rules, the per-turn quotas, what a
deck-out means, whether traps stay on the field. Card effects are data: each magic/trap card
names an effect *kind* (burn, heal, equip, destroy-all, ...) implemented once in
:mod:`emucore.paper.effects`.
"""
