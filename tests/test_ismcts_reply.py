"""ismcts's reply: the other seats answer past the searched turn by the value, one action
ahead (issue 29, Legacy: the search never saw the other seat take a lead back).

Expectations written from the issue: with ``reply=greedy`` (or ``written``) the copy is
played on through the next turn, and each action decision of another seat there is
answered by trying its options on copies of that world and taking the one its evaluation
likes best for that seat; without it (the default, and ``reply=playout``) the search is
what it was, so no other ruleset's games change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import ismcts as ismcts_module
from rulebook_games.agents.registry import make_agent
from rulebook_games.agents.specs import SpecError
from rulebook_games.play.session import build_game, run

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legacy():
    return load_ruleset(ROOT / "rulesets" / "legacy_gears_of_time")


def _hash(rs, spec, seed=7):
    game = build_game(rs, 2, seed, [spec, "random"])
    game.keep_log = False
    return run(game).final_hash


def test_the_spec_takes_reply_and_checks_it():
    assert make_agent("ismcts:reply=greedy", 1).reply == "greedy"
    assert make_agent("ismcts:reply=written:reply_tries=2", 1).reply_tries == 2
    assert make_agent("ismcts", 1).reply is None  # the weights file's, else playout
    with pytest.raises(SpecError, match="reply"):
        make_agent("ismcts:reply=best", 1)


def test_without_reply_the_games_are_as_they_were(legacy):
    base = _hash(legacy, "ismcts:iterations=4:depth=1")
    assert _hash(legacy, "ismcts:iterations=4:depth=1:reply=playout") == base
    assert _hash(legacy, "ismcts:iterations=4:depth=1:reply=written") != base


def test_the_other_seat_answers_each_action_by_its_best_try(legacy, monkeypatch):
    seen = []
    real = ismcts_module.Search.reply

    def reply(self, decision, world, plan):
        answer = real(self, decision, world, plan)
        seen.append((decision.player, self.seat, decision.kind))
        return answer
    monkeypatch.setattr(ismcts_module.Search, "reply", reply)
    game = build_game(legacy, 2, 3, ["ismcts:iterations=3:depth=0:reply=written", "random"])
    game.keep_log = False
    run(game)
    actions = [s for s in seen if s[2] == "action"]
    assert actions, "the next turn was played on"
    assert all(player != seat for player, seat, _ in seen)  # only the other seat replies
