"""Captures: duels recorded from the original games in an emulator, verified against emucore.

``fileformat`` reads and writes the capture file the scripts in ``tools/capture/`` write;
``rammap`` is the one RAM map both sides use; ``fm_check`` replays an FM capture step by step,
``dm1_check`` checks a DM1 capture against the tables; ``verify`` describes the outcome and
imports a capture as a replay; ``report`` writes the HTML page; ``approved`` holds the known
divergences. See docs/capture.md.
"""
