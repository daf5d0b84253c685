"""Which weights played (issue 29): results files name the evaluation of each seat, and the
learned weights' file, sha256 and training; report and compare say it from the lines;
--resume refuses when the weights changed since.

Expectations come from the issue's part (a balance study can be reproduced: per seat's
agent, the evaluation, learned or written, and the weights file's identity: its path
relative to the ruleset, its sha256, the games and seed it was trained on; `report` and
`compare` say it; `--resume` refuses, positioned and clear, when the weights changed) and
docs/results.md.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.sim.results_file import LineProblem, check

from learned_helpers import copy_ruleset, weights



_copy = copy_ruleset


def _weights(rs, features: dict, **extra) -> dict:
    return weights(rs, features, **{"games": 40, "seed": 7, "players": 2, **extra})


def _cli(capsys, *args):
    from rulebook_games.cli import main
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


@pytest.fixture()
def folder(tmp_path):
    folder = _copy(tmp_path)
    rs = load_ruleset(str(folder))
    (folder / "learned.json").write_text(json.dumps(_weights(rs, {"evaluation": 1.0})))
    return folder


def test_each_line_names_what_each_seat_judged_by(folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code, text, err = _cli(capsys, "simulate", folder, "-n", "2", "--agents",
                           "greedy,random", "--out", out)
    assert code == 0, err
    sha = hashlib.sha256((folder / "learned.json").read_bytes()).hexdigest()
    for line in _lines(out):
        assert line["evaluations"] == [
            {"evaluation": "learned", "file": "learned.json", "sha256": sha, "players": 2,
             "games": 40, "seed": 7}, None]
        check(line, "r.jsonl:1")  # what is written reads back
    out2 = tmp_path / "w.jsonl"
    code, text, err = _cli(capsys, "simulate", folder, "-n", "1", "--agents",
                           "greedy:eval=written,ismcts:iterations=4:eval=written", "--out", out2)
    assert code == 0, err
    assert _lines(out2)[0]["evaluations"] == [{"evaluation": "written"}] * 2


def test_without_weights_the_agents_are_said_to_judge_by_the_written_evaluation(tmp_path,
                                                                                   capsys):
    folder = _copy(tmp_path)
    out = tmp_path / "r.jsonl"
    code, text, err = _cli(capsys, "simulate", folder, "-n", "1", "--agents", "trained",
                           "--out", out)
    assert code == 0, err
    assert _lines(out)[0]["evaluations"] == [{"evaluation": "written"}] * 2


def test_a_mods_own_weights_are_named_from_the_rulesets_folder(tmp_path, capsys):
    folder = _copy(tmp_path)
    mod = sorted((folder / "mods").glob("*.yaml"))[0]
    modded = load_ruleset(str(folder), [str(mod)])
    own = mod.with_name(mod.stem + ".learned.json")
    own.write_text(json.dumps(_weights(modded, {"round": 1.0},
                                       mods=[m["id"] for m in modded.mod_info])))
    out = tmp_path / "r.jsonl"
    code, text, err = _cli(capsys, "simulate", folder, "--mod", mod, "-n", "1", "--agents",
                           "greedy", "--out", out)
    assert code == 0, err
    entry = _lines(out)[0]["evaluations"][0]
    assert entry["file"] == f"mods/{own.name}"
    assert entry["sha256"] == hashlib.sha256(own.read_bytes()).hexdigest()


def test_the_report_says_which_weights_played_from_the_lines_not_the_file_now(
        folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code, _, err = _cli(capsys, "simulate", folder, "-n", "2", "--agents", "greedy,random",
                        "--out", out)
    assert code == 0, err
    sha = hashlib.sha256((folder / "learned.json").read_bytes()).hexdigest()
    rs = load_ruleset(str(folder))  # the weights are trained again after the games
    (folder / "learned.json").write_text(json.dumps(_weights(rs, {"round": 3.0}, games=99)))
    code, text, err = _cli(capsys, "report", out, "--format", "json")
    assert code == 0, err
    notes = json.loads(text)["notes"]
    assert (f"greedy played with the evaluation learned in learned.json (sha256 {sha[:12]}, "
            "trained on 40 games of 2 players, seed 7).") in notes


def test_a_report_of_lines_that_do_not_say_which_weights_played_says_so(folder, tmp_path,
                                                                        capsys):
    out = tmp_path / "r.jsonl"
    code, _, err = _cli(capsys, "simulate", folder, "-n", "1", "--agents", "greedy",
                        "--out", out)
    assert code == 0, err
    old = [dict(line) for line in _lines(out)]
    for line in old:
        del line["evaluations"]
    out.write_text("".join(json.dumps(line) + "\n" for line in old))
    code, text, err = _cli(capsys, "report", out, "--format", "json")
    assert code == 0, err
    assert any("does not say which evaluation" in n for n in json.loads(text)["notes"])


def test_resume_refuses_when_the_weights_changed_since(folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code, _, err = _cli(capsys, "simulate", folder, "-n", "1", "--agents", "greedy,random",
                        "--out", out)
    assert code == 0, err
    before = out.read_bytes()
    old_sha = hashlib.sha256((folder / "learned.json").read_bytes()).hexdigest()
    rs = load_ruleset(str(folder))
    (folder / "learned.json").write_text(json.dumps(_weights(rs, {"evaluation": 2.0})))
    code, text, err = _cli(capsys, "simulate", folder, "-n", "2", "--agents", "greedy,random",
                           "--resume", out)
    assert code == 2
    assert f"{out}:1: this run cannot carry the file on: the learned weights of seat 1 " \
           "have changed since it was made" in err
    assert old_sha[:12] in err and "Traceback" not in err
    assert out.read_bytes() == before  # left exactly as it was
    # the same weights back: carried on
    (folder / "learned.json").write_text(json.dumps(_weights(rs, {"evaluation": 1.0})))
    code, text, err = _cli(capsys, "simulate", folder, "-n", "2", "--agents", "greedy,random",
                           "--resume", out)
    assert code == 0, err
    assert len(_lines(out)) == 2


def test_resume_refuses_lines_that_do_not_say_which_weights_played(folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code, _, err = _cli(capsys, "simulate", folder, "-n", "1", "--agents", "greedy,random",
                        "--out", out)
    assert code == 0, err
    line = _lines(out)[0]
    del line["evaluations"]
    out.write_text(json.dumps(line) + "\n")
    code, text, err = _cli(capsys, "simulate", folder, "-n", "2", "--agents", "greedy,random",
                           "--resume", out)
    assert code == 2
    assert f"{out}:1:" in err and "do not say which learned weights" in err
    # random agents judge nothing: such a file is carried on as before
    code, text, err = _cli(capsys, "simulate", folder, "-n", "1", "--agents", "random",
                           "--out", tmp_path / "x.jsonl")
    line = _lines(tmp_path / "x.jsonl")[0]
    del line["evaluations"]
    (tmp_path / "x.jsonl").write_text(json.dumps(line) + "\n")
    code, text, err = _cli(capsys, "simulate", folder, "-n", "2", "--agents", "random",
                           "--resume", tmp_path / "x.jsonl")
    assert code == 0, err


BASE = {"seed": 1, "players": 2, "agents": ["greedy", "random"], "scores": [1, 2],
        "winners": [2]}


@pytest.mark.parametrize("evaluations", [
    "learned",
    [None],
    [{"evaluation": "guessed"}, None],
    [{"evaluation": "written", "file": "x"}, None],
    [{"evaluation": "learned", "file": "learned.json", "sha256": "zz" * 32}, None],
    [{"evaluation": "learned", "file": "learned.json", "sha256": "a" * 64, "games": 1.5},
     None],
    [{"evaluation": "learned", "file": 3, "sha256": "a" * 64}, None],
    [{"evaluation": "learned", "file": "x", "sha256": "a" * 64, "code": "rm"}, None],
])
def test_a_malformed_evaluations_field_is_refused_with_its_place(evaluations):
    with pytest.raises(LineProblem) as info:
        check({**BASE, "evaluations": evaluations}, "r.jsonl:4")
    assert str(info.value).startswith("r.jsonl:4: ")
    assert "evaluations" in str(info.value)


def test_a_wellformed_evaluations_field_is_read():
    check({**BASE, "evaluations": [{"evaluation": "learned", "file": "learned.json",
                                    "sha256": "a" * 64, "players": 2, "games": 3,
                                    "seed": 1}, None]}, "r.jsonl:1")


def test_a_file_naming_more_weights_than_the_limit_is_refused_at_the_line_that_passes_it():
    from rulebook_games.sim.results_file import LIMITS, Census
    census = Census(dict(LIMITS, evaluations=2))
    for n in range(1, 4):
        line = {**BASE, "evaluations": [{"evaluation": "learned", "file": "learned.json",
                                         "sha256": f"{n:064x}"}, None]}
        check(line, f"r.jsonl:{n}")
        if n < 3:
            census.add(line, f"r.jsonl:{n}")
            continue
        with pytest.raises(LineProblem) as info:
            census.add(line, f"r.jsonl:{n}")
        assert str(info.value).startswith("r.jsonl:3: by this line the file names 3 "
                                          "different evaluations")
