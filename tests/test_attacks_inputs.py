"""Bad input through scenario files, agent specs, records and the command line (issue 24).

Each case runs the real command line in a subprocess, as an attacker or a
careless user would, and expects what the issue promises: a positioned
error (``file:line:col`` where there is a file, the option's name where there
is none), exit 1 for a bad file and 2 for a bad command line, within the
subprocess's timeout (so never a hang), never exit 3 or a traceback.

- item 5: huge numbers and digits of other scripts in scenario files and
  agent specs, a seed of thousands of digits, names longer than the system
  allows (on the command line, in an include, in a record), named pipes given
  as records, rule files, mods and scenario files, and a record asking for an
  agent budget it did not get from the command line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny"
HUGE = "7" * 5000  # past Python's 4,300 digits for int(): int() raises on it
BIG = str(10 ** 400)  # int() reads it; no seat, seed or count is that large
LONG = "x" * 300 + ".yaml"  # one name past the 255 bytes a file name may have
FIFOS = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def rulebook(*args, cwd: Path, timeout: int = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run([sys.executable, "-m", "rulebook_games", *args], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


def refused(proc: subprocess.CompletedProcess, code: int) -> str:
    """The output of a command that refused its input cleanly with ``code``."""
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, out
    assert "Traceback" not in out and "internal error" not in out, out
    return out


@pytest.fixture
def game(tmp_path) -> Path:
    """A copy of the tiny ruleset, with an empty scenarios folder."""
    root = tmp_path / "game"
    shutil.copytree(TINY, root)
    (root / "scenarios").mkdir()
    return root


def scenario(game: Path, body: str) -> None:
    (game / "scenarios" / "s.yaml").write_text(
        "kind: scenarios\nscenarios:\n  - id: s\n" + body, encoding="utf-8")


# ------------------------------------------------------- item 5: numbers in scenarios
SCENARIO_NUMBERS = {
    # name: (scenario body, line:col of the error, words of the message)
    "seat count of 401 digits": (
        f"    players: {BIG}\n    steps:\n      - expect: true\n",
        "4:14", "Tiny is for 1–4 players, not 1000"),
    "a million seats": (
        "    players: 1000000\n    steps:\n      - expect: true\n",
        "4:14", "Tiny is for 1–4 players, not 1000000"),
    "seed of 401 digits": (
        f"    players: 2\n    seed: {BIG}\n    steps:\n      - expect: true\n",
        "5:11", "a seed is a whole number from"),
    "agent seed in a superscript digit": (
        "    players: 2\n    steps:\n      - advance: turn\n        agents: 'random:²'\n",
        "7:17", "the seed of agent 'random' must be a whole number, not '²'"),
    "agent seed in Arabic-Indic digits": (
        "    players: 2\n    steps:\n      - advance: turn\n        agents: 'random:٣'\n",
        "7:17", "(write it with the digits 0 to 9)"),
    "agent seed of 5,000 digits": (
        f"    players: 2\n    steps:\n      - advance: turn\n        agents: 'random:{HUGE}'\n",
        "7:17", "(5,000 characters)"),
    "agent seat of 5,000 digits": (
        f"    players: 2\n    steps:\n      - advance: turn\n        agents:\n"
        f"          ? '{HUGE}'\n          : random\n",
        "9:13", "a seat must be a whole number"),
    "position seat of 5,000 digits": (
        f"    players: 2\n    position:\n      players:\n        ? '{HUGE}'\n"
        "        : {stock: {gold: 1}}\n    steps:\n      - expect: true\n",
        "8:11", "a seat must be a whole number"),
    "position seat ending in a newline": (
        "    players: 2\n    position:\n      players:\n        \"1\\n\": {stock: {gold: 1}}\n"
        "    steps:\n      - expect: true\n",
        "7:9", "has the key '1\\n', which is not a seat"),  # the schema reads ids whole
    "result seat of 5,000 digits": (
        f"    players: 2\n    steps:\n      - advance: game\n      - result:\n"
        f"          scores:\n            ? '{HUGE}'\n            : 3\n",
        "10:15", "a seat must be a whole number"),
    "turn of 401 digits": (
        f"    players: 2\n    position:\n      turn: {BIG}\n    steps:\n      - expect: true\n",
        "6:13", "seat 10000000000000000000000… (401 characters) does not exist"),
}


@pytest.mark.parametrize("name", list(SCENARIO_NUMBERS))
def test_item5_numbers_in_a_scenario_file_are_positioned_errors(name, game):
    body, place, words = SCENARIO_NUMBERS[name]
    scenario(game, body)
    for command in ("test", "validate"):
        out = refused(rulebook(command, "game", cwd=game.parent), 1)
        (message,) = [line for line in out.splitlines() if "error[RB204]" in line]
        assert message.startswith(f"game/scenarios/s.yaml:{place}: error[RB204]"), out
        assert words in message, (command, message)
        assert HUGE not in message and BIG not in message  # quoted cut short, not in full


def test_item5_a_scenario_with_too_many_seats_is_not_played(game):
    """The seat count is refused before a game is set up for it (a million seats)."""
    scenario(game, "    players: 1000000\n    steps:\n      - expect: true\n")
    out = refused(rulebook("test", "game", cwd=game.parent), 1)
    assert "0 passed, 1 failed" in out and "FAIL" not in out, out


# ------------------------------------------------------- item 5: agent specs and seeds
@pytest.mark.parametrize("spec, words", [
    ("random:²", "'random:²' is not an agent spec"),
    ("ismcts:depth=٣", "depth must be a whole number, not '٣' (write it with the digits 0 to 9)"),
    ("ismcts:iterations=1_000", "iterations must be a whole number, not '1_000'"),
    ("ismcts:seconds=1_0", "seconds must be a number, not '1_0'"),
    ("ismcts:seconds=nan", "seconds must be a number, not 'nan'"),
    ("ismcts:seconds=1e999", "seconds must be a finite number"),
    (f"ismcts:iterations={HUGE}", "iterations must be a whole number, not '7777"),
    (f"greedy:rollouts={BIG}", "rollouts must be a whole number"),
])
def test_item5_bad_numbers_in_an_agent_spec_are_usage_errors(spec, words, tmp_path):
    out = refused(rulebook("play", str(TINY), "-p", "2", "--agents", spec, cwd=tmp_path), 2)
    assert "--agents: " in out and words in out, out
    assert HUGE not in out and "players ·" not in out  # cut short; nothing was played


@pytest.mark.parametrize("option", [("--seed", HUGE), ("--seed", "٣"), ("--players", "٢"),
                                    ("--seed", "1_000"), ("--players", BIG)])
def test_item5_numbers_on_the_command_line_are_ascii_and_bounded(option, tmp_path):
    out = refused(rulebook("play", str(TINY), "--agents", "random", *option, cwd=tmp_path), 2)
    assert f"Invalid value for '{option[0]}" in out, out
    assert HUGE not in out and "players ·" not in out


def _record(tmp_path: Path) -> dict:
    proc = rulebook("play", str(TINY), "-p", "2", "--seed", "4", "--agents", "random",
                    "--no-log", "--save", "rec.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads((tmp_path / "rec.json").read_text(encoding="utf-8"))


def test_item5_a_record_seed_of_5000_digits_is_placed(tmp_path):
    text = json.dumps(_record(tmp_path), indent=1).replace('"seed": 4', f'"seed": {HUGE}')
    (tmp_path / "bad.json").write_text(text, encoding="utf-8")
    line = text[:text.index(HUGE)].count("\n") + 1
    for args in (["replay", "bad.json", "--ruleset", str(TINY)],
                 ["play", str(TINY), "--resume", "bad.json"]):
        out = refused(rulebook(*args, cwd=tmp_path), 1)
        assert f"bad.json:{line}:10: error: not a valid record" in out, out
        assert "thousands of digits" in out and "set_int_max_str_digits" not in out, out


# --------------------------------------------------- item 5: names longer than allowed
@pytest.mark.parametrize("args", [
    ["validate", LONG], ["validate", "RULES", "--mod", LONG], ["cards", LONG],
    ["cards", "RULES", "--mod", LONG], ["compile", LONG], ["compile", "RULES", "--out", LONG],
    ["test", LONG], ["test", "RULES", "--mod", LONG], ["play", LONG],
    ["play", "RULES", "--save", LONG, "--agents", "random"], ["play", "RULES", "--resume", LONG],
    ["play", "RULES", "--mod", LONG], ["replay", LONG], ["replay", "rec.json", "--ruleset", LONG],
    ["schema", "--out", LONG], ["docs", "--out", LONG],
    ["simulate", LONG], ["simulate", "RULES", "--mod", LONG],
    ["validate", ("d" * 200 + "/") * 30 + "f.yaml"],
], ids=lambda args: " ".join(a if len(a) < 20 else "LONG" for a in args))
def test_item5_a_name_longer_than_the_system_allows_is_a_usage_error(args, tmp_path):
    (tmp_path / "rec.json").write_text("{}", encoding="utf-8")
    args = [str(TINY) if a == "RULES" else a for a in args]
    out = refused(rulebook(*args, cwd=tmp_path), 2)
    assert "the name is longer than this system allows" in out, out
    assert "… (" in out and LONG not in out  # the name quoted cut short


@pytest.mark.parametrize("include", [LONG, f"sub/{LONG}", f"sub/{'d' * 300}/cards.yaml"])
def test_item5_an_include_longer_than_the_system_allows_is_placed(include, game):
    (game / "sub").mkdir()
    manifest = game / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8").replace(
        "include: [components.yaml, flow.yaml, cards.yaml]",
        f"include: [components.yaml, flow.yaml, cards.yaml, '{include}']")
    manifest.write_text(text, encoding="utf-8")
    line = text[:text.index(include)].count("\n") + 1
    out = refused(rulebook("validate", "game", cwd=game.parent), 1)
    assert f"game/ruleset.yaml:{line}:51: error[RB403]: included file" in out, out
    assert "the name is longer than this system allows" in out, out
    assert include not in out.splitlines()[0]  # the message quotes it cut short


def test_item5_a_record_naming_a_mod_longer_than_the_system_allows_is_placed(tmp_path):
    record = _record(tmp_path)
    record["mods"] = [LONG]
    text = json.dumps(record, indent=1)
    (tmp_path / "bad.json").write_text(text, encoding="utf-8")
    line = text[:text.index('"mods"')].count("\n") + 1
    out = refused(rulebook("play", str(TINY), "--resume", "bad.json", cwd=tmp_path), 1)
    assert f"bad.json:{line}:" in out and "the name is longer than this system allows" in out


# --------------------------------------------------------------- item 5: named pipes
@FIFOS
@pytest.mark.parametrize("args", [["replay", "pipe.json", "--ruleset", "RULES"],
                                  ["play", "RULES", "--resume", "pipe.json"]])
def test_item5_a_named_pipe_given_as_a_record_is_refused_without_waiting(args, tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    args = [str(TINY) if a == "RULES" else a for a in args]
    out = refused(rulebook(*args, cwd=tmp_path, timeout=30), 1)
    assert "pipe.json:1:1: error: cannot read the record: this is neither a regular file " \
           "nor a folder (a pipe or a device?)" in out, out


@FIFOS
@pytest.mark.parametrize("command", ["validate", "test", "play"])
def test_item5_a_named_pipe_given_as_a_mod_is_refused_without_waiting(command, tmp_path):
    os.mkfifo(tmp_path / "mod.yaml")
    out = refused(rulebook(command, str(TINY), "--mod", "mod.yaml", cwd=tmp_path,
                           timeout=30), 2)
    assert "mod file 'mod.yaml': this is neither a regular file nor a folder" in out, out


@FIFOS
def test_item5_a_named_pipe_among_the_scenario_files_is_refused_without_waiting(game):
    os.mkfifo(game / "scenarios" / "pipe.yaml")
    for command in ("validate", "test"):
        out = refused(rulebook(command, "game", cwd=game.parent, timeout=30), 1)
        assert "game/scenarios/pipe.yaml:1:1: error[RB100]: cannot read file: this is " \
               "neither a regular file nor a folder" in out, (command, out)


@FIFOS
def test_item5_a_named_pipe_included_by_a_ruleset_is_refused_without_waiting(game):
    (game / "cards.yaml").unlink()
    os.mkfifo(game / "cards.yaml")
    out = refused(rulebook("validate", "game", cwd=game.parent, timeout=30), 1)
    assert "error[RB403]: included file 'cards.yaml' is not read: this is neither a regular " \
           "file nor a folder" in out, out


@FIFOS
@pytest.mark.parametrize("args, code", [(["validate", "game"], 1), (["play", "game"], 2),
                                        (["test", "game"], 2), (["cards", "game"], 2),
                                        (["play", "game/ruleset.yaml"], 2)])
def test_item5_a_named_pipe_as_a_ruleset_manifest_is_refused_without_waiting(args, code, game):
    (game / "ruleset.yaml").unlink()
    os.mkfifo(game / "ruleset.yaml")
    out = refused(rulebook(*args, cwd=game.parent, timeout=30), code)
    assert "game/ruleset.yaml" in out and "neither a regular file nor a" in out, out


# ------------------------------------------------- item 5: a record's agent budgets
@pytest.mark.parametrize("agents, seat, words", [
    (["random", "ismcts:seconds=3600"], 2, "whose seconds is 3600, more than a record may "
                                          "ask for (at most 5)"),
    (["ismcts:iterations=1000000", "random"], 1, "whose iterations is 1,000,000"),
    (["random", "greedy:rollouts=1000"], 2, "whose rollouts is 1,000"),
])
def test_item5_resume_refuses_an_agent_budget_the_record_asks_for(agents, seat, words,
                                                                  tmp_path):
    record = _record(tmp_path)
    record.update(agents=agents, final_hash=None, scores=None)
    text = json.dumps(record, indent=1)
    (tmp_path / "bad.json").write_text(text, encoding="utf-8")
    line = text[:text.index(f'"{agents[seat - 1]}"')].count("\n") + 1
    out = refused(rulebook("play", str(TINY), "--resume", "bad.json", cwd=tmp_path), 2)
    assert f"bad.json:{line}:3: seat {seat} of the record was played by" in out, out
    assert words in out and "say who plays each seat with --agents" in out, out
    # the same agent with its usual budget is offered, and giving --agents plays on
    kinds = list(agents)
    kinds[seat - 1] = kinds[seat - 1].split(":")[0]
    assert f"--agents {','.join(kinds)}" in out, out
    proc = rulebook("play", str(TINY), "--resume", "bad.json", "--agents", "random",
                    "--no-log", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_item5_a_record_budget_past_any_agent_bound_is_a_bad_record(tmp_path):
    """ismcts:iterations=10**9 is past what even --agents takes: the record itself is bad."""
    record = _record(tmp_path)
    record.update(agents=["random", f"ismcts:iterations={10 ** 9}"], final_hash=None,
                  scores=None)
    text = json.dumps(record, indent=1)
    (tmp_path / "bad.json").write_text(text, encoding="utf-8")
    line = text[:text.index("ismcts:")].count("\n") + 1
    out = refused(rulebook("play", str(TINY), "--resume", "bad.json", cwd=tmp_path), 1)
    assert f"bad.json:{line}:3: error: item 2 of \"agents\" is not a usable agent spec" in out
    assert "iterations must be at most 1000000" in out, out


def test_item5_a_budget_within_what_a_record_may_ask_is_seated_again(tmp_path):
    record = _record(tmp_path)
    record.update(agents=["random", "ismcts:iterations=20"], final_hash=None, scores=None)
    (tmp_path / "ok.json").write_text(json.dumps(record), encoding="utf-8")
    proc = rulebook("play", str(TINY), "--resume", "ok.json", "--no-log", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "agents random, ismcts:iterations=20" in proc.stdout


def test_item5_the_resume_command_names_a_budget_a_record_cannot_ask_for(tmp_path):
    """A game saved with a large budget says how to resume it with that budget."""
    proc = rulebook("play", str(TINY), "-p", "2", "--seed", "2", "--agents",
                    "human,greedy:rollouts=20", "--save", "g.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # the input ended at once
    assert "resume with: rulebook play" in proc.stdout, proc.stdout
    hint = proc.stdout.split("resume with: ", 1)[1].splitlines()[0]
    assert hint.endswith("--resume g.json --agents human,greedy:rollouts=20"), hint


@pytest.mark.parametrize("answer", ["²", "٣", HUGE])
def test_item5_a_persons_answer_in_other_digits_is_refused_and_the_game_kept(answer, tmp_path):
    """A person (or a script on standard input) answering a prompt with '²' or '٣'."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play", str(TINY), "-p", "2",
                           "--seed", "1", "--agents", "human,random", "--save", "g.json"],
                          cwd=tmp_path, env=env, input=answer + "\n", capture_output=True,
                          text=True, timeout=60)
    out = refused(proc, 1)
    assert "<stdin>:1:1: error: line 1 of the answers" in out, out
    assert ("write the number with the digits 0 to 9" if answer != HUGE
            else "choose a number from 1 to 4") in out, out
    assert HUGE not in out and (tmp_path / "g.json").is_file()


