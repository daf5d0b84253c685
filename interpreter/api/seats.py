"""Who plays each seat: the ``agents`` argument of the API read into agents.

``agents`` is a string (one spec for every seat, or one a seat separated by
commas, as ``--agents``), a list by seat, or a dict of seat (from 1) to
agent. Each agent is ``"me"`` (or ``None``, or ``"human"``): the caller
answers that seat; a spec (``greedy``, ``ismcts:iterations=400``,
``MODULE:CLASS``…, checked as ``--agents`` checks it); or an object: an
engine :class:`~rulebook_games.agents.base.Agent` as it is, or anything with
``decide(decision, view)``, seated as a user's agent is (it sees its seat's
view only, and a failure stops the game with an error naming it).
:class:`Seat` is one seat's player: its agent (None for the caller), the
name the API shows and the spec its record keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..agents.base import Agent
from ..agents.registry import agent_seed, make_agent

ME = "me"
_YOU = (None, ME, "human")  # the caller; a record calls that seat 'human', as the terminal's
KEEP = object()  # a seat a dict does not name, handed over by Game.play: it stays as it is


@dataclass
class Seat:
    agent: Agent | None  # None: the caller answers
    shown: str  # what Game.agents says: "me", the spec, or the object's name
    kind: str  # what the record says: "human", the spec, or the object's name

    @property
    def yours(self) -> bool:
        return self.agent is None


def listed(agents, players: int | None, unnamed=ME) -> list:
    """The agent of each seat, as given (one entry a seat); a dict's others are ``unnamed``."""
    if isinstance(agents, str):
        parts = [p.strip() for p in agents.split(",")]
        if any(not p for p in parts):
            raise ValueError(f"agents: {agents!r:.60} has an empty agent (agents are "
                             "separated by commas)")
        agents = parts
    if isinstance(agents, dict):
        if players is None:
            raise ValueError("agents: a dict of seats needs the player count (players=)")
        out = [unnamed] * players
        for seat, agent in agents.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= players:
                raise ValueError(f"agents: there is no seat {seat!r:.20} in a game of "
                                 f"{players} players (seats are 1 to {players})")
            out[seat - 1] = agent
        return out
    if agents is None or not isinstance(agents, (list, tuple)):
        agents = [agents]
    agents = list(agents)
    if players is None:
        return agents
    if len(agents) == 1:
        return agents * players
    if len(agents) != players:
        raise ValueError(f"agents lists {len(agents)} agents for {players} players")
    return agents


def count(agents) -> int | None:
    """The player count ``agents`` implies: one agent a seat listed, else None."""
    if isinstance(agents, str):
        agents = agents.split(",")
    if isinstance(agents, (list, tuple)) and len(agents) > 1:
        return len(agents)
    return None


def is_yours(agent) -> bool:
    """Whether ``agent`` says the caller answers the seat."""
    return agent is None or isinstance(agent, str) and agent.strip() in _YOU


def seated(agent, seed: int, seat: int, yours_allowed: bool = True) -> Seat:
    """One seat's player (``seat`` from 0), its agent built with the seat's own seed."""
    if is_yours(agent):
        if not yours_allowed:
            raise ValueError(f"agents: seat {seat + 1} is yours ({agent!r}): here every "
                             "seat is played by an agent")
        return Seat(None, ME, "human")
    if isinstance(agent, str):
        from ..agents.specs import SpecError
        text = agent.strip()
        try:
            built = make_agent(text, agent_seed(seed, seat))
        except SpecError as exc:
            raise ValueError(f"agents: {exc}") from None
        return Seat(built, text, text)
    if isinstance(agent, Agent):
        name = _name_of(agent)
        return Seat(agent, name, name)
    if callable(getattr(agent, "decide", None)):
        from ..agents.plugin import PluginAgent
        name = _name_of(agent)
        return Seat(PluginAgent(name, agent), name, name)
    raise ValueError(f"agents: {agent!r:.60} is not an agent: give 'me', a spec such as "
                     "'greedy', or an object with a decide(decision, view) method")


def _name_of(agent) -> str:
    """An object's name as a record keeps it: its own name if that is a spec, else
    MODULE:CLASS (a record never imports it: resuming asks who plays the seat)."""
    from ..agents.specs import check_recorded
    name = getattr(agent, "name", None)
    if isinstance(name, str) and check_recorded(name) is None:
        return name
    cls = type(agent)
    guess = f"{cls.__module__}:{cls.__name__}"
    return guess if check_recorded(guess) is None else "python:Agent"
