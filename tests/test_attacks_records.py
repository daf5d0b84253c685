"""Attacks on game records and saves: tampered or hostile records, bad save paths, lost games.

A record is a file anyone can edit, so every case here expects a positioned
message (``file:line:col``) and an ordinary exit code, never exit 3 or a
traceback; a game in progress must survive a bad ``--save``, Ctrl-C and the
end of its input.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook_games import load_ruleset
from rulebook_games.cli import main
from rulebook_games.play.record import Record

ROOT = Path(__file__).resolve().parents[1]
TINY = str(ROOT / "tests" / "fixtures" / "tiny")
RULEBOOK = [sys.executable, "-m", "rulebook_games"]


def cli(*args) -> tuple[int, str]:
    """Run the CLI in this process; its exit code and everything it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        else:
            code = 0
    return code, out.getvalue()


def sub(*args, cwd, stdin=subprocess.DEVNULL, timeout=120, input=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([*RULEBOOK, *args], cwd=cwd, stdin=stdin, capture_output=True,
                          text=True, timeout=timeout, env=env, input=input)


@pytest.fixture(scope="module")
def tiny_record(tmp_path_factory) -> str:
    """The text of a finished two-player game of the tiny test ruleset."""
    path = tmp_path_factory.mktemp("rec") / "tiny.json"
    code, out = cli("play", TINY, "-p", "2", "--seed", "1", "--agents", "random", "--no-log",
                    "--save", str(path))
    assert code == 0, out
    return path.read_text(encoding="utf-8")


def written(tmp_path: Path, text: str) -> Path:
    """A record file holding ``text``, as a person would hand it to replay."""
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    return path


def replay(path, *extra) -> tuple[int, str]:
    return cli("replay", str(path), "--ruleset", TINY, *extra)


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def assert_clean(code: int, out: str) -> None:
    assert code != 3 and "Traceback" not in out and "internal error" not in out, out


# ------------------------------------------------------------ content hash and cwd
def test_content_hash_does_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    here = load_ruleset("tests/fixtures/tiny").content_hash
    monkeypatch.chdir(tmp_path)
    assert load_ruleset(TINY).content_hash == here


def test_a_record_saved_in_one_directory_replays_from_another(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    made = sub("play", "legacy_gears_of_time", "-p", "2", "--seed", "4", "--agents", "random",
               "--no-log", "--save", "game.json", cwd=a)
    assert made.returncode == 0, made.stdout + made.stderr
    again = sub("replay", str(a / "game.json"), cwd=b)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "final state matches" in again.stdout


# ------------------------------------------------------------------ tampered fields
def _set(key, value):
    def change(data):
        data[key] = value
    return change


def _drop(key):
    def change(data):
        del data[key]
    return change


def _first_decision(value):
    def change(data):
        data["decisions"][0] = value
    return change


TAMPERED = [
    # (name, change, the field the message points at, which item of it (None: the field
    # itself), words the message must say)
    ("players as text", _set("players", "2"), "players", None, "whole number"),
    ("players negative", _set("players", -1), "players", None, "from 1 to"),
    ("players zero", _set("players", 0), "players", None, "from 1 to"),
    ("players huge", _set("players", 10 ** 30), "players", None, "from 1 to"),
    ("players true", _set("players", True), "players", None, "whole number"),
    ("players beyond the ruleset", lambda d: d.update(players=9, agents=["random"] * 9, scores=None),
     "players", None, "1–4 players, not 9"),
    ("players and agents disagree", _set("players", 3), "agents", None,
     "2 agents for 3 players"),
    ("seed a float", _set("seed", 1.5), "seed", None, "whole number"),
    ("seed as text", _set("seed", "7"), "seed", None, "whole number"),
    ("seed huge", _set("seed", 2 ** 80), "seed", None, "must be from"),
    ("seed null", _set("seed", None), "seed", None, "whole number"),
    ("agents too few", _set("agents", ["random"]), "agents", None, "1 agents for 2 players"),
    ("agents unknown", _set("agents", ["random", "robot"]), "agents", 1, "is not an agent"),
    ("agents not a list", _set("agents", "random"), "agents", None, "must be a list"),
    ("agents numbers", _set("agents", [1, 2]), "agents", 0, "is not an agent"),
    ("decision out of range", _first_decision(999), "decisions", 0,
     "decision 1 of the record is refused"),
    ("decision negative", _first_decision(-5), "decisions", 0,
     "decision 1 of the record is refused"),
    ("decision huge", _first_decision(10 ** 19), "decisions", 0, "must be from"),
    ("decision a float", _first_decision(1.5), "decisions", 0, "whole number"),
    ("decision nested", _first_decision([[[1]]]), "decisions", 0, "whole number"),
    ("decisions as text", _set("decisions", "1,2,3"), "decisions", None, "must be a list"),
    ("decisions cut short", lambda d: d.update(decisions=d["decisions"][:3]), "decisions",
     None, "ends before the game does"),
    ("decisions with extra answers", lambda d: d["decisions"].extend([0, 0, 0]), "decisions",
     10, "the game ended after 10 decisions but the record has 13"),
    ("variant unknown", _set("variants", ["nosuch"]), "variants", 0,
     "has no variant 'nosuch'"),
    ("variant not an id", _set("variants", ["Bad Id!"]), "variants", 0, "must be an id"),
    ("variant twice", _set("variants", ["a", "a"]), "variants", 1, "twice"),
    ("variants by the hundred thousand", _set("variants", [f"v{i}" for i in range(100_000)]),
     "variants", None, "at most 1000 make sense"),
    ("agents by the thousand", lambda d: d.update(agents=["random"] * 5000), "agents", None,
     "at most 100 make sense"),
    ("content hash altered", lambda d: d.update(content_hash="0" * 64), "content_hash", None,
     "another version"),
    ("content hash not a hash", _set("content_hash", "abc"), "content_hash", None, "SHA-256"),
    ("final hash not a hash", _set("final_hash", 123), "final_hash", None, "SHA-256"),
    ("ruleset a path", _set("ruleset", "../../etc"), "ruleset", None, "must be an id"),
    ("ruleset another one", _set("ruleset", "other"), "ruleset", None,
     "for 'other', not 'tiny'"),
    ("mods not text", _set("mods", [5]), "mods", 0, "must be text"),
    ("mods not a list", _set("mods", "m.yaml"), "mods", None, "must be a list"),
    ("scores of the wrong count", _set("scores", [1]), "scores", None,
     "1 scores for 2 players"),
    ("scores as text", _set("scores", ["a", "b"]), "scores", 0, "whole number"),
    ("version not text", _set("version", {"a": 1}), "version", None, "at most 40 characters"),
]


@pytest.mark.parametrize("name, change, key, item, words", TAMPERED,
                         ids=[t[0] for t in TAMPERED])
def test_a_tampered_field_is_refused_at_its_line(tiny_record, tmp_path, name, change, key,
                                                 item, words):
    data = json.loads(tiny_record)
    change(data)
    text = json.dumps(data, indent=1)  # every list item on a line of its own
    path = written(tmp_path, text)
    code, out = replay(path)
    assert_clean(code, out)
    assert code == 1, out
    assert words in out, out
    line = line_of(text, json.dumps(key) + ":") + (0 if item is None else 1 + item)
    assert out.startswith(f"{path}:{line}:"), out


def test_a_bad_item_is_placed_at_the_item_itself(tiny_record, tmp_path):
    data = json.loads(tiny_record)
    data["decisions"][4] = "x"
    text = json.dumps(data, indent=1)
    path = written(tmp_path, text)
    code, out = replay(path)
    item_line = line_of(text, '"x"')
    assert code == 1 and f"{path}:{item_line}:3: error: item 5 of \"decisions\"" in out, out


def test_an_altered_final_hash_is_reported_as_differing(tiny_record, tmp_path):
    data = json.loads(tiny_record)
    data["final_hash"] = "f" * 64
    path = written(tmp_path, json.dumps(data))
    code, out = replay(path)
    assert code == 1 and "final state differs" in out and "matches" not in out


def test_a_record_without_final_hash_is_unverified_not_matching(tiny_record, tmp_path):
    data = json.loads(tiny_record)
    del data["final_hash"]
    path = written(tmp_path, json.dumps(data))
    code, out = replay(path)
    assert code == 1, out
    assert f"replayed {len(data['decisions'])} decisions; the record has no final hash, so " \
           "the result is unverified" in out
    assert "matches" not in out


def test_the_untampered_record_matches(tiny_record, tmp_path):
    path = written(tmp_path, tiny_record)
    code, out = replay(path)
    assert code == 0 and "final state matches" in out, out


def test_unknown_and_duplicate_keys_are_placed_at_the_key(tiny_record, tmp_path):
    extra = tiny_record.replace('"seed": 1,', '"seed": 1,\n "evil": {"a": [1, 2]},', 1)
    path = tmp_path / "x.json"
    path.write_text(extra, encoding="utf-8")
    code, out = replay(path)
    evil = line_of(extra, '"evil"')
    assert code == 1 and f'{path}:{evil}:2: error: unknown key "evil"' in out, out
    twice = tiny_record.replace('"seed": 1,', '"seed": 1,\n "seed": 2,', 1)
    path.write_text(twice, encoding="utf-8")
    code, out = replay(path)
    second = line_of(twice, '"seed": 2')
    assert code == 1 and f"{path}:{second}:2: error:" in out
    assert "given twice" in out


def test_a_record_of_a_ruleset_that_is_not_shipped_needs_its_location(tiny_record, tmp_path):
    path = written(tmp_path, tiny_record)
    code, out = cli("replay", str(path))
    line = line_of(tiny_record, '"ruleset"')
    assert code == 1 and out.startswith(f"{path}:{line}:") and "--ruleset DIR" in out, out


def test_a_record_missing_its_format_is_not_a_record(tiny_record, tmp_path):
    data = json.loads(tiny_record)
    del data["format"]
    path = written(tmp_path, json.dumps(data))
    code, out = replay(path)
    assert code == 1 and f"{path}:1:1: error: not a Rulebook game record" in out


# ------------------------------------------------------------------ hostile files
HEAD = '{"format": "rulebook-record/1", '
FULL = (HEAD + '"ruleset": "tiny", "version": "1", "content_hash": "' + "0" * 64 + '", '
        '"players": 2, "seed": 1, "agents": ["random", "random"], "decisions": []}')


@pytest.mark.parametrize("name, body, words", [
    ("deep list", HEAD + '"decisions": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "nested too deeply"),
    ("deep object", HEAD + '"x": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001,
     "nested too deeply"),
    ("deep top level", "[" * 100_000 + "]" * 100_000, "a record is a JSON object"),
    ("thousands of digits", HEAD + '"seed": ' + "9" * 5000 + "}", "not a usable JSON value"),
    ("NaN", HEAD + '"seed": NaN}', "not a usable JSON value"),
    ("Infinity", HEAD + '"seed": -Infinity}', "not a usable JSON value"),
    ("empty", "", "a record is a JSON object"),
    ("broken JSON", HEAD + '"seed": 1,,}', "expected a key in double quotes"),
    ("broken value", HEAD + '"seed": [1, 2}', "not valid JSON"),
    ("bad escape", HEAD + '"seed": "\\q"}', "not valid JSON"),
    ("trailing text", HEAD + '"seed": 1} {}', "unexpected text after the end"),
    ("a list", "[1, 2, 3]", "a record is a JSON object"),
    ("a lone surrogate", FULL.replace('"random"', '"\\ud800"', 1), "is not an agent"),
    ("escape characters", FULL.replace('"tiny"', '"\\u001b[31mred"'), "must be an id"),
])
def test_hostile_record_text_is_a_positioned_error(tmp_path, name, body, words):
    path = tmp_path / "h.json"
    path.write_text(body, encoding="utf-8", errors="surrogatepass")
    code, out = replay(path)
    assert_clean(code, out)
    assert code == 1 and words in out, out
    assert out.startswith(f"{path}:"), out
    assert "\x1b" not in out  # a quoted value never reaches the terminal raw


@pytest.mark.parametrize("name, data, words", [
    ("binary", bytes(range(256)) * 4, "not UTF-8"),
    ("latin-1", '{"format": "caf\xe9"}'.encode("latin-1"), "not UTF-8"),
])
def test_binary_records_are_refused(tmp_path, name, data, words):
    path = tmp_path / "b.json"
    path.write_bytes(data)
    code, out = replay(path)
    assert_clean(code, out)
    assert code == 1 and words in out and out.startswith(f"{path}:1:1:")


def test_a_record_with_a_byte_order_mark_replays(tiny_record, tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + tiny_record.encode())
    code, out = replay(path)
    assert code == 0 and "final state matches" in out, out


def test_a_long_record_is_read_and_its_surplus_placed(tiny_record, tmp_path):
    data = json.loads(tiny_record)
    data["decisions"] += [0] * 2_000_000
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = replay(path)
    # the surplus is placed at the first answer the game did not use
    assert code == 1 and "the game ended after 10 decisions but the record has 2000010" in out
    assert out.startswith(f"{path}:1:"), out


def test_a_huge_file_is_not_read(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as fh:
        fh.write(HEAD.encode() + b'"decisions": [')
        fh.write(b"0," * (9 * 2 ** 20))
        fh.write(b"0]}")
    code, out = replay(path)
    assert code == 1 and "larger than 16 MiB" in out


def test_a_folder_or_a_missing_file_is_a_usage_error(tmp_path):
    for where in (tmp_path, tmp_path / "nosuch.json"):
        code, out = replay(where)
        assert_clean(code, out)
        assert code == 2, out
        code, out = cli("play", TINY, "--resume", str(where))
        assert code == 2, out


# ------------------------------------------------------------------------- saves
def test_save_into_a_missing_folder_creates_it(tmp_path):
    target = tmp_path / "new" / "deeper" / "game.json"
    code, out = cli("play", TINY, "-p", "2", "--seed", "2", "--agents", "random", "--no-log",
                    "--save", str(target))
    assert code == 0, out
    assert Record.load(target).final_hash is not None


@pytest.mark.parametrize("where", ["under a file", "a folder"])
def test_an_impossible_save_path_is_refused_before_the_game(tmp_path, where):
    blocker = tmp_path / "afile"
    blocker.write_text("keep me", encoding="utf-8")
    target = blocker / "game.json" if where == "under a file" else tmp_path
    code, out = cli("play", TINY, "-p", "2", "--seed", "2", "--agents", "random",
                    "--save", str(target))
    assert code == 2 and "--save" in out, out
    assert "Tiny · 2 players" not in out  # the game never started
    assert blocker.read_text(encoding="utf-8") == "keep me"


def test_saving_is_atomic(tiny_record, tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text(tiny_record, encoding="utf-8")
    rec = Record.load(path)
    rec.seed = 99

    def fail(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        rec.save(path)
    # the old record is whole, and no temporary file is left behind
    assert path.read_text(encoding="utf-8") == tiny_record
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    monkeypatch.undo()
    rec.save(path)
    assert Record.load(path).seed == 99
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_end_of_input_saves_to_a_fresh_name_and_says_how_to_resume(tmp_path):
    unrelated = tmp_path / "tiny-3.record.json"
    unrelated.write_text("not mine", encoding="utf-8")
    proc = sub("play", TINY, "-p", "2", "--seed", "3", "--agents", "human,random",
               cwd=tmp_path, stdin=subprocess.PIPE)  # an empty, closed stdin
    assert proc.returncode == 0, proc.stdout + proc.stderr
    saved = tmp_path / "tiny-3-2.record.json"
    assert unrelated.read_text(encoding="utf-8") == "not mine"
    assert f"resume with: rulebook play {shlex.quote(TINY)} --resume tiny-3-2.record.json" \
        in proc.stdout
    rec = Record.load(saved)
    assert rec.agents == ["human", "random"] and rec.final_hash is None
    # an unfinished record replays as unverified, never as matching
    code, out = replay(saved)
    assert code == 1 and "unverified" in out and "matches" not in out
    # resumed with both seats handed to agents, the game plays to its end
    done = sub("play", TINY, "--resume", str(saved), "--agents", "random,random", "--no-log",
               cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "record saved to" in done.stdout
    finished = Record.load(saved)
    assert finished.final_hash and finished.agents == ["random", "random"]
    code, out = replay(saved)
    assert code == 0 and "final state matches" in out, out


def test_end_of_input_saves_to_the_save_path(tmp_path):
    proc = sub("play", TINY, "-p", "2", "--seed", "3", "--agents", "human,random",
               "--save", "sub/g.json", cwd=tmp_path, stdin=subprocess.PIPE)
    assert proc.returncode == 0 and "saved after 0 decisions to sub/g.json" in proc.stdout
    assert Record.load(tmp_path / "sub" / "g.json").decisions == []


def _wait_for(proc, text: str, timeout: float = 60) -> str:
    seen = ""
    end = time.monotonic() + timeout
    while text not in seen:
        left = end - time.monotonic()
        assert left > 0, f"never saw {text!r} in {seen!r}"
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096).decode()
            assert chunk, f"the game ended before {text!r}: {seen!r}"
            seen += chunk
    return seen


def _default_signals():
    # A shell running CI in the background starts its children with SIGINT ignored, and a
    # Python started that way never turns Ctrl-C into KeyboardInterrupt: give the game the
    # default handlers a person's terminal gives it.
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_ctrl_c_or_a_closed_terminal_saves_and_exits_130(tmp_path, sig):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([*RULEBOOK, "play", TINY, "-p", "2", "--seed", "5", "--agents",
                             "human,random"], cwd=tmp_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                            preexec_fn=_default_signals)
    try:
        _wait_for(proc, "> ")
        proc.stdin.write(b"1\n")
        proc.stdin.flush()
        _wait_for(proc, "> ")
        proc.send_signal(getattr(signal, sig))
        rest, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    text = rest.decode()
    assert "interrupted; saved after" in text and "--resume tiny-5.record.json" in text, text
    rec = Record.load(tmp_path / "tiny-5.record.json")
    assert len(rec.decisions) >= 1 and rec.final_hash is None


# --------------------------------------------------------------- --resume options
@pytest.fixture
def unfinished(tmp_path) -> Path:
    proc = sub("play", TINY, "-p", "2", "--seed", "6", "--agents", "human,random",
               "--save", "u.json", cwd=tmp_path, stdin=subprocess.PIPE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return tmp_path / "u.json"


@pytest.mark.parametrize("option", [("--players", "3"), ("--seed", "7"),
                                    ("--variant", "nosuch")])
def test_resume_refuses_options_that_differ_from_the_record(unfinished, option):
    code, out = cli("play", TINY, "--resume", str(unfinished), *option, "--agents", "random")
    assert code == 2 and "differ from its record" in out, out


def test_resume_accepts_options_equal_to_the_record(unfinished):
    code, out = cli("play", TINY, "--resume", str(unfinished), "--players", "2", "--seed", "6",
                    "--agents", "random", "--no-log")
    assert code == 0 and "record saved to" in out, out


def test_resume_with_the_wrong_number_of_agents_is_a_usage_error(unfinished):
    code, out = cli("play", TINY, "--resume", str(unfinished), "--agents", "random,random,random")
    assert code == 2 and "3 agents for 2 players" in out


# -------------------------------------------------------------------- hypothesis
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2 ** 70, max_value=2 ** 70)
    | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=8)
KEYS = st.sampled_from(["format", "ruleset", "version", "content_hash", "players", "seed",
                        "agents", "decisions", "mods", "variants", "final_hash", "scores",
                        "other"])


@st.composite
def mutations(draw):
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["set", "drop", "item"]))
        steps.append((kind, draw(KEYS), draw(JSON_VALUES), draw(st.integers(0, 20))))
    return steps


@settings(max_examples=60)
@given(steps=mutations())
def test_no_mutated_record_makes_replay_crash(tiny_record, tmp_path_factory, steps):
    data = json.loads(tiny_record)
    for kind, key, value, index in steps:
        if kind == "set":
            data[key] = value
        elif kind == "drop":
            data.pop(key, None)
        elif isinstance(data.get(key), list) and data[key]:
            data[key][index % len(data[key])] = value
    path = tmp_path_factory.mktemp("h") / "m.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = replay(path)
    assert code in (0, 1, 2), out
    assert_clean(code, out)


def test_resume_takes_the_records_mods_and_refuses_other_ones(tmp_path):
    mod = "kind: mod\nid: m\ntarget: tiny\nchanges:\n  - {op: patch, in: actions, id: earn, " \
          "value: {name: %s}}\n"
    (tmp_path / "m1.yaml").write_text(mod % "Earn lots", encoding="utf-8")
    (tmp_path / "m2.yaml").write_text(mod % "Earn heaps", encoding="utf-8")
    proc = sub("play", TINY, "--mod", "m1.yaml", "-p", "2", "--seed", "3", "--agents",
               "human,random", "--save", "g.json", cwd=tmp_path, stdin=subprocess.PIPE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    other = sub("play", TINY, "--resume", "g.json", "--mod", "m2.yaml", "--agents", "random",
                cwd=tmp_path)
    assert other.returncode == 2 and "not the ones the record was made with" in other.stderr
    same = sub("play", TINY, "--resume", "g.json", "--mod", "m1.yaml", "--agents", "random",
               "--no-log", cwd=tmp_path)
    assert same.returncode == 0, same.stdout + same.stderr
    code, out = replay(tmp_path / "g.json")
    assert code == 0 and "final state matches" in out, out


def test_typing_save_at_a_prompt_saves_and_says_how_to_resume(tmp_path):
    proc = sub("play", TINY, "-p", "2", "--seed", "8", "--agents", "human,random",
               cwd=tmp_path, stdin=None, input="1\nsave\n")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "stopped as you asked; saved after 1 decision to tiny-8.record.json" in proc.stdout
    assert "--resume tiny-8.record.json" in proc.stdout
    assert len(Record.load(tmp_path / "tiny-8.record.json").decisions) == 1
