"""The pytest plugin: a mod or ruleset repository's own ``pytest`` runs its scenario files.

Written from the README's claim ("pytest collects them") and issue 30: the
plugin is registered by the ``pytest11`` entry point, so each case runs a
real ``pytest`` in a fresh repository that has no conftest, with the
package as installed in this environment (tests/test_install.py runs one with
the built wheel too). A repository holds a ruleset with its ``scenarios/``
folder, or mods with ``scenarios/NAME.yaml`` beside ``NAME.yaml``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_games.paths import rulesets_dir

MOD = """kind: mod
id: rich_start
name: Rich start
description: Every player starts with 3 more coins.
target: lantern_row
changes:
  - {op: patch, in: resources, id: coin, value: {start: 6}}
"""
MOD_SCENARIOS = """kind: scenarios
scenarios:
  - id: the_start_is_rich
    description: Six coins at the start.
    players: 2
    steps:
      - expect: stock(coins) == 6
  - id: wrong_on_purpose
    description: Not what the mod does.
    players: 2
    steps:
      - expect: stock(coins) == 99
"""
BROKEN = """kind: scenarios
scenarios:
  - id: unknown_action
    description: Names an action the ruleset does not have.
    players: 2
    steps:
      - action: colect
"""

pytestmark = pytest.mark.slow  # a pytest run of its own in each test


def pytest_in(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "COV_")) and k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "-p", "no:randomly", "-rA", *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def mod_repo(tmp_path) -> Path:
    repo = tmp_path / "mods-repo"
    (repo / "scenarios").mkdir(parents=True)
    (repo / "rich_start.yaml").write_text(MOD, encoding="utf-8")
    (repo / "scenarios" / "rich_start.yaml").write_text(MOD_SCENARIOS, encoding="utf-8")
    return repo


def test_a_mod_repositorys_pytest_runs_its_scenarios_on_the_mod(mod_repo):
    proc = pytest_in(mod_repo)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "PASSED scenarios/rich_start.yaml::the_start_is_rich" in out
    assert "FAILED scenarios/rich_start.yaml::wrong_on_purpose" in out
    # the failure names the step's place and what it found
    assert "scenarios/rich_start.yaml:12:9:" in out and "is 6" in out
    assert "Traceback" not in out and "1 failed, 1 passed" in out


def test_k_selects_scenarios_by_id(mod_repo):
    proc = pytest_in(mod_repo, "-k", "start_is")
    assert proc.returncode == 0 and "1 passed, 1 deselected" in proc.stdout, proc.stdout


def test_a_ruleset_repository_and_a_file_that_does_not_load(tmp_path):
    repo = tmp_path / "game-repo"
    shutil.copytree(rulesets_dir() / "lantern_row", repo / "my_game")
    shutil.rmtree(repo / "my_game" / "mods")
    (repo / "my_game" / "scenarios" / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    (repo / "my_game" / "scenarios" / "notes.yaml").write_text("kind: notes\n",
                                                               encoding="utf-8")
    proc = pytest_in(repo)
    out = proc.stdout + proc.stderr
    shipped = sum(1 for line in (rulesets_dir() / "lantern_row" / "scenarios").glob("*.yaml")
                  for text in [line.read_text(encoding="utf-8")]
                  for row in text.splitlines() if row.startswith("  - id:"))
    # every shipped scenario passes; the broken file fails (as 'rulebook test' counts it:
    # its errors, and the scenario that cannot be played), with its error's place
    assert f"2 failed, {shipped} passed" in out, out[-3000:]
    assert "FAILED my_game/scenarios/broken.yaml::load" in out
    assert "broken.yaml:7:17: error[" in out or "broken.yaml:7:" in out
    assert "notes.yaml" not in out  # not a scenario file: not collected


def test_scenarios_with_no_rules_to_play_on_say_so(tmp_path):
    repo = tmp_path / "lost"
    (repo / "scenarios").mkdir(parents=True)
    (repo / "scenarios" / "orphan.yaml").write_text(MOD_SCENARIOS, encoding="utf-8")
    proc = pytest_in(repo)
    assert proc.returncode == 1
    assert "no rules to play these scenarios on" in proc.stdout and "orphan.yaml" in \
        proc.stdout


def test_a_mod_whose_target_is_unknown_is_a_positioned_failure(mod_repo):
    mod = mod_repo / "rich_start.yaml"
    mod.write_text(MOD.replace("target: lantern_row", "target: lanten_row"), encoding="utf-8")
    proc = pytest_in(mod_repo)
    out = proc.stdout
    assert proc.returncode == 1 and "rich_start.yaml:5:" in out and "RB500" in out, out
    assert "did you mean 'lantern_row'" in out and "Traceback" not in out


def test_the_plugin_can_be_turned_off(mod_repo):
    proc = pytest_in(mod_repo, "-p", "no:rulebook")
    assert proc.returncode == 5, proc.stdout  # no tests collected
