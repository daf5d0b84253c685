"""The command line as a linter and as a writer of files (the audit after issue 24).

Each case runs the real command line in a subprocess and expects what the
README promises: ``validate`` checks every ruleset in its own right and each
mod layered on its ruleset, and reports each error once, at its place; a mod
is checked against the ruleset of the repository its ``target:`` names, given
by file or by folder; every file a command writes is refused at once, in one
line naming it, when it cannot be written (exit 2) or would replace something
of the user's (exit 2), and a failure while writing is one line too (exit 1),
never a hang, never exit 3; options that take a level refuse what is not a
finite number inside their range; and text from a rule file reaches neither
the terminal nor an emitted Python comment raw.
"""

from __future__ import annotations

import errno
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny"
FIFOS = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
DEVICE = "/dev/full" if os.path.exists("/dev/full") else os.devnull
# a card of tiny whose effect names a resource that does not exist: the ruleset is broken
BROKEN_CARD = ("    copies: 4\n", "    copies: 4\n    play: gain 1 plnats\n")
REMOVE_LAMP = "kind: mod\nid: {id}\ntarget: tiny\nchanges:\n  - {{op: remove, in: cards, id: lamp}}\n"
CHEAP_LAMP = ("kind: mod\nid: {id}\ntarget: tiny\nchanges:\n"
              "  - {{op: patch, in: cards, id: lamp, value: {{cost: 0}}}}\n")


