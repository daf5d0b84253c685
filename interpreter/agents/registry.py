"""Every agent by name, and the seed each seat's agent plays with.

:func:`make_agent` builds an agent from its spec (``greedy``,
``ismcts:iterations=400``, ``MODULE:CLASS``…, see :mod:`.agent_specs`); the
names a caller adds (a person at a terminal, by the play room) are given to it.
"""

from __future__ import annotations

from .base import Agent, FirstAgent, LastAgent, RandomAgent
from .greedy import GreedyAgent, TrainedAgent
from .ismcts import ISMCTSAgent

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "ismcts": ISMCTSAgent,
          "first": FirstAgent, "last": LastAgent, "trained": TrainedAgent}


def make_agent(kind: str, seed: int, more: dict | None = None) -> Agent:
    """The agent a spec names (``greedy``, ``ismcts:iterations=400``, ``MODULE:CLASS``…).

    Specs and their checks are in :mod:`.agent_specs`; a bad one is a ValueError
    (a :class:`~.agent_specs.SpecError`) with a one-line message."""
    from .specs import build
    return build(kind, seed, {**(more or {}), **AGENTS})


def agent_seed(game_seed: int, seat: int) -> int:
    return game_seed * 1_000_003 + seat * 7919 + 17
