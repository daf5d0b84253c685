"""Hostile rule files: reaching outside their tree, planted caches, escape characters.

Rule files are untrusted (``validate`` runs on strangers' pull requests), so
each case here is an attack run through the real command line in a
subprocess. The cases in ``tests/attacks/`` are files laid over the small
valid ruleset ``tests/fixtures/mini``; next to the ruleset each test puts an
``outside`` folder holding a rule file with a unique secret, and asserts the
secret never reaches the output, the error is positioned at the offending
line, the exit code is 1 and there is no traceback.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ATTACKS = HERE / "attacks"
MINI = HERE / "fixtures" / "mini"
SECRET = "TOPSECRET-5f1c9e"
# an outside rule file that, if it were ever read, would put the secret in the
# output: its only line is a schema error that the text reporter would quote
OUTSIDE_TEXT = f"kind: cards\ncards: {SECRET}\n"


def rulebook(*args, cwd: Path, env: dict | None = None, stdin: str | None = None,
             timeout: int = 120) -> subprocess.CompletedProcess:
    """Run the real command line in a fresh interpreter."""
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("GITHUB_ACTIONS", None)
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=cwd,
                          env=full_env, input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def assert_clean_failure(proc: subprocess.CompletedProcess, code: int = 1) -> str:
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, out
    assert "Traceback" not in out and "internal error" not in out, out
    assert SECRET not in out, out
    return out


# ------------------------------------------------------------------ planted cache
def _lark_cache_name(tmp: Path) -> str:
    """The file Lark's ``cache=True`` reads for our grammar, found by asking Lark.

    Lark names the cache after a hash of the grammar, the options, its own
    version and Python's; building the parser once with ``cache=True`` in an
    empty temp folder shows the exact name, which is what an attacker would
    compute too.
    """
    probe = tmp / "probe"
    probe.mkdir()
    script = textwrap.dedent("""
        from lark import Lark
        from interpreter.lang.parser import LARK_OPTIONS, _BlockIndenter, grammar_path
        Lark(grammar_path().read_text(encoding="utf-8"), postlex=_BlockIndenter(),
             **LARK_OPTIONS, cache=True)
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120,
                   env=dict(os.environ, TMPDIR=str(probe)))
    (name,) = [p.name for p in probe.iterdir()]
    assert name.startswith(".lark_cache_"), name
    return name


