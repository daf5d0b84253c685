"""Every built-in agent keeps the hooks the engine calls on it.

The engine tells an agent of a question taken for it (``Agent.taken``), of an
answer refused (``refused``) and of an action rolled back (``action_failed``),
while the game keeps a log, as ``rulebook play`` does. An agent that stored
something under one of those names could not be told: a Lantern Row game of two
ismcts seats (seed 7), played with its log, stopped at a favour taken for a
seat with "'tuple' object is not callable", where a game without the log (the
benchmarks' and the tests') played on.
"""

from __future__ import annotations

import pytest

from rulebook_games.agents.base import Agent
from rulebook_games.cli.loading import load_named
from rulebook_games.play.session import build_game, run

HOOKS = ("decide", "refused", "action_failed", "taken")


@pytest.fixture(scope="module")
def lantern_row():
    return load_named("lantern_row", ())


def _hooks_callable(agent) -> None:
    for name in HOOKS:
        assert callable(getattr(agent, name)), f"{type(agent).__name__}.{name}"


@pytest.mark.parametrize("kind", ["random", "first", "last", "greedy", "trained", "ismcts"])
def test_an_agent_plays_a_logged_game_to_its_end_and_keeps_its_hooks(lantern_row, kind):
    game = build_game(lantern_row, 2, 7, [kind, kind], ())
    game.keep_log = True  # (as 'rulebook play' keeps it: the agents are told what is taken)
    told = []
    for seat, agent in enumerate(game.agents):
        assert isinstance(agent, Agent)
        inner = agent.taken
        agent.taken = lambda decision, g, inner=inner, seat=seat: (
            told.append(seat), inner(decision, g))
    result = run(game)
    assert result.scores and result.winners
    assert told  # a question was taken for a seat and its agent was told
    for agent in game.agents:
        del agent.taken  # (the wrapper above, set on the instance)
        _hooks_callable(agent)
