"""A player count a game does not take is said in the game's own words, everywhere a
person reads it: "Lantern Row is for 2 players, not 3" (never "2–2 players", never
"a whole number from 2 to 2"), and before anything else is said about the game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_play_says_the_player_count_first_and_in_words(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play", "lantern_row",
                           "-p", "3"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    said = proc.stdout + proc.stderr
    assert "Lantern Row is for 2 players, not 3" in said
    assert "2–2" not in said and "note:" not in said  # (no word on agents' weights first)
