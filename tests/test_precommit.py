"""The pre-commit hook, run for real in a mod repository, as the README tells users to set it up.

A temporary git repository holds mods for a shipped ruleset: one good, one
with a broken card, one whose ``target:`` names no ruleset, and a YAML file
that is no rule file. It also holds a ruleset of its own with two mods of
its own, as the repository of a new game would. Its ``.pre-commit-config.yaml`` is the README's
snippet with the repository's placeholder replaced by a git repository of this
checkout, tagged with the release the snippet pins, so pre-commit clones it at
that tag and installs Rulebook into an environment of its own, exactly as a
user's would. ``pre-commit try-repo``
is run on the same repository too. pre-commit keeps its environments in a
temporary folder, so nothing leaks into the machine's cache.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest

from install_helpers import (RELEASE_TAG, REPO_URL, ROOT, SLOW, clean_env, git,
                             readme_inline_command, readme_snippet, run, shown, snapshot_checkout)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("precommit")]

GOOD = """\
kind: mod
id: cheaper_comets
target: terraforming_mars
changes:
  - {op: patch, in: cards, id: comet, value: {cost: 18}}
"""
BROKEN = """\
kind: mod
id: heat_waves
target: terraforming_mars
changes:
  - op: add
    in: cards
    value:
      id: heat_wave
      name: Heat Wave
      cost: 3
      play: gain 2 haet
"""
LOST = """\
# a mod for a ruleset that is not there
kind: mod
id: lost
target: terraforming_mras
changes: []
"""
HOUSE = """\
kind: mod
id: house
target: mini
changes:
  - {op: patch, in: cards, id: comet, value: {cost: 2}}
"""
TYPO = """\
kind: mod
id: typo
target: mini
changes:
  - {op: remove, in: cards, id: comit}
"""
NOT_RULES = """\
name: checks
on: [push]
"""


@pytest.fixture(scope="module")
def rulebook_repo(tmp_path_factory) -> tuple[Path, str]:
    repo = tmp_path_factory.mktemp("rulebook-src")
    return repo, snapshot_checkout(repo)


@pytest.fixture(scope="module")
def mod_repo(tmp_path_factory, rulebook_repo) -> Path:
    repo = tmp_path_factory.mktemp("my-mods")
    for name, text in {"mods/good.yaml": GOOD, "mods/broken.yaml": BROKEN,
                       "mods/lost.yaml": LOST, "workflows/checks.yml": NOT_RULES}.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", repo / "games" / "mini")
    for name, text in {"house.yaml": HOUSE, "typo.yaml": TYPO}.items():
        (repo / "games" / "mini" / "mods").mkdir(exist_ok=True)
        (repo / "games" / "mini" / "mods" / name).write_text(text, encoding="utf-8")
    url, _ = rulebook_repo
    config = readme_snippet("pre-commit-config")
    # the snippet pins this release by its tag
    assert REPO_URL in config and f"rev: {RELEASE_TAG}\n" in config, config
    (repo / ".pre-commit-config.yaml").write_text(config.replace(REPO_URL, str(url)),
                                                  encoding="utf-8")
    git("init", "-q", cwd=repo)
    git("add", "--all", cwd=repo)
    git("commit", "-q", "-m", "mods", cwd=repo)
    return repo


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict[str, str]:
    return clean_env(PRE_COMMIT_HOME=str(tmp_path_factory.mktemp("pre-commit-home")),
                     PRE_COMMIT_COLOR="never")


def pre_commit(repo: Path, env: dict[str, str], *args: str):
    return run([sys.executable, "-m", "pre_commit", *args], repo, env=env, timeout=SLOW)


def test_good_mod_passes(mod_repo, env):
    # the first run builds the hook's environment: Rulebook installed from the git repository
    proc = pre_commit(mod_repo, env, "run", "--files", "mods/good.yaml")
    assert proc.returncode == 0, shown(proc)
    assert "rulebook validate" in proc.stdout and "Passed" in proc.stdout, shown(proc)


def test_yaml_that_is_not_a_rule_file_is_skipped(mod_repo, env):
    proc = pre_commit(mod_repo, env, "run", "--files", "workflows/checks.yml",
                      ".pre-commit-config.yaml")
    assert proc.returncode == 0, shown(proc)
    assert "Passed" in proc.stdout, shown(proc)


def test_broken_mod_fails_with_a_positioned_error(mod_repo, env):
    proc = pre_commit(mod_repo, env, "run", "--files", "mods/broken.yaml")
    assert proc.returncode == 1, shown(proc)
    assert "Failed" in proc.stdout
    # 'haet' sits on line 11, column 20 of the mod, after "      play: gain 2 "
    assert "mods/broken.yaml:11:20: error[RB301]: unknown resource 'haet'" in proc.stdout, \
        shown(proc)
    assert "did you mean 'heat'?" in proc.stdout


def test_unknown_target_points_at_the_target_line(mod_repo, env):
    proc = pre_commit(mod_repo, env, "run", "--files", "mods/lost.yaml", "mods/good.yaml")
    assert proc.returncode == 1, shown(proc)
    assert "mods/lost.yaml:4:9: error[RB500]: this mod targets 'terraforming_mras'" in \
        proc.stdout, shown(proc)
    assert "did you mean 'terraforming_mars'?" in proc.stdout
    assert "good.yaml" not in proc.stdout.split("Failed", 1)[1], shown(proc)


def test_a_ruleset_repository_checks_its_changed_files_and_its_own_mods(mod_repo, env):
    proc = pre_commit(mod_repo, env, "run", "--files", "games/mini/cards.yaml",
                      "games/mini/mods/house.yaml")
    assert proc.returncode == 0, shown(proc)
    # a mod of the ruleset it lies in is checked against that ruleset
    proc = pre_commit(mod_repo, env, "run", "--files", "games/mini/mods/typo.yaml")
    assert proc.returncode == 1, shown(proc)
    assert "games/mini/mods/typo.yaml:5:33: error[RB500]: no entry 'comit' in cards" in \
        proc.stdout, shown(proc)
    assert "did you mean 'comet'?" in proc.stdout


def test_try_repo_on_the_checkout(mod_repo, rulebook_repo, env):
    """The README's command for trying the hook out, on every file of the mod repository."""
    command = readme_inline_command("pre-commit try-repo ")
    args = shlex.split(command.replace(REPO_URL, str(rulebook_repo[0])))
    assert args[:3] == ["pre-commit", "try-repo", str(rulebook_repo[0])], command
    proc = pre_commit(mod_repo, env, *args[1:])
    assert proc.returncode == 1, shown(proc)
    errors = [line for line in proc.stdout.splitlines() if ": error[" in line]
    assert sorted(line.split(":", 1)[0] for line in errors) == [
        "games/mini/mods/typo.yaml", "mods/broken.yaml", "mods/lost.yaml"], shown(proc)
