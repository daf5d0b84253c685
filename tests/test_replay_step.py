"""`rulebook replay --step` folds each move's lines as the live news does (playtest 32,
Timespan: the replay listed 'pays 1 ore (now 4)', 'pays 1 ore (now 3)', 'pays 1 ore
(now 2)' where the game's own screen had said '−3 ore (now 1)')."""

from __future__ import annotations

import re
import subprocess
import sys


def test_replay_step_folds_payments_as_the_news_does(tmp_path):
    record = tmp_path / "game.json"
    played = subprocess.run([sys.executable, "-m", "rulebook_games", "play", "timespan",
                             "--players", "2", "--agents", "random,random", "--seed", "3",
                             "--save", str(record)], capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    shown = subprocess.run([sys.executable, "-m", "rulebook_games", "replay", str(record),
                            "--step"], input="", capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert "final state matches" in out
    # one line per player and move for what they paid, gained and lost: no unit lines
    assert not re.search(r" (pays|gains|loses) \d+ .*\(now -?\d+\)", out), out[:3000]
    assert re.search(r": −\d+ \w+ \(now -?\d+\)", out)
    assert out.count("(Enter shows the next line; Ctrl-D shows the rest)") == 1
