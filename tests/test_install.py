"""Rulebook installed the way users install it works exactly like the editable checkout.

The checkout is built into an sdist and a wheel made from that sdist (the
path pip takes for a source install), the wheel goes into a fresh virtual
environment outside the checkout, and every command runs from another
directory, so nothing can fall back on the source tree: shipped names must
resolve, the schemas and the grammar must be found, and a ruleset given as a
path must validate. The README's GitHub Actions steps are run too, with the
repository's address filled in and the release tag they pin. The built
distributions carry the licence, ``py.typed`` and the version that
``pyproject.toml``, ``interpreter/version.py`` and CHANGELOG.md agree on.
These tests build and install for real and take a minute or so; nothing here
is ever skipped: missing build tools fail them.
"""

from __future__ import annotations

import email
import importlib.util
import json
import re
import shutil
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml

from install_helpers import (RELEASE_TAG, REPO_URL, ROOT, SLOW, clean_env, fresh_venv,
                             readme_snippet, run, shown, snapshot_checkout)
from rulebook_games import __version__

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("install")]

SHIPPED = sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/ruleset.yaml"))


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("install")


@pytest.fixture(scope="module")
def checkout(work) -> tuple[Path, str]:
    """The checkout as it stands, as a git repository of its own, and its commit."""
    repo = work / "rulebook-src"
    repo.mkdir()
    return repo, snapshot_checkout(repo)


@pytest.fixture(scope="module")
def dists(work, checkout) -> tuple[Path, Path]:
    """The sdist and the wheel built from it (``python -m build`` does both, in that order)."""
    out = work / "dist"
    proc = run([sys.executable, "-m", "build", "--outdir", out, checkout[0]], work,
               timeout=SLOW)
    assert proc.returncode == 0, f"building the sdist and wheel failed: {shown(proc)}"
    assert "and rulebook_games-" in proc.stdout  # "Successfully built X.tar.gz and Y.whl"
    (sdist,) = out.glob("rulebook_games-*.tar.gz")
    (wheel,) = out.glob("rulebook_games-*.whl")
    assert wheel.name.startswith(f"rulebook_games-{__version__}-"), wheel.name
    return sdist, wheel


@pytest.fixture(scope="module")
def installed(work, dists) -> Path:
    """The bin folder of a fresh venv with the wheel installed by the README's command for an
    extra, ``pip install 'rulebook-games[report]'``, finding the wheel just built (its
    dependencies come from the index)."""
    bin_dir = fresh_venv(work / "venv")
    proc = run([bin_dir / "python", "-m", "pip", "install", "--find-links", dists[1].parent,
                "rulebook-games[report]"], work, timeout=SLOW)
    assert proc.returncode == 0, f"installing the wheel failed: {shown(proc)}"
    assert "does not provide the extra" not in proc.stdout + proc.stderr, shown(proc)
    assert dists[1].name in proc.stdout + proc.stderr or "rulebook-games" in proc.stdout
    return bin_dir


@pytest.fixture()
def elsewhere(tmp_path) -> Path:
    """A working directory that is neither the checkout nor the venv."""
    place = tmp_path / "elsewhere"
    place.mkdir()
    return place


