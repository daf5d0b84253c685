"""Helpers for tests that play a game up to a position and stop there.

``Replay`` answers a record's decisions in order and raises ``Stop(decision,
game)`` at the first decision after them; ``settings_played`` seats an agent
spec for one decision and hands back the agent, so a test can read what it
searched with (its weights file's settings or the spec's own).
"""

from __future__ import annotations

import pytest

from rulebook_games.agents.base import Agent
from rulebook_games.agents.registry import make_agent
from rulebook_games.play.session import build_game, run


class Stop(Exception):
    """Raised where a test's game stops: ``args`` are the decision and the game."""


class Replay(Agent):
    name = "replay"
    wants_view = False

    def __init__(self, answers):
        self.answers = list(answers)

    def decide(self, decision, view, game):
        if not self.answers:
            raise Stop(decision, game)
        return self.answers.pop(0)


def agent_after_one_decision(rs, spec: str):
    """The agent of ``spec`` once it has made one decision of a 2-player game (seed 1)."""
    agent = make_agent(spec, 1)

    class Once(Agent):
        name = "once"
        wants_view = False
        searches_rules = True

        def decide(self, decision, view, game):
            agent.decide(decision, view, game)
            raise Stop

    game = build_game(rs, 2, 1, [spec, spec], live_agents=[Once(), Once()])
    with pytest.raises(Stop):
        run(game)
    return agent
