"""One registry of systems (emucore.SYSTEMS): the tables' builders, the replay adapters and
the command registry read it, and each system it names has its package, tables, replay
adapter and command. The expected list is DESIGN.md's table of system ids."""

from __future__ import annotations

import importlib

from emucore import SYSTEMS, commands
from emucore.duel.replay import ADAPTERS
from emucore.tables.builders import BUILDERS


def test_the_list_is_the_designs():
    assert SYSTEMS == ("fm", "dm1", "ocg1999", "tcglite")


def test_every_list_of_systems_reads_the_registry():
    assert BUILDERS is SYSTEMS
    assert tuple(ADAPTERS) == SYSTEMS
    assert tuple(path[0] for path in commands.COMMANDS if path[0] in SYSTEMS
                 and len(path) == 1) == SYSTEMS


def test_each_system_has_a_replay_adapter_named_for_it():
    for system, module in ADAPTERS.items():
        assert importlib.import_module(module).ADAPTER.system == system