def _paths_module_in(package: Path):
    """A fresh copy of interpreter/paths.py loaded from ``package``, as if installed there."""
    package.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "interpreter" / "paths.py", package / "paths.py")
    spec = importlib.util.spec_from_file_location("paths_under_test", package / "paths.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _data_trees(root: Path, trees=("rulesets", "schemas", "grammar")) -> None:
    for tree in trees:
        (root / tree).mkdir(parents=True)
    if "schemas" in trees:
        (root / "schemas" / "common.schema.json").write_text("{}", encoding="utf-8")
    if "grammar" in trees:
        (root / "grammar" / "effects.lark").write_text("", encoding="utf-8")


def test_the_packaged_copy_wins_over_trees_beside_the_package(tmp_path):
    # site-packages may hold folders of other projects named like ours
    _data_trees(tmp_path)
    _data_trees(tmp_path / "interpreter" / "_data")
    paths = _paths_module_in(tmp_path / "interpreter")
    root = (tmp_path / "interpreter" / "_data").resolve()
    assert paths.data_root() == root
    assert (paths.rulesets_dir(), paths.schemas_dir(), paths.grammar_file()) == (
        root / "rulesets", root / "schemas", root / "grammar" / "effects.lark")


def test_an_incomplete_copy_is_never_mixed_with_the_checkout(tmp_path):
    _data_trees(tmp_path)  # a checkout
    _data_trees(tmp_path / "interpreter" / "_data", ("schemas",))  # a half-built copy
    paths = _paths_module_in(tmp_path / "interpreter")
    assert paths.data_root() == tmp_path.resolve()
    assert paths.schemas_dir() == tmp_path.resolve() / "schemas"


def test_no_data_anywhere_is_a_clear_error(tmp_path):
    _data_trees(tmp_path, ("rulesets", "grammar"))
    paths = _paths_module_in(tmp_path / "interpreter")
    with pytest.raises(paths.DataMissing, match="reinstall rulebook"):
        paths.data_root()


def rulebook(bin_dir: Path, *args, cwd: Path, **env):
    return run([bin_dir / "rulebook", *args], cwd, env=clean_env(**env))


def test_sdist_and_wheel_carry_the_data_trees(dists):
    sdist, wheel = dists
    with tarfile.open(sdist) as tar:
        in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    with zipfile.ZipFile(wheel) as whl:
        in_wheel = set(whl.namelist())
    for tree in ("rulesets", "schemas", "grammar"):
        files = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / tree).rglob("*")
                       if p.is_file() and "__pycache__" not in p.parts)
        assert files, tree
        assert not set(files) - in_sdist, f"missing from the sdist: {set(files) - in_sdist}"
        packaged = {f"rulebook_games/_data/{f}" for f in files}
        assert not packaged - in_wheel, f"missing from the wheel: {packaged - in_wheel}"
    # the web pages are files of the package (rulebook serve has no build step)
    pages = {f"rulebook_games/web/static/{p.name}"
             for p in (ROOT / "interpreter" / "web" / "static").iterdir() if p.is_file()}
    assert pages and not pages - in_wheel, f"missing from the wheel: {pages - in_wheel}"
    # the top level of the wheel is the package only: the trees live inside it
    assert {name.split("/", 1)[0] for name in in_wheel} == {
        "rulebook_games", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}


