"""Agents: who answers a decision when no person does.

Every agent has ``decide(decision, view, game)`` (:mod:`.base`, with the
random, first-answer, last-answer and scripted agents); :mod:`.greedy`
tries each action one ply ahead, :mod:`.ismcts` searches information sets,
both on copies of the game dealt again from what the seat may see
(:mod:`.lookahead`). :mod:`.specs` reads an agent's spec (``greedy``,
``ismcts:iterations=400``, ``MODULE:CLASS``), :mod:`.plugin` seats a user's
own agent, and :mod:`.registry` builds any of them by name.

May import: the base modules, ``load``, ``lang`` and ``engine``.
"""

from .base import Agent, FirstAgent, LastAgent, RandomAgent, ScriptedAgent, ScriptExhausted, StoppedAt
from .greedy import GreedyAgent
from .ismcts import ISMCTSAgent
from .registry import AGENTS, agent_seed, make_agent

__all__ = ["AGENTS", "Agent", "FirstAgent", "GreedyAgent", "ISMCTSAgent", "LastAgent",
           "RandomAgent", "ScriptExhausted", "ScriptedAgent", "StoppedAt", "agent_seed",
           "make_agent"]
