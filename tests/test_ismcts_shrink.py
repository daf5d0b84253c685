"""ismcts's shrink: the best of barely tried options is not taken at its face value.

Issue 29's Terraforming Mars playtests: the agent sold patents it had just bought and
took plants from itself with Asteroid. Resumed at those decisions, its trees showed why:
with ``backup=max`` an action is worth its best inner answer, and the best of four
answers tried twice each (how many cards to sell, how many plants to remove) came out
above an action tried eight times with a better mean. The expectation, written from that
reading: with ``shrink=K`` an option's worth is drawn toward its node's mean as if it had
``K`` more tries at the mean, so the well-tried action is worth more; without it the
search behaves as before. The setting can come from the ruleset's weights file
(``"search": {"shrink": K}``, written by ``rulebook train --shrink K``); a spec's own
value wins, and a file without it leaves 0.
"""

from __future__ import annotations

import json

import pytest

from rulebook_games.agents.ismcts import ISMCTSAgent, Node, Search
from rulebook_games.agents.specs import SpecError
from rulebook_games.agents.registry import make_agent
from rulebook_games.errors import RulebookError
from rulebook_games.load.learned import read_learned, train_command

from learned_helpers import copy_ruleset, ruleset_with_search
from replay_helpers import agent_after_one_decision


def _worth_of_an_action_with_many_answers(shrink: float) -> tuple[float, float]:
    """(the worth of an action whose four inner answers were tried twice each, the
    worth of one tried eight times), for seat 0, after backing up their iterations."""
    agent = ISMCTSAgent(1, shrink=shrink)
    search = Search(agent, 2)
    many, once = Node(), Node()
    answers = [Node() for _ in range(4)]
    rewards = {0: (1.0, 3.0), 1: (0.5, 3.5), 2: (3.0, 1.0), 3: (2.0, 6.0)}  # means 2, 2, 2, 4
    for i, pair in rewards.items():
        many.children[f"0|number|{i}"] = answers[i]
        for r in pair:
            search.backup([(0, many, "0|action|sell"), (0, answers[i], f"sell>{i}")], [r, -r])
    for _ in range(8):
        search.backup([(0, once, "0|action|end")], [3.0, -3.0])
    return many.value, once.value


def test_without_shrink_the_luckiest_inner_answer_makes_the_action_look_best():
    many, once = _worth_of_an_action_with_many_answers(0)
    assert many == pytest.approx(4.0) and once == pytest.approx(3.0)
    assert many > once


def test_with_shrink_the_action_tried_often_at_a_better_mean_is_worth_more():
    many, once = _worth_of_an_action_with_many_answers(10)
    # the best answer, 4 from 2 tries, drawn toward the node's mean 2.5 by 10 tries
    assert many == pytest.approx((2 * 4.0 + 10 * 2.5) / 12)
    assert once > many


def test_the_spec_takes_shrink_and_checks_it():
    assert make_agent("ismcts:shrink=10", 1).shrink == 10
    assert make_agent("ismcts", 1).shrink is None  # the weights file's, else 0
    with pytest.raises(SpecError, match="shrink"):
        make_agent("ismcts:shrink=-1", 1)


def _shrink_played(rs, spec: str) -> float:
    """The shrink the agent of ``spec`` searches with, once it has made a decision."""
    return agent_after_one_decision(rs, spec).shrink


def test_the_weights_file_gives_ismcts_its_shrink(tmp_path):
    rs = ruleset_with_search(tmp_path, {"shrink": 10})
    assert _shrink_played(rs, "ismcts") == 10
    assert _shrink_played(rs, "ismcts:shrink=3") == 3  # the spec's own value wins
    assert _shrink_played(rs, "ismcts:eval=written") == 0  # no weights file played with


def test_a_file_without_it_leaves_the_search_as_it_was(tmp_path):
    rs = ruleset_with_search(tmp_path)
    assert _shrink_played(rs, "ismcts") == 0


def test_the_file_field_is_checked_and_given_in_the_command(tmp_path):
    rs = ruleset_with_search(tmp_path, {"shrink": 10.0})
    data = read_learned(rs.root / "learned.json", rs).data
    assert train_command(data).endswith("--shrink 10")
    bad = ruleset_with_search(tmp_path / "bad", {"shrunk": 10})
    with pytest.raises(RulebookError, match="unknown key 'shrunk' in search"):
        read_learned(bad.root / "learned.json", bad)


def test_train_with_shrink_writes_the_same_weights_and_the_setting(tmp_path, capsys):
    """`rulebook train … --shrink K` trains the same weights as without it (the games are
    greedy's) and adds the setting; the command the file's fields give makes it again."""
    import shlex
    from rulebook_games.cli import main
    folder = copy_ruleset(tmp_path)

    def train(*words) -> bytes:
        out = tmp_path / "w.json"
        with pytest.raises(SystemExit) as info:
            main(["train", str(folder), *words, "--out", str(out)])
        assert info.value.code == 0, capsys.readouterr().err
        return out.read_bytes()
    plain = json.loads(train("-n", "4", "--seed", "5"))
    shrunk = train("-n", "4", "--seed", "5", "--shrink", "10")
    data = json.loads(shrunk)
    assert data.pop("search") == {"shrink": 10}
    assert data == plain
    words = shlex.split(train_command(json.loads(shrunk)))
    assert train(*words[3:]) == shrunk
