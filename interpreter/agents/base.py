"""The agents that need neither lookahead nor a terminal: the interface, random, a script.

:class:`Agent` is what every agent implements: ``decide(decision, view,
game)`` returns an option index (or a number in the range). The random agent,
the first-answer and last-answer agents and the scripted agent (answers from
a record or a scenario) live here, with
the exceptions that stop play at a decision nobody is to answer. The greedy
agent's lookahead and the terminal agent build on these; they are in
:mod:`.lookahead` and :mod:`.agents`, which import this module and never
the other way round.
"""

from __future__ import annotations

import random

from ..engine.decisions import Decision


class Agent:
    name = "agent"
    scripted = False

    def decide(self, decision: Decision, view: dict, game) -> int:  # pragma: no cover
        raise NotImplementedError

    def refused(self, decision: Decision, reason: str) -> None:
        """The last answer was not acceptable (only people and scripts get this)."""

    def action_failed(self, label: str, reason: str) -> None:
        """An action could not be completed and was rolled back."""

    def taken(self, decision: Decision, game) -> None:
        """The engine took the only answer of ``decision`` for this seat (not asked).

        Called when it happens, while the game keeps a log (a person's game); the
        answer is the decision's one option, or its range's one number. Not called
        for a phase whose menu can only ever offer one action: the action heads its
        own lines in the log, and nothing was chosen."""


class RandomAgent(Agent):
    name = "random"
    wants_view = False  # it does not look

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def decide(self, decision, view, game):
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


class FirstAgent(Agent):
    """Always the first option, or the lowest number of a range.

    It looks at nothing and draws nothing, so it plays the same game every
    time: the plainest way to check that a ruleset's games reach their end
    (the engine never offers again at a position what it refused there)."""

    name = "first"
    wants_view = False

    def __init__(self, seed: int = 0):
        pass  # (every agent is built with its seat's seed; this one needs none)

    def decide(self, decision, view, game):
        return decision.low if decision.is_range else 0


class LastAgent(FirstAgent):
    """Always the last option, or the highest number of a range.

    Options end with declining ('none', 'no', ending the turn, passing), so it
    does as little as it may: a ruleset's games must end even then."""

    name = "last"

    def decide(self, decision, view, game):
        return decision.high if decision.is_range else len(decision.options) - 1


class ScriptedAgent(Agent):
    """Answers from a list (a record or a scenario), shared by all seats."""

    name = "script"
    scripted = True
    wants_view = False

    def __init__(self, answers: list[int], fallback: Agent | None = None):
        self.answers = answers
        self.position = 0
        self.fallback = fallback

    def decide(self, decision, view, game):
        if self.position >= len(self.answers):
            if self.fallback is not None:
                return self.fallback.decide(decision, view, game)
            raise ScriptExhausted(decision)
        answer = self.answers[self.position]
        self.position += 1
        return answer


class StoppedAt(Exception):
    """Play stopped at a decision nobody is to answer here (kept in ``decision``)."""

    def __init__(self, decision: Decision):
        super().__init__(decision.prompt)
        self.decision = decision


class ScriptExhausted(StoppedAt):
    """A script of answers ran out."""
