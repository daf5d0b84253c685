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
import re
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
    return subprocess.run([sys.executable, "-m", "rulebook_games", *args], cwd=cwd,
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
        from rulebook_games.lang.parser import LARK_OPTIONS, _BlockIndenter, grammar_path
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
        from rulebook_games.cli import main
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


def validate(game: Path, mods: list[str], fmt: str, capsys, monkeypatch):
    """``rulebook validate . --mod …`` run in this process (quicker than a subprocess)."""
    from rulebook_games.cli import main
    monkeypatch.chdir(game)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    args = ["validate", "."] + [a for m in mods for a in ("--mod", m)] + ["--format", fmt]
    with pytest.raises(SystemExit) as info:
        main(args)
    out = capsys.readouterr()
    return subprocess.CompletedProcess(args, info.value.code, out.out, out.err)


@pytest.mark.parametrize("case", CASES)
def test_a_path_leaving_the_tree_is_a_positioned_error(case, tmp_path, capsys, monkeypatch):
    game, mods = lay_out(case, tmp_path)
    proc = validate(game, mods, "json", capsys, monkeypatch)
    assert_clean_failure(proc)
    found = sorted(f"{d['file']}:{d['line']}:{d['col']} {d['code']}"
                   for d in json.loads(proc.stdout)["diagnostics"])
    expected = sorted((ATTACKS / case / "expect.txt").read_text().split("\n")[:-1])
    assert found == expected
    # the people's format: the error is shown with its place, the secret never is
    text = assert_clean_failure(validate(game, mods, "text", capsys, monkeypatch))
    for line in expected:
        assert line.split()[0] + ": error[" + line.split()[1] + "]" in text


def test_links_that_stay_inside_the_tree_are_followed(tmp_path):
    from rulebook_games import load_ruleset
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

    from rulebook_games.load.tree import glob_in, tree_of
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


# ------------------------------------------------------------ a record's mods
LGOT = "legacy_gears_of_time"
NAMED_MOD = ("kind: mod\nid: renamed\ntarget: legacy_gears_of_time\nchanges:\n"
             "  - {op: patch, in: cards, id: fire, value: {name: NAME}}\n")


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A folder with a finished game's record, g.json, and its mod beside it."""
    folder = tmp_path_factory.mktemp("played")
    _played_record(folder, "renamed.yaml", "g.json")
    return folder


@pytest.fixture
def record(played, tmp_path) -> Path:
    """A fresh copy of the played game's record in games/, its mod beside it."""
    shutil.copytree(played, tmp_path / "games")
    return tmp_path / "games" / "g.json"


def _played_record(tmp_path: Path, mod_at: str, save_at: str, name: str = "Fire Two") -> Path:
    """A finished 2-player game of a shipped ruleset with one mod, saved as a record."""
    mod = tmp_path / mod_at
    mod.parent.mkdir(parents=True, exist_ok=True)
    mod.write_text(NAMED_MOD.replace("NAME", json.dumps(name)), encoding="utf-8")
    proc = rulebook("play", LGOT, "--players", "2", "--seed", "3", "--agents", "random,random",
                    "--mod", mod_at, "--save", save_at, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return tmp_path / save_at


def test_a_record_names_its_mods_from_its_own_folder_and_replays_from_anywhere(tmp_path):
    record = _played_record(tmp_path, "games/mods/renamed.yaml", "games/g.json")
    assert json.loads(record.read_text())["mods"] == ["mods/renamed.yaml"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = rulebook("replay", str(record), cwd=elsewhere)
    assert proc.returncode == 0 and "final state matches" in proc.stdout, proc.stdout + proc.stderr


def _tamper_mods(record: Path, mods: list[str]) -> tuple[int, int]:
    """Replace the record's mods; the line and column of the first one."""
    data = json.loads(record.read_text())
    data["mods"] = mods
    text = json.dumps(data, indent=1)
    record.write_text(text + "\n")
    offset = text.index(json.dumps(mods[0]), text.index('"mods"'))
    line = text.count("\n", 0, offset) + 1
    return line, offset - text.rfind("\n", 0, offset)


@pytest.mark.parametrize("how", ["dotdot", "absolute", "link"])
def test_a_record_naming_a_mod_outside_its_folder_is_refused_at_that_mod(how, record, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "mod.yaml").write_text(f"kind: mod\nid: x\ntarget: {SECRET}\nchanges: []\n")
    if how == "link":
        (record.parent / "linked.yaml").symlink_to(outside / "mod.yaml")
    name = {"dotdot": "../outside/mod.yaml", "absolute": str(outside / "mod.yaml"),
            "link": "linked.yaml"}[how]
    line, col = _tamper_mods(record, [name])
    for command in (["replay", str(record)], ["play", LGOT, "--resume", str(record)]):
        out = assert_clean_failure(rulebook(*command, cwd=tmp_path))
        assert f"{record}:{line}:{col}: error" in out, out
        assert "outside the record's folder" in out or "climbs out of the record's folder" \
            in out or "absolute path" in out, out


def test_a_mod_given_again_with_resume_is_used_as_given(tmp_path):
    """Moving a record away from its mod keeps it playable: name the mod again."""
    record = _played_record(tmp_path, "mods/renamed.yaml", "games/g.json")
    assert json.loads(record.read_text())["mods"] == ["../mods/renamed.yaml"]
    refused = assert_clean_failure(rulebook("replay", str(record), cwd=tmp_path))
    assert "climbs out of the record's folder" in refused and "--mod" in refused
    data = json.loads(record.read_text())
    data.pop("final_hash")
    data["decisions"] = data["decisions"][:20]
    record.write_text(json.dumps(data))
    proc = rulebook("play", LGOT, "--resume", str(record), "--mod", "mods/renamed.yaml",
                    "--agents", "random,random", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ------------------------------------------------------------- escape characters
HOSTILE = "Fire \x1b[2J\x1b]0;pwned\x07\u202eX\x9b1m"
RAW = ("\x1b", "\x07", "\u202e", "\x9b")


def assert_no_raw_controls(out: str) -> None:
    for ch in RAW:
        assert ch not in out, repr(out)


def test_visible_shows_controls_and_direction_overrides_as_escapes():
    from rulebook_games.safe_text import visible
    assert visible(HOSTILE) == "Fire \\x1b[2J\\x1b]0;pwned\\x07\\u202eX\\x9b1m"
    assert visible("a\nb\tc\r") == "a\\nb\\tc\\x0d"
    assert visible("a\nb\tc\r", multiline=True) == "a\nb\tc\\x0d"
    assert visible("Café – 10 M€, ünïcode stays") == "Café – 10 M€, ünïcode stays"
    assert visible("\u2066x\u2069 \u200f \u2028") == "\\u2066x\\u2069 \\u200f \\u2028"


def test_the_reporters_colours_still_work_around_an_escaped_message():
    from rulebook_games.errors import Diagnostic
    from rulebook_games.cli.diagnostics import github, text
    d = Diagnostic("RB301", f"unknown tag '{HOSTILE}'", None, hint=HOSTILE)
    coloured = text([d], color=True)
    assert coloured.startswith("\x1b[1m\x1b[0m\x1b[1;31merror[RB301]\x1b[0m: "
                               "unknown tag 'Fire \\x1b[2J")
    assert_no_raw_controls(coloured.replace("\x1b[1m", "").replace("\x1b[0m", "")
                           .replace("\x1b[1;31m", ""))
    assert_no_raw_controls(github([d]))
    assert "::error title=RB301" in github([d])


def _hostile_ruleset(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(MINI, game)
    (game / "ruleset.yaml").write_text(
        "kind: ruleset\nid: mini\nname: Mini\nplayers: {min: 1, max: 4}\n"
        "include: [components.yaml, flow.yaml, cards.yaml, 'extra/*.yaml']\n", encoding="utf-8")
    (game / "extra").mkdir()
    # a file whose very name carries an escape sequence, holding a card whose tag does
    # not exist: the tag is quoted in the message, the name in the place, and a raw
    # right-to-left override sits in the quoted source line
    (game / "extra" / "evil\x1b[2J.yaml").write_text(
        "kind: cards\ncards:\n  - id: evil\n    name: \"Evil \\e[31m\"\n"
        "    tags: [\"spa\\e]0;pwned\\ace\"]  # \u202e reversed\n", encoding="utf-8")
    return game


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_validate_shows_escape_characters_from_rule_files_as_escapes(fmt, tmp_path):
    game = _hostile_ruleset(tmp_path)
    proc = rulebook("validate", ".", "--format", fmt, cwd=game)
    out = assert_clean_failure(proc)
    assert_no_raw_controls(out)
    assert "evil\\x1b[2J.yaml" in out and "spa\\x1b]0;pwned\\x07ce" in out, out
    if fmt == "text":
        assert "extra/evil\\x1b[2J.yaml:5:" in out and "\\u202e reversed" in out, out


def test_json_output_keeps_the_text_exactly_and_escaped_by_json(tmp_path):
    game = _hostile_ruleset(tmp_path)
    proc = rulebook("validate", ".", "--format", "json", cwd=game)
    assert proc.returncode == 1
    assert "\x1b" not in proc.stdout  # json.dumps writes it as \u001b
    (diag,) = json.loads(proc.stdout)["diagnostics"]
    assert diag["file"] == "extra/evil\x1b[2J.yaml" and diag["line"] == 5


def test_names_in_the_game_log_and_in_a_persons_prompts_are_shown_as_escapes(tmp_path):
    mod = tmp_path / "renamed.yaml"
    mod.write_text(NAMED_MOD.replace("NAME", json.dumps(HOSTILE)), encoding="utf-8")
    shown = "Fire \\x1b[2J\\x1b]0;pwned\\x07\\u202eX\\x9b1m"
    log = rulebook("play", LGOT, "--players", "2", "--seed", "3", "--agents", "random,random",
                   "--mod", str(mod), cwd=tmp_path)
    assert log.returncode == 0, log.stdout + log.stderr
    assert_no_raw_controls(log.stdout + log.stderr)
    assert shown in log.stdout
    person = rulebook("play", LGOT, "--players", "2", "--seed", "3", "--agents", "human,random",
                      "--mod", str(mod), "--save", "g.json", cwd=tmp_path, stdin="1\n" * 400)
    assert person.returncode == 0, person.stdout + person.stderr
    assert_no_raw_controls(person.stdout + person.stderr)
    # an option offering the card: its place, its key, then its name
    assert re.search(r"\d+\. \S+ +" + re.escape(shown), person.stdout), person.stdout[-3000:]


def test_a_records_fields_reach_the_terminal_as_escapes(record, tmp_path):
    data = json.loads(record.read_text())
    data["version"] = HOSTILE
    data["agents"][0] = HOSTILE
    record.write_text(json.dumps(data))
    out = assert_clean_failure(rulebook("replay", str(record), cwd=tmp_path))
    assert_no_raw_controls(out)
    assert "error" in out and str(record) in out


def test_a_usage_error_quoting_a_hostile_file_name_shows_it_escaped(tmp_path):
    """pre-commit hands validate the names of changed files, which strangers choose."""
    proc = rulebook("validate", "no\x1b[2Jsuch\u202e.yaml", cwd=tmp_path)
    out = assert_clean_failure(proc, code=2)
    assert_no_raw_controls(out)
    assert "no\\x1b[2Jsuch\\u202e.yaml" in out


def test_links_that_multiply_folders_cannot_make_a_glob_walk_forever(tmp_path, monkeypatch):
    """Each folder links twice to the next: 2**40 paths, none of them a loop."""
    from rulebook_games.load import tree
    from rulebook_games.load.tree import GlobTooLarge, glob_in, tree_of
    monkeypatch.setattr(tree, "MAX_GLOB_ENTRIES", 5_000)
    for i in range(40):
        (tmp_path / f"d{i}").mkdir()
        if i:
            (tmp_path / f"d{i - 1}" / "a").symlink_to(f"../d{i}")
            (tmp_path / f"d{i - 1}" / "b").symlink_to(f"../d{i}")
    with pytest.raises(GlobTooLarge, match="looks at more than 5000"):
        glob_in(tmp_path, tree_of(tmp_path), "d0/**/*.yaml")


def test_a_glob_into_folders_nested_too_deep_stops_with_an_error(tmp_path):
    """A walk never recurses without bound (links can nest folders past any limit)."""
    from rulebook_games.load.tree import MAX_GLOB_DEPTH, GlobTooLarge, glob_in, tree_of
    deep = tmp_path
    for _ in range(MAX_GLOB_DEPTH + 10):
        deep = deep / "a"
    deep.mkdir(parents=True)
    with pytest.raises(GlobTooLarge, match="folders deep"):
        glob_in(tmp_path, tree_of(tmp_path), "**/*.yaml")


@pytest.mark.parametrize("name", ["mods/link.yaml", "mods/cards.yaml", "linked/game/cards.yaml"])
def test_a_changed_file_that_links_out_of_the_repository_is_not_read(name, tmp_path):
    """What pre-commit passes: names of files in the repository, some of them links."""
    outside = tmp_path / "outside"
    (outside / "game").mkdir(parents=True)
    shutil.copytree(MINI, outside / "game", dirs_exist_ok=True)
    (outside / "game" / "cards.yaml").write_text(OUTSIDE_TEXT, encoding="utf-8")
    (outside / "secret.yaml").write_text(f"kind: mod\nid: x\ntarget: {SECRET}\nchanges: []\n")
    repo = tmp_path / "repo"
    (repo / "mods").mkdir(parents=True)
    (repo / "mods" / "link.yaml").symlink_to(outside / "secret.yaml")
    (repo / "mods" / "cards.yaml").symlink_to(outside / "game" / "cards.yaml")
    (repo / "linked").symlink_to(outside)
    out = assert_clean_failure(rulebook("validate", name, cwd=repo))
    assert f"{name}:1:1: error[RB405]" in out, out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_given_as_a_rule_file_is_refused_without_reading_it(tmp_path):
    """pre-commit or a script may hand validate anything; reading a pipe would wait forever."""
    os.mkfifo(tmp_path / "rules.yaml")
    proc = rulebook("validate", "rules.yaml", cwd=tmp_path, timeout=60)
    out = assert_clean_failure(proc)
    assert "rules.yaml:1:1: error[RB404]: this is neither a regular file nor a directory" in out
