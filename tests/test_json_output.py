"""``--format json`` on ``simulate``, ``report`` and ``compare`` (issue 30, item 2).

Written from the issue and docs/formats.md: one JSON document on stdout and
nothing else there (what is for people goes to stderr), in the documented
shape, also when the command cannot do its work (an ``error`` document). Each
case runs the real command line in a fresh interpreter, as a script would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GAME = "lantern_row"

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("json_output")]  # real games


def rulebook(*args, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="80")
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run([sys.executable, "-m", "rulebook_games", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)


def document(proc, code: int) -> dict:
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)  # the whole of stdout is one document


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("json")
    proc = rulebook("simulate", GAME, "-n", 4, "--players", 2, "--agents", "random,greedy",
                    "--out", "games.jsonl", "--format", "json", cwd=folder)
    return folder, document(proc, 0)


def test_simulate_prints_its_summary_as_one_document(played):
    folder, doc = played
    assert doc["ruleset"]["id"] == GAME and doc["players"] == 2 and doc["games_asked"] == 4
    assert doc["out"] == "games.jsonl" and doc["exit_code"] == 0 and doc["stopped"] is None
    summary = doc["summary"]
    assert summary["games"] == 4 and summary["errors"] == 0
    assert [s["seat"] for s in summary["seats"]] == [1, 2]
    assert [s["agent"] for s in summary["seats"]] == ["random", "greedy"]
    lines = [json.loads(l) for l in (folder / "games.jsonl").read_text().splitlines()]
    # the figures are the games' own
    assert summary["seats"][0]["wins"] == sum(
        1 / len(l["winners"]) for l in lines if 1 in l["winners"])
    assert summary["seats"][1]["score_max"] == max(l["scores"][1] for l in lines)
    assert summary["rounds_mean"] == pytest.approx(sum(l["rounds"] for l in lines) / 4,
                                                   abs=1e-6)
    assert {a["agent"] for a in summary["agents"]} == {"random", "greedy"}


def test_report_prints_its_tables_as_one_document(played):
    folder, _ = played
    proc = rulebook("report", "games.jsonl", "--format", "json", cwd=folder)
    doc = document(proc, 0)
    assert doc["games"] == 4 and doc["exit_code"] == 0
    by_key = {t["key"]: t for t in doc["tables"]}
    seats = by_key["win_rate_by_seat"]
    assert seats["columns"][:2] == ["Seat", "Agent"] and len(seats["rows"]) == 2
    # a test cell gives its p- and q-value and whether it is significant
    tests = [c for row in seats["rows"] for c in row if isinstance(c, dict)]
    assert tests and set(tests[0]) == {"p", "q", "significant"}
    assert "games read" in proc.stderr  # for people: on stderr


def test_compare_prints_its_verdicts_and_tables_as_one_document(tmp_path):
    proc = rulebook("compare", GAME, "--mod", "rich_start", "-n", 3, "--format", "json",
                    cwd=tmp_path)
    doc = document(proc, 0)
    assert doc["pairs"] == 3 and doc["verdicts"] and doc["headline"].startswith("Lantern Row")
    assert "win_rate" in {t["key"] for t in doc["tables"]}


def test_a_results_file_that_cannot_be_read_is_an_error_document(played, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    doc = document(rulebook("report", bad, "--format", "json", cwd=tmp_path), 1)
    assert doc["error"]["kind"] == "failure" and doc["error"]["message"].startswith(
        f"{bad}:1:")


def test_a_ruleset_that_does_not_load_is_an_error_document_with_its_places(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "ruleset.yaml").write_text("kind: ruleset\nid: g\nname: G\n"
                                                 "players: {min: 1, max: 2}\nfrobnicate: 1\n")
    doc = document(rulebook("simulate", "g", "-n", 1, "--format", "json", cwd=tmp_path), 1)
    error = doc["error"]
    assert error["kind"] == "rules" and error["exit_code"] == 1
    assert any(d["code"] == "RB201" and d["line"] == 5 for d in error["diagnostics"])


@pytest.mark.parametrize("args", [["simulate", GAME, "-n", "0"],
                                  ["report", "missing.jsonl"],
                                  ["compare", GAME, "--mod", "no_such_mod", "-n", "2"]])
def test_usage_errors_are_error_documents(tmp_path, args):
    doc = document(rulebook(*args, "--format", "json", cwd=tmp_path), 2)
    assert doc["error"]["kind"] == "usage" and doc["error"]["message"]