class _Payload:
    """Unpickling this creates a file: proof that a planted pickle ran."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def test_a_planted_lark_cache_is_never_loaded(tmp_path):
    planted = tmp_path / "tmp"
    planted.mkdir()
    marker = tmp_path / "PWNED"
    name = _lark_cache_name(tmp_path)
    # what Lark reads: a hash line, then pickles; the first pickle.load runs the payload
    (planted / name).write_bytes(b"0" * 64 + b"\n" + pickle.dumps(_Payload(marker)))
    proc = rulebook("validate", str(MINI), cwd=tmp_path, env={"TMPDIR": str(planted)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not marker.exists(), "the planted cache file was unpickled"
    assert [p.name for p in planted.iterdir()] == [name]  # nothing written there either


def test_validate_opens_nothing_in_the_temp_folder_and_unpickles_nothing(tmp_path):
    """Whatever a cache file would be called, none is read: checked with audit hooks."""
    script = textwrap.dedent("""
        import sys, tempfile
        temp = tempfile.gettempdir()
        seen = []
        def hook(event, args):
            if event == "open" and isinstance(args[0], str) and args[0].startswith(temp):
                seen.append(args[0])
            if event == "pickle.find_class":
                seen.append("unpickled " + repr(args))
        sys.addaudithook(hook)
        from interpreter.cli import main
        try:
            main(["validate", sys.argv[1], "-q"])
        except SystemExit as exc:
            code = exc.code
        print("EXIT", code, "SEEN", seen)
    """)
    temp = tmp_path / "tmp"
    temp.mkdir()
    proc = subprocess.run([sys.executable, "-c", script, str(MINI)], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path,
                          env=dict(os.environ, TMPDIR=str(temp)))
    assert "EXIT 0 SEEN []" in proc.stdout, proc.stdout + proc.stderr


# ------------------------------------------------------------- leaving the tree
CASES = sorted(p.name for p in ATTACKS.iterdir() if (p / "expect.txt").is_file())


def lay_out(case: str, tmp_path: Path) -> tuple[Path, list[str]]:
    """The mini ruleset with the case's files over it, and the secret beside it.

    ``{OUTSIDE}`` in a case file stands for the outside folder's absolute
    path; each line ``name -> target`` of ``links.txt`` becomes a symbolic
    link. Files named ``mod*.yaml`` are the mods to validate with.
    """
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("secret.yaml", "ruleset.yaml"):
        (outside / name).write_text(OUTSIDE_TEXT, encoding="utf-8")
    game = tmp_path / "game"
    shutil.copytree(MINI, game)
    mods = []
    source = ATTACKS / case
    for f in sorted(source.rglob("*")):
        rel = f.relative_to(source)
        if f.is_dir() or rel.name in ("expect.txt", "links.txt"):
            continue
        dest = game / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(f.read_text(encoding="utf-8").replace("{OUTSIDE}", str(outside)),
                        encoding="utf-8")
        if rel.name.startswith("mod"):
            mods.append(str(rel))
    links = source / "links.txt"
    for line in links.read_text().splitlines() if links.is_file() else []:
        name, target = (s.strip() for s in line.split("->"))
        link = game / name
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.exists() or link.is_symlink():
            link.unlink()
        link.symlink_to(target.replace("{OUTSIDE}", str(outside)))
    return game, mods


def validate(game: Path, mods: list[str], fmt: str) -> subprocess.CompletedProcess:
    args = ["validate", "."] + [a for m in mods for a in ("--mod", m)] + ["--format", fmt]
    return rulebook(*args, cwd=game)


@pytest.mark.parametrize("case", CASES)
def test_a_path_leaving_the_tree_is_a_positioned_error(case, tmp_path):
    game, mods = lay_out(case, tmp_path)
    proc = validate(game, mods, "json")
    assert_clean_failure(proc)
    found = sorted(f"{d['file']}:{d['line']}:{d['col']} {d['code']}"
                   for d in json.loads(proc.stdout)["diagnostics"])
    expected = sorted((ATTACKS / case / "expect.txt").read_text().split("\n")[:-1])
    assert found == expected
    # the people's format: the error is shown with its place, the secret never is
    text = assert_clean_failure(validate(game, mods, "text"))
    for line in expected:
        assert line.split()[0] + ": error[" + line.split()[1] + "]" in text


def test_links_that_stay_inside_the_tree_are_followed(tmp_path):
    from interpreter import load_ruleset
    game = tmp_path / "game"
    shutil.copytree(MINI, game)
    (game / "shared").mkdir()
    (game / "shared" / "more.yaml").write_text(
        "kind: cards\ncards:\n  - {id: meteor, name: Meteor, cost: 3, play: raise temperature}\n",
        encoding="utf-8")
    (game / "linked").symlink_to("shared")
    (game / "shared" / "loop").symlink_to("..")  # a link back up ends the walk, not a hang
    (game / "ruleset.yaml").write_text(
        "kind: ruleset\nid: mini\nname: Mini\nplayers: {min: 1, max: 4}\n"
        "include: [components.yaml, flow.yaml, cards.yaml, 'linked/*.yaml', '**/more.yaml']\n",
        encoding="utf-8")
    rs = load_ruleset(game)
    assert set(rs.cards) == {"comet", "decomposers", "meteor"}


@pytest.mark.parametrize("pattern", ["a/*.yaml", "**/*.yaml", "a/**", "a/**/*.yaml",
                                     ".hidden/*.yaml", "*/c/?.yaml", "a/[bc]*.yaml",
                                     "a/c/../*.yaml", "**/d.yaml"])
def test_globs_match_what_pythons_glob_matches_in_a_plain_tree(pattern, tmp_path):
    import glob

    from interpreter.tree import glob_in, tree_of
    for name in ("a/b.yaml", "a/c/d.yaml", "a/.h.yaml", ".hidden/x.yaml", "top.yaml",
                 "a/c/e/f.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("kind: cards\n")
    ours = [p.relative_to(tmp_path).as_posix()
            for p in glob_in(tmp_path, tree_of(tmp_path), pattern)]
    theirs = sorted(Path(m).relative_to(tmp_path).as_posix()
                    for m in glob.glob(str(tmp_path / pattern), recursive=True)
                    if Path(m).is_file())
    assert ours == [Path(os.path.normpath(t)).as_posix() for t in theirs] and ours