def rulebook(*args, cwd: Path, timeout: int = 120, limit: int | None = None,
             stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    """The real command line; with ``limit``, no file it writes may grow past that many bytes
    (the way a full disk or a quota stops a write half way)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400"}
    env.pop("GITHUB_ACTIONS", None)

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    if limit is not None:
        env["RULEBOOK_NO_CACHE"] = "1"  # nothing but the output is written
    return subprocess.run([sys.executable, "-m", "rulebook_games", *map(str, args)], cwd=cwd,
                          env=env, stdin=stdin, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=small_files if limit else None)


def clean(proc: subprocess.CompletedProcess, code: int) -> str:
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, out
    assert "Traceback" not in out and "internal error" not in out, out
    return out


def one_line(proc: subprocess.CompletedProcess, code: int, *words: str) -> str:
    """The one line a refused command printed, which holds every one of ``words``."""
    out = clean(proc, code)
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    for word in words:
        assert word in lines[0], out
    return lines[0]


def errors(out: str) -> list[str]:
    return [line for line in out.splitlines() if ": error[" in line]


@pytest.fixture
def repo(tmp_path) -> Path:
    """A repository of rules: tiny in rs/, with a broken card."""
    shutil.copytree(TINY, tmp_path / "rs")
    cards = tmp_path / "rs" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(*BROKEN_CARD), encoding="utf-8")
    return tmp_path


def broken_at(repo: Path) -> str:
    """Where the broken card's error is: ``rs/cards.yaml:LINE:COL``."""
    lines = (repo / "rs" / "cards.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "plnats" in text)
    return f"rs/cards.yaml:{line}:{lines[line - 1].index('plnats') + 1}"


# ------------------------------------------------ F16: a mod does not hide its ruleset's errors
@pytest.mark.parametrize("where", ["rs/mods", "mods"])
@pytest.mark.parametrize("args", [[], ["."], ["rs"]], ids=["no PATH", "dot", "ruleset folder"])
def test_f16_a_mod_removing_a_broken_card_does_not_make_the_ruleset_pass(repo, where, args):
    if where == "mods" and args == ["rs"]:
        args = ["rs", "mods"]
    (repo / where).mkdir()
    (repo / where / "fix.yaml").write_text(REMOVE_LAMP.format(id="fix"), encoding="utf-8")
    out = clean(rulebook("validate", "-q", *args, cwd=repo), 1)
    assert [e.split(": error")[0] for e in errors(out)] == [broken_at(repo)], out
    github = rulebook("validate", "--format", "github", *args, cwd=repo)
    assert github.returncode == 1
    assert len([x for x in github.stdout.splitlines() if x.startswith("::error")]) == 1


def test_f16_a_rulesets_error_is_reported_once_however_many_mods_it_has(repo):
    (repo / "rs" / "mods").mkdir()
    for name in ("a", "b", "c"):
        (repo / "rs" / "mods" / f"{name}.yaml").write_text(CHEAP_LAMP.format(id=name),
                                                           encoding="utf-8")
    out = clean(rulebook("validate", "-q", cwd=repo), 1)
    assert [e.split(": error")[0] for e in errors(out)] == [broken_at(repo)], out
    doc = json.loads(rulebook("validate", "--format", "json", cwd=repo).stdout)
    assert len(doc["diagnostics"]) == 1
    # the ruleset alone, then each mod on it alone
    assert [r["mods"] for r in doc["summary"]["rulesets"]] == [
        [], ["rs/mods/a.yaml"], ["rs/mods/b.yaml"], ["rs/mods/c.yaml"]]


def test_f16_each_mod_is_checked_on_its_own_ruleset_not_with_the_others(tmp_path):
    """Two house rules that change the same card differently are alternatives, not an error;
    each one's own error is reported at its line."""
    shutil.copytree(TINY, tmp_path / "rs")
    mods = tmp_path / "rs" / "mods"
    mods.mkdir()
    (mods / "a.yaml").write_text(REMOVE_LAMP.format(id="a"), encoding="utf-8")
    (mods / "b.yaml").write_text(REMOVE_LAMP.format(id="b"), encoding="utf-8")
    clean(rulebook("validate", "-q", cwd=tmp_path), 0)
    (mods / "c.yaml").write_text(REMOVE_LAMP.format(id="c").replace("lamp", "lammp"),
                                 encoding="utf-8")
    out = clean(rulebook("validate", "-q", cwd=tmp_path), 1)
    assert [e.split(":")[:2] for e in errors(out)] == [["rs/mods/c.yaml", "5"]], out


def test_f16_a_ruleset_named_with_mod_is_checked_alone_too(repo):
    (repo / "fix.yaml").write_text(REMOVE_LAMP.format(id="fix"), encoding="utf-8")
    out = clean(rulebook("validate", "-q", "rs", "--mod", "fix.yaml", cwd=repo), 1)
    assert [e.split(": error")[0] for e in errors(out)] == [broken_at(repo)], out


# ------------------------------------------------ F17: a mod beside its ruleset, given by file
@pytest.mark.parametrize("args", [["mods/cheap.yaml"], ["rs/cards.yaml", "mods/cheap.yaml"],
                                  []], ids=["the mod", "a card file and the mod", "folder"])
def test_f17_a_mod_beside_its_ruleset_is_checked_against_it(tmp_path, args):
    shutil.copytree(TINY, tmp_path / "rs")
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "cheap.yaml").write_text(CHEAP_LAMP.format(id="cheap"),
                                                  encoding="utf-8")
    clean(rulebook("validate", "-q", *args, cwd=tmp_path), 0)
    # and it is really checked against tiny: a card tiny lacks is an error at its line
    (tmp_path / "mods" / "cheap.yaml").write_text(
        CHEAP_LAMP.format(id="cheap").replace("id: lamp", "id: lammp"), encoding="utf-8")
    out = clean(rulebook("validate", "-q", *args, cwd=tmp_path), 1)
    assert [e.split(":")[:2] for e in errors(out)] == [["mods/cheap.yaml", "5"]], out
    assert "this mod targets" not in out and "did you mean 'lamp'" in out


def test_f17_two_rulesets_of_one_id_are_not_chosen_between_silently(tmp_path):
    shutil.copytree(TINY, tmp_path / "one")
    shutil.copytree(TINY, tmp_path / "two")
    (tmp_path / "cheap.yaml").write_text(CHEAP_LAMP.format(id="cheap"), encoding="utf-8")
    for args in (["cheap.yaml"], []):
        out = clean(rulebook("validate", "-q", *args, cwd=tmp_path), 1)
        (line,) = errors(out)
        assert line.startswith("cheap.yaml:3:9: error[RB500]")
        assert "one/ruleset.yaml" in line and "two/ruleset.yaml" in line, out


# ------------------------------------------------ F08 and F07: outputs that cannot be written
@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("results")
    clean(rulebook("simulate", TINY, "-n", "3", "-p", "2", "--out", "r.jsonl", cwd=folder), 0)
    return folder / "r.jsonl"


def writers(results: Path) -> dict[str, list]:
    """Every command that writes a file, with the file's option last (its value added)."""
    return {
        "schema --out": ["schema", "--out"],
        "docs --out": ["docs", "--out"],
        "compile --out": ["compile", TINY, "--out"],
        "simulate --out": ["simulate", TINY, "-n", "1", "-p", "2", "--out"],
        "play --save": ["play", TINY, "-p", "2", "--agents", "random", "--save"],
        "report --html": ["report", results, "--html"],
        "report --png": ["report", results, "--png"],
        "compare --out-base": ["compare", TINY, "--mod", TINY / "cheap.yaml", "-n", "2",
                               "-p", "2", "--out-mod", "m.jsonl", "--out-base"],
        "compare --html": ["compare", TINY, "--mod", TINY / "cheap.yaml", "-n", "2", "-p", "2",
                           "--html"],
    }


WRITERS = list(writers(Path("r.jsonl")))
FOLDER_OUTPUTS = {"schema --out", "report --png"}


def _args(results: Path, which: str, tmp_path: Path):
    game = tmp_path / "game"
    if not game.exists():
        shutil.copytree(TINY, game)
        (game / "cheap.yaml").write_text(CHEAP_LAMP.format(id="cheap"), encoding="utf-8")
    return [game if a == TINY else game / "cheap.yaml" if a == TINY / "cheap.yaml" else a
            for a in writers(results)[which]]


@pytest.mark.parametrize("which", WRITERS)
def test_f08_an_output_under_a_file_is_one_line_exit_2(results, which, tmp_path):
    (tmp_path / "afile").write_text("hi\n", encoding="utf-8")
    proc = rulebook(*_args(results, which, tmp_path), "afile/sub", cwd=tmp_path)
    one_line(proc, 2, "afile")
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "hi\n"


@pytest.mark.parametrize("which", sorted(set(WRITERS) - FOLDER_OUTPUTS))
def test_f08_a_device_is_refused_at_once(results, which, tmp_path):
    """/dev/full is a disk that is always full. It is named through a link: a command that
    replaced its output by renaming over it would replace the link, never the device."""
    (tmp_path / "full").symlink_to(DEVICE)
    proc = rulebook(*_args(results, which, tmp_path), "full", cwd=tmp_path)
    one_line(proc, 2, "'full'", "device")
    assert os.path.islink(tmp_path / "full")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
@pytest.mark.parametrize("which", ["docs --out", "compile --out", "schema --out"])
def test_f08_a_folder_that_takes_no_files_is_one_line_exit_2(results, which, tmp_path):
    proc = rulebook(*_args(results, which, tmp_path), "/proc/rulebook-x", cwd=tmp_path)
    one_line(proc, 2, "/proc")


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs RLIMIT_FSIZE")
@pytest.mark.parametrize("which", ["docs --out", "compile --out", "simulate --out",
                                   "schema --out", "report --html"])
def test_f08_a_write_that_fails_half_way_is_one_line_exit_1(results, which, tmp_path):
    """A full disk (here: a file size limit) while writing: one line naming the file, exit 1;
    no half-written file is left where a whole one was asked for."""
    out = tmp_path / "out"
    if which == "simulate --out":
        args = _args(results, which, tmp_path)
        args[args.index("-n") + 1] = "5"
        proc = rulebook(*args, out, cwd=tmp_path, limit=600)
    else:
        proc = rulebook(*_args(results, which, tmp_path), out, cwd=tmp_path, limit=600)
    line = [x for x in clean(proc, 1).splitlines() if "out" in x and "File too large" in x]
    assert line, proc.stdout + proc.stderr
    if which in ("docs --out", "compile --out", "report --html"):
        assert not out.exists()


@FIFOS
@pytest.mark.parametrize("which", sorted(set(WRITERS) - FOLDER_OUTPUTS))
def test_f07_a_pipe_is_refused_at_once(results, which, tmp_path):
    os.mkfifo(tmp_path / "p")
    proc = rulebook(*_args(results, which, tmp_path), "p", cwd=tmp_path, timeout=60)
    one_line(proc, 2, "'p'", "pipe")


@FIFOS
@pytest.mark.parametrize("which", sorted(FOLDER_OUTPUTS))
def test_f07_a_folder_output_that_is_a_pipe_or_a_file_is_refused(results, which, tmp_path):
    os.mkfifo(tmp_path / "p")
    one_line(rulebook(*_args(results, which, tmp_path), "p", cwd=tmp_path, timeout=60), 2, "'p'")


# ------------------------------------------------ F09: nothing the user had is replaced
@pytest.mark.parametrize("which", sorted(set(WRITERS) - FOLDER_OUTPUTS))
def test_f09_an_existing_file_of_the_user_is_never_replaced(results, which, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    one_line(rulebook(*_args(results, which, tmp_path), notes.name, cwd=tmp_path), 2,
             "'notes.txt'", "exists")
    assert notes.read_text(encoding="utf-8") == "my notes\n"


def test_f09_results_are_not_replaced_by_a_record_nor_by_new_results(results, tmp_path):
    kept = tmp_path / "results.jsonl"
    shutil.copy(results, kept)
    before = kept.read_bytes()
    one_line(rulebook("play", TINY, "-p", "2", "--agents", "random", "--save", kept.name,
                      cwd=tmp_path), 2, "'results.jsonl'", "--resume")
    one_line(rulebook("simulate", TINY, "-n", "1", "-p", "2", "--out", kept.name,
                      cwd=tmp_path), 2, "'results.jsonl'", "--resume")
    assert kept.read_bytes() == before


def test_f09_a_record_is_not_replaced_by_another_game(tmp_path):
    clean(rulebook("play", TINY, "-p", "2", "--agents", "random", "--seed", "3", "--save",
                   "g.json", cwd=tmp_path), 0)
    before = (tmp_path / "g.json").read_bytes()
    one_line(rulebook("play", TINY, "-p", "2", "--agents", "random", "--seed", "4", "--save",
                      "g.json", cwd=tmp_path), 2, "'g.json'", "--resume")
    assert (tmp_path / "g.json").read_bytes() == before
    # carrying the same game on, into its own record, is what --resume is for
    clean(rulebook("play", TINY, "--resume", "g.json", "--save", "g.json", cwd=tmp_path), 0)
    clean(rulebook("play", TINY, "--resume", "g.json", cwd=tmp_path), 0)


@pytest.mark.slow
def test_f09_what_the_command_wrote_before_may_be_written_again(results, tmp_path):
    for which in ("docs --out", "compile --out", "report --html"):
        args = _args(results, which, tmp_path)
        clean(rulebook(*args, "again", cwd=tmp_path), 0)
        clean(rulebook(*args, "again", cwd=tmp_path), 0)
        (tmp_path / "again").unlink()
    for which in ("schema --out", "report --png"):
        args = _args(results, which, tmp_path)
        clean(rulebook(*args, "folder", cwd=tmp_path), 0)
        clean(rulebook(*args, "folder", cwd=tmp_path), 0)
        shutil.rmtree(tmp_path / "folder")
    # an empty file holds nothing to lose (mktemp's, say)
    (tmp_path / "empty.jsonl").touch()
    clean(rulebook("simulate", TINY, "-n", "1", "-p", "2", "--out", "empty.jsonl",
                   cwd=tmp_path), 0)


# ------------------------------------------------ F18: levels that are not numbers
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "1", "1e400", "٠.٩"])
def test_f18_confidence_must_be_a_finite_level(results, value, tmp_path):
    out = clean(rulebook("report", results, "--confidence", value, cwd=tmp_path), 2)
    assert "Invalid value for '--confidence'" in out, out
    # compare refuses it before it plays a single game (a million seeds would take hours)
    out = clean(rulebook("compare", "lantern_row", "--mod", "rich_start", "-n", "1000000",
                         "-p", "2", "--confidence", value, cwd=tmp_path, timeout=60), 2)
    assert "Invalid value for '--confidence'" in out, out


