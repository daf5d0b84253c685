"""``report`` and ``compare`` printed to a pipe or a file are not cut at 80 columns.

rich gives a console that is not a terminal 80 columns, so a report saved
to a file or read in a CI log had every wide cell wrapped over several
lines. Off a terminal the tables are as wide as they need; ``COLUMNS``
still says, when it is set.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("scipy")


def _rulebook(*args, cwd, columns=None):
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    if columns:
        env["COLUMNS"] = str(columns)
    done = subprocess.run([sys.executable, "-m", "rulebook_games", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _seat_rows(out: str) -> list[str]:
    table = out.split("Win rate by seat", 1)[1].split("└", 1)[0]
    return [line for line in table.splitlines() if re.match(r"│ [12] ", line)]


@pytest.mark.slow
def test_report_off_a_terminal_keeps_each_row_on_one_line(tmp_path):
    _rulebook("simulate", "lantern_row", "-n", "12", "-p", "2", "--out", "r.jsonl",
              cwd=tmp_path)
    out = _rulebook("report", "r.jsonl", cwd=tmp_path)
    rows = _seat_rows(out)
    assert len(rows) == 2
    for row in rows:  # the interval of "against an equal share" whole, on the row's line
        assert re.search(r"points \([-+][\d.]+ to [-+][\d.]+\)", row), row
    assert max(len(line) for line in out.splitlines()) > 80
    # the width a user sets is kept
    narrow = _rulebook("report", "r.jsonl", cwd=tmp_path, columns=80)
    assert max(len(line) for line in narrow.splitlines()) <= 80
