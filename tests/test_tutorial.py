"""The tutorial builds a game that works, step by step.

docs/tutorial.md shows every file of the Lantern Row ruleset in fenced blocks
whose info string names the file and the step (```yaml file=flow.yaml step=2).
This test takes them out in order and writes each step's folder: the files of
the earlier steps, with this step's blocks added or replacing a file shown
before. Each step must pass `rulebook validate` (exit 0; the house rules of the
last step each layered over the game with --mod), the step that adds the
scenarios must pass `rulebook test`, the finished game must play to its end with
random agents, without errors, and the last step's files must be exactly the
shipped ruleset's, so the tutorial and rulesets/lantern_row cannot drift apart
(the ruleset's README.md is prose about the game and is not in the tutorial).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"
SHIPPED = ROOT / "rulesets" / "lantern_row"
BLOCK = re.compile(r"^```\w+ file=(\S+) step=(\d+)\n(.*?)^```$", re.M | re.S)


def blocks() -> list[tuple[int, str, str]]:
    return [(int(step), name, text)
            for name, step, text in BLOCK.findall(TUTORIAL.read_text(encoding="utf-8"))]


def steps() -> dict[int, dict[str, str]]:
    """Each step's whole folder: every file as it stands at the end of that step."""
    tree: dict[str, str] = {}
    out: dict[int, dict[str, str]] = {}
    for step, name, text in sorted(blocks(), key=lambda b: b[0]):
        tree[name] = text
        out[step] = dict(tree)
    return out


def write(folder: Path, files: dict[str, str]) -> Path:
    game = folder / "rulesets" / "lantern_row"
    for name, text in files.items():
        path = game / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return game


def rulebook(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebook_games", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def shipped_files() -> dict[str, str]:
    # (the learned evaluation is trained, not written: the tutorial says how to make it)
    return {p.relative_to(SHIPPED).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(SHIPPED.rglob("*")) if p.is_file() and p.name != "README.md"
            and not p.name.endswith("learned.json")}


def test_the_tutorial_has_its_steps_in_order():
    found = blocks()
    assert [s for s, _, _ in found] == sorted(s for s, _, _ in found), "blocks out of step order"
    assert sorted(steps()) == [1, 2, 3, 4, 5, 10, 11]
    assert {name for _, name, _ in found} == set(shipped_files())


@pytest.mark.slow
@pytest.mark.parametrize("step", sorted(steps()))
def test_each_step_validates(step, tmp_path):
    files = steps()[step]
    write(tmp_path, files)
    proc = rulebook("validate", "rulesets/lantern_row", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # the house rules of step 10, each layered over the game
    for name in sorted(n for n in files if n.startswith("mods/")):
        proc = rulebook("validate", "rulesets/lantern_row", "--mod", f"rulesets/lantern_row/{name}",
                        cwd=tmp_path)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_step_2_ends_after_the_first_hour_for_want_of_cards(tmp_path):
    # the tutorial says so: no cards yet, so the row is empty and the game ends
    write(tmp_path, steps()[2])
    proc = rulebook("simulate", "rulesets/lantern_row", "-n", "3", "--out", "r.jsonl",
                    cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    games = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [g["rounds"] for g in games] == [1, 1, 1]


def test_the_scenarios_pass(tmp_path):
    write(tmp_path, steps()[5])
    proc = rulebook("test", "rulesets/lantern_row", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"\b(\d+) passed, 0 failed", proc.stdout), proc.stdout
    assert int(re.search(r"(\d+) passed", proc.stdout).group(1)) >= 20


def test_the_finished_game_plays_to_its_end(tmp_path):
    write(tmp_path, steps()[max(steps())])
    proc = rulebook("simulate", "rulesets/lantern_row", "-n", "20", "-p", "2", "--seed", "1",
                    "--out", "results.jsonl", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    games = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(games) == 20
    assert all(g["error"] is None for g in games), [g["error"] for g in games if g["error"]]
    assert all(g["finished"] for g in games)
    assert all(1 <= g["rounds"] <= 12 for g in games)
    assert all(len(g["winners"]) >= 1 for g in games)


def test_the_last_step_is_the_shipped_ruleset():
    final = steps()[max(steps())]
    shipped = shipped_files()
    assert sorted(final) == sorted(shipped)
    for name in shipped:
        assert final[name] == shipped[name], f"docs/tutorial.md and rulesets/lantern_row/{name} differ"


def test_the_turn_shown_is_the_game_with_that_seed(tmp_path):
    # step 7 shows the start of seed 5 against the greedy agent, answered 6 then 1
    text = TUTORIAL.read_text(encoding="utf-8")
    step7 = text.split("## Step 7", 1)[1].split("\n## ", 1)[0]
    shown = re.search(r"```text\n(.*?)```", step7, re.S).group(1).splitlines()
    write(tmp_path, steps()[max(steps())])
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play", "rulesets/lantern_row",
                           "--agents", "human,greedy", "--seed", "5", "--save", "game.json"],
                          cwd=tmp_path, input="6\n1\n", capture_output=True, text=True, timeout=600)
    played = [line.rstrip() for line in proc.stdout.splitlines()]
    # the answers and the terminal's help line are what a person types and sees
    # only at a terminal; every other line is the game's own output
    checked = [line.rstrip() for line in shown
               if not line.startswith(">") and "type help" not in line]
    assert len(checked) > 20
    missing = [line for line in checked if line not in played]
    assert not missing, missing


def test_the_card_text_shown_is_what_cards_prints(tmp_path):
    text = TUTORIAL.read_text(encoding="utf-8")
    block = re.search(r"```text\n\$ rulebook cards (\S+) (.*?)\n(.*?)```", text, re.S)
    assert block, "step 3 shows the output of rulebook cards"
    write(tmp_path, steps()[max(steps())])
    names = re.findall(r'"[^"]+"|\S+', block.group(2))
    proc = rulebook("cards", block.group(1), *[n.strip('"') for n in names], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    printed = " ".join(proc.stdout.split())
    assert " ".join(block.group(3).split()) == printed


@pytest.mark.slow
def test_the_comparison_shown_is_what_compare_prints(tmp_path):
    # step 10 measures a house rule with compare, on the tutorial's own folder, the mod
    # named as the ruleset's mods/ folder has it; its heading is compare's own
    text = TUTORIAL.read_text(encoding="utf-8")
    step10 = text.split("## Step 10", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```text\n\$ rulebook compare (.*?)\n(.*?)```", step10, re.S)
    assert block, "step 10 shows the output of rulebook compare"
    args = block.group(1).split()
    assert args[0] == "rulesets/lantern_row" and args[args.index("--mod") + 1] == "rich_start"
    heading = next(line for line in block.group(2).splitlines() if "paired games" in line)
    write(tmp_path, steps()[max(steps())])
    games = args.index("-n") + 1
    args[games] = "20"  # fewer games than shown: the heading has the same form
    proc = rulebook("compare", *args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    def form(text):  # numbers aside, and however the terminal wrapped it
        return re.sub(r"\d+", "N", " ".join(text.split()))
    assert form(heading) in form(proc.stdout)
