"""A `human` seat driven by a file or a pipe: `rulebook play ... --agents human,random < answers`.

The answers are made here by an agent that plays through the engine and
writes each of its answers as a person would type it (an option's number
from 1, or the number of a range). Fed to the real command line on standard
input, they must play the same game: the same decisions in the saved
record, and a record that replays with a matching final hash.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent, RandomAgent, agent_seed
from rulebook_games.play.session import build_game, run
from rulebook_games.load.ruleset import shipped_rulesets_dir

GAME = "legacy_gears_of_time"
SEED = 3


class _Typist(Agent):
    """Answers at random and keeps each answer as the line a person would type."""

    wants_view = False

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.lines: list[str] = []

    def decide(self, decision, view, game):
        if decision.is_range:
            answer = self.rng.randint(decision.low, decision.high)
            self.lines.append(str(answer))
        else:
            answer = self.rng.randrange(len(decision.options))
            self.lines.append(str(answer + 1))
        return answer


def _expected_game(both: bool = False):
    """The game a script plays, played here through the engine: its answers and its result.

    With ``both`` the script answers for both seats (``--agents human,human``).
    """
    rs = load_ruleset(shipped_rulesets_dir() / GAME)
    typist = _Typist(99)
    second = typist if both else RandomAgent(agent_seed(SEED, 1))
    game = build_game(rs, 2, SEED, ["human", "human" if both else "random"],
                      live_agents=[typist, second])
    result = run(game)
    return typist.lines, list(game.record), result


def play(cwd, answers: str, *extra):
    return subprocess.run([sys.executable, "-m", "rulebook_games", "play", GAME, "-p", "2",
                           "--agents", "human,random", "--seed", str(SEED), *extra],
                          cwd=cwd, input=answers, capture_output=True, text=True, timeout=300)


def test_a_script_from_a_file_plays_to_the_end_and_its_record_replays(tmp_path):
    lines, decisions, result = _expected_game()
    script = tmp_path / "answers.txt"
    script.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    with script.open("rb") as answers:
        proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play", GAME, "-p", "2",
                               "--agents", "human,random", "--seed", str(SEED),
                               "--save", "game.json"], cwd=tmp_path, stdin=answers,
                              capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Final scores" in proc.stdout
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["decisions"] == decisions
    assert record["final_hash"] == result.final_hash
    # the transcript shows each answer after its prompt
    echoed = [line[2:] for line in proc.stdout.splitlines() if line.startswith("> ")]
    assert echoed == lines
    again = subprocess.run([sys.executable, "-m", "rulebook_games", "replay", "game.json"],
                           cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"final state matches #{result.final_hash[:12]}" in again.stdout


@pytest.mark.slow
def test_a_script_that_ends_early_saves_and_the_rest_of_it_finishes_the_game(tmp_path):
    # both seats are scripted: a random agent that takes over a resumed game starts afresh
    lines, decisions, result = _expected_game(both=True)
    half = len(lines) // 2
    first = subprocess.run([sys.executable, "-m", "rulebook_games", "play", GAME, "-p", "2",
                            "--agents", "human,human", "--seed", str(SEED)], cwd=tmp_path,
                           input="".join(f"{line}\n" for line in lines[:half]),
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    saved = re.search(r"end of input; saved after (\d+) decisions? to (\S+)", first.stdout)
    assert saved, first.stdout
    resume = re.search(r"^resume with: (.+)$", first.stdout, re.M)
    assert resume and resume.group(1) == (f"rulebook play {GAME} --resume {saved.group(2)}")
    record = json.loads((tmp_path / saved.group(2)).read_text())
    assert record["final_hash"] is None
    assert int(saved.group(1)) == half
    assert record["decisions"] == decisions[:half]
    rest = subprocess.run([sys.executable, "-m", "rulebook_games", "play", GAME, "--resume",
                           saved.group(2)], cwd=tmp_path,
                          input="".join(f"{line}\n" for line in lines[half:]),
                          capture_output=True, text=True, timeout=300)
    assert rest.returncode == 0, rest.stdout + rest.stderr
    finished = json.loads((tmp_path / saved.group(2)).read_text())
    assert finished["decisions"] == decisions
    assert finished["final_hash"] == result.final_hash


def test_an_illegal_answer_names_its_line_and_decision_and_the_game_is_kept(tmp_path):
    lines, decisions, _ = _expected_game()
    good = lines[:3]
    # comments and blank lines are skipped but counted: the bad answer is on line 7
    script = f"# opening\n{good[0]}\n\n{good[1]}\n{good[2]}\n# now a wrong one\n99\n1\n"
    proc = play(tmp_path, script, "--save", "kept.json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    error = re.search(r"^<stdin>:7:1: error: line 7 of the answers, '99', does not answer "
                      r"decision (\d+) \((.+)\): (.+)$", proc.stdout, re.M)
    assert error, proc.stdout
    record = json.loads((tmp_path / "kept.json").read_text())
    # the refused decision is the one after those already answered, and none is lost
    assert int(error.group(1)) == len(record["decisions"]) + 1
    assert record["decisions"] == decisions[:len(record["decisions"])]
    assert len(record["decisions"]) >= 3 and record["final_hash"] is None
    assert f"resume with: rulebook play {GAME} --resume kept.json" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_an_answer_by_the_start_of_a_label_is_echoed_with_the_option_chosen(tmp_path):
    rs = load_ruleset(shipped_rulesets_dir() / GAME)
    first = []

    class _First(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            first.append(decision)
            raise KeyboardInterrupt

    game = build_game(rs, 2, SEED, ["human", "random"],
                      live_agents=[_First(), RandomAgent(agent_seed(SEED, 1))])
    try:
        run(game)
    except KeyboardInterrupt:
        pass
    assert not first[0].is_range
    option = first[0].options[-1].label
    proc = play(tmp_path, option[:len(option) - 1].lower() + "\n")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"> {option[:len(option) - 1].lower()}\n  → {option}" in proc.stdout


def test_bytes_that_are_not_text_are_a_refused_answer_at_their_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play", GAME, "-p", "2",
                           "--agents", "human,random", "--seed", str(SEED)], cwd=tmp_path,
                          input=b"\n\xff\xfe\x1b[2J\n", capture_output=True, timeout=300)
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == 1, out + proc.stderr.decode("utf-8")
    assert "<stdin>:2:1: error: line 2 of the answers, '\ufffd\ufffd\\x1b[2J'" in out
    assert "\x1b" not in out  # the escape is shown, not sent to the terminal
    assert "resume with: rulebook play" in out


def test_an_over_long_answer_is_refused_at_its_line_and_quoted_short(tmp_path):
    proc = play(tmp_path, "# a comment\n" + "1" * 20_000 + "\n1\n")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    error = next(l for l in proc.stdout.splitlines() if l.startswith("<stdin>:"))
    assert error.startswith("<stdin>:2:1: error: line 2 of the answers, '" + "1" * 57 + "…'")
    assert len(error) < 300
