"""The example agent of docs/agents.md plays as the docs show it, from the repository's root."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_documented_example_agent_runs_from_the_repository_root():
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    line = re.search(r"^rulebook simulate timespan -n 20 -p 2 --agents (\S*first_option\S*)$",
                     text, re.M)
    assert line, "docs/agents.md shows the example agent's command"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "rulebook_games", "simulate", "timespan",
                           "-n", "2", "-p", "2", "--no-check", "--agents", line.group(1)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "first_option" in done.stdout and "2 games" in done.stdout
