"""An agent's answer is checked before it is taken (engine/asking.py ``_ask``): only a
whole number among the decision's answers is; anything else (a bool, a number out of
range, text) is handed back to the agent with the reason, as ``Decision.check`` words it,
and the agent is asked again."""

from __future__ import annotations

import random

from rulebook_games import load_ruleset
from rulebook_games.agents.base import Agent
from rulebook_games.play.session import build_game, run


class Wayward(Agent):
    """Answers each question first with True, then one past the last answer, then text,
    then a legal answer at random; keeps the reasons it was given."""

    name = "wayward"
    wants_view = False

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.tries = 0
        self.reasons = []

    def decide(self, decision, view, game):
        self.tries += 1
        bad = [True, decision.count() + (decision.low if decision.is_range else 0), "1"]
        if self.tries <= len(bad):
            return bad[self.tries - 1]
        self.tries = 0
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(decision.count())

    def refused(self, decision, problem):
        self.reasons.append(problem)


def test_only_a_whole_number_among_the_answers_is_taken():
    rs = load_ruleset("legacy_gears_of_time")
    g = build_game(rs, 3, 2, ["random"] * 3)
    g.agents = [Wayward(i) for i in range(3)]
    g.keep_log = False
    result = run(g, check=False)
    assert result.finished
    reasons = [r for a in g.agents for r in a.reasons]
    assert len(reasons) == 3 * result.decisions  # each question: three refused, then one
    assert all(isinstance(answer, int) for answer in g.record)
    assert any(r.startswith("the answer must be a number") for r in reasons)
    assert any(r.startswith("choose an option from 1 to") for r in reasons)
    assert any(r.startswith("choose a number from") and r.endswith("is outside")
               for r in reasons)