# ------------------------------------------------ F01: a ruleset's name reaches nothing raw
NAME = 'name: "Tiny\\e]0;PWNED\\a\\u202eevil\\nimport os\\r# x"'
RAW = ("\x1b", "\x07", "\u202e", "\r")


@pytest.fixture
def named(tmp_path) -> Path:
    shutil.copytree(TINY, tmp_path / "rs")
    manifest = tmp_path / "rs" / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("name: Tiny", NAME).replace('version: "1"',
                                                                 'version: "1\\e[2J\\n#"'),
                        encoding="utf-8")
    return tmp_path


def test_f01_compile_prints_a_rulesets_name_visibly(named):
    for args in (["compile", "rs"], ["compile", "rs", "--out", "c.py"]):
        out = clean(rulebook(*args, cwd=named), 0)
        assert not any(ch in out for ch in RAW), repr(out)
        assert "\\x1b]0;PWNED\\x07\\u202eevil\\nimport os" in out


def test_f01_the_emitted_header_never_ends_its_comment_early(named):
    out = clean(rulebook("compile", "rs", "--emit", cwd=named), 0)
    clean(rulebook("compile", "rs", "--out", "c.py", cwd=named), 0)
    for text in (out, (named / "c.py").read_text(encoding="utf-8")):
        assert not any(ch in text for ch in RAW), repr(text[:200])
        assert not re.search(r"^import os", text, re.M)
        first, second = text.splitlines()[:2]
        assert first.startswith("# Tiny") and "import os" in first and second == ""


# ------------------------------------------------ F08: an OSError that reaches main()
@pytest.mark.parametrize("error, code, words", [
    (OSError(errno.ENOSPC, "No space left on device"), 1,
     "a write failed: No space left on device"),
    (OSError(errno.EFBIG, "File too large", "big.json"), 1, "'big.json': File too large"),
    (IsADirectoryError(errno.EISDIR, "Is a directory", "somewhere"), 2,
     "'somewhere': Is a directory"),
    (NotADirectoryError(errno.ENOTDIR, "Not a directory", "afile/sub"), 2,
     "'afile/sub': Not a directory"),
])
def test_f08_an_os_error_about_a_file_is_one_line_not_a_bug(monkeypatch, capsys, error, code,
                                                             words):
    """Whatever command meets it: a file the user named, or a full disk, is never exit 3."""
    import click

    from rulebook_games import cli

    @click.command("boom")
    def boom():
        raise error
    monkeypatch.setitem(cli.cli.commands, "boom", boom)
    with pytest.raises(SystemExit) as info:
        cli.main(["boom"])
    out, err = capsys.readouterr()
    assert info.value.code == code
    assert err == f"Error: {words}\n" and out == ""