# -------------------------------------------------------------- item 11: JSON output
# C1 controls (U+009B is a one-byte CSI, U+0085 a next-line), DEL, direction marks,
# embeddings, overrides and isolates, a line separator and an Arabic letter mark
TERMINAL_ACTS_ON = "\x9b2J\x85\x7f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069" \
                   "\u200e\u200f\u061c\u2028\u2029\x1b[31m"


def _no_raw(out: str) -> None:
    for ch in TERMINAL_ACTS_ON:
        if ch not in "[23Jm1":
            assert ch not in out, (repr(ch), repr(out[:400]))


def test_item11_json_text_escapes_what_a_terminal_acts_on_and_means_the_same():
    from rulebook_games.safe_text import json_text
    value = {"name": "Comet " + TERMINAL_ACTS_ON + " é ß 火", f"k{TERMINAL_ACTS_ON}": [1, "\t\n"]}
    text = json_text(value, indent=2)
    _no_raw(text)
    assert json.loads(text) == value
    assert "é ß 火" in text and "\\u009b2J" in text and "\\u202e" in text


def _hostile_card(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(TINY, game)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "    name: Coupon\n", f"    name: {json.dumps(TERMINAL_ACTS_ON)}\n", 1), encoding="utf-8")
    return game


def test_item11_cards_as_json_escape_controls_and_direction_marks(tmp_path):
    game = _hostile_card(tmp_path)
    proc = rulebook("cards", "game", "coupon", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _no_raw(proc.stdout)
    (card,) = json.loads(proc.stdout)["cards"]
    assert card["name"] == TERMINAL_ACTS_ON  # the same text, only written with escapes


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_item11_validate_documents_escape_controls_and_direction_marks(fmt, tmp_path):
    """A rule file whose very name holds them: diagnostics name their file as it is."""
    game = tmp_path / "game"
    shutil.copytree(TINY, game)
    manifest = game / "ruleset.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "cards.yaml]", "cards.yaml, 'extra/*.yaml']"), encoding="utf-8")
    (game / "extra").mkdir()
    name = f"evil{TERMINAL_ACTS_ON}.yaml"
    (game / "extra" / name).write_text("kind: cards\ncards: 7\n", encoding="utf-8")
    proc = rulebook("validate", "game", "--format", fmt, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    _no_raw(proc.stdout)
    document = json.loads(proc.stdout)
    shown = json.dumps(document, ensure_ascii=False)
    assert name in shown or name.replace(" ", "%20") in shown or "evil" in shown, proc.stdout
    if fmt == "json":
        (diag,) = document["diagnostics"]
        assert diag["file"] == f"game/extra/{name}"  # the same name, only written escaped


def test_item11_a_usage_error_document_escapes_a_hostile_file_name(tmp_path):
    proc = rulebook("validate", f"no{TERMINAL_ACTS_ON}.yaml", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 2
    _no_raw(proc.stdout)
    assert TERMINAL_ACTS_ON in json.loads(proc.stdout)["error"]["message"]


# ------------------------------------------- item 12: validate with no path, or a folder
def _broken(folder: Path) -> Path:
    """A copy of the tiny ruleset with an unknown resource in a card, at cards.yaml:29:45."""
    shutil.copytree(TINY, folder)
    with open(folder / "cards.yaml", "a", encoding="utf-8") as fh:
        fh.write("  - {id: zz, name: Z, cost: 1, play: gain 2 goold}\n")
    return folder


@pytest.mark.slow
def test_item12_validate_with_no_path_checks_the_current_folder_and_fails_on_a_broken_ruleset(
        tmp_path):
    _broken(tmp_path / "games" / "mine")
    for cwd, shown in [(tmp_path, "games/mine/cards.yaml"), (tmp_path / "games", "mine/cards.yaml"),
                       (tmp_path / "games" / "mine", "cards.yaml")]:
        for args in (["validate"], ["validate", "."]):
            out = refused(rulebook(*args, "-q", cwd=cwd), 1)
            assert f"{shown}:29:45: error[RB301]: unknown resource 'goold'" in out, (cwd, out)


def test_item12_a_folder_inside_a_ruleset_checks_that_ruleset(tmp_path):
    game = _broken(tmp_path / "mine")
    (game / "scenarios").mkdir()
    out = refused(rulebook("validate", "-q", cwd=game / "scenarios"), 1)
    assert "cards.yaml:29:45: error[RB301]" in out, out


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_item12_a_folder_with_nothing_to_check_is_a_one_line_usage_error(fmt, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "ci.yaml").write_text("name: checks\non: [push]\n", encoding="utf-8")
    _broken(tmp_path / ".hidden" / "game")  # hidden folders are not looked in
    proc = rulebook("validate", "--format", fmt, cwd=tmp_path)
    out = refused(proc, 2)
    if fmt == "text":
        assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1, out
        assert proc.stderr.startswith("Error: nothing to check in the current folder"), out
    else:
        assert "nothing to check" in json.loads(proc.stdout)["error"]["message"]
    out = refused(rulebook("validate", "notes", cwd=tmp_path), 2)
    assert "nothing to check in 'notes'" in out


def test_item12_the_walk_skips_hidden_and_environment_folders(tmp_path):
    shutil.copytree(TINY, tmp_path / "games" / "good")
    for skipped in [".git/x", ".venv/lib/x", "node_modules/pkg", "venv/x", "__pycache__/x",
                    "build/x", "dist/x", "any_env_name/lib/x"]:
        _broken(tmp_path / skipped / "game")
    (tmp_path / "any_env_name" / "pyvenv.cfg").write_text("home = /usr\n", encoding="utf-8")
    proc = rulebook("validate", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "tiny" in proc.stdout and "ok" in proc.stdout


def test_item12_the_walk_checks_mods_against_their_ruleset(tmp_path):
    shutil.copytree(TINY, tmp_path / "game")
    (tmp_path / "game" / "mods").mkdir()
    (tmp_path / "game" / "mods" / "typo.yaml").write_text(
        "kind: mod\nid: typo\ntarget: tiny\nchanges:\n  - {op: remove, in: cards, id: cupon}\n",
        encoding="utf-8")
    (tmp_path / "loose.yaml").write_text(
        "kind: mod\nid: lost\ntarget: tiny_game\nchanges: []\n", encoding="utf-8")
    out = refused(rulebook("validate", "-q", cwd=tmp_path), 1)
    assert "game/mods/typo.yaml:5:33: error[RB500]: no entry 'cupon' in cards" in out, out
    assert "loose.yaml:3:9: error[RB500]: this mod targets 'tiny_game'" in out, out


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_item12_the_walk_does_not_follow_links_out_of_the_folder(tmp_path):
    outside = tmp_path / "outside"
    _broken(outside / "game")
    (outside / "secret.yaml").write_text("kind: mod\nid: s\ntarget: SECRET-7f3a\nchanges: []\n",
                                         encoding="utf-8")
    repo = tmp_path / "repo"
    shutil.copytree(TINY, repo / "game")
    (repo / "linked_game").symlink_to(outside / "game")
    (repo / "linked_mod.yaml").symlink_to(outside / "secret.yaml")
    (repo / "game" / "loop").symlink_to(repo)  # a link back up: walked once
    proc = rulebook("validate", cwd=repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "SECRET" not in proc.stdout + proc.stderr and "goold" not in proc.stdout


# ------------------------------------------------ item 12: closing the terminal saves
def _play_on_a_terminal(tmp_path: Path):
    """``rulebook play`` with a pseudo-terminal as its controlling terminal, at its 2nd prompt.

    Returns the process and the terminal's master side; closing the master is
    closing the terminal window: the kernel hangs the game up (SIGHUP).
    """
    import fcntl
    import pty
    import select
    import termios
    import time
    master, slave = pty.openpty()

    def own_terminal():  # in the child, after setsid: this terminal becomes its own
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        for name in ("SIGINT", "SIGHUP", "SIGTERM"):  # as a person's terminal gives them
            import signal
            signal.signal(getattr(signal, name), signal.SIG_DFL)

    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "rulebook_games", "play", str(TINY), "-p", "2",
                             "--seed", "5", "--agents", "human,greedy"], cwd=tmp_path, env=env,
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                            preexec_fn=own_terminal)
    os.close(slave)
    seen, prompts, end = b"", 0, time.monotonic() + 120
    while prompts < 2:
        assert time.monotonic() < end and proc.poll() is None, seen.decode(errors="replace")
        if select.select([master], [], [], 1)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            seen += chunk
            if seen.rstrip().endswith(b">"):
                prompts += 1
                seen = b""
                if prompts == 1:
                    os.write(master, b"1\n")
    return proc, master


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals and signals")
@pytest.mark.parametrize("how", ["close the terminal", "close it, and the shell hangs up too"])
def test_item12_closing_the_terminal_saves_the_game_and_it_resumes(how, tmp_path):
    import signal
    import time
    proc, master = _play_on_a_terminal(tmp_path)
    try:
        os.close(master)  # the window is closed: the kernel sends SIGHUP
        if how != "close the terminal":
            # the shell, hung up too, sends its jobs SIGHUP again, while the game saves
            for _ in range(300):
                try:
                    os.kill(proc.pid, signal.SIGHUP)
                except ProcessLookupError:
                    break
                time.sleep(0.002)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    saved = tmp_path / "tiny-5.record.json"
    assert saved.is_file(), sorted(p.name for p in tmp_path.iterdir())
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    from rulebook_games.play.record import Record
    record = Record.load(saved)
    assert len(record.decisions) >= 1 and record.final_hash is None
    # and it carries on: the recorded answers are played again, then the script's
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play", str(TINY), "--resume",
                           saved.name], cwd=tmp_path, input="1\n" * 200, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "decisions · final state #" in proc.stdout, proc.stdout


# ------------------------------------------- item 5: scenario files, fuzzed in-process
def _hostile_scenarios():
    from hypothesis import strategies as st
    numbers = st.one_of(st.integers(-3, 6), st.integers(-(10 ** 30), 10 ** 30),
                        st.sampled_from([10 ** 400, 2 ** 63, -(2 ** 63), 10 ** 6]))
    digits = st.one_of(numbers.map(str), st.sampled_from(
        ["²", "٣", "1_0", " 1", "1\n", "", "+1", "-0", "٣٣", "७", "1e3", HUGE, "0x1"]))
    seat_map = st.dictionaries(digits, st.just({"stock": {"gold": 1}}), max_size=3)
    step = st.one_of(
        st.fixed_dictionaries({"expect": st.just(True), "as": numbers}),
        st.fixed_dictionaries({"advance": st.sampled_from(["turn", "round", "game"]),
                               "agents": st.one_of(
                                   st.sampled_from(["random", "greedy", "passive"]),
                                   digits.map(lambda d: f"random:{d}"),
                                   st.dictionaries(digits, st.sampled_from(
                                       ["random", "passive", "random:²"]), max_size=3))}),
        st.fixed_dictionaries({"result": st.fixed_dictionaries(
            {"scores": st.dictionaries(digits, numbers, max_size=2),
             "winners": st.lists(numbers, max_size=2)})}),
        st.fixed_dictionaries({"action": st.just("earn"), "decider": numbers}))
    position = st.fixed_dictionaries({}, optional={
        "turn": numbers, "players": seat_map, "passed": st.lists(numbers, max_size=2),
        "turn_order": st.lists(numbers, max_size=3)})
    return st.fixed_dictionaries(
        {"id": st.just("s"), "players": st.one_of(st.integers(1, 4), numbers),
         "steps": st.lists(step, min_size=1, max_size=3)},
        optional={"seed": numbers, "position": position})


def test_item5_no_scenario_file_of_hostile_numbers_raises(tmp_path_factory):
    """Any such scenario file loads to positioned errors or runs; nothing raises or hangs."""
    import yaml
    from hypothesis import HealthCheck, given, settings

    from rulebook_games import load_ruleset
    from rulebook_games.scenarios.files import load_scenarios, run_scenario
    from rulebook_games.errors import Diagnostics
    rs = load_ruleset(str(TINY))
    folder = tmp_path_factory.mktemp("fuzz")

    @settings(max_examples=150, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(_hostile_scenarios())
    def check(scenario):
        path = folder / "s.yaml"
        path.write_text(yaml.safe_dump({"kind": "scenarios", "scenarios": [scenario]},
                                       allow_unicode=True, width=10 ** 6), encoding="utf-8")
        diags = Diagnostics()
        for sc in load_scenarios(rs, path, diags):
            run_scenario(rs, sc)  # passes or fails with a message; never raises
        for d in diags:
            assert d.span is not None and d.span.line >= 1, d.headline()
    check()
