"""Names the dead-code check (tests/core/test_dead_code.py, vulture) must not report.

Each is used in a way vulture cannot see; the comment says how. Keep this list short: a name
that is really unused is deleted, not listed here.
"""

# ruff: noqa: B018, F821
# fmt: off

# Event fields: read through dataclasses.asdict() by Event.to_json (replays, --json output).
_.material_a
_.material_b
_.defender_attacking
_.cause
# Named values of a record field or of the exit status (the set of values is the
# documentation).
_.EXIT_OK
_.EXIT_DIFFERS
_.END_NONE
_.AI_MON_UNUSED
_.AI_MT_UNUSED
_.DEF
_.AI_MONSTERS
_.AI_MAGIC
# Fields of the original's machine state, mirrored by the AI machine (SetFlag97/ClearFlag97
# and FindBestCombo store them; no handler of the original reads them back either).
_.flag97
_.fusion_set
# RAM fields of the FM globals record, written through its named views (state image bytes).
_.rank_tier
_.rank_tec
# Machine-profile field shown by docs and `emucore machines`; screen API documented in
# docs/frontend.md.
_.colour_depth
_.any_pressed
# pytest fixtures and a stub's signature.
_.fake_devices
_.kwargs
# emucore.compiled: find_spec is called by Python's import system.
_.find_spec
# emucore.capture.cores: the libretro binding reads its path driver's system_dir.
_.system_dir
