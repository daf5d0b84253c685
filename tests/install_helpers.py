"""Shared by the tests that install Rulebook the way its users do.

Those tests (``test_install.py``, ``test_precommit.py``) build and install
the package for real, so they need a few things the rest of the suite does
not: the snippets they run, read from README.md so the README cannot drift
from what is tested; a git repository holding this checkout exactly as it
stands now, committed or not, tagged as the release it is (pip and
pre-commit install from git, the README's snippets pin the release's tag,
and CI runs in a fresh clone); and a way to run programs in an environment
that cannot see this checkout or its virtual environment.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rulebook_games import __version__

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# the placeholder the README's snippets use for this repository's address
REPO_URL = "<RULEBOOK_REPO_URL>"
# the git tag of this release, which the README's snippets pin
RELEASE_TAG = f"v{__version__}"
# long enough for a cold build that fetches setuptools and the dependencies
SLOW = 900

_HIDDEN_VARIABLES = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP",
                     "PYTHONSAFEPATH", "GITHUB_ACTIONS", "PRE_COMMIT_HOME", "PIP_USER",
                     "PIP_TARGET", "PIP_PREFIX")


def readme_snippet(name: str) -> str:
    """The fenced block after ``<!-- snippet: NAME -->`` in README.md."""
    text = README.read_text(encoding="utf-8")
    found = re.search(rf"<!-- snippet: {re.escape(name)} -->\s*```[a-z]*\n(.*?)```"
                      r"\s*<!-- /snippet -->", text, re.S)
    assert found, f"README.md has no block marked <!-- snippet: {name} -->"
    return found.group(1)


def readme_inline_command(start: str) -> str:
    """The one inline command in README.md (in backquotes) that begins with ``start``."""
    text = README.read_text(encoding="utf-8")
    found = re.findall(rf"`({re.escape(start)}[^`]*)`", text)
    assert len(found) == 1, f"README.md should have one inline `{start}…` command: {found}"
    return found[0]


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without anything that points at the checkout or its venv."""
    env = {k: v for k, v in os.environ.items() if k not in _HIDDEN_VARIABLES}
    keep = [p for p in env.get("PATH", "").split(os.pathsep)
            if p and not Path(p).resolve().is_relative_to(ROOT)]
    env["PATH"] = os.pathsep.join(keep)
    env.update(extra)
    return env


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 300,
        stdin: str | None = "") -> subprocess.CompletedProcess:
    """Run a program, with a clean environment unless one is given; stdin is not a tty."""
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env or clean_env(),
                          input=stdin, capture_output=True, text=True, timeout=timeout)


def shown(proc: subprocess.CompletedProcess) -> str:
    """A finished program's exit code and output, for assertion messages."""
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"


def git(*args: str, cwd: Path) -> str:
    """Run git with a fixed identity and no signing, whatever the machine's settings."""
    proc = run(["git", "-c", "user.name=Rulebook tests", "-c", "user.email=tests@example.invalid",
                "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args], cwd,
               env=clean_env(GIT_CONFIG_NOSYSTEM="1"))
    assert proc.returncode == 0, f"git {' '.join(args)}: {shown(proc)}"
    return proc.stdout


def snapshot_checkout(dest: Path) -> str:
    """A git repository at ``dest`` with the checkout's files as they are now; its commit.

    Tracked files (with their uncommitted changes) and new files that git does
    not ignore are copied, so what is tested is the working tree, not HEAD;
    in CI's fresh clone the two are the same. The commit carries the release's
    tag (``RELEASE_TAG``, annotated, as a release is tagged), so the README's
    snippets can install it by the tag they pin.
    """
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for rel in filter(None, listed.split("\0")):
        source = ROOT / rel
        if source.is_file():  # deleted but not yet committed files are skipped
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    git("init", "-q", cwd=dest)
    git("add", "--all", cwd=dest)
    git("commit", "-q", "-m", "snapshot of the checkout under test", cwd=dest)
    git("tag", "-a", RELEASE_TAG, "-m", f"Rulebook {__version__}", cwd=dest)
    return git("rev-parse", "HEAD", cwd=dest).strip()


def fresh_venv(path: Path) -> Path:
    """A new virtual environment (no system site-packages); returns its bin folder."""
    proc = run([sys.executable, "-m", "venv", path], path.parent)
    assert proc.returncode == 0, shown(proc)
    return path / ("Scripts" if os.name == "nt" else "bin")