def test_one_version_in_the_build_the_package_and_the_changelog():
    """pyproject.toml (read by the build) and interpreter/version.py (read by the package)."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        assert tomllib.load(f)["project"]["version"] == __version__
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, re.M)
    assert releases and releases[0] == __version__, releases


def test_wheel_and_sdist_carry_the_licence_py_typed_and_the_metadata(dists):
    sdist, wheel = dists
    with tarfile.open(sdist) as tar:
        in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    assert {"LICENSE", "CHANGELOG.md", "interpreter/py.typed"} <= in_sdist
    info = f"rulebook_games-{__version__}.dist-info"
    with zipfile.ZipFile(wheel) as whl:
        in_wheel = set(whl.namelist())
        metadata = email.message_from_bytes(whl.read(f"{info}/METADATA"))
        licence = whl.read(f"{info}/licenses/LICENSE").decode("utf-8")
    assert "rulebook_games/py.typed" in in_wheel  # PEP 561: the package is typed
    assert licence == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 the Rulebook authors\n")
    assert (metadata["Name"], metadata["Version"]) == ("rulebook-games", __version__)
    assert metadata["License-Expression"] == "MIT"
    classifiers = metadata.get_all("Classifier")
    assert {"Typing :: Typed", "Topic :: Games/Entertainment :: Board Games"} <= set(classifiers)


def test_installed_package_reads_its_own_copy_of_the_data(installed, elsewhere):
    venv = installed.parent.resolve()
    proc = run([installed / "python", "-c",
                "import json; from rulebook_games import paths; "
                "from rulebook_games.load import ruleset, schema; "
                "from rulebook_games.lang import parser; print(json.dumps({"
                "'root': str(paths.data_root()), 'schemas': str(schema.schema_dir()), "
                "'grammar': str(parser.grammar_path()), "
                "'shipped': ruleset.shipped_rulesets()}))"], elsewhere)
    assert proc.returncode == 0, shown(proc)
    found = json.loads(proc.stdout)
    root = Path(found["root"])
    assert root.is_relative_to(venv) and root.name == "_data", found
    assert Path(found["schemas"]).parent == root and Path(found["grammar"]).parent.parent == root
    assert found["shipped"] == SHIPPED


def test_validate_a_shipped_name(installed, elsewhere):
    proc = rulebook(installed, "validate", "terraforming_mars", cwd=elsewhere)
    assert proc.returncode == 0, shown(proc)
    assert "terraforming_mars" in proc.stdout and "ok" in proc.stdout


def test_validate_a_path_and_report_a_positioned_error(installed, elsewhere):
    copy = elsewhere / "gears"
    shutil.copytree(ROOT / "rulesets" / "legacy_gears_of_time", copy)
    proc = rulebook(installed, "validate", "gears", cwd=elsewhere)
    assert proc.returncode == 0, shown(proc)
    assert "legacy_gears_of_time" in proc.stdout and "ok" in proc.stdout
    cards = sorted((copy / "cards").glob("*.yaml"))[0]
    text = cards.read_text(encoding="utf-8")
    assert "\ncards:\n" in text
    lines_before = text.split("\ncards:\n", 1)[0].count("\n") + 2
    cards.write_text(text.replace("\ncards:\n", "\ncards:\n  - {id: 7}\n", 1), encoding="utf-8")
    proc = rulebook(installed, "validate", "gears", "-q", cwd=elsewhere)
    assert proc.returncode == 1, shown(proc)
    assert f"{Path('gears') / 'cards' / cards.name}:{lines_before + 1}:" in proc.stdout, \
        shown(proc)


def test_play_a_game_to_the_end_without_a_terminal(installed, elsewhere):
    proc = rulebook(installed, "play", "legacy_gears_of_time", "--players", "2", "--seed", "3",
                    "--agents", "random", cwd=elsewhere)
    assert proc.returncode == 0, shown(proc)
    assert "2 players · no variants · seed 3 · agents random, random" in proc.stdout
    assert "decisions · final state #" in proc.stdout


def test_simulate(installed, elsewhere):
    proc = rulebook(installed, "simulate", "timespan", "-n", "3", "--players", "2", cwd=elsewhere)
    assert proc.returncode == 0, shown(proc)
    assert "random" in proc.stdout and "win rate" in proc.stdout


def test_scenario_tests_of_a_shipped_ruleset(installed, elsewhere):
    proc = rulebook(installed, "test", "legacy_gears_of_time", cwd=elsewhere)
    assert proc.returncode == 0, shown(proc)
    count = sum(len(yaml.safe_load(p.read_text(encoding="utf-8")).get("scenarios", []))
                for p in (ROOT / "rulesets" / "legacy_gears_of_time" / "scenarios").glob("*.yaml"))
    assert f"{count} passed, 0 failed" in proc.stdout, shown(proc)


def test_schema_export(installed, elsewhere):
    proc = rulebook(installed, "schema", "--out", "schemas-here", cwd=elsewhere)
    assert proc.returncode == 0, shown(proc)
    written = sorted(p.name for p in (elsewhere / "schemas-here").iterdir())
    assert written == sorted(p.name for p in (ROOT / "schemas").glob("*.schema.json"))
    for name in written:
        body = json.loads((elsewhere / "schemas-here" / name).read_text(encoding="utf-8"))
        assert body == json.loads((ROOT / "schemas" / name).read_text(encoding="utf-8"))


def _workflow_steps() -> list[str]:
    workflow = yaml.safe_load(readme_snippet("github-actions"))
    (job,) = workflow["jobs"].values()
    return [step["run"] for step in job["steps"] if "run" in step]


def test_readme_github_actions_steps(work, checkout, elsewhere):
    """The workflow's run steps, as written, in a fresh venv and a repository with a ruleset."""
    install, check = _workflow_steps()
    repo, _ = checkout
    assert f"@{RELEASE_TAG}\"" in install, install  # the snippet pins this release by its tag
    bin_dir = fresh_venv(work / "workflow-venv")
    # setup-python brings a current pip; the one venv bundles is too old for a git+file URL
    proc = run([bin_dir / "python", "-m", "pip", "install", "-q", "--upgrade", "pip"], work,
               timeout=SLOW)
    assert proc.returncode == 0, shown(proc)
    env = clean_env()
    env["PATH"] = f"{bin_dir}{':' if env['PATH'] else ''}{env['PATH']}"
    command = install.replace(REPO_URL, repo.as_uri())
    assert REPO_URL not in command
    proc = run(["bash", "-c", command], elsewhere, env=env, timeout=SLOW)
    assert proc.returncode == 0, f"{command}: {shown(proc)}"
    proc = run(["bash", "-c", "rulebook --version"], elsewhere, env=env)
    assert proc.stdout == f"rulebook, version {__version__}\n", shown(proc)

    # a repository with no rules yet: the check fails, it does not pass on nothing
    proc = run(["bash", "-c", check], elsewhere, env=env)
    assert proc.returncode == 2 and "nothing to check" in proc.stderr, f"{check}: {shown(proc)}"

    # the repository being checked: the workflow validates every ruleset in it
    game = elsewhere / "rulesets" / "my_game"
    shutil.copytree(ROOT / "rulesets" / "timespan", game)
    proc = run(["bash", "-c", check], elsewhere, env=env)
    assert proc.returncode == 0, f"{check}: {shown(proc)}"
    assert "timespan" in proc.stdout and "ok" in proc.stdout  # not on GitHub: a text report

    flow = game / "flow.yaml"
    flow.write_text(flow.read_text(encoding="utf-8") + "\nfrobnicate: 1\n", encoding="utf-8")
    lines = flow.read_text(encoding="utf-8").count("\n")
    proc = run(["bash", "-c", check], elsewhere, env={**env, "GITHUB_ACTIONS": "true"})
    assert proc.returncode == 1, f"{check}: {shown(proc)}"
    assert f"::error file=rulesets/my_game/flow.yaml,line={lines}," in proc.stdout, shown(proc)


def test_the_pytest_plugin_of_the_installed_wheel(installed, elsewhere):
    """A mod repository's own pytest, with the wheel installed (no conftest, no checkout):
    the entry point registers the plugin, and the scenario files are played on the mod."""
    proc = run([installed / "python", "-m", "pip", "install", "-q", "pytest>=8"], elsewhere,
               env=clean_env(), timeout=SLOW)
    assert proc.returncode == 0, shown(proc)
    (elsewhere / "scenarios").mkdir()
    shutil.copy(ROOT / "rulesets" / "lantern_row" / "mods" / "rich_start.yaml", elsewhere)
    (elsewhere / "scenarios" / "rich_start.yaml").write_text(
        "kind: scenarios\nscenarios:\n  - id: six_coins\n    description: The mod's start.\n"
        "    players: 2\n    steps:\n      - expect: stock(coins) == 6\n", encoding="utf-8")
    proc = run([installed / "python", "-m", "pytest", "-p", "no:cacheprovider", "-rA"],
               elsewhere, env=clean_env())
    assert proc.returncode == 0, shown(proc)
    assert "PASSED scenarios/rich_start.yaml::six_coins" in proc.stdout, shown(proc)
