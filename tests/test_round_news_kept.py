"""What a round's end did is news to every player, and stays on a screen the player
sees even when the next question is taken for them (issue 29 follow-up: Legacy, a
round's scoring folded into '… 20 earlier lines' above a question taken for the
player, then the next round's first question drawn under it)."""

from __future__ import annotations

import os
import subprocess
import sys


def _played(tmp_path, seed: int, answers: int) -> str:
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play",
                           "legacy_gears_of_time", "-p", "2", "--agents", "human,random",
                           "--seed", str(seed)], cwd=tmp_path, input="1\n" * answers,
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, COLUMNS="80", LINES="24"))
    return proc.stdout


def test_a_rounds_scoring_is_on_the_screen_before_the_next_round(tmp_path):
    # seed 8: the last phase of round 1 takes the turn-order place for the player, then
    # round 2's first question is asked. The scoring of round 1 must have been on the
    # screen by then, not left out behind '… N earlier lines'.
    out = _played(tmp_path, 8, 40)
    before = out.split("Round 2, turn 1 of 4")[0]
    last = before.rsplit("> ", 1)[0]  # (the screens up to the last answer of round 1)
    assert "Round 2, turn 1" not in before
    after_last_answer = before[len(last):]
    assert "· III. Score technologies" in after_last_answer, after_last_answer
    assert "Cartography (time frame 1) fails and scores nothing" in after_last_answer, \
        after_last_answer
    assert "earlier line" not in after_last_answer
