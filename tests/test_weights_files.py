"""Weights people can trust (issue 29): a weights file is reproducible from its command and
seed, byte for byte; the shipped files were trained on the shipped rules and docs/agents.md
gives the command that made each; a file may hold a fit per player count.

Expectations come from the issue ("the trained weights are reproducible from the command
and a seed") and its part: `rulebook train NAME -n N --seed S --out A` twice gives
byte-identical files; each shipped learned.json's ruleset_hash matches the shipped ruleset
(else a person is told, in words, that the weights predate the change); agents at another
player count than the one trained use their own count's fit, else the nearest one's.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.learned import LearnedValue, check_learned
from rulebook_games.errors import RulebookError
from rulebook_games.load.learned import read_learned, train_command

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/learned.json"))


def _cli(capsys, *args):
    from rulebook_games.cli import main
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


def _copy(tmp_path, name="lantern_row") -> Path:
    dest = tmp_path / name
    shutil.copytree(ROOT / "rulesets" / name, dest)
    (dest / "learned.json").unlink(missing_ok=True)
    return dest


# ---------------------------------------------------------------- reproducible


@pytest.mark.parametrize("name, more", [
    ("lantern_row", ()), ("lantern_row", ("--positions", "turn-ends")),
    ("lantern_row", ("--positions", "turn-ends", "--agent", "ismcts")),
    ("lantern_row", ("--prior", "evaluation")),  # (Lantern Row has a hand-written evaluation)
    ("lantern_row", ("--card-prior", "hand:coin")),
    ("lantern_row", ("--card-prior", "hand:coin", "--card-uses", "", "--card-requirements",
                     ""))])
def test_the_same_command_and_seed_train_the_same_file_byte_for_byte(tmp_path, capsys, name,
                                                                    more):
    folder = _copy(tmp_path, name)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for out in (a, b):
        code, text, err = _cli(capsys, "train", folder, "-n", "4", "--seed", "5",
                               *[w for w in more if w], "--out", out)
        assert code == 0, err
    assert a.read_bytes() == b.read_bytes()
    # and the command the file's own fields give trains it again, byte for byte
    data = json.loads(a.read_text())
    options = dict(zip(more[::2], more[1::2]))
    assert data.get("positions", "decisions") == options.get("--positions", "decisions")
    assert data.get("prior", "zero") == options.get("--prior", "zero")
    assert ("card_prior" in data) == ("--card-prior" in options)
    for flag in ("uses", "requirements"):  # (the flags' places in `more` hold "")
        assert bool(data.get("card_prior", {}).get(flag)) == (f"--card-{flag}" in options)
    # the rounds after the first are played by the agent given (greedy by default)
    assert data["agent"].endswith(" games of ismcts" if "ismcts" in more else " games of greedy")
    words = shlex.split(train_command(data))
    assert words[:3] == ["rulebook", "train", name]
    c = tmp_path / "c.json"
    code, text, err = _cli(capsys, "train", folder, *words[3:], "--out", c)
    assert code == 0, err
    assert c.read_bytes() == a.read_bytes()
    # another seed, other games
    code, text, err = _cli(capsys, "train", folder, "-n", "4", "--seed", "6", "--out", c)
    assert code == 0, err
    assert c.read_bytes() != a.read_bytes()


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_weights_file_was_trained_on_the_shipped_rules(name):
    data = json.loads((ROOT / "rulesets" / name / "learned.json").read_text())
    rs = load_ruleset(name)
    assert data["ruleset"] == rs.id
    assert data["ruleset_hash"] == rs.content_hash, (
        f"rulesets/{name}/learned.json was trained on other rules than the ruleset's now "
        f"(a rule file changed since): train it again with '{train_command(data)}' (see "
        "docs/agents.md, How the shipped files were made)")
    assert not check_learned(rs)  # and nothing to warn a person of


@pytest.mark.parametrize("name", SHIPPED)
def test_docs_give_the_command_that_made_each_shipped_file(name):
    data = json.loads((ROOT / "rulesets" / name / "learned.json").read_text())
    assert f"`{train_command(data)}`" in (ROOT / "docs" / "agents.md").read_text()


def test_a_weights_file_that_predates_a_rule_change_is_said_in_words(tmp_path, capsys):
    folder = _copy(tmp_path)
    shutil.copy(ROOT / "rulesets" / "lantern_row" / "learned.json", folder / "learned.json")
    rs = load_ruleset(str(folder))
    assert not check_learned(rs)
    card = sorted((folder / "cards").glob("*.yaml"))[0]  # a person edits a card
    card.write_text(card.read_text() + "\n# a house tweak\n")
    text = card.read_text()
    card.write_text(text.replace("cost: 1", "cost: 2", 1) if "cost: 1" in text else
                    text + "\n")
    rs = load_ruleset(str(folder))
    if rs.content_hash == json.loads((folder / "learned.json").read_text())["ruleset_hash"]:
        pytest.skip("the edit did not change the rules' hash")
    code, text, err = _cli(capsys, "simulate", folder, "-n", "1", "--agents", "greedy")
    assert code == 0, err
    assert "note: the weights in" in err and "predate a change to Lantern Row's rule files" in err
    assert "rulebook train lantern_row -n 600 --rounds 3 --seed 1 -p 2 --positions turn-ends" \
        in err


# ---------------------------------------------------------------- a fit per player count


def _fit(players, weight, **extra):
    return {"players": players, "games": 10 * players, "seed": 3, "agent": "test",
            "rounds": 5, "intercept": 0.0, "features": ["round"], "weights": [weight],
            "late_weights": [0.0], "mean": [0.0], "scale": [1.0], **extra}


def _file(rs, *fits) -> dict:
    main, *more = fits
    data = {"format": 1, "ruleset": rs.id, "ruleset_hash": rs.content_hash, "mods": [],
            "target": "margin", **main}
    if more:
        data["fits"] = list(more)
    return data


def test_a_game_uses_its_player_counts_fit_else_the_nearest(tmp_path):
    rs = load_ruleset("legacy_gears_of_time")
    path = tmp_path / "w.json"
    path.write_text(json.dumps(_file(rs, _fit(2, 1.0), _fit(4, 4.0))))
    value = LearnedValue(read_learned(path, rs), rs)
    assert [value.fit_for(n).pairs["round"][0] for n in (1, 2, 3, 4, 5)] == \
        [1.0, 1.0, 1.0, 4.0, 4.0]  # 3 is as near to 2 as to 4: the fewer players
    assert value.note_for(2) is None and value.note_for(4) is None
    assert "at 3 the agents use the values learned at 2" in value.note_for(3)
    identity = value.identity(4)
    assert (identity["players"], identity["games"], identity["seed"]) == (4, 40, 3)


def test_a_game_plays_with_its_own_counts_fit(tmp_path):
    from rulebook_games.agents.lookahead import evaluate
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.play.session import build_game
    folder = _copy(tmp_path, "legacy_gears_of_time")
    rs = load_ruleset(str(folder))
    (folder / "learned.json").write_text(json.dumps(_file(rs, _fit(2, 1.0, intercept=2.0),
                                                          _fit(3, 1.0, intercept=3.0))))
    rs = load_ruleset(str(folder))
    for n in (2, 3, 4):
        game = build_game(rs, n, 1, ["random"] * n, ())
        values = evaluate(FlowRunner(game), range(n), "learned")
        assert values == [game.state.round + min(n, 3)] * n


@pytest.mark.parametrize("change, key, says", [
    (lambda d: d["fits"][0].update(weights=[1.0, 2.0]), '"weights"',
     "'weights' has 2 numbers for 1"),
    (lambda d: d["fits"][0].update(players=2), '"players"', "a fit for 2 players is there twice"),
    (lambda d: d["fits"][0].update(code="import os"), '"code"', "code"),
])
def test_a_bad_fit_is_refused_at_its_place(tmp_path, change, key, says):
    rs = load_ruleset("legacy_gears_of_time")
    data = _file(rs, _fit(2, 1.0), _fit(3, 1.0))
    change(data)
    path = tmp_path / "w.json"
    text = json.dumps(data, indent=1)
    path.write_text(text)
    # the place of the fit's key: its last occurrence (the fit comes after the top level)
    line = text[:text.rindex(key)].count("\n") + 1
    with pytest.raises(RulebookError) as info:
        read_learned(path, rs)
    shown = str(info.value)
    assert f"{path}:{line}:" in shown and says in shown


def test_training_several_player_counts_writes_a_fit_for_each(tmp_path, capsys):
    folder = _copy(tmp_path, "legacy_gears_of_time")
    both, alone = tmp_path / "both.json", tmp_path / "alone.json"
    code, text, err = _cli(capsys, "train", folder, "-n", "2", "--rounds", "1", "-p", "2,3",
                           "--seed", "4", "--out", both)
    assert code == 0, err
    data = json.loads(both.read_text())
    assert data["players"] == 2 and [f["players"] for f in data["fits"]] == [3]
    assert "(3 players)" in text
    # the 2-player fit is the one a 2-player training alone makes
    code, text, err = _cli(capsys, "train", folder, "-n", "2", "--rounds", "1", "-p", "2",
                           "--seed", "4", "--out", alone)
    assert code == 0, err
    one = json.loads(alone.read_text())
    assert {k: v for k, v in data.items() if k != "fits"} == one
    assert train_command(data).endswith("-p 2,3")
    code, text, err = _cli(capsys, "train", folder, "-n", "2", "-p", "2,2", "--out", alone)
    assert code == 2 and "2 players is given twice" in err
    code, text, err = _cli(capsys, "train", folder, "-n", "2", "-p", "2,9", "--out", alone)
    assert code == 2 and "is for 2–4 players, not 9" in err
