"""Issue 24, item 12, "every game finishes": agents that always answer the same way.

An action that fails while it runs is rolled back and its seat asked again. A
ruleset whose action always fails after a choice inside it (here a small
casino: gamble any number of coins, then the house always wins) trapped the
`first` kind of agent for ever: the same action offered, the same number
chosen, the same refusal. Through the real command line, such games must now
end with a result (exit 0, no error in the results), and a saved record of one
must replay to the same final state.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CASINO = {
    "ruleset.yaml": """\
kind: ruleset
id: casino
name: Casino
players: {min: 1, max: 3}
include: [components.yaml, flow.yaml]
""",
    "components.yaml": """\
kind: components
resources:
  - {id: coin, plural: coins}
""",
    "flow.yaml": """\
kind: flow
rounds: {count: 2}
phases:
  - id: play
    turns: {style: STYLE, actions: 1}
actions:
ACTIONS
scoring:
  - {id: coins, name: Coins, points: stock(coin)}
""",
}
GAMBLE = """\
  - id: gamble
    name: Gamble
    do: |
      let n = choose_number(0, 5)
      gain n coin
      require stock(coin) > 100 else "the house always wins"
"""
WORK = """\
  - id: work
    name: Work
    once_per: round
    do: gain 1 coin
"""
# the agent, and the casino that tempts it: in action rounds 'pass' is the last option,
# so the last-answer agent is tempted where turns are fixed and gambling is listed last
SETUPS = {"first": ("action_rounds", GAMBLE + WORK), "last": ("fixed", WORK + GAMBLE)}


def rulebook(*args, cwd: Path, timeout: int = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run([sys.executable, "-m", "rulebook_games", *args], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


def clean(proc: subprocess.CompletedProcess) -> str:
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "internal error" not in out, out
    return out


def make_casino(tmp_path: Path, agent: str) -> Path:
    style, actions = SETUPS[agent]
    folder = tmp_path / "casino"
    folder.mkdir()
    for name, text in CASINO.items():
        text = text.replace("STYLE", style).replace("ACTIONS\n", actions)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("agent", ["first", "last"])
def test_item12_an_action_that_always_fails_does_not_trap_a_same_answer_agent(tmp_path,
                                                                               agent):
    casino = make_casino(tmp_path, agent)
    proc = rulebook("simulate", str(casino), "-n", "3", "-p", "2", "--agents", agent,
                    "--out", "results.jsonl", cwd=tmp_path)
    clean(proc)
    lines = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 3 and all(line["error"] is None for line in lines)
    assert all(line["finished"] for line in lines)
    # each seat worked once a round (2 coins each): gambling was refused, not looped on.
    # At each position gambling is offered, each of its 6 amounts is tried once at most
    # (6 choices of the action, 6 of the amount); each seat meets at most 2 such
    # positions a round (before working and after), in 2 rounds
    assert all(line["scores"] == [2, 2] for line in lines)
    assert all(line["decisions"] <= 2 * 2 * 2 * (6 + 6) for line in lines)


@pytest.mark.slow
def test_item12_a_record_with_refused_actions_replays_to_the_same_state(tmp_path):
    casino = make_casino(tmp_path, "first")
    clean(rulebook("play", str(casino), "-p", "2", "--agents", "first,first", "--no-log",
                   "--save", "game.json", cwd=tmp_path))
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["decisions"]
    out = clean(rulebook("replay", "game.json", "--ruleset", str(casino), cwd=tmp_path))
    assert "final state matches" in out


def test_item12_terraforming_mars_with_first_answer_agents_finishes(tmp_path):
    proc = rulebook("simulate", "terraforming_mars", "-n", "1", "-p", "2", "--agents", "first",
                    "--out", "results.jsonl", cwd=tmp_path)
    clean(proc)
    (line,) = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert line["error"] is None and line["finished"]
    assert line["decisions"] < 5_000  # (it looped for 50,000 steps and more)


# a record the engine made before it remembered refusals (format 1): the casino, seat
# agents random, with gambles refused and the same decisions asked again after them
OLD_RECORD = Path(__file__).parent / "fixtures" / "records" / "casino-format-1.json"


def test_item12_a_record_made_before_refusals_were_remembered_still_replays(tmp_path):
    casino = make_casino(tmp_path, "first")
    shutil.copy(OLD_RECORD, tmp_path / "old.json")
    out = clean(rulebook("replay", "old.json", "--ruleset", str(casino), cwd=tmp_path))
    assert "final state matches" in out
    # read as the new format, the same answers make another game: the format matters
    data = json.loads(OLD_RECORD.read_text())
    data["format"] = "rulebook-record/2"
    (tmp_path / "relabelled.json").write_text(json.dumps(data))
    proc = rulebook("replay", "relabelled.json", "--ruleset", str(casino), cwd=tmp_path)
    assert proc.returncode != 0 and "Traceback" not in proc.stdout + proc.stderr


def test_item12_an_old_save_resumed_is_played_on_and_saved_as_it_was_made(tmp_path):
    casino = make_casino(tmp_path, "first")
    data = json.loads(OLD_RECORD.read_text())
    data.update(decisions=data["decisions"][:8], final_hash=None, scores=None)
    (tmp_path / "save.json").write_text(json.dumps(data))
    clean(rulebook("play", str(casino), "--resume", "save.json", "--agents", "random,random",
                   "--no-log", cwd=tmp_path))
    saved = json.loads((tmp_path / "save.json").read_text())
    assert saved["format"] == "rulebook-record/1" and saved["decisions"][:8] == \
        data["decisions"] and saved["final_hash"]
    out = clean(rulebook("replay", "save.json", "--ruleset", str(casino), cwd=tmp_path))
    assert "final state matches" in out
