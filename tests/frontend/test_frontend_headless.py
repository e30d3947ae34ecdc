"""`emucore play --headless --script` prints the final framebuffer hash with or without
--json, as the README promises."""

from __future__ import annotations

import json

from emucore.cli import main


def test_headless_play_prints_the_final_hash_without_json(tmp_path, capsys):
    """Source: README.md, "Headless": the run "prints the final screen's hash"."""
    script = tmp_path / "in.pad"
    script.write_text("0 -\n5 start\n7 -\n9 cross\n11 -\n30 end\n")
    assert main(["play", "--headless", "--script", str(script), "--json"]) == 0
    digest = json.loads(capsys.readouterr().out)["framebuffer_sha256"]
    assert main(["play", "--headless", "--script", str(script)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.endswith(f"framebuffer sha256 {digest}") and "30 frames" in line
